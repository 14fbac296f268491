/* vmagent: the agent's half of 'target vm' (guest/init.c runs it as /init in the guest).
 * A call from the wire becomes a call plan in guarded memory, as invoke_plan makes one, and
 * invoke_run runs it: the same sandbox, confinement and report as a live call's. Addresses
 * are the agent's own: every argument or struct slot that held one of xsc's addresses is
 * pointed at the agent's copy, and put back in the bytes returned, so what the kernel
 * wrote is all xsc sees change. */
#ifndef XSC_VMAGENT_H
#define XSC_VMAGENT_H
#include "kernel/invoke.h"
#include "kernel/vmwire.h"

struct vm_agent_call {
	struct syscall sc;         /* what invoke_run reads of the catalogue's entry */
	struct sarg args[6];
	struct call_plan plan;
	struct vw_call wire;       /* as received (its buffer holds xsc's addresses) */
	char *texts[VW_MAX_SLOTS]; /* strings that struct slots point at */
};

/* Builds the plan from a decoded call (taking over c's buffers). 0, or -1 when the call
 * cannot be made here (the reason in why). */
int vm_agent_plan(struct vm_agent_call *a, struct vw_call *c, struct sbuf *why);
/* The result to send for an outcome of a's plan (its buffers point into o: send it before
 * releasing o). */
void vm_agent_result(const struct vm_agent_call *a, struct outcome *o, struct vw_result *r);
void vm_agent_release(struct vm_agent_call *a);
#endif
