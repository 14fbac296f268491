/* measure: the same calls in many kernels, for 'matrix --measured' and 'measure'. Plans are
 * made once (invoke_plan, so a call is confined and checked as a live one); then each real
 * kernel's calls run in a worker process of its own, which boots that kernel's guest
 * (kernel/vm.h), makes every call there in order and sends each answer to xsc as a
 * fixed-size record over a pipe; at most `parallel` workers run at once (two on two
 * cores: TCG keeps a core busy per guest). The running kernel is a target too, called in
 * xsc's own process. An interrupt stops the workers, and their guests with them. */
#ifndef XSC_MEASURE_H
#define XSC_MEASURE_H
#include <stddef.h>
#include <stdint.h>
#include "model/catalog.h"
#include "model/outcome.h"
#include "model/structbuf.h"

struct kimage;

struct measure_call {
	const struct syscall *sc;
	const struct structbuf *b; /* the struct buffer the call passes */
	int nover;
	char **over;               /* "NAME=VALUE" overrides, as 'call' takes them */
};

enum measure_status {
	MS_ANSWERED,  /* the kernel answered: stage, ret, err, signal */
	MS_NOT_RUN,   /* the call cannot be made here (measure_run's refused[] says why) */
	MS_NO_ANSWER, /* its kernel's guest did not come up or stopped before this call */
};

struct measure_answer {
	enum measure_status status;
	enum outcome_stage stage;
	long ret;
	int err, signal;
	char setup[160];           /* OS_SETUP: what could not be set up */
};

struct measure_target {
	const struct kimage *k;    /* a real kernel in qemu, or NULL: the running kernel */
	/* filled by measure_run */
	uint32_t kv;               /* the kernel's full version (6.1.192) */
	char how[192];             /* vm_how's words, or "the running kernel" */
	char release[65];          /* the guest's uname -r ("" for the running kernel) */
	char *failed;              /* heap: why its guest did not come up or stopped, else NULL */
	uint64_t elapsed_ms;       /* boot and calls */
};

/* Makes every call on every target: ans[c * nt + t] is call c's answer on target t;
 * refused[c] (heap, or NULL) says why call c cannot be made at all. A kernel whose guest does
 * not come up is not a failure of the run: its answers are MS_NO_ANSWER and t->failed says
 * why. 0, or -1 (reported) when interrupted or when no worker can be started. */
int measure_run(const struct catalog *cat, const struct measure_call *calls, size_t ncalls, struct measure_target *t,
		size_t nt, unsigned parallel, unsigned timeout_ms, struct measure_answer *ans, char **refused);
void measure_target_release(struct measure_target *t);
#endif
