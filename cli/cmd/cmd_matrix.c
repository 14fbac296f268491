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

static int parse_args(struct session *s, int argc, char **argv, struct matrix_args *a)
{
	enum { O_FORMAT = 256, O_MEASURED, O_HOST, O_KERNEL, O_REPORTS };
	static const struct cmd_opt opts[] = {
		{ "format", O_FORMAT, "FORMAT" }, { "measured", O_MEASURED, NULL }, { "host", O_HOST, NULL },
		{ "kernel", O_KERNEL, "V" }, { "reports", O_REPORTS, "DIR" }, { 0 },
	};
	memset(a, 0, sizeof(*a));
	a->format = "text";
	a->ch.versions = a->versions;
	a->ch.parallel = 2;
	struct cmd_opt_iter it = CMD_OPT_ITER(s, argc, argv);
	int k;
	while ((k = cmd_opt_next(&it, opts)) != CMD_OPT_END) {
		if (k == O_FORMAT)
			a->format = it.value;
		else if (k == O_MEASURED)
			a->ch.all_vms = true;
		else if (k == O_HOST)
			a->ch.host = true;
		else if (k == O_KERNEL && a->ch.nversions < ARRAY_SIZE(a->versions))
			a->versions[a->ch.nversions++] = it.value;
		else if (k == O_REPORTS && a->nreports < ARRAY_SIZE(a->reports))
			a->reports[a->nreports++] = it.value;
		else if (k == CMD_OPT_OPERAND && !a->name)
			a->name = it.value;
		else
			return k < 0 ? k : cmd_usage(s);
	}
	if (!a->name)
		return cmd_usage(s);
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
	int pr = parse_args(s, argc, argv, &a);
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
