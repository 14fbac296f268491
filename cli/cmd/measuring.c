#include "cmd/measuring.h"
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include "base/diag.h"
#include "docs/docgen.h"
#include "kernel/explain.h"
#include "kernel/kimage.h"
#include "kernel/measure.h"
#include "kernel/vm.h"
#include "model/kver.h"
#include "model/xlat.h"
#include "sim/sim.h"
#include "base/banned.h"

bool measuring_has_matrix(const struct syscall *sc)
{
	return sc->st && sc->size_where != SW_NONE && !sc->designed;
}

/* The day of the report: SOURCE_DATE_EPOCH when set (a build that must not depend on the
 * clock), else today, UTC. */
static char *report_date(void)
{
	const char *env = getenv("SOURCE_DATE_EPOCH");
	char *end;
	time_t t = env && *env ? (time_t)strtoll(env, &end, 10) : time(NULL);
	struct tm tm;
	char buf[16];
	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%d", &tm);
	return xstrdup(buf);
}

/* The host's full version: 6.18.44 from "6.18.44-anything" (running_kernel() says 6.18). */
static uint32_t host_version(void)
{
	struct utsname u;
	uint32_t kv;
	return uname(&u) == 0 && kver_parse(u.release, &kv, 1) == 0 ? kv : running_kernel();
}

static uint32_t target_kv(const struct measure_target *t)
{
	return t->k ? (kimage_full_kv(t->k) ? kimage_full_kv(t->k) : t->k->kv) : host_version();
}

/* Columns in version order, the host among them. */
static int cmp_target(const void *a, const void *b)
{
	uint32_t x = target_kv(a), y = target_kv(b);
	return x < y ? -1 : x > y;
}

/* The targets the choice names, among the kernels ks knows. 0, or -1 (reported). */
static int pick_targets(struct kimages *ks, const struct measuring_choice *ch, struct measure_target **t, size_t *nt)
{
	*t = xcalloc(ks->n + ch->nversions + 1, sizeof(**t));
	*nt = 0;
	if (ch->host)
		(*t)[(*nt)++].k = NULL;
	for (size_t i = 0; i < ks->n && ch->all_vms; i++)
		if (ks->k[i].present && !kimage_check(&ks->k[i]))
			(*t)[(*nt)++].k = &ks->k[i];
	for (size_t i = 0; i < ch->nversions; i++) {
		struct kimage *k = kimages_find(ks, ch->versions[i]);
		const char *bad = !k ? NULL : !k->present ? "it is not fetched" : kimage_check(k);
		if (!k)
			return err("measure: xsc knows no kernel '%s' ('kernels' lists them)", ch->versions[i]);
		if (bad)
			return err("measure: kernel %s: %s; 'kernels fetch %s' downloads it", k->version, bad, k->version);
		bool dup = false;
		for (size_t j = 0; j < *nt; j++)
			dup |= (*t)[j].k == k;
		if (!dup)
			(*t)[(*nt)++].k = k;
	}
	if (!*nt)
		return err("measure: no real kernel is fetched ('kernels fetch' or 'make kernels' gets them)");
	qsort(*t, *nt, sizeof(**t), cmp_target);
	return 0;
}

static char *maybe_dup(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static void describe_kernel(const struct measure_target *t, const char *accel, struct measured_kernel *mk)
{
	char kv[16];
	if (!t->k) {
		struct utsname u;
		mk->version = xstrdup(kver_str(host_version(), kv));
		mk->where = xstrdup("host");
		mk->release = uname(&u) == 0 ? xstrdup(u.release) : NULL;
		return;
	}
	uint32_t full = kimage_full_kv(t->k);
	mk->version = xstrdup(full ? kver_str(full, kv) : t->k->version);
	mk->where = xstrdup("qemu");
	mk->accelerator = xstrdup(accel);
	mk->package = maybe_dup(t->k->package);
	mk->package_version = maybe_dup(t->k->pkg_version);
	mk->release = t->release[0] ? xstrdup(t->release) : NULL; /* what booted: its uname -r */
}

static const char *answer_word(const struct measure_answer *a)
{
	if (a->status == MS_NOT_RUN)
		return MO_NOT_RUN;
	if (a->status == MS_NO_ANSWER)
		return MO_NO_ANSWER;
	switch (a->stage) {
	case OS_CALLED: {
		const char *n = a->ret == -1 ? errno_name(a->err) : MO_OK;
		return n ? n : MO_NO_ANSWER;
	}
	case OS_TIMEOUT: return MO_TIMEOUT;
	case OS_SIGNALED: return MO_SIGNALED;
	default: return MO_SETUP;
	}
}

/* Every row of every interface's matrix, as calls, with the report's cases beside them. */
struct rowset {
	struct measure_call *calls;
	struct matrix_call *mcs;
	size_t n, alloc, mcalloc;
};

static int gather_rows(struct session *s, const struct syscall *const *scs, size_t n, struct rowset *rs,
		       struct measured_report *rep)
{
	rep->ifaces = xcalloc(n ? n : 1, sizeof(*rep->ifaces));
	for (size_t i = 0; i < n; i++) {
		struct matrix m;
		if (matrix_build(s->cat, scs[i], &m) < 0)
			return -1;
		struct measured_iface *f = &rep->ifaces[rep->nifaces++];
		f->name = xstrdup(scs[i]->name);
		f->cases = xcalloc(m.nrows, sizeof(*f->cases));
		for (size_t r = 0; r < m.nrows; r++) {
			ALLOC_GROW(rs->mcs, rs->n + 1, rs->mcalloc);
			ALLOC_GROW(rs->calls, rs->n + 1, rs->alloc);
			matrix_row_call(&m, r, &rs->mcs[rs->n]);
			rs->n++;
			f->cases[f->ncases].row = xstrdup(m.row_label[r]);
			f->cases[f->ncases++].size = m.row_size[r];
		}
		matrix_release(&m);
	}
	for (size_t i = 0, k = 0; rs->mcs && i < rep->nifaces; i++) /* mcs has stopped moving */
		for (size_t c = 0; c < rep->ifaces[i].ncases; c++, k++)
			rs->calls[k] = (struct measure_call){ scs[i], rs->mcs[k].b, rs->mcs[k].nover, rs->mcs[k].over };
	return 0;
}

static void fill_cases(struct measured_report *rep, const struct measure_answer *ans, char **refused)
{
	size_t k = 0, nt = rep->nkernels;
	for (size_t i = 0; i < rep->nifaces; i++)
		for (size_t c = 0; c < rep->ifaces[i].ncases; c++, k++) {
			struct measured_case *mc = &rep->ifaces[i].cases[c];
			mc->outcome = xcalloc(nt, sizeof(*mc->outcome));
			for (size_t t = 0; t < nt; t++)
				mc->outcome[t] = xstrdup(answer_word(&ans[k * nt + t]));
			mc->not_run = refused[k];
			refused[k] = NULL;
			/* a kernel where the sandbox could not be set up (no Landlock before 5.13 for
			 * a call that may write) says why, in the same place */
			for (size_t t = 0; t < nt && !mc->not_run; t++)
				if (!strcmp(mc->outcome[t], MO_SETUP) && ans[k * nt + t].setup[0]) {
					struct sbuf w = SBUF_INIT;
					sbuf_addf(&w, "on %s: %s", rep->kernels[t].version, ans[k * nt + t].setup);
					mc->not_run = sbuf_detach(&w);
				}
		}
}

int measuring_run(struct session *s, const struct syscall *const *scs, size_t n, const struct measuring_choice *ch,
		  struct measured_report *rep, struct sbuf *how)
{
	struct kimages ks;
	struct measure_target *t = NULL;
	struct rowset rs = { 0 };
	size_t nt = 0;
	const char *accel_why;
	struct utsname u;
	memset(rep, 0, sizeof(*rep));
	if (kimages_load(s->cat->dir, &ks) < 0)
		return -1;
	int r = pick_targets(&ks, ch, &t, &nt);
	if (!r)
		r = gather_rows(s, scs, n, &rs, rep);
	struct measure_answer *ans = xcalloc(rs.n * nt + 1, sizeof(*ans));
	char **refused = xcalloc(rs.n + 1, sizeof(*refused));
	if (!r)
		r = measure_run(s->cat, rs.calls, rs.n, t, nt, ch->parallel, s->timeout_ms, ans, refused);
	if (!r) {
		const char *accel = vm_kvm_usable(&accel_why) ? "KVM" : "TCG";
		rep->date = report_date();
		rep->machine = xstrdup(uname(&u) == 0 ? u.machine : "unknown");
		rep->kernels = xcalloc(nt, sizeof(*rep->kernels));
		rep->nkernels = nt;
		for (size_t i = 0; i < nt; i++) {
			describe_kernel(&t[i], accel, &rep->kernels[i]);
			if (t[i].failed)
				warning("measure: kernel %s gave no answers: %s", rep->kernels[i].version, t[i].failed);
			else if (how)
				sbuf_addf(how, "  %s: %s; %.1f s in all\n", rep->kernels[i].version, t[i].how,
					  (double)t[i].elapsed_ms / 1000);
		}
		fill_cases(rep, ans, refused);
	}
	for (size_t i = 0; i < rs.n; i++) {
		matrix_call_release(&rs.mcs[i]);
		free(refused[i]);
	}
	for (size_t i = 0; i < nt; i++)
		measure_target_release(&t[i]);
	free(rs.mcs);
	free(rs.calls);
	free(refused);
	free(ans);
	free(t);
	kimages_release(&ks);
	if (r)
		measured_release(rep);
	return r;
}

/* ---- the matrix with measured columns ---- */

/* A measured cell against the simulator at its kernel's exact version. */
struct judged {
	const char *measured;  /* NULL: not measured */
	char simulated[96];    /* "ok", "E2BIG", or "ok or EPERM" when uncertain */
	bool certain, differs;
};

static void judge(struct session *s, const struct matrix *m, size_t r, const struct measured_column *col, const char *got,
		  struct judged *j)
{
	uint32_t kv;
	struct outcome o;
	memset(j, 0, sizeof(*j));
	j->measured = got;
	if (!got || kver_parse(col->k->version, &kv, 0) < 0 || matrix_row_sim(s->cat, m, r, kv, &o) < 0)
		return;
	const char *said = o.ret == -1 ? errno_name(o.err) : MO_OK;
	snprintf(j->simulated, sizeof(j->simulated), "%s", said ? said : "?");
	j->certain = !o.uncertain;
	bool seen = !o.uncertain && !strcmp(j->simulated, got);
	for (size_t i = 0; o.uncertain && i < o.npossible; i++) {
		const char *p = o.possible[i] > 0 ? errno_name(o.possible[i]) : o.possible[i] ? MO_SIGNALED : MO_OK;
		seen |= p && !strcmp(p, got);
		if (i)
			snprintf(j->simulated + strlen(j->simulated), sizeof(j->simulated) - strlen(j->simulated), " or %s",
				 p ? p : "?");
		else
			snprintf(j->simulated, sizeof(j->simulated), "%s", p ? p : "?");
	}
	/* a row that did not run, or a guest that did not answer, says nothing about the kernel */
	bool answered = strcmp(got, MO_NOT_RUN) && strcmp(got, MO_NO_ANSWER) && strcmp(got, MO_SETUP) && strcmp(got, MO_TIMEOUT);
	j->differs = answered && !seen;
	outcome_release(&o);
}

static void kernel_words(struct sbuf *sb, const struct measured_column *c)
{
	const struct measured_kernel *k = c->k;
	if (!strcmp(k->where, "host"))
		sbuf_addf(sb, "%s: the host's running kernel%s%s", c->label, k->release ? " " : "", k->release ? k->release : "");
	else
		sbuf_addf(sb, "%s: Debian %s %s in qemu (%s)", c->label, k->package ? k->package : "?",
			  k->package_version ? k->package_version : "?", k->accelerator ? k->accelerator : "?");
	sbuf_addf(sb, ", %s, measured %s", c->rep->machine, c->rep->date);
}

static void render_json(struct session *s, const struct matrix *m, const struct measured_view *v)
{
	struct out *o = &s->out;
	out_obj(o, NULL);
	out_str(o, "syscall", m->sc->name);
	out_str(o, "struct", m->sc->st->name);
	out_arr(o, "kernels");
	for (size_t c = 0; c < m->ncols; c++)
		out_str(o, NULL, m->col_label[c]);
	out_end(o);
	if (v) {
		out_arr(o, "measured_kernels");
		for (size_t c = 0; c < v->ncols; c++) {
			const struct measured_kernel *k = v->cols[c].k;
			out_obj(o, NULL);
			out_str(o, "label", v->cols[c].label);
			measured_kernel_write(o, k);
			out_str(o, "machine", v->cols[c].rep->machine);
			out_str(o, "date", v->cols[c].rep->date);
			out_end(o);
		}
		out_end(o);
	}
	out_arr(o, "rows");
	for (size_t r = 0; r < m->nrows; r++) {
		out_obj(o, NULL);
		out_str(o, "label", m->row_label[r]);
		out_u64(o, "size", m->row_size[r]);
		out_arr(o, "cells");
		for (size_t c = 0; c < m->ncols; c++)
			out_str(o, NULL, matrix_cell_name(m, r, c));
		out_end(o);
		if (v) {
			out_arr(o, "measured");
			for (size_t c = 0; c < v->ncols; c++) {
				struct judged j;
				judge(s, m, r, &v->cols[c], measured_view_outcome(v, c, m->row_label[r], m->row_size[r]), &j);
				out_obj(o, NULL);
				out_str(o, "kernel", v->cols[c].label);
				out_str(o, "outcome", j.measured);
				out_str(o, "simulated", j.measured ? j.simulated : NULL);
				out_bool(o, "certain", j.certain);
				out_bool(o, "differs", j.differs);
				out_end(o);
			}
			out_end(o);
		}
		out_end(o);
	}
	out_end(o);
	out_end(o);
}

/* The notes under a table: the kernels, the rows that could not run, and each difference. */
static void notes(struct session *s, const struct matrix *m, const struct measured_view *v, struct sbuf *sb, bool md)
{
	const char *item = md ? "- " : "  ";
	sbuf_addf(sb, "%s:\n", md ? "\nMeasured in real kernels" : "measured in real kernels");
	for (size_t c = 0; c < v->ncols; c++) {
		struct sbuf k = SBUF_INIT;
		kernel_words(&k, &v->cols[c]);
		sbuf_adds(sb, item);
		if (md)
			md_text(sb, k.buf);
		else
			sbuf_adds(sb, k.buf);
		sbuf_addch(sb, '\n');
		sbuf_release(&k);
	}
	bool said_reason = false;
	for (size_t r = 0; r < m->nrows; r++) {
		for (size_t c = 0; c < v->ncols; c++) {
			struct judged j;
			const struct measured_case *mc = NULL;
			judge(s, m, r, &v->cols[c], measured_view_outcome(v, c, m->row_label[r], m->row_size[r]), &j);
			for (size_t i = 0; i < v->cols[c].ifc->ncases && !mc; i++)
				if (v->cols[c].ifc->cases[i].size == m->row_size[r] && !strcmp(v->cols[c].ifc->cases[i].row, m->row_label[r]))
					mc = &v->cols[c].ifc->cases[i];
			struct sbuf l = SBUF_INIT;
			if (j.differs)
				sbuf_addf(&l, "differs (!): %s on %s: measured %s, simulated at %s: %s", m->row_label[r],
					  v->cols[c].label, j.measured, v->cols[c].k->version, j.simulated);
			else if (mc && mc->not_run && !said_reason)
				sbuf_addf(&l, "not run: %s: %s", m->row_label[r], mc->not_run);
			said_reason |= mc && mc->not_run;
			if (l.len) {
				sbuf_adds(sb, item);
				if (md)
					md_text(sb, l.buf);
				else
					sbuf_adds(sb, l.buf);
				sbuf_addch(sb, '\n');
			}
			sbuf_release(&l);
		}
	}
}

static void cell_text(struct sbuf *sb, const struct judged *j)
{
	sbuf_adds(sb, j->measured ? j->measured : "-");
	if (j->differs)
		sbuf_adds(sb, " !");
}

static void render_md(struct session *s, const struct matrix *m, const struct measured_view *v, struct sbuf *sb)
{
	matrix_markdown(m, sb);
	if (!v || !v->ncols)
		return;
	/* the simulated table, then one measured beside nothing else: GitHub's tables do not
	 * scroll well past a dozen columns */
	sbuf_addf(sb, "\n| %s: user space / real kernel |", m->sc->name);
	for (size_t c = 0; c < v->ncols; c++)
		sbuf_addf(sb, " %s |", v->cols[c].label);
	sbuf_adds(sb, "\n|---|");
	for (size_t c = 0; c < v->ncols; c++)
		sbuf_adds(sb, "---|");
	sbuf_addch(sb, '\n');
	for (size_t r = 0; r < m->nrows; r++) {
		sbuf_addf(sb, "| %s |", m->row_label[r]);
		for (size_t c = 0; c < v->ncols; c++) {
			struct judged j;
			judge(s, m, r, &v->cols[c], measured_view_outcome(v, c, m->row_label[r], m->row_size[r]), &j);
			sbuf_adds(sb, " ");
			if (j.differs)
				sbuf_addf(sb, "**%s** (simulated: %s)", j.measured, j.simulated);
			else
				cell_text(sb, &j);
			sbuf_adds(sb, " |");
		}
		sbuf_addch(sb, '\n');
	}
	notes(s, m, v, sb, true);
}

static void render_text(struct session *s, const struct matrix *m, const struct measured_view *v)
{
	struct out *o = &s->out;
	size_t lw = 12, mw = 14, base; /* mw: "setup failed" and a space */
	bool meas = v && v->ncols;
	for (size_t r = 0; r < m->nrows; r++)
		if (strlen(m->row_label[r]) > lw)
			lw = strlen(m->row_label[r]);
	for (size_t c = 0; meas && c < v->ncols; c++)
		if (strlen(v->cols[c].label) + 2 > mw)
			mw = strlen(v->cols[c].label) + 2;
	out_text(o, "%s: user-space struct versions (rows) against simulated kernels (columns)%s\n", m->sc->name,
		 meas ? " and, after '|', real kernels measured ('!': not what the simulator says at that version)" : "");
	base = lw + 2 + m->ncols * 20;
	struct sbuf line = SBUF_INIT;
	for (size_t c = 0; c < m->ncols; c++) {
		sbuf_pad(&line, lw + 2 + c * 20);
		sbuf_adds(&line, m->col_label[c]);
	}
	for (size_t c = 0; meas && c < v->ncols; c++) {
		sbuf_pad(&line, base + (c ? 2 : 0) + c * mw);
		sbuf_adds(&line, c ? v->cols[c].label : "| ");
		if (!c)
			sbuf_adds(&line, v->cols[c].label);
	}
	out_text(o, "%s\n", line.buf);
	for (size_t r = 0; r < m->nrows; r++) {
		sbuf_reset(&line);
		sbuf_adds(&line, m->row_label[r]);
		for (size_t c = 0; c < m->ncols; c++) {
			sbuf_pad(&line, lw + 2 + c * 20);
			sbuf_adds(&line, matrix_cell_name(m, r, c));
		}
		for (size_t c = 0; meas && c < v->ncols; c++) {
			struct judged j;
			judge(s, m, r, &v->cols[c], measured_view_outcome(v, c, m->row_label[r], m->row_size[r]), &j);
			sbuf_pad(&line, base + (c ? 2 : 0) + c * mw);
			if (!c)
				sbuf_adds(&line, "| ");
			cell_text(&line, &j);
		}
		out_text(o, "%s\n", line.buf);
	}
	if (meas) {
		sbuf_reset(&line);
		notes(s, m, v, &line, false);
		out_puts(o, line.buf);
	}
	sbuf_release(&line);
}

void measuring_markdown(struct session *s, const struct matrix *m, const struct measured_view *v, struct sbuf *md)
{
	render_md(s, m, v, md);
}

/* A measured word as a cell's colour: the answers the simulated cells have keep theirs. */
static enum cell measured_cell(const char *word)
{
	static const struct { const char *word; enum cell c; } map[] = {
		{ MO_OK, CELL_OK }, { "E2BIG", CELL_E2BIG }, { "EINVAL", CELL_EINVAL }, { "ENOSYS", CELL_ENOSYS },
	};
	for (size_t i = 0; word && i < ARRAY_SIZE(map); i++)
		if (!strcmp(word, map[i].word))
			return map[i].c;
	return !word || !strcmp(word, MO_NOT_RUN) || !strcmp(word, MO_NO_ANSWER) ? CELL_ENOSYS : CELL_OTHER;
}

void measuring_svg(struct session *s, const struct matrix *m, const struct measured_view *v, struct sbuf *svg)
{
	size_t nx = v ? v->ncols : 0, n = m->nrows * nx;
	if (!nx) {
		matrix_svg(m, NULL, svg);
		return;
	}
	const char **labels = xcalloc(nx, sizeof(*labels)), **text = xcalloc(n, sizeof(*text));
	enum cell *cells = xcalloc(n, sizeof(*cells));
	bool *marked = xcalloc(n, sizeof(*marked));
	struct sbuf *words = xcalloc(n, sizeof(*words));
	for (size_t c = 0; c < nx; c++)
		labels[c] = v->cols[c].label;
	for (size_t r = 0; r < m->nrows; r++)
		for (size_t c = 0; c < nx; c++) {
			struct judged j;
			size_t i = r * nx + c;
			judge(s, m, r, &v->cols[c], measured_view_outcome(v, c, m->row_label[r], m->row_size[r]), &j);
			sbuf_init(&words[i]);
			cell_text(&words[i], &j);
			text[i] = words[i].buf;
			cells[i] = measured_cell(j.measured);
			marked[i] = j.differs;
		}
	struct matrix_svg_extra x = { "real kernels (measured; outlined: not what the simulator says)", nx, labels, text, cells,
				      marked };
	matrix_svg(m, &x, svg);
	for (size_t i = 0; i < n; i++)
		sbuf_release(&words[i]);
	free(words);
	free(marked);
	free(cells);
	free(text);
	free(labels);
}

void measuring_render(struct session *s, const struct matrix *m, const struct measured_view *v, const char *format,
		      struct sbuf *md)
{
	if (s->out.json)
		render_json(s, m, v);
	else if (!strcmp(format, "md"))
		render_md(s, m, v, md);
	else
		render_text(s, m, v);
}

size_t measuring_count_differences(struct session *s, const struct measured_report *rep)
{
	size_t n = 0;
	for (size_t i = 0; i < rep->nifaces; i++) {
		const struct syscall *sc = catalog_find_syscall(s->cat, rep->ifaces[i].name);
		struct matrix m;
		struct measured_view v;
		if (!sc || matrix_build(s->cat, sc, &m) < 0)
			continue;
		measured_view_build(rep, 1, sc->name, &v);
		for (size_t r = 0; r < m.nrows; r++)
			for (size_t c = 0; c < v.ncols; c++) {
				struct judged j;
				judge(s, &m, r, &v.cols[c], measured_view_outcome(&v, c, m.row_label[r], m.row_size[r]), &j);
				n += j.differs;
			}
		measured_view_release(&v);
		matrix_release(&m);
	}
	return n;
}
