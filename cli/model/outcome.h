/* outcome: what one call did, live or simulated; the engines fill it, commands print it. */
#ifndef XSC_OUTCOME_H
#define XSC_OUTCOME_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/sbuf.h"

struct check; /* model/catalog.h */

#define OUTCOME_MAX_POSSIBLE 24

enum outcome_stage {
	OS_NOT_RUN,     /* refused before anything ran */
	OS_SETUP,       /* the sandbox could not be set up; err says why */
	OS_CALLED,      /* the syscall ran: ret and err are its answer */
	OS_TIMEOUT,     /* killed after the timeout */
	OS_SIGNALED,    /* the child died of a signal */
};

struct outcome {
	enum outcome_stage stage;
	long ret;
	int err;                 /* errno when ret == -1 */
	int signal;
	uint64_t args[6];        /* the raw arguments */
	unsigned raw_addresses;  /* bit i: args[i] is an address the user gave, never read by xsc */
	uint64_t size;           /* the size the kernel was given */
	unsigned char *before;   /* the struct buffer as passed (heap, len bytes) */
	unsigned char *after;    /* as the kernel left it */
	size_t len;
	unsigned char *extra;    /* an output buffer of another argument, after the call */
	size_t extra_len;
	int extra_arg;           /* its argument index, or -1 */
	unsigned char *pointed[8]; /* buffers &NAME fields point at, as the kernel left them */
	size_t pointed_len[8];
	const char *pointed_name[8];
	size_t npointed;
	bool has_size_cell;      /* the size travelled through a pointer (lsm calls) */
	uint32_t size_cell_before, size_cell_after;
	uint64_t elapsed_us;
	struct sbuf setup_error; /* OS_SETUP: what failed */
	const struct check *check; /* simulated: the catalogue check that gave the answer, or NULL
				    * (a size step, a generic test, or success); live: NULL */
	/* simulated: checks that depend on the world the simulator could not decide make the
	 * answer uncertain: possible[] holds every outcome it considered (0: success, an errno,
	 * or minus a signal: the caller killed by it, an effect of success) in the order met, the answer among them, and depends_on the env kinds (bits of
	 * enum env_kind) they depend on. A certain answer has npossible 0. */
	bool simulated, uncertain;
	int possible[OUTCOME_MAX_POSSIBLE];
	size_t npossible;
	unsigned depends_on;
	bool plausible_pid;        /* simulated: ret is a pid the simulator made up (clone3) */
	/* simulated success: 1 for each byte of after (known) and of extra (extra_known) that holds
	 * a value the catalogue's fills give; NULL when none does */
	unsigned char *known, *extra_known;
};

void outcome_init(struct outcome *o);
void outcome_release(struct outcome *o);
/* Adds e (0: success) to o's possible outcomes, once. */
void outcome_add_possible(struct outcome *o, int e);
#endif
