#include "kernel/btf.h"
#include <dlfcn.h>
#include <stdint.h>
#include <stddef.h>
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
	L.lib = dlopen("libbpf.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!L.lib) {
		L.failed = "libbpf (libbpf1) is not installed";
		return false;
	}
	struct btf *(*load_vmlinux)(void) = (struct btf * (*)(void)) dlsym(L.lib, "btf__load_vmlinux_btf");
	L.btf_free = (void (*)(struct btf *))dlsym(L.lib, "btf__free");
	L.find_by_name_kind = (int (*)(const struct btf *, const char *, uint32_t))dlsym(L.lib, "btf__find_by_name_kind");
	L.type_by_id = (const struct btf_type_hdr *(*)(const struct btf *, uint32_t))dlsym(L.lib, "btf__type_by_id");
	if (!load_vmlinux || !L.btf_free || !L.find_by_name_kind || !L.type_by_id) {
		L.failed = "this libbpf lacks the BTF functions";
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
