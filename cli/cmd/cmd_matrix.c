/* matrix: which user-space struct versions work with which kernels: simulated, and beside
 * them real kernels, measured now (--measured) or read from reports (--reports DIR). */
#include <string.h>
#include "cmd/commands.h"
#include "cmd/measuring.h"
#include "sim/matrix.h"
#include "base/banned.h"

struct matrix_args {
	const char *format, *name, *reports[4];
	size_t nreports;
	struct measuring_choice ch;
	const char *versions[8];
};

static int parse_args(int argc, char **argv, struct matrix_args *a)
{
	memset(a, 0, sizeof(*a));
	a->format = "text";
	a->ch.versions = a->versions;
	a->ch.parallel = 2;
	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--format=", 9))
			a->format = argv[i] + 9;
		else if (!strcmp(argv[i], "--measured"))
			a->ch.all_vms = true;
		else if (!strcmp(argv[i], "--host"))
			a->ch.host = true;
		else if (!strcmp(argv[i], "--kernel") && i + 1 < argc && a->ch.nversions < ARRAY_SIZE(a->versions))
			a->versions[a->ch.nversions++] = argv[++i];
		else if (!strcmp(argv[i], "--reports") && i + 1 < argc && a->nreports < ARRAY_SIZE(a->reports))
			a->reports[a->nreports++] = argv[++i];
		else if (!a->name && argv[i][0] != '-')
			a->name = argv[i];
		else
			return command_usage(command_find("matrix"));
	}
	if (!a->name)
		return command_usage(command_find("matrix"));
	if (strcmp(a->format, "text") && strcmp(a->format, "md") && strcmp(a->format, "svg"))
		return usage_err("matrix: --format takes text, md or svg, not '%s'", a->format);
	bool measure = a->ch.all_vms || a->ch.host || a->ch.nversions;
	if (measure && a->nreports)
		return usage_err("matrix: --reports reads measurements; --measured, --kernel and --host make them: not both");
	return 0;
}

int cmd_matrix(struct session *s, int argc, char **argv)
{
	struct matrix_args a;
	int pr = parse_args(argc, argv, &a);
	if (pr)
		return pr;
	const struct syscall *sc = session_find_syscall(s, a.name);
	if (!sc) {
		struct suggest sg = SUGGEST_INIT(a.name, 3);
		for (size_t k = 0; k < s->cat->nsyscalls; k++)
			suggest_add(&sg, s->cat->syscalls[k].name);
		const char *best = suggest_best(&sg);
		return best ? err("no syscall named '%s' (did you mean '%s'?)", a.name, best) : err("no syscall named '%s'", a.name);
	}
	struct matrix m;
	if (matrix_build(s->cat, sc, &m) < 0)
		return -1;
	struct measured_report *reps = NULL, now;
	size_t nreps = 0;
	int r = 0;
	if (a.ch.all_vms || a.ch.host || a.ch.nversions) {
		if (s->no_effects)
			r = err("matrix: measuring calls the kernel, which this session does not allow");
		else if ((r = measuring_run(s, &sc, 1, &a.ch, &now, NULL)) == 0) {
			reps = xcalloc(1, sizeof(*reps));
			reps[nreps++] = now;
		}
	}
	for (size_t i = 0; !r && i < a.nreports; i++)
		r = measured_load_dir(a.reports[i], false, &reps, &nreps);
	struct measured_view v = { 0 };
	if (!r && (reps || a.nreports))
		measured_view_build(reps, nreps, sc->name, &v);
	struct sbuf sb = SBUF_INIT;
	if (r) {
		/* reported */
	} else if (!strcmp(a.format, "svg") && !s->out.json) {
		measuring_svg(s, &m, reps || a.nreports ? &v : NULL, &sb);
		out_puts(&s->out, sb.buf);
	} else {
		measuring_render(s, &m, reps || a.nreports ? &v : NULL, a.format, &sb);
		if (sb.len)
			out_puts(&s->out, sb.buf);
	}
	sbuf_release(&sb);
	measured_view_release(&v);
	measured_release_all(reps, nreps);
	matrix_release(&m);
	return r;
}
