/* base/sig: the flags the handlers set, the wait they end, and the scratch directories a
 * second SIGTERM removes from within its handler. */
#include "tap.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "base/diag.h"
#include "base/sig.h"
#include "base/util.h"

static void touch(const char *dir, const char *name)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	int fd = open(p, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0)
		close(fd);
}

/* a tree a sandboxed call could leave: files, nested directories, a link out to victim */
static void fill(const char *dir, const char *victim)
{
	char p[512];
	touch(dir, "file");
	snprintf(p, sizeof(p), "%s/a", dir);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/a/b", dir);
	mkdir(p, 0700);
	touch(p, "deep");
	for (int i = 0; i < 300; i++) { /* more entries than one getdents64 buffer holds */
		char n[16];
		snprintf(n, sizeof(n), "f%03d", i);
		touch(dir, n);
	}
	snprintf(p, sizeof(p), "%s/link", dir);
	if (symlink(victim, p) < 0)
		perror("symlink");
}

static void interrupt_and_poll(void)
{
	ok(!sig_interrupted() && !sig_fatal(), "no signal yet");
	raise(SIGINT);
	ok(sig_interrupted() && !sig_fatal(), "SIGINT interrupts, and is not fatal");
	int fds[2];
	if (pipe(fds) < 0)
		return;
	struct pollfd p = { fds[0], POLLIN, 0 };
	errno = 0;
	int r = sig_poll(&p, 1, 5000);
	ok(r == -1 && errno == ECANCELED, "sig_poll after SIGINT: ECANCELED at once, not after 5 s");
	struct diag_sink q = diag_swap_sink(DIAG_DISCARD);
	ok(sig_interrupt_err() == -1, "the interrupted error is -1");
	diag_swap_sink(q);
	sig_clear();
	ok(!sig_interrupted(), "sig_clear forgets a SIGINT");
	r = sig_poll(&p, 1, 10);
	ok(r == 0, "sig_poll times out when nothing came");
	close(fds[0]);
	close(fds[1]);
}

/* In a child: track a filled scratch directory, then two SIGTERMs; the second ends it. */
static void second_term_removes(const char *base)
{
	char tmpl[512], victim[512], kept[600];
	snprintf(victim, sizeof(victim), "%s/victim", base);
	mkdir(victim, 0700);
	touch(victim, "keep");
	snprintf(kept, sizeof(kept), "%s/keep", victim);
	/* this run's pid in the name: make tests running side by side share the scratch base */
	snprintf(tmpl, sizeof(tmpl), "%s/xsc-test-sig-%ld-XXXXXX", scratch_dir(), (long)getpid());
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		sig_install();
		char *dir = scratch_mkdtemp(tmpl);
		if (!dir)
			_exit(2);
		fill(dir, victim);
		raise(SIGTERM);
		if (!sig_fatal())
			_exit(3);
		raise(SIGTERM);
		_exit(4); /* not reached: the second one ends the process */
	}
	int status = 0;
	waitpid(pid, &status, 0);
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM, "a second SIGTERM ends xsc by SIGTERM (status %#x)",
	   status);
	/* the child's directory name is random: none with the prefix may remain */
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "ls -d %s/xsc-test-sig-%ld-* >/dev/null 2>&1", scratch_dir(), (long)getpid());
	ok(system(cmd) != 0, "its tracked scratch directory, 300 files and nested directories, is gone");
	struct stat st;
	ok(stat(kept, &st) == 0, "the link out of it was not followed");
	unlink(kept);
	rmdir(victim);
}

int main(void)
{
	/* a scratch place of its own: other runs on the machine make xsc-* directories too */
	char base[] = "/tmp/xsc-unit-sig-XXXXXX";
	if (!mkdtemp(base))
		return 1;
	setenv("XSC_SANDBOX_DIR", base, 1);
	fflush(stdout);
	/* the default dispositions sig_install finds in a terminal: a shell without job control
	 * starts a background job with SIGINT ignored, which sig_install rightly leaves alone */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	sig_install();
	interrupt_and_poll();
	second_term_removes(base);
	rmdir(base);
	return tap_done();
}
