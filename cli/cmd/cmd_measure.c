/* measure: the matrix rows of every interface (or those named) made in real kernels, or in
 * the running one, written as reports (model/measured.h) that 'matrix --reports', the
 * reference and 'site --measured' read. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <time.h>
#include "cmd/commands.h"
#include "cmd/measuring.h"
#include "base/outfile.h"
#include "base/banned.h"

struct measure_args {
	const char *out, *dir;
	const char **names;
	size_t nnames;
	bool force;
	struct measuring_choice ch;
	const char *versions[8];
};

static int parse_args(struct session *s, int argc, char **argv, struct measure_args *a)
{
	enum { O_VM = 256, O_HOST, O_FORCE, O_KERNEL, O_DIR, O_PARALLEL };
	static const struct cmd_opt opts[] = {
		{ "vm", O_VM, NULL }, { "host", O_HOST, NULL }, { "force", O_FORCE, NULL }, { "kernel", O_KERNEL, "V" },
		{ NULL, 'o', "FILE" }, { "dir", O_DIR, "DIR" }, { "parallel", O_PARALLEL, "N" }, { 0 },
	};
	memset(a, 0, sizeof(*a));
	a->ch.versions = a->versions;
	a->ch.parallel = 2;
	a->names = xcalloc((size_t)argc, sizeof(*a->names));
	struct cmd_opt_iter it = CMD_OPT_ITER(s, argc, argv);
	int k;
	while ((k = cmd_opt_next(&it, opts)) != CMD_OPT_END) {
		if (k == O_VM)
			a->ch.all_vms = true;
		else if (k == O_HOST)
			a->ch.host = true;
		else if (k == O_FORCE)
			a->force = true;
		else if (k == O_KERNEL && a->ch.nversions < ARRAY_SIZE(a->versions))
			a->versions[a->ch.nversions++] = it.value;
		else if (k == 'o' && !a->out)
			a->out = it.value;
		else if (k == O_DIR && !a->dir)
			a->dir = it.value;
		else if (k == O_PARALLEL && atoi(it.value) >= 1 && atoi(it.value) <= 8)
			a->ch.parallel = (unsigned)atoi(it.value);
		else if (k == CMD_OPT_OPERAND)
			a->names[a->nnames++] = it.value;
		else
			return k < 0 ? k : cmd_usage(s);
	}
	if (a->out && a->dir)
		return usage_err("measure: -o writes one report, --dir one per interface: not both");
	if (!a->ch.all_vms && !a->ch.nversions)
		a->ch.host = true; /* a host of a fleet measures itself */
	return 0;
}

/* The interfaces to measure: those named, else every one with a matrix, in catalogue order. */
static int pick(struct session *s, const struct measure_args *a, const struct syscall ***scs, size_t *n)
{
	*scs = xcalloc(s->cat->nsyscalls + a->nnames + 1, sizeof(**scs));
	*n = 0;
	for (size_t i = 0; i < a->nnames; i++) {
		const struct syscall *sc = session_find_syscall(s, a->names[i]);
		if (!sc)
			return err("no syscall named '%s'; 'list' shows them", a->names[i]);
		if (!measuring_has_matrix(sc))
			return err("measure: %s has no matrix (no struct whose size is a version)", sc->name);
		(*scs)[(*n)++] = sc;
	}
	for (size_t i = 0; !a->nnames && i < s->cat->nsyscalls; i++)
		if (measuring_has_matrix(&s->cat->syscalls[i]))
			(*scs)[(*n)++] = &s->cat->syscalls[i];
	return 0;
}

/* The report as JSON text. */
static void report_text(const struct measured_report *rep, struct sbuf *sb)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct out o;
	if (!fp)
		die("out of memory");
	out_init(&o, fp, true, false);
	measured_write(&o, rep);
	out_done(&o);
	fclose(fp);
	sbuf_add(sb, buf, len);
	free(buf);
}

static int write_report(struct session *s, const char *path, const struct measured_report *rep, unsigned flags)
{
	struct sbuf sb = SBUF_INIT;
	report_text(rep, &sb);
	int r = session_may_write(s, path);
	if (!r && outfile_put(path, sb.buf, sb.len, flags) < 0)
		r = err("measure: cannot write '%s': %m%s", path, errno == EEXIST ? " (--force replaces it)" : "");
	sbuf_release(&sb);
	return r;
}

/* --dir: one report per interface, DIR/NAME.json, each with every kernel. */
static int write_dir(struct session *s, const char *dir, const struct measured_report *rep, unsigned flags)
{
	int r = session_may_write(s, dir), fd = -1;
	if (!r && (fd = outdir_open_at(AT_FDCWD, dir, true)) < 0)
		r = err("measure: cannot make '%s': %m", dir);
	if (fd >= 0)
		close(fd);
	for (size_t i = 0; !r && i < rep->nifaces; i++) {
		struct measured_report one = *rep;
		struct sbuf p = SBUF_INIT;
		one.ifaces = &rep->ifaces[i];
		one.nifaces = 1;
		sbuf_addf(&p, "%s/%s.json", dir, rep->ifaces[i].name);
		r = write_report(s, p.buf, &one, flags);
		sbuf_release(&p);
	}
	return r;
}

int cmd_measure(struct session *s, int argc, char **argv)
{
	struct measure_args a;
	const struct syscall **scs = NULL;
	size_t n = 0;
	struct measured_report rep;
	struct timespec t0, t1;
	struct sbuf how = SBUF_INIT;
	int r = parse_args(s, argc, argv, &a);
	if (!r && (a.out || a.dir)) /* refused before the kernels boot, not after */
		r = session_may_write(s, a.out ? a.out : a.dir);
	if (!r)
		r = pick(s, &a, &scs, &n);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (!r)
		r = measuring_run(s, scs, n, &a.ch, &rep, &how);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	free(scs);
	free(a.names);
	if (r) {
		sbuf_release(&how);
		return r;
	}
	unsigned flags = (a.force || s->force ? OF_FORCE : 0) | session_write_flags(s);
	if (a.out)
		r = write_report(s, a.out, &rep, flags);
	else if (a.dir)
		r = write_dir(s, a.dir, &rep, flags);
	else if (s->out.json)
		measured_write(&s->out, &rep);
	if (!r) {
		size_t cases = 0, differ = measuring_count_differences(s, &rep);
		for (size_t i = 0; i < rep.nifaces; i++)
			cases += rep.ifaces[i].ncases;
		out_puts(&s->out, how.buf);
		out_text(&s->out, "measured %zu calls (%zu interfaces) on %zu kernels in %.1f s: %zu answers differ from the simulator\n",
			 cases, rep.nifaces, rep.nkernels,
			 (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9, differ);
		if (!a.out && !a.dir) {
			struct sbuf sb = SBUF_INIT;
			report_text(&rep, &sb);
			out_puts(&s->out, sb.buf);
			sbuf_release(&sb);
		}
	}
	sbuf_release(&how);
	measured_release(&rep);
	return r;
}
