#include "base/sig.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "base/diag.h"
#include "base/banned.h"

static const int caught[] = { SIGINT, SIGTERM, SIGHUP };
static const int at_prompt[] = { SIGTSTP, SIGQUIT }; /* caught only while the prompt waits */
static bool prompt_ignored[ARRAY_SIZE(at_prompt)];
static volatile sig_atomic_t interrupted, fatal, prompt_asked;
static bool reported;
static pid_t owner;

/* ---- the scratch directories alive now, for a signal handler to remove ----
 * A slot is written while unused and then published (release); the handler reads only
 * published slots (acquire), so it never sees half a path, in any thread. */

#define TRACK_MAX 16
#define TRACK_DEPTH 16 /* sandboxes are a few levels deep; deeper is left to remove_tree */
static char tracked[TRACK_MAX][PATH_MAX];
static int tracked_used[TRACK_MAX];

void sig_track_dir(const char *dir)
{
	size_t n = strlen(dir);
	for (size_t i = 0; i < TRACK_MAX && n < PATH_MAX; i++)
		if (!__atomic_load_n(&tracked_used[i], __ATOMIC_ACQUIRE)) {
			memcpy(tracked[i], dir, n + 1);
			__atomic_store_n(&tracked_used[i], 1, __ATOMIC_RELEASE);
			return;
		}
	/* all taken: this one is removed only by its owner's own clean-up */
}

void sig_untrack_dir(const char *dir)
{
	for (size_t i = 0; i < TRACK_MAX; i++)
		if (__atomic_load_n(&tracked_used[i], __ATOMIC_ACQUIRE) && !strcmp(tracked[i], dir))
			__atomic_store_n(&tracked_used[i], 0, __ATOMIC_RELEASE);
}

/* Async-signal-safe rm -r of name under dfd: openat, getdents64, unlinkat only; stays on
 * the file system it starts on and follows no link. */
static void rm_at(int dfd, const char *name, dev_t dev, int depth)
{
	if (unlinkat(dfd, name, 0) == 0 || errno != EISDIR || depth > TRACK_DEPTH)
		return;
	int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return;
	if (fstat(fd, &st) == 0 && (depth == 0 || st.st_dev == dev)) {
		char buf[2048];
		long n;
		/* entries removed while reading may move others past the offset: read again */
		for (int pass = 0; pass < 64 && (n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0; pass++) {
			for (long off = 0; off < n;) {
				struct dirent64 *d = (struct dirent64 *)(buf + off);
				off += d->d_reclen;
				if (strcmp(d->d_name, ".") && strcmp(d->d_name, ".."))
					rm_at(fd, d->d_name, st.st_dev, depth + 1);
			}
			lseek(fd, 0, SEEK_SET);
		}
	}
	close(fd);
	unlinkat(dfd, name, AT_REMOVEDIR);
}

static void remove_tracked(void)
{
	for (size_t i = 0; i < TRACK_MAX; i++)
		if (__atomic_load_n(&tracked_used[i], __ATOMIC_ACQUIRE))
			rm_at(AT_FDCWD, tracked[i], 0, 0);
}

/* ---- the handlers ---- */

static void on_signal(int sig)
{
	int e = errno;
	if (getpid() != owner) {
		/* a forked child that has not set its own dispositions yet: it gets the default
		 * action, once this handler returns (the signal is blocked until then) */
		signal(sig, SIG_DFL);
		raise(sig);
	} else if (sig != SIGINT && fatal) {
		/* a second SIGTERM or SIGHUP: the command did not stop in time; leave now, taking
		 * its scratch directories along (the history has every command already) */
		remove_tracked();
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
	for (size_t i = 0; i < ARRAY_SIZE(at_prompt); i++) {
		struct sigaction old;
		prompt_ignored[i] = sigaction(at_prompt[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN;
	}
}

/* ---- ^Z and ^\ at the prompt ---- */

static void on_prompt_signal(int sig)
{
	prompt_asked = sig;
}

void sig_default(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(caught) + ARRAY_SIZE(at_prompt); i++) {
		int sig = i < ARRAY_SIZE(caught) ? caught[i] : at_prompt[i - ARRAY_SIZE(caught)];
		struct sigaction old;
		if (sigaction(sig, NULL, &old) == 0 && (old.sa_handler == on_signal || old.sa_handler == on_prompt_signal))
			signal(sig, SIG_DFL);
	}
}

void sig_catch_prompt(bool on)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on ? on_prompt_signal : SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(at_prompt); i++)
		if (!prompt_ignored[i])
			sigaction(at_prompt[i], &sa, NULL);
}

int sig_prompt_asked(void)
{
	return prompt_asked;
}

void sig_obey(void)
{
	int sig = prompt_asked;
	prompt_asked = 0;
	sig_catch_prompt(false);
	raise(sig); /* SIGTSTP returns when continued (the shell's fg); SIGQUIT does not */
	sig_catch_prompt(true);
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
	sigaddset(&block, SIGTSTP);
	sigaddset(&block, SIGQUIT);
	/* the flag is tested with the signals blocked and ppoll unblocks them atomically, so
	 * one arriving between the test and the wait still ends the wait */
	sigprocmask(SIG_BLOCK, &block, &old);
	struct timespec ts = { timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000 };
	int r = -1;
	errno = interrupted ? ECANCELED : EINTR;
	if (!interrupted && !prompt_asked)
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
	remove_tracked(); /* what a command's own clean-up missed */
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, sig);
	signal(sig, SIG_DFL);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
}
