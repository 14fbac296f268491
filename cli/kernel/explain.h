/* explain: why the kernel answered as it did. Uses the catalogue, the running kernel's
 * version and, for EINVAL, follow-up calls that clear one flag bit or field at a time. */
#ifndef XSC_EXPLAIN_H
#define XSC_EXPLAIN_H
#include <stdint.h>
#include "base/sbuf.h"
#include "kernel/invoke.h"
#include "model/catalog.h"
#include "model/outcome.h"

struct explanation {
	struct sbuf text;        /* one sentence a line */
	unsigned followups;      /* extra calls made to find the cause */
};

void explanation_init(struct explanation *e);
void explanation_release(struct explanation *e);
/* The running kernel's version (uname), or 0 when it cannot be read. */
uint32_t running_kernel(void);
/* The struct size a kernel of version kv knows: its newest version at kv. */
unsigned kernel_struct_size(const struct cstruct *st, uint32_t kv);
/* What the simulator answered for the same call at the same kernel version. The command
 * fills it (this layer does not use the simulator); the explanation names the check the
 * simulator stopped at when the answers agree, and says so when they do not. */
struct sim_verdict {
	const struct outcome *o; /* its outcome (o->check: the check that gave it) */
	const char *why;         /* its reasons, a line each */
};
/* Explains o, the outcome of plan at kernel kv; sim may be NULL. A live plan may be run
 * again with changes (restored afterwards) to confirm an EINVAL the simulator does not
 * explain. */
void explain_outcome(struct explanation *e, const struct catalog *cat, struct call_plan *plan,
		     const struct outcome *o, uint32_t kv, const struct sim_verdict *sim);
/* The bytes the kernel changed, as "field: before -> after" lines; those of the entries e
 * after the struct (may be NULL) as one "ops[3]: op 0 -> 3, flags 0 -> 1" line an entry. */
void explain_writeback(struct sbuf *sb, const struct catalog *cat, const struct cstruct *st,
		       const struct call_entries *e, const struct outcome *o);
/* The same for any two images of a struct. */
void explain_changes(struct sbuf *sb, const struct catalog *cat, const struct cstruct *st,
		     const unsigned char *before, const unsigned char *after, size_t n);
#endif
