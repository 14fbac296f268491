/* vm: real kernels in qemu ('target vm VERSION'). A guest boots one of Debian's images
 * (kernel/kimage.h) with xsc's agent as /init: a static build of this layer's call runner
 * (cli/guest/init.c), which receives call plans and returns outcomes over the first serial port
 * (kernel/vmwire.h); invoke_run hands a plan whose guest is set to vm_run, so a call, its
 * explanation's follow-up calls and its write-back go as a live call's do.
 * Guests have no network and 256 MiB; qemu runs in a process group of its own (the
 * terminal's ^C reaches xsc, which stops the call) and dies with xsc (PR_SET_PDEATHSIG),
 * so no qemu outlives it however it ends; the agent powers off after an idle timeout. */
#ifndef XSC_VM_H
#define XSC_VM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "model/outcome.h"

struct call_plan;
struct kimage;
struct vm_guest;

/* Boots a guest of k; 0 with *g running, or -1 (reported, with the console's last words). */
int vm_start(const struct kimage *k, struct vm_guest **g);
/* Powers the guest off (qemu is killed if it does not go within a second) and removes its
 * scratch directory. NULL is fine. */
void vm_stop(struct vm_guest *g);
/* Is its qemu still running (it stops by itself after the idle timeout)? */
bool vm_alive(struct vm_guest *g);
/* Runs a live plan in the guest; as invoke_run: 0 with the outcome, or -1 (reported). A guest
 * that stops answering, or a ^C, stops the guest. */
int vm_run(struct vm_guest *g, const struct call_plan *plan, struct outcome *out);
/* The prober in the guest over the catalogue of cat (its files, read from cat->dir, are
 * sent): the reports of names (all when n == 0) in run, its kernel the guest's. 0, or -1
 * (reported). */
struct probe_run;
struct catalog;
int vm_probe(struct vm_guest *g, const struct catalog *cat, const char *const *names, size_t n, struct probe_run *run);
/* "vm 6.1 (Debian 6.1.192-3)" */
const char *vm_target(const struct vm_guest *g);
/* What booted and how: "booted in 2.4 s, TCG (software emulation: …)" */
const char *vm_how(const struct vm_guest *g);
uint32_t vm_kernel(const struct vm_guest *g); /* the full version, 6.1.192 */
/* The release the guest's kernel gave (uname -r: "6.1.0-57-cloud-amd64"). */
const char *vm_release(const struct vm_guest *g);
/* What accelerator qemu uses here, and why ("KVM", or "software emulation (TCG): ..."):
 * true for KVM. Probed once (vm_kvm_probe, vm_kvm_choose). */
bool vm_kvm_usable(const char **why);
/* What the host offers for KVM: the kvm_intel or kvm_amd module, then /dev/kvm opened
 * read-write, KVM_GET_API_VERSION and a KVM_CREATE_VM, as qemu does them. */
struct vm_kvm_host {
	bool module;
	int open_errno;   /* 0: /dev/kvm opened */
	int api;          /* KVM_GET_API_VERSION's answer, or -1 */
	bool created;     /* KVM_CREATE_VM made a VM */
	int create_errno;
};
void vm_kvm_probe(struct vm_kvm_host *h);
/* Pure: KVM only when all of it holds; else TCG, with the first thing missing in why. */
bool vm_kvm_choose(const struct vm_kvm_host *h, char *why, size_t n);
#endif
