#include "base/sig.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "base/diag.h"
#include "base/banned.h"

static const int caught[] = { SIGINT, SIGTERM, SIGHUP };
static volatile sig_atomic_t interrupted, fatal;
static bool reported;
static pid_t owner;

static void on_signal(int sig)
{
	int e = errno;
	if (getpid() != owner) {
		/* a forked child that has not set its own dispositions yet: it gets the default
		 * action, once this handler returns (the signal is blocked until then) */
		signal(sig, SIG_DFL);
		raise(sig);
	} else {
		if (sig != SIGINT)
			fatal = sig;
		interrupted = 1;
	}
	errno = e;
}

void sig_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(caught); i++)
		sigaddset(&sa.sa_mask, caught[i]);
	sa.sa_flags = 0; /* no SA_RESTART: a blocked read or wait must come back */
	owner = getpid();
	for (size_t i = 0; i < ARRAY_SIZE(caught); i++) {
		struct sigaction old;
		if (sigaction(caught[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(caught[i], &sa, NULL);
	}
}

bool sig_interrupted(void)
{
	return interrupted;
}

int sig_fatal(void)
{
	return fatal;
}

int sig_interrupt_err(void)
{
	if (reported)
		return -1;
	reported = true;
	if (isatty(STDERR_FILENO))
		fputc('\n', stderr); /* after the ^C the terminal echoed */
	return err("interrupted");
}

void sig_clear(void)
{
	if (fatal)
		return;
	interrupted = 0;
	reported = false;
}

int sig_poll(struct pollfd *fds, nfds_t n, int timeout_ms)
{
	sigset_t block, old;
	sigemptyset(&block);
	for (size_t i = 0; i < ARRAY_SIZE(caught); i++)
		sigaddset(&block, caught[i]);
	/* the flag is tested with the signals blocked and ppoll unblocks them atomically, so
	 * one arriving between the test and the wait still ends the wait */
	sigprocmask(SIG_BLOCK, &block, &old);
	struct timespec ts = { timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000 };
	int r = -1;
	errno = ECANCELED;
	if (!interrupted)
		r = ppoll(fds, n, timeout_ms < 0 ? NULL : &ts, &old);
	if (r < 0 && errno == EINTR && interrupted)
		errno = ECANCELED;
	int e = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	errno = e;
	return r;
}

void sig_reraise(void)
{
	int sig = fatal ? fatal : interrupted ? SIGINT : 0;
	if (!sig)
		return;
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	signal(sig, SIG_DFL);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
}
