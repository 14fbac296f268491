/* kernels: the real kernels 'target vm' boots, and 'kernels fetch' to download them. */
#include <stdlib.h>
#include <string.h>
#include "cmd/commands.h"
#include "kernel/kimage.h"
#include "kernel/vm.h"
#include "base/banned.h"

static void list_one(struct out *o, const struct kimage *k)
{
	char size[32];
	snprintf(size, sizeof(size), "%.1f MB", (double)k->size / 1e6);
	out_text(o, "%-6s %-48s %-20s %s\n", k->version, k->present ? k->package : k->fb_package,
		 k->present ? k->pkg_version : k->fb_version, k->present ? size : "missing");
	out_obj(o, NULL);
	out_str(o, "kernel", k->version);
	out_str(o, "suite", k->suite);
	out_str(o, "package", k->present ? k->package : NULL);
	out_str(o, "package_version", k->present ? k->pkg_version : NULL);
	out_str(o, "fallback_package", k->fb_package);
	out_bool(o, "present", k->present);
	if (k->present) {
		out_u64(o, "size", k->size);
		out_str(o, "sha256", k->sha256);
		out_str(o, "path", k->path);
	}
	out_end(o);
}

static int fetch(struct session *s, struct kimages *ks, int argc, char **argv)
{
	if (s->checking) /* it downloads into the cache, a solution's effect on the checker's machine */
		return err("kernels fetch: a solution checked by 'lesson --check' writes no files");
	int r = 0;
	struct kimage *want[32];
	size_t n = 0;
	for (int i = 2; i < argc; i++) {
		struct kimage *k = kimages_find(ks, argv[i]);
		if (!k)
			return err("kernels fetch: xsc knows no kernel '%s' ('kernels' lists them)", argv[i]);
		if (n < ARRAY_SIZE(want))
			want[n++] = k;
	}
	for (size_t i = 0; argc == 2 && i < ks->n && n < ARRAY_SIZE(want); i++)
		want[n++] = &ks->k[i];
	for (size_t i = 0; i < n; i++) {
		struct kimage *k = want[i];
		if (k->present) {
			out_text(&s->out, "kernel %s: present (%s %s)\n", k->version, k->package, k->pkg_version);
			continue;
		}
		struct sbuf log = SBUF_INIT;
		int fr = kimage_fetch(ks, k, &log);
		out_puts(&s->out, log.buf);
		sbuf_release(&log);
		if (fr < 0)
			r = -1;
	}
	out_arr(&s->out, NULL);
	for (size_t i = 0; i < n; i++)
		list_one(&s->out, want[i]);
	out_end(&s->out);
	return r;
}

static void list_all(struct out *o, const struct kimages *ks)
{
	out_text(o, "%-6s %-48s %-20s %s\n", "kernel", "package", "version", "image");
	out_arr(o, NULL);
	for (size_t i = 0; i < ks->n; i++)
		list_one(o, &ks->k[i]);
	out_end(o);
	out_text(o, "cache: %s\n", ks->dir ? ks->dir : "(none: set XDG_CACHE_HOME or HOME)");
	const char *why;
	vm_kvm_usable(&why);
	out_text(o, "guests run with %s\n", why);
}

/* 'kernels' lists them, 'kernels fetch [VERSION...]' downloads them (argc 1: listing). */
static int kernels_run(struct session *s, int argc, char **argv)
{
	const struct catalog *cat = session_catalog(s);
	struct kimages ks;
	if (!cat)
		return -1;
	if (kimages_load(cat->dir, &ks) < 0) {
		kimages_release(&ks);
		return -1;
	}
	int r = 0;
	if (argc > 1)
		r = fetch(s, &ks, argc, argv);
	else
		list_all(&s->out, &ks);
	kimages_release(&ks);
	return r;
}

int cmd_kernels(struct session *s, int argc, char **argv)
{
	static const struct verb verbs[] = {
		{ "fetch", kernels_run, CMD_EFFECTS }, /* downloads and writes the cache */
		{ NULL, NULL, 0 },
	};
	return argc > 1 ? cmd_select(s, verbs, "verb", argc, argv) : kernels_run(s, argc, argv);
}
