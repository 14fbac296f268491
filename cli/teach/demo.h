/* demo: the teaching demos. A demo is a list of steps: narration, real xsc commands (the
 * command layer runs them in a scratch session, so the output is the commands' own), and
 * computed parts (the double-fetch race with real threads, figures drawn from the
 * catalogue). Engines never print: computed parts return their text and their numbers. */
#ifndef XSC_DEMO_H
#define XSC_DEMO_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/sbuf.h"
#include "model/catalog.h"

enum demo_step_kind {
	DS_SAY,       /* narration */
	DS_RUN,       /* an xsc command; "target live" becomes "target sim V" under --sim V */
	DS_LIVE_RUN,  /* a command that only makes sense on the running kernel: skipped under --sim */
	DS_COMPUTE,   /* a computed part: fn */
	DS_SIM_COMPUTE, /* a computed part standing in for the DS_LIVE_RUN before it under --sim */
};

/* In a DS_RUN's command and a DS_SAY's narration, "{sim}" is the --sim version (else
 * DEMO_SIM_DEFAULT, for demos of proposals no running kernel has) and "{kernel}" names where
 * "target live" sends the calls: "the running kernel" or "a simulated V kernel". */
#define DEMO_SIM_DEFAULT "6.18"

#define DEMO_MAX_FACTS 12

struct demo_fact {
	const char *key;  /* snake_case, stable */
	uint64_t value;
	bool varies;      /* differs from run to run: shown in text only with --verbose */
};

struct demo_result {
	struct sbuf text;                 /* narration, one sentence a line */
	struct demo_fact facts[DEMO_MAX_FACTS];
	size_t nfacts;
};

struct demo_opts {
	uint32_t sim_kv;                  /* 0: live */
	unsigned timeout_ms;
	bool verbose;
};

struct demo_step {
	enum demo_step_kind kind;
	const char *text;                 /* narration or command */
	int (*fn)(const struct catalog *cat, const struct demo_opts *o, struct demo_result *r);
};

struct demo {
	const char *name, *title;
	const struct demo_step *steps;
	const char *needs;  /* the syscall its story is about: --sim before it came is refused, or NULL */
};

extern const struct demo demos[]; /* ends with a NULL name */
const struct demo *demo_find(const char *name);

void demo_result_init(struct demo_result *r);
void demo_result_release(struct demo_result *r);

/* The double fetch, with real threads: one flips a size embedded in a shared struct between
 * a small and a huge value while the other copies the struct with each design, for up to
 * iterations tries or ms milliseconds. */
struct race_result {
	uint64_t iterations;
	uint64_t naive_fooled;       /* checked a small size, then copied with a huge one */
	uint64_t fetch_once_fooled;  /* reads the embedded size once (sched_setattr's fix) */
	uint64_t separate_fooled;    /* the size is an argument: one value, checked and used */
	uint64_t elapsed_us;
};
int race_double_fetch(uint64_t iterations, unsigned ms, struct race_result *r);
#endif
