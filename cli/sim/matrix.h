/* matrix: user-space struct versions × kernel versions → what each pairing gets, from the
 * simulator. Rows are the published sizes plus a "future" caller with a nonzero field past
 * the newest; columns the kernels where anything changed for the call. */
#ifndef XSC_MATRIX_H
#define XSC_MATRIX_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/sbuf.h"
#include "model/catalog.h"
#include "model/structbuf.h"

enum cell { CELL_OK, CELL_ZERO_FILLED, CELL_ZERO_TAIL, CELL_E2BIG, CELL_EINVAL, CELL_ENOSYS, CELL_OTHER };

struct matrix {
	const struct syscall *sc;
	size_t nrows, ncols;
	char **row_label;      /* "VER1 (80)", "future (96)" */
	uint64_t *row_size;
	uint32_t *col_kv;      /* 0 for the "before the call" column */
	char **col_label;      /* "<5.3", "5.3", … */
	enum cell *cells;      /* nrows × ncols */
	int *cell_errno;
};

/* Fills m for sc (an extensible call with a struct). Returns 0 or -1 (reported). */
int matrix_build(const struct catalog *cat, const struct syscall *sc, struct matrix *m);
void matrix_release(struct matrix *m);
/* Row r's call as the matrix makes it: a zeroed buffer of the row's size (the future row's
 * nonzero byte poked in) and overrides that keep the flags arguments 0, the old behaviour.
 * What 'matrix --measured' runs in real kernels. Release with matrix_call_release. */
struct matrix_call {
	struct structbuf *b;
	char *over[6];         /* "NAME=0" */
	int nover;
};
void matrix_row_call(const struct matrix *m, size_t r, struct matrix_call *mc);
void matrix_call_release(struct matrix_call *mc);
/* Row r simulated in full at kv (every check, not the size convention alone): what a real
 * kernel of that version should answer. 0 with o filled (release it), or -1 (reported). */
struct outcome;
int matrix_row_sim(const struct catalog *cat, const struct matrix *m, size_t r, uint32_t kv, struct outcome *o);
const char *matrix_cell_name(const struct matrix *m, size_t r, size_t c);
/* Columns drawn after the simulated ones, past a gap under a heading of their own: the
 * real kernels measured (cmd/measuring.h). Per cell (r * ncols + c): its text, its colour as
 * a cell's, and whether it differs from the simulator (outlined). */
struct matrix_svg_extra {
	const char *heading;
	size_t ncols;
	const char *const *labels;
	const char *const *text;
	const enum cell *cells;
	const bool *marked;
};
/* The picture, self-contained SVG (no external references), deterministic; x may be NULL. */
void matrix_svg(const struct matrix *m, const struct matrix_svg_extra *x, struct sbuf *sb);
/* A GitHub-flavoured Markdown table. */
void matrix_markdown(const struct matrix *m, struct sbuf *sb);
#endif
