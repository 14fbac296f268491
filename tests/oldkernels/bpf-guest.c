/* The /init of an older kernel's guest (tests/oldkernels/bpf-union.sh): runs the bpf calls
 * listed in /cases, one a line "CMD BYTE FD" (bpf command number, the byte of a 168-byte
 * zeroed attr set to 1 or -1 for none, FD 1 to put -1 in the attr's first word, the command's
 * descriptor, so that the command's own first failure is EBADF; FD 2 to point the attr's
 * license, at offset 16 as BPF_PROG_LOAD has it, at the string "GPL"), and prints "= NAME" (the
 * errno's name, or "ok") for each on the serial console, then "END", then powers off.
 * Nothing of xsc runs here: the answers are the kernel's alone. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *errno_name(int e)
{
	static const struct { int e; const char *name; } names[] = {
		{ EINVAL, "EINVAL" }, { E2BIG, "E2BIG" }, { EBADF, "EBADF" }, { EFAULT, "EFAULT" },
		{ EBADFD, "EBADFD" }, { EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { ENOSYS, "ENOSYS" },
		{ EACCES, "EACCES" }, { ENOMEM, "ENOMEM" }, { EOPNOTSUPP, "EOPNOTSUPP" },
	};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (names[i].e == e)
			return names[i].name;
	return "E?";
}

static void run(FILE *out, int cmd, int byte, int fd)
{
	static unsigned char attr[168] __attribute__((aligned(8)));

	memset(attr, 0, sizeof attr);
	static const char license[] = "GPL";

	if (fd == 1)
		memset(attr, 0xff, 4);
	if (fd == 2) {
		unsigned long long p = (unsigned long long)(unsigned long)license;
		memcpy(attr + 16, &p, sizeof p);
	}
	if (byte >= 0 && byte < (int)sizeof attr)
		attr[byte] = 1;
	long r = syscall(SYS_bpf, cmd, attr, sizeof attr);
	fprintf(out, "= %s\n", r < 0 ? errno_name(errno) : "ok");
	if (r >= 0)
		close((int)r);
}

int main(void)
{
	/* the serial console by its device: an initramfs without /dev/console gives /init no
	 * standard output */
	mkdir("/dev", 0755);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	FILE *out = fopen("/dev/ttyS0", "w");
	FILE *in = fopen("/cases", "r");
	int cmd, byte, fd;

	if (out && in) {
		setvbuf(out, NULL, _IOLBF, 0);
		fprintf(out, "\nBEGIN\n");
		while (fscanf(in, "%d %d %d", &cmd, &byte, &fd) == 3)
			run(out, cmd, byte, fd);
		fprintf(out, "END\n");
		fflush(out);
	}
	reboot(RB_POWER_OFF);
	return 0;
}
