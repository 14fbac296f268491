/* A host program of the sys_features C API: the library must wait only for its own children
 * and leave the host's process state as it found it. Before the first call (which probes:
 * run it with an empty XDG_CACHE_HOME) the host makes a child that exits 42 and is not yet
 * reaped, installs a SIGCHLD handler and a SIGUSR1 disposition, blocks SIGUSR2, and notes
 * its rlimits, scheduler, nice value, cwd, umask and subreaper flag. Afterwards the child's
 * status must still be the host's to collect, and everything else must be unchanged.
 * Prints "ok"/"not ok" lines; exit 1 when anything failed. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xsc/sys_features.h>

static int failed;
static volatile sig_atomic_t chld;

static void check(int cond, const char *what)
{
	printf("%s - %s\n", cond ? "ok" : "not ok", what);
	failed |= !cond;
}

static void on_chld(int sig)
{
	(void)sig;
	chld++;
}

struct state {
	struct rlimit rl[RLIM_NLIMITS];
	int policy, nice, subreaper;
	mode_t umask;
	char cwd[PATH_MAX];
	struct sigaction chld, usr1, pipe, intr;
	sigset_t mask;
};

static void take(struct state *s)
{
	memset(s, 0, sizeof(*s));
	for (int r = 0; r < RLIM_NLIMITS; r++)
		getrlimit(r, &s->rl[r]);
	s->policy = sched_getscheduler(0);
	errno = 0;
	s->nice = getpriority(PRIO_PROCESS, 0);
	prctl(PR_GET_CHILD_SUBREAPER, &s->subreaper);
	s->umask = umask(022);
	umask(s->umask);
	if (!getcwd(s->cwd, sizeof(s->cwd)))
		s->cwd[0] = '\0';
	sigaction(SIGCHLD, NULL, &s->chld);
	sigaction(SIGUSR1, NULL, &s->usr1);
	sigaction(SIGPIPE, NULL, &s->pipe);
	sigaction(SIGINT, NULL, &s->intr);
	sigprocmask(SIG_BLOCK, NULL, &s->mask);
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_chld;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGUSR1, SIG_IGN);
	sigset_t usr2;
	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	sigprocmask(SIG_BLOCK, &usr2, NULL);

	pid_t kid = fork();
	if (kid == 0)
		_exit(42);
	/* wait until it is a zombie, without reaping it */
	siginfo_t si;
	memset(&si, 0, sizeof(si));
	waitid(P_PID, (id_t)kid, &si, WEXITED | WNOWAIT);

	struct state before, after;
	take(&before);
	uint32_t map[8];
	int n = xsc_sys_features_by_name("openat2", map, 8);
	check(n > 0, "xsc_sys_features_by_name(openat2) answers");
	n = xsc_sys_features_by_name("clone3", map, 8);
	check(n > 0, "xsc_sys_features_by_name(clone3) answers (the prober made processes)");
	take(&after);

	int st = 0;
	pid_t w = waitpid(kid, &st, WNOHANG);
	check(w == kid && WIFEXITED(st) && WEXITSTATUS(st) == 42, "the host's own child is still the host's to reap, with its status 42");
	errno = 0;
	check(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD, "the library left no child of its own behind");
	check(!memcmp(before.rl, after.rl, sizeof(before.rl)), "rlimits unchanged");
	check(before.policy == after.policy && before.nice == after.nice, "scheduler policy and nice value unchanged");
	check(!strcmp(before.cwd, after.cwd), "working directory unchanged");
	check(before.umask == after.umask, "umask unchanged");
	check(before.subreaper == after.subreaper && after.subreaper == 0, "the host is not made a subreaper");
	check(after.chld.sa_handler == on_chld && after.usr1.sa_handler == SIG_IGN &&
	      after.pipe.sa_handler == before.pipe.sa_handler && after.intr.sa_handler == before.intr.sa_handler,
	      "signal dispositions unchanged");
	check(!memcmp(&before.mask, &after.mask, sizeof(before.mask)), "signal mask unchanged");
	return failed;
}
