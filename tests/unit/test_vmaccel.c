/* 'target vm' chooses KVM only when the host's /dev/kvm opens, answers the API version qemu
 * needs, makes a VM and is backed by kvm_intel or kvm_amd (a nested-virtualisation device
 * without them makes VMs that stock kernels cannot boot in); everything else is TCG, with the
 * first thing missing said. The probe's answers are faked here; the real probe runs too. */
#include <errno.h>
#include <string.h>
#include <linux/kvm.h>
#include "kernel/vm.h"
#include "tap.h"

int main(void)
{
	char why[160];
	struct vm_kvm_host good = { true, 0, KVM_API_VERSION, true, 0 }, h;
	ok(vm_kvm_choose(&good, why, sizeof(why)) && !strcmp(why, "KVM"), "all of it: KVM");
	h = (struct vm_kvm_host){ false, ENOENT, -1, false, 0 };
	ok(!vm_kvm_choose(&h, why, sizeof(why)) && strstr(why, "TCG") && strstr(why, "cannot be opened"), "no /dev/kvm: TCG (%s)", why);
	h = (struct vm_kvm_host){ true, EACCES, -1, false, 0 };
	ok(!vm_kvm_choose(&h, why, sizeof(why)) && strstr(why, "Permission denied"), "not writable: TCG (%s)", why);
	h = (struct vm_kvm_host){ true, 0, 11, false, 0 };
	ok(!vm_kvm_choose(&h, why, sizeof(why)) && strstr(why, "API version 11"), "another API version: TCG (%s)", why);
	h = (struct vm_kvm_host){ true, 0, KVM_API_VERSION, false, EINVAL };
	ok(!vm_kvm_choose(&h, why, sizeof(why)) && strstr(why, "refuses to make a VM"), "no VM made: TCG (%s)", why);
	h = (struct vm_kvm_host){ false, 0, KVM_API_VERSION, true, 0 };
	ok(!vm_kvm_choose(&h, why, sizeof(why)) && strstr(why, "neither kvm_intel nor kvm_amd"),
	   "a VM made without kvm_intel or kvm_amd (kvm_pvm): TCG (%s)", why);
	/* the real host: whatever it has, the answer and its words agree */
	const char *w;
	bool kvm = vm_kvm_usable(&w);
	ok(kvm == !strcmp(w, "KVM") && (kvm || !strncmp(w, "software emulation (TCG): ", 26)), "this host: %s", w);
	return tap_done();
}
