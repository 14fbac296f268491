/* proberef NAME=COUNT...: the raw cost of a probe's syscalls, the reference of the probe
 * budget (DESIGN §9: "within 2x of its own syscalls' raw cost plus one fork").
 *
 * One forked child issues, back to back, COUNT calls of each named syscall, where the counts
 * are `xsc probe --json`'s syscalls_issued. The kind is kept where it matters for cost: real,
 * successful calls for openat2 (open "/" + close), clone3 (a child that exits at once +
 * wait), landlock_create_ruleset (a ruleset fd + close), perf_event_open (a disabled dummy
 * software event + close), io_uring_setup (a 1-entry ring + close), userfaultfd (+ close),
 * statx ("/"), sched_setattr (SCHED_NORMAL, no change), sched_getattr. Every other name is
 * replayed as that syscall number with all-zero arguments (it fails at once: EFAULT, EINVAL,
 * EBADF), and the ioctl interfaces as ioctl(-1, 0): a cheaper stand-in than the prober's real
 * calls, which makes the ratio stricter, not looser. Prints nothing; exit 0. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#endif

static const struct { const char *name; long nr; } numbers[] = {
	{ "bpf", SYS_bpf }, { "cachestat", 451 }, { "file_getattr", 468 }, { "file_setattr", 469 },
	{ "renameat2", SYS_renameat2 }, { "lsm_get_self_attr", 459 }, { "lsm_set_self_attr", 460 },
	{ "lsm_list_modules", 461 }, { "mount_setattr", 442 }, { "open_tree_attr", 467 }, { "rseq", 334 },
	{ "statmount", 457 }, { "listmount", 458 }, { "setxattrat", 463 }, { "getxattrat", 464 },
};

static void one(const char *name)
{
	if (!strcmp(name, "openat2")) {
		uint64_t how[3] = { O_RDONLY | O_CLOEXEC, 0, 0 };
		long fd = syscall(SYS_openat2, AT_FDCWD, "/", how, sizeof(how));
		if (fd >= 0)
			close((int)fd);
	} else if (!strcmp(name, "clone3")) {
		uint64_t args[11] = { 0 };
		args[4] = SIGCHLD;
		long pid = syscall(SYS_clone3, args, sizeof(args));
		if (pid == 0)
			syscall(SYS_exit_group, 0);
		if (pid > 0)
			waitpid((pid_t)pid, NULL, 0);
	} else if (!strcmp(name, "landlock_create_ruleset")) {
		uint64_t attr[3] = { 1, 0, 0 };
		long fd = syscall(SYS_landlock_create_ruleset, attr, sizeof(attr), 0);
		if (fd >= 0)
			close((int)fd);
	} else if (!strcmp(name, "perf_event_open")) {
		unsigned char attr[136];
		memset(attr, 0, sizeof(attr));
		uint32_t type = 1 /* SOFTWARE */, size = sizeof(attr);
		uint64_t config = 9 /* DUMMY */, bits = 0x61; /* disabled, exclude_kernel, exclude_hv */
		memcpy(attr, &type, 4);
		memcpy(attr + 4, &size, 4);
		memcpy(attr + 8, &config, 8);
		memcpy(attr + 40, &bits, 8);
		long fd = syscall(SYS_perf_event_open, attr, 0, -1, -1, 8 /* FD_CLOEXEC */);
		if (fd >= 0)
			close((int)fd);
	} else if (!strcmp(name, "io_uring_setup")) {
		unsigned char p[120];
		memset(p, 0, sizeof(p));
		long fd = syscall(SYS_io_uring_setup, 1, p);
		if (fd >= 0)
			close((int)fd);
	} else if (!strcmp(name, "userfaultfd")) {
		long fd = syscall(SYS_userfaultfd, O_CLOEXEC | 1 /* UFFD_USER_MODE_ONLY */);
		if (fd >= 0)
			close((int)fd);
	} else if (!strcmp(name, "statx")) {
		unsigned char buf[256];
		syscall(SYS_statx, AT_FDCWD, "/", 0, 0x7ff, buf);
	} else if (!strcmp(name, "sched_setattr")) {
		uint32_t attr[14] = { 56 };
		syscall(SYS_sched_setattr, 0, attr, 0);
	} else if (!strcmp(name, "sched_getattr")) {
		uint32_t attr[14] = { 0 };
		syscall(SYS_sched_getattr, 0, attr, 56, 0);
	} else {
		for (size_t i = 0; i < sizeof(numbers) / sizeof(numbers[0]); i++)
			if (!strcmp(name, numbers[i].name)) {
				syscall(numbers[i].nr, 0, 0, 0, 0, 0, 0);
				return;
			}
		ioctl(-1, 0); /* UFFDIO_API, PIDFD_GET_INFO, IORING_REGISTER_PROBE, … */
	}
}

int main(int argc, char **argv)
{
	pid_t c = fork();
	if (c == 0) {
		for (int i = 1; i < argc; i++) {
			char *eq = strchr(argv[i], '=');
			if (!eq)
				continue;
			*eq = '\0';
			for (long n = atol(eq + 1); n > 0; n--)
				one(argv[i]);
		}
		_exit(0);
	}
	int st = 0;
	if (c < 0 || waitpid(c, &st, 0) < 0)
		return 1;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}
