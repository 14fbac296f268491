#include "base/proc.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
#include "base/banned.h"

pid_t proc_spawn(char *const argv[], const char *dir, int in, int out, int errfd)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	int null = open("/dev/null", O_RDWR);
	if (dup2(in >= 0 ? in : null, 0) < 0 || dup2(out >= 0 ? out : null, 1) < 0 ||
	    dup2(errfd >= 0 ? errfd : null, 2) < 0 || (dir && chdir(dir) < 0))
		_exit(127);
	closefrom(3);
	execvp(argv[0], argv);
	_exit(127);
}

int proc_wait(pid_t pid)
{
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int proc_run(char *const argv[], const char *dir, struct sbuf *out)
{
	int p[2];
	char chunk[4096];
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	pid_t pid = proc_spawn(argv, dir, -1, p[1], p[1]);
	close(p[1]);
	for (;;) {
		ssize_t n = read(p[0], chunk, sizeof(chunk));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		sbuf_add(out, chunk, (size_t)n);
	}
	close(p[0]);
	return pid < 0 ? -1 : proc_wait(pid);
}
