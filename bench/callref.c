/* callref N: the reference for one live 'call openat2': per call it does by hand what xsc's
 * sandboxed call does (cli/kernel/invoke.c, sandbox.c) and nothing else: mkdtemp on /dev/shm,
 * a pipe, fork; in the child chdir, three setrlimit, openat2, write a record and the struct
 * over the pipe, _exit; in the parent poll/read, waitpid, rmdir. Runs N calls and exits 0 if
 * every openat2 succeeded. bench/run.sh times it like xsc running a script of N calls. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SYS_openat2
#define SYS_openat2 437
#endif

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
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0)
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
		long r = syscall(SYS_openat2, AT_FDCWD, ".", &how, sizeof(how));
		rec.stage = 1;
		rec.ret = r;
		rec.err = r < 0 ? 1 : 0;
		if (write(fds[1], &rec, sizeof(rec)) != (ssize_t)sizeof(rec) ||
		    write(fds[1], &how, sizeof(how)) != (ssize_t)sizeof(how))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	struct record rec;
	struct open_how_ref back;
	int ok = read_full(fds[0], &rec, sizeof(rec)) == 0 && read_full(fds[0], &back, sizeof(back)) == 0;
	int st;
	while (waitpid(pid, &st, 0) < 0)
		;
	close(fds[0]);
	rmdir(dir);
	return ok && rec.ret >= 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;
	const char *base = argc > 2 ? argv[2] : "/dev/shm";
	for (int i = 0; i < n; i++)
		if (one_call(base) < 0) {
			fprintf(stderr, "callref: call %d failed\n", i);
			return 1;
		}
	return 0;
}
