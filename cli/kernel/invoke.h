/* invoke: one real syscall, in a forked child inside a fresh sandbox, with a timeout.
 * invoke_plan makes a request (model/request.h) of a catalogue entry, the current buffer
 * and ARG=VALUE overrides, in guarded memory, and adds a prepared descriptor and what the
 * call needs (refusing what could change anything outside the sandbox); invoke_run
 * runs a plan and fills an outcome. The child follows the fork protocol: everything is
 * allocated before fork(), the child makes only async-signal-safe calls and reports
 * through one fixed-size record followed by the buffers. */
#ifndef XSC_INVOKE_H
#define XSC_INVOKE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "model/catalog.h"
#include "model/outcome.h"
#include "model/request.h"
#include "kernel/systable.h"
#include "model/structbuf.h"

struct vm_guest;

/* A request (model/request.h) with what only a live call needs. */
struct call_plan {
	struct call_request req; /* its buffers on pages of their own, a guard page after each */
	long nr;
	void *stack;             /* a stack xsc supplied for clone3 with CLONE_VM */
	size_t stack_len;
	enum prep_kind prep;
	int prep_arg;            /* the argument the prepared fd goes into */
	enum safety safety;      /* the build's safety class of a live call (systable) */
	bool ns, clone3, rseq_unregister;
	bool live;               /* may run again (explain's follow-up calls) */
	unsigned timeout_ms;
	struct sbuf notes;       /* what xsc did to the arguments (supplied a stack, …) */
	bool unsafe;             /* a live call whose argument checks --unsafe lifted */
	bool probe;              /* planned with PLAN_PROBE */
	unsigned raw_addresses;  /* trust_raw_addresses(): arguments xsc must not read */
	struct sbuf lifted;      /* the checks it lifted, a line each */
	struct vm_guest *guest;  /* runs in this guest's kernel (kernel/vm.h), not the running one */
};

enum plan_flags {
	PLAN_UNSAFE = 1 << 0, /* may change things outside the sandbox */
	PLAN_SIM = 1 << 1,    /* for the simulator: nothing runs, the call need not exist here */
	PLAN_PROBE = 1 << 2,  /* the prober will set other flag bits and fields: paths stay inside */
};

/* Builds a plan. over[] are "NAME=VALUE" overrides; a "string" for a struct or buffer
 * argument is copied into guarded memory (for the call's own struct, it becomes buf) and
 * checked like the buffer. Reports and returns -1 on bad input, when the catalogue's entry
 * is not the call this build makes (kernel/trust.h), or when an argument could reach
 * outside the sandbox without PLAN_UNSAFE. */
int invoke_plan(const struct catalog *cat, const struct syscall *sc, const struct structbuf *sb,
		const struct buffer_lookup *bufs, int nover, char **over, unsigned flags, unsigned timeout_ms,
		struct call_plan *plan);
void invoke_plan_release(struct call_plan *plan);
/* Runs the plan once. Returns 0 with the outcome filled (a syscall error is an outcome,
 * not a failure), or -1 (reported) when xsc itself could not run it. */
int invoke_run(const struct call_plan *plan, struct outcome *out);
/* invoke_run, but the sandbox directory the call ran in is left in *left (its dir NULL when
 * there was none) for the caller to remove with sandbox_destroy before it makes the next
 * call: the agent of a guest answers xsc first and removes it while xsc prints. */
struct sandbox;
int invoke_run_leaving(const struct call_plan *plan, struct outcome *out, struct sandbox *left);
/* Copies what the kernel left in the struct (out->after) into dst, the session's buffer of
 * len bytes, except the slots where xsc put its own addresses (the stack it supplied for
 * CLONE_VM and its size, the copies "text" and &NAME fields point at) and the kernel left
 * them alone: those keep dst's bytes, so no address of xsc's outlives the call. */
void invoke_writeback(const struct call_plan *plan, const struct outcome *out, unsigned char *dst, size_t len);
/* In a forked child only (async-signal-safe): the descriptor a prep makes, the raw call
 * (clone3 through a stub whose child exits at once, reaped), and giving back glibc's rseq
 * registration. They return -1 (or the errno) with *err set. */
long invoke_prep(enum prep_kind k, int *err);
const char *invoke_prep_name(enum prep_kind k);
long invoke_raw(const struct call_plan *plan, const uint64_t a[6], int *err);
int invoke_rseq_release(void);
/* Where a plan's buffers need memory with a guard page after them, and that memory as a
 * request's (the agent in a guest rebuilds plans in it). */
void *invoke_map_guarded(size_t len, size_t *map_len);
extern const struct request_memory invoke_guarded;
/* True when the syscall can be invoked live at all. */
bool invoke_supported(const struct syscall *sc, const char **why);
#endif
