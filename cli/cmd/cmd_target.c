/* target: where 'call' goes: the running kernel, a simulated one, or a real one in qemu. */
#include <stdlib.h>
#include <string.h>
#include "cmd/commands.h"
#include "kernel/explain.h"
#include "kernel/kimage.h"
#include "kernel/vm.h"
#include "model/kver.h"
#include "base/banned.h"

#if defined(__wasm__)
/* the browser's build (make wasm): no kernel to call and no VMs to boot */
#define WASM_NO_KERNEL "live calls and VMs need the native program (this is xsc built for WebAssembly); 'target sim VERSION' is the target here"
#endif

static void say_target(struct session *s)
{
	char kv[16];
	if (s->vm_version) {
		struct vm_guest *g = NULL;
		for (size_t i = 0; i < ARRAY_SIZE(s->guests) && !g; i++)
			if (s->guests[i] && !strcmp(s->guest_version[i], s->vm_version) && vm_alive(s->guests[i]))
				g = s->guests[i];
		if (g)
			out_text(&s->out, "target: %s, %s\n", vm_target(g), vm_how(g));
		else
			out_text(&s->out, "target: a real %s kernel in qemu (it boots on the first call)\n", s->vm_version);
	} else if (s->sim) {
		out_text(&s->out, "target: a simulated %s kernel%s\n", kver_str(s->sim_kv, kv),
			 s->check_fields ? " implementing CHECK_FIELDS" : "");
	} else {
#if defined(__wasm__)
		out_text(&s->out, "target: none yet: %s\n", WASM_NO_KERNEL);
#else
		out_text(&s->out, "target: the running kernel (%s)\n", kver_str(running_kernel(), kv));
#endif
	}
}

/* target vm VERSION: a kernel xsc knows and has fetched; the guest boots on the first call. */
static int target_vm(struct session *s, const char *version)
{
	const struct catalog *cat = session_catalog(s);
	struct kimages ks;
	if (!cat)
		return -1;
	int r = kimages_load(cat->dir, &ks);
	struct kimage *k = r ? NULL : kimages_find(&ks, version);
	const char *bad = !k ? NULL : !k->present ? "it is not fetched" : kimage_check(k);
	if (r) {
		/* kimages_load has said why */
	} else if (!k) {
		r = err("target vm: xsc knows no kernel '%s' ('kernels' lists them)", version);
	} else if (bad) {
		r = err("target vm %s: %s; 'kernels fetch %s' downloads it", version, bad, k->version);
	} else {
		free(s->vm_version);
		s->vm_version = xstrdup(k->version);
		s->sim = false;
		s->check_fields = false;
	}
	kimages_release(&ks);
	return r;
}

static int target_live(struct session *s, int argc, char **argv)
{
	(void)argv;
	if (argc != 2)
		return cmd_usage(s);
	s->sim = false;
	s->check_fields = false;
	FREE_AND_NULL(s->vm_version);
	session_stop_guests(s);
	return 0;
}

static int target_sim(struct session *s, int argc, char **argv)
{
	if (argc < 3 || argc > 4 || (argc == 4 && strcmp(argv[3], "--check-fields")))
		return cmd_usage(s);
	uint32_t v;
	if (session_kernel_arg(s, "target sim", argv[2], &v) < 0)
		return -1;
	s->sim = true;
	s->sim_kv = v; /* a full version (6.1.192) has the backports the catalogue records; 6.1 is the first 6.1 */
	s->check_fields = argc == 4;
	FREE_AND_NULL(s->vm_version);
	session_stop_guests(s);
	return 0;
}

static int target_vm_verb(struct session *s, int argc, char **argv)
{
	return argc == 3 ? target_vm(s, argv[2]) : cmd_usage(s);
}

int cmd_target(struct session *s, int argc, char **argv)
{
	static const struct verb verbs[] = {
		{ "live", target_live, 0 },
		{ "sim", target_sim, 0 },
		{ "vm", target_vm_verb, 0 },
		{ NULL, NULL, 0 },
	};
	if (argc == 1) {
		say_target(s);
		return 0;
	}
#if defined(__wasm__)
	if (!strcmp(argv[1], "live") || !strcmp(argv[1], "vm"))
		return err("target %s: %s", argv[1], WASM_NO_KERNEL);
#endif
	return cmd_select(s, verbs, "target", argc, argv);
}
