#include "sim/matrix.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "base/diag.h"
#include "model/request.h"
#include "model/kver.h"
#include "model/structbuf.h"
#include "model/xlat.h"
#include "sim/sim.h"
#include "base/banned.h"

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

static void add_col(struct matrix *m, uint32_t kv)
{
	for (size_t i = 0; i < m->ncols; i++)
		if (m->col_kv[i] == kv)
			return;
	m->col_kv[m->ncols++] = kv;
}

static enum cell classify(const struct outcome *o, uint64_t usize, unsigned ksize)
{
	if (o->ret != -1)
		return usize < ksize ? CELL_ZERO_FILLED : usize > ksize ? CELL_ZERO_TAIL : CELL_OK;
	switch (o->err) {
	case E2BIG: return CELL_E2BIG;
	case EINVAL: return CELL_EINVAL;
	case ENOSYS: return CELL_ENOSYS;
	default: return CELL_OTHER;
	}
}

int matrix_build(const struct catalog *cat, const struct syscall *sc, struct matrix *m)
{
	memset(m, 0, sizeof(*m));
	m->sc = sc;
	const struct cstruct *st = sc->st;
	if (!st || sc->size_where == SW_NONE)
		return err("matrix: %s has no versioned struct (kind %s)", sc->name, sc_kind_name(sc->kind));
	size_t nv = st->nversions;
	m->nrows = (nv ? nv : 1) + 1;
	m->row_label = xcalloc(m->nrows, sizeof(*m->row_label));
	m->row_size = xcalloc(m->nrows, sizeof(*m->row_size));
	for (size_t i = 0; i < m->nrows; i++) {
		struct sbuf l = SBUF_INIT;
		if (i + 1 == m->nrows) {
			m->row_size[i] = cstruct_newest_size(st) + 8;
			sbuf_addf(&l, "future (%llu, a nonzero field past %u)", (unsigned long long)m->row_size[i], cstruct_newest_size(st));
		} else if (nv) {
			m->row_size[i] = st->versions[i].size;
			sbuf_addf(&l, "VER%zu (%u)", i, st->versions[i].size);
		} else {
			m->row_size[i] = st->size;
			sbuf_addf(&l, "%u bytes", st->size);
		}
		m->row_label[i] = sbuf_detach(&l);
	}
	/* kernels where anything changed: the call, each size, the cap */
	m->col_kv = xcalloc(nv + 4, sizeof(*m->col_kv));
	add_col(m, sc->since);
	for (size_t i = 0; i < nv; i++)
		if (st->versions[i].since >= sc->since)
			add_col(m, st->versions[i].since);
	if (sc->has_rules && sc->rules.cap_since > sc->since)
		add_col(m, sc->rules.cap_since);
	qsort(m->col_kv, m->ncols, sizeof(*m->col_kv), cmp_u32);
	memmove(m->col_kv + 1, m->col_kv, m->ncols * sizeof(*m->col_kv));
	m->col_kv[0] = 0; /* before the call existed */
	m->ncols++;
	m->col_label = xcalloc(m->ncols, sizeof(*m->col_label));
	for (size_t c = 0; c < m->ncols; c++) {
		char kv[16];
		struct sbuf l = SBUF_INIT;
		sbuf_addf(&l, c ? "%s" : "<%s", kver_str(c ? m->col_kv[c] : sc->since, kv));
		m->col_label[c] = sbuf_detach(&l);
	}
	m->cells = xcalloc(m->nrows * m->ncols, sizeof(*m->cells));
	m->cell_errno = xcalloc(m->nrows * m->ncols, sizeof(*m->cell_errno));
	for (size_t r = 0; r < m->nrows; r++) {
		struct matrix_call mc;
		struct call_request req;
		matrix_row_call(m, r, &mc);
		int pr = request_build(cat, sc, mc.b, NULL, mc.nover, mc.over, &request_heap, &req);
		matrix_call_release(&mc);
		if (pr < 0) {
			request_release(&req);
			matrix_release(m);
			return -1;
		}
		for (size_t c = 0; c < m->ncols; c++) {
			/* the size convention alone: a zeroed request is refused for its values by some
			 * calls' own checks (statmount's mnt_id 0) at every size, which says nothing
			 * about the sizes */
			struct sim_opts so = { m->col_kv[c] ? m->col_kv[c] : 0, false, true };
			struct outcome o;
			struct sbuf why = SBUF_INIT;
			sim_call(cat, &req, &so, &o, &why);
			unsigned ksize = cstruct_size_at(st, so.kv);
			uint64_t usize = req.size;
			if (!usize && sc->rules.zero.kind == SA_VER0 && nv)
				usize = st->versions[0].size;
			m->cells[r * m->ncols + c] = classify(&o, usize, ksize);
			m->cell_errno[r * m->ncols + c] = o.ret == -1 ? o.err : 0;
			outcome_release(&o);
			sbuf_release(&why);
		}
		request_release(&req);
	}
	return 0;
}

void matrix_row_call(const struct matrix *m, size_t r, struct matrix_call *mc)
{
	const struct syscall *sc = m->sc;
	const struct cstruct *st = sc->st;
	memset(mc, 0, sizeof(*mc));
	mc->b = structbuf_new(st->name, st, sc);
	structbuf_set_size(mc->b, m->row_size[r]);
	if (r + 1 == m->nrows) {
		unsigned char one = 1;
		structbuf_poke(mc->b, cstruct_newest_size(st), &one, 1);
	}
	/* the matrix is about the struct: flags arguments stay 0, the old behaviour */
	for (size_t k = 0; k < sc->nargs && mc->nover < (int)ARRAY_SIZE(mc->over); k++)
		if (sc->args[k].role == AR_FLAGS) {
			struct sbuf o = SBUF_INIT;
			sbuf_addf(&o, "%s=0", sc->args[k].name);
			mc->over[mc->nover++] = sbuf_detach(&o);
		}
}

void matrix_call_release(struct matrix_call *mc)
{
	for (int k = 0; k < mc->nover; k++)
		free(mc->over[k]);
	structbuf_free(mc->b);
	memset(mc, 0, sizeof(*mc));
}

int matrix_row_sim(const struct catalog *cat, const struct matrix *m, size_t r, uint32_t kv, struct outcome *o)
{
	struct matrix_call mc;
	struct call_request req;
	struct sbuf why = SBUF_INIT;
	matrix_row_call(m, r, &mc);
	int pr = request_build(cat, m->sc, mc.b, NULL, mc.nover, mc.over, &request_heap, &req);
	matrix_call_release(&mc);
	if (pr == 0) {
		struct sim_opts so = { kv, false, false };
		sim_call(cat, &req, &so, o, &why);
	}
	request_release(&req);
	sbuf_release(&why);
	return pr;
}

void matrix_release(struct matrix *m)
{
	for (size_t i = 0; i < m->nrows && m->row_label; i++)
		free(m->row_label[i]);
	for (size_t i = 0; i < m->ncols && m->col_label; i++)
		free(m->col_label[i]);
	free(m->row_label);
	free(m->row_size);
	free(m->col_kv);
	free(m->col_label);
	free(m->cells);
	free(m->cell_errno);
	memset(m, 0, sizeof(*m));
}

const char *matrix_cell_name(const struct matrix *m, size_t r, size_t c)
{
	static const char *const names[] = { "ok", "zero-filled", "zero tail accepted", "E2BIG", "EINVAL", "ENOSYS" };
	enum cell k = m->cells[r * m->ncols + c];
	enum size_tail tail = m->sc->rules.tail;
	bool output = tail == TAIL_ZEROED || tail == TAIL_UNTOUCHED;
	if (output && k == CELL_ZERO_FILLED)
		return "truncated"; /* an output call writes only what fits */
	if (output && k == CELL_ZERO_TAIL)
		return tail == TAIL_ZEROED ? "tail zeroed" : "tail untouched";
	if (tail == TAIL_IGNORED && k == CELL_ZERO_TAIL)
		return "tail ignored"; /* the future row's nonzero field is never read (rseq) */
	if (k == CELL_OTHER) {
		const char *n = errno_name(m->cell_errno[r * m->ncols + c]);
		return n ? n : "error";
	}
	return names[k];
}

void matrix_markdown(const struct matrix *m, struct sbuf *sb)
{
	sbuf_addf(sb, "| %s: user space / kernel |", m->sc->name);
	for (size_t c = 0; c < m->ncols; c++)
		sbuf_addf(sb, " %s |", m->col_label[c]);
	sbuf_adds(sb, "\n|---|");
	for (size_t c = 0; c < m->ncols; c++)
		sbuf_adds(sb, "---|");
	sbuf_addch(sb, '\n');
	for (size_t r = 0; r < m->nrows; r++) {
		sbuf_addf(sb, "| %s |", m->row_label[r]);
		for (size_t c = 0; c < m->ncols; c++)
			sbuf_addf(sb, " %s |", matrix_cell_name(m, r, c));
		sbuf_addch(sb, '\n');
	}
}

static const char *const cell_fill[] = { "#2e7d32", "#66bb6a", "#26a69a", "#ef6c00", "#c62828", "#9e9e9e", "#6a1b9a" };

static void svg_cell(struct sbuf *sb, int x, int y, int cw, int rh, enum cell c, bool marked, const char *text)
{
	sbuf_addf(sb, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"3\" fill=\"%s\"%s/>", x + 2, y + 2, cw - 4,
		  rh - 4, cell_fill[c], marked ? " stroke=\"currentColor\" stroke-width=\"3\"" : "");
	sbuf_addf(sb, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#fff\">", x + cw / 2, y + 20);
	sbuf_addhtml(sb, text);
	sbuf_adds(sb, "</text>\n");
}

static void svg_heading(struct sbuf *sb, int x, int y, const char *text)
{
	sbuf_addf(sb, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-weight=\"bold\" fill=\"currentColor\">", x, y);
	sbuf_addhtml(sb, text);
	sbuf_adds(sb, "</text>\n");
}

void matrix_svg(const struct matrix *m, const struct matrix_svg_extra *x, struct sbuf *sb)
{
	const int lw = 300, cw = 150, rh = 30, gap = 30;
	size_t nx = x ? x->ncols : 0;
	int top = nx ? 60 : 40, xw = nx ? gap + (int)nx * cw : 0, xl = lw + (int)m->ncols * cw + gap;
	int w = lw + (int)m->ncols * cw + xw + 10, h = top + (int)m->nrows * rh + 10;
	sbuf_addf(sb, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		      "font-family=\"monospace\" font-size=\"13\" role=\"img\">\n<title>", w, h, w, h);
	sbuf_addhtml(sb, m->sc->name);
	sbuf_adds(sb, nx ? ": user-space struct versions against simulated and real kernels</title>\n"
			 : ": user-space struct versions against kernel versions</title>\n");
	if (nx) {
		svg_heading(sb, lw + (int)m->ncols * cw / 2, top - 40, "simulated");
		svg_heading(sb, xl + (int)nx * cw / 2, top - 40, x->heading);
	}
	for (size_t c = 0; c < m->ncols; c++)
		svg_heading(sb, lw + (int)c * cw + cw / 2, top - 14, m->col_label[c]);
	for (size_t c = 0; c < nx; c++)
		svg_heading(sb, xl + (int)c * cw + cw / 2, top - 14, x->labels[c]);
	for (size_t r = 0; r < m->nrows; r++) {
		int y = top + (int)r * rh;
		sbuf_addf(sb, "<text x=\"4\" y=\"%d\" fill=\"currentColor\">", y + 20);
		sbuf_addhtml(sb, m->row_label[r]);
		sbuf_adds(sb, "</text>\n");
		for (size_t c = 0; c < m->ncols; c++)
			svg_cell(sb, lw + (int)c * cw, y, cw, rh, m->cells[r * m->ncols + c], false, matrix_cell_name(m, r, c));
		for (size_t c = 0; c < nx; c++)
			svg_cell(sb, xl + (int)c * cw, y, cw, rh, x->cells[r * nx + c], x->marked[r * nx + c], x->text[r * nx + c]);
	}
	sbuf_adds(sb, "</svg>\n");
}
