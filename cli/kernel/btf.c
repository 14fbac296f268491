#include "kernel/btf.h"
#include <dlfcn.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include "base/dynlib.h"
#include "base/util.h"
#include "base/banned.h"

/* The stable parts of libbpf's and the kernel's BTF ABI (linux/btf.h). */
struct btf;
struct btf_type_hdr {
	uint32_t name_off, info;
	uint32_t size;
};
#define BTF_KIND_STRUCT 4
#define BTF_KIND_UNION 5

static struct {
	void *lib;
	struct btf *btf;
	const char *failed;
	void (*btf_free)(struct btf *);
	int (*find_by_name_kind)(const struct btf *, const char *, uint32_t);
	const struct btf_type_hdr *(*type_by_id)(const struct btf *, uint32_t);
} L;

static bool load(void)
{
	if (L.btf)
		return true;
	if (L.failed)
		return false;
	static const char *const files[] = { "libbpf.so.1", NULL };
	static const struct dynlib libbpf = { "libbpf", "libbpf1", files, 0 };
	struct btf *(*load_vmlinux)(void);
	const struct dynlib_sym syms[] = {
		DYNLIB_SYM("btf__load_vmlinux_btf", load_vmlinux), DYNLIB_SYM("btf__free", L.btf_free),
		DYNLIB_SYM("btf__find_by_name_kind", L.find_by_name_kind), DYNLIB_SYM("btf__type_by_id", L.type_by_id),
	};
	L.lib = dynlib_open(&libbpf, NULL);
	if (!L.lib || dynlib_resolve(&libbpf, L.lib, syms, ARRAY_SIZE(syms))) {
		static char reason[512]; /* dynlib_error()'s words, kept past another library's failure */
		snprintf(reason, sizeof(reason), "%s", dynlib_error());
		L.failed = reason;
		return false;
	}
	struct btf *b = load_vmlinux();
	if (!b || (uintptr_t)b > (uintptr_t)-4096) {
		L.failed = "the kernel exports no BTF (/sys/kernel/btf/vmlinux)";
		return false;
	}
	L.btf = b;
	return true;
}

unsigned btf_struct_size(const char *name, const char **why)
{
	if (!load()) {
		if (why)
			*why = L.failed;
		return 0;
	}
	int id = L.find_by_name_kind(L.btf, name, BTF_KIND_STRUCT);
	if (id <= 0)
		id = L.find_by_name_kind(L.btf, name, BTF_KIND_UNION);
	const struct btf_type_hdr *t = id > 0 ? L.type_by_id(L.btf, (uint32_t)id) : NULL;
	if (!t) {
		if (why)
			*why = "the kernel's BTF has no such struct";
		return 0;
	}
	return t->size;
}

void btf_release(void)
{
	if (L.btf)
		L.btf_free(L.btf);
	if (L.lib)
		dlclose(L.lib);
	L.btf = NULL;
	L.lib = NULL;
	L.failed = NULL;
}
