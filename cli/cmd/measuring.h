/* measuring: what 'matrix --measured', 'measure' and the matrix pages of the reference
 * share: the kernels to measure, the matrix rows of the interfaces made on each of them
 * (kernel/measure.h) into a report (model/measured.h), and the matrix with the measured
 * columns beside the simulated ones, each measured cell compared with the simulator at
 * that kernel's exact version. */
#ifndef XSC_MEASURING_H
#define XSC_MEASURING_H
#include <stdbool.h>
#include "model/measured.h"
#include "session.h"
#include "sim/matrix.h"

/* Which kernels: every fetched real kernel (all_vms), those named (versions), the running
 * kernel (host). */
struct measuring_choice {
	bool all_vms, host;
	const char **versions;
	size_t nversions;
	unsigned parallel;      /* guests at once */
};

/* Does sc have a matrix (a struct whose size is a version)? */
bool measuring_has_matrix(const struct syscall *sc);
/* Measures the matrix rows of scs[0..n) on the chosen kernels into rep (release it). Says
 * on stderr which kernels did not come up; how each kernel ran (booted how and how fast,
 * the time its calls took) goes to how, a line each, when it is not NULL. 0, or -1
 * (reported). */
int measuring_run(struct session *s, const struct syscall *const *scs, size_t n, const struct measuring_choice *ch,
		  struct measured_report *rep, struct sbuf *how);

/* How many measured answers of rep are not what the simulator says at their kernels. */
size_t measuring_count_differences(struct session *s, const struct measured_report *rep);
/* The matrix of m as Markdown, with the columns of v beside it when v has any (v may be
 * NULL), appended to md whatever the session's output mode (docs, site). */
/* The matrix's picture (sim/matrix.h's SVG) with the measured columns of v after the
 * simulated ones, a cell outlined where it is not what the simulator says; v may be NULL. */
void measuring_svg(struct session *s, const struct matrix *m, const struct measured_view *v, struct sbuf *svg);
void measuring_markdown(struct session *s, const struct matrix *m, const struct measured_view *v, struct sbuf *md);
/* The matrix of m, with the columns of v beside it when v has any, in format "text" or "md"
 * (text and JSON through s->out; md appended to md). */
void measuring_render(struct session *s, const struct matrix *m, const struct measured_view *v, const char *format,
		      struct sbuf *md);
#endif
