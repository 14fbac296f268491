/* callref N [DIR [STEPS [-t]]]: the reference for one live 'call openat2': per call it does by
 * hand what xsc's sandboxed call does (cli/kernel/invoke.c, sandbox.c) and nothing else:
 * mkdtemp in DIR (/dev/shm), a pipe, fork; in the child chdir, three setrlimit, openat2,
 * write a record and the struct over the pipe, _exit; in the parent poll/read, waitpid,
 * rmdir. STEPS adds xsc's confinement steps (sandbox_confine, sandbox_landlock), a comma
 * list of: fds (the directory opened O_PATH before fork, a pipe's read end on the standard
 * streams, the report pipe moved to fd 3, close_range), setsid, nnp (PR_SET_NO_NEW_PRIVS),
 * landlock (a ruleset at the kernel's ABI handling its write accesses, one path rule,
 * restrict_self), seccomp (the filter sandbox_seccomp installs just before the call).
 * Runs N calls and exits 0 if every openat2 succeeded. bench/run.sh times it like xsc
 * running a script of N calls, unconfined and with the steps one by one. With a fifth
 * argument -t the child also times each step and callref prints their averages in µs. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

static int step_fds, step_setsid, step_nnp, step_landlock, step_seccomp, landlock_abi;
static uint64_t step_ns[5];       /* in the child: what each step took */
static uint64_t total_ns[5];      /* in the parent: summed over the calls */
static int timing;                /* -t: the child reports step_ns after the struct */

static uint64_t ns_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

struct ll_attr {
	uint64_t fs, net, scoped;
};

struct ll_rule {
	uint64_t allowed;
	int32_t fd;
} __attribute__((packed));

/* in the child, as cli/kernel/sandbox.c does */
static int confine(int *wr, int dirfd)
{
	uint64_t t = ns_now();
	if (step_fds) {
		int null[2];
		if (pipe2(null, 0) < 0)
			return -1;
		int r = fcntl(null[0], F_DUPFD, 5), k = fcntl(*wr, F_DUPFD, 5), d = fcntl(dirfd, F_DUPFD, 5);
		if (dup2(r, 0) < 0 || dup2(r, 1) < 0 || dup2(r, 2) < 0 || dup2(k, 3) < 0 || dup2(d, 4) < 0)
			return -1;
		*wr = 3;
		if (syscall(SYS_close_range, 5, ~0U, 0) < 0)
			return -1;
	}
	step_ns[0] = ns_now() - t;
	t = ns_now();
	if (step_setsid && setsid() < 0)
		return -1;
	step_ns[1] = ns_now() - t;
	t = ns_now();
	if (step_nnp && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -1;
	step_ns[2] = ns_now() - t;
	t = ns_now();
	if (step_landlock && landlock_abi > 0) {
		uint64_t fs = 0x1ff2 | (landlock_abi >= 2 ? 1ULL << 13 : 0) | (landlock_abi >= 3 ? 1ULL << 14 : 0) |
			      (landlock_abi >= 5 ? 1ULL << 15 : 0);
		struct ll_attr attr = { fs, 0, landlock_abi >= 6 ? 3 : 0 };
		long rs = syscall(444, &attr, landlock_abi >= 6 ? sizeof(attr) : 8, 0);
		struct ll_rule rule = { fs, step_fds ? 4 : dirfd };
		if (rs < 0 || syscall(445, rs, 1, &rule, 0) < 0 || syscall(446, rs, 0) < 0)
			return -1;
		close((int)rs);
	}
	step_ns[3] = ns_now() - t;
	t = ns_now();
	if (step_seccomp) {
		struct sock_filter f[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat2, 0, 1),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_write, 0, 1),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_exit_group, 0, 1),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_exit, 0, 1),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_rt_sigreturn, 0, 1),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		};
		struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };
		if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0)
			return -1;
	}
	step_ns[4] = ns_now() - t;
	return 0;
}

struct open_how_ref {
	uint64_t flags, mode, resolve;
};

struct record {
	int32_t stage, err;
	int64_t ret;
	int64_t prep_fd;
	uint32_t size_cell;
	char step[64];
};

static int read_full(int fd, void *p, size_t n)
{
	char *c = p;
	while (n) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		if (poll(&pfd, 1, 2000) <= 0)
			return -1;
		ssize_t got = read(fd, c, n);
		if (got <= 0)
			return -1;
		c += got;
		n -= (size_t)got;
	}
	return 0;
}

static int one_call(const char *base)
{
	char dir[256];
	snprintf(dir, sizeof(dir), "%s/callref-XXXXXX", base);
	if (!mkdtemp(dir))
		return -1;
	int fds[2], dirfd = -1;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	if ((step_fds || step_landlock) && (dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -1;
	struct open_how_ref how = { 0, 0, 0 };
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		struct rlimit fsize = { 1 << 20, 1 << 20 }, core = { 0, 0 }, cpu = { 3, 4 };
		struct record rec;
		memset(&rec, 0, sizeof(rec));
		close(fds[0]);
		setrlimit(RLIMIT_FSIZE, &fsize);
		setrlimit(RLIMIT_CORE, &core);
		setrlimit(RLIMIT_CPU, &cpu);
		if (chdir(dir) < 0)
			_exit(1);
		int wr = fds[1];
		if (confine(&wr, dirfd) < 0)
			_exit(1);
		long r = syscall(SYS_openat2, AT_FDCWD, ".", &how, sizeof(how));
		rec.stage = 1;
		rec.ret = r;
		rec.err = r < 0 ? 1 : 0;
		if (write(wr, &rec, sizeof(rec)) != (ssize_t)sizeof(rec) ||
		    write(wr, &how, sizeof(how)) != (ssize_t)sizeof(how) ||
		    (timing && write(wr, step_ns, sizeof(step_ns)) != (ssize_t)sizeof(step_ns)))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	struct record rec;
	struct open_how_ref back;
	uint64_t ns[5];
	int ok = read_full(fds[0], &rec, sizeof(rec)) == 0 && read_full(fds[0], &back, sizeof(back)) == 0 &&
		 (!timing || read_full(fds[0], ns, sizeof(ns)) == 0);
	for (int i = 0; ok && timing && i < 5; i++)
		total_ns[i] += ns[i];
	int st;
	while (waitpid(pid, &st, 0) < 0)
		;
	close(fds[0]);
	if (dirfd >= 0)
		close(dirfd);
	rmdir(dir);
	return ok && rec.ret >= 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;
	const char *base = argc > 2 ? argv[2] : "/dev/shm";
	const char *steps = argc > 3 ? argv[3] : "";
	timing = argc > 4 && !strcmp(argv[4], "-t");
	step_fds = strstr(steps, "fds") != NULL;
	step_setsid = strstr(steps, "setsid") != NULL;
	step_nnp = strstr(steps, "nnp") != NULL;
	step_landlock = strstr(steps, "landlock") != NULL;
	step_seccomp = strstr(steps, "seccomp") != NULL;
	if (step_landlock) {
		long abi = syscall(444, NULL, 0, 1);
		landlock_abi = abi > 0 ? (int)abi : 0;
	}
	for (int i = 0; i < n; i++)
		if (one_call(base) < 0) {
			fprintf(stderr, "callref: call %d failed\n", i);
			return 1;
		}
	if (timing && n > 0) /* the steps' own time in the child, in µs per call */
		printf("fds %.1f setsid %.1f nnp %.1f landlock %.1f seccomp %.1f\n", total_ns[0] / 1e3 / n, total_ns[1] / 1e3 / n,
		       total_ns[2] / 1e3 / n, total_ns[3] / 1e3 / n, total_ns[4] / 1e3 / n);
	return 0;
}
