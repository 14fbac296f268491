/* The WebAssembly build's (make wasm) answers for what WASI has no notion of: processes,
 * signals, users, temporary files. Each fails with ENOSYS, or says the neutral thing (never
 * interrupted, the user is root), so the simulator and the commands run; what needs the native
 * program (live calls, VMs, headers, the site) is not linked at all: cli/wasm/native.c refuses
 * the commands that would reach it, and cli/wasm/wasi.js makes any call that still does an
 * error that names it. */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <sys/stat.h>
#include "base/sig.h"
#include "base/proc.h"
#include "base/diag.h"
#include "kernel/vm.h"
#include <sys/prctl.h>
#include <sys/wait.h>

static int absent(void)
{
	errno = ENOSYS;
	return -1;
}

/* The browser simulates root, as the lessons and the reference assume and as the suite's golden
 * transcripts were made (tests/README.md): the simulator's privilege fact (sim.c privilege_fact)
 * then rules out EPERM and EACCES as it does natively for root. WASI's stat gives every file
 * uid 0, so the ownership checks of trust.c and util.c agree with this. */
uid_t geteuid(void) { return 0; }
int dup(int fd) { (void)fd; return absent(); }
int dup2(int fd, int to) { (void)fd; (void)to; return absent(); }
int pipe2(int fds[2], int flags) { (void)fds; (void)flags; return absent(); }
char *realpath(const char *restrict path, char *restrict resolved) { (void)path; (void)resolved; absent(); return NULL; }
char *mkdtemp(char *tmpl) { (void)tmpl; absent(); return NULL; }
int madvise(void *addr, size_t len, int advice) { (void)addr; (void)len; (void)advice; return 0; }
int sigaction(int sig, const struct sigaction *act, struct sigaction *old) { (void)sig; (void)act; (void)old; return absent(); }

/* A file of its own, made with O_EXCL, for write_file_atomic (the catalogue's cache): names
 * from a counter, as no other process shares this file system. Any failure tries the next
 * name. */
int mkstemp(char *tmpl)
{
	static unsigned seq;
	size_t n = strlen(tmpl);
	if (n < 6 || strcmp(tmpl + n - 6, "XXXXXX")) {
		errno = EINVAL;
		return -1;
	}
	int fd = -1;
	for (int tries = 0; fd < 0 && tries < 64; tries++) {
		snprintf(tmpl + n - 6, 7, "%06u", ++seq % 1000000u);
		fd = open(tmpl, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	}
	return fd;
}

/* base/outfile.c's calls. A WASI file has no mode bits: the replaced file's mode is kept
 * trivially. renameat2 with RENAME_NOREPLACE: no other process shares this in-memory file
 * system, so looking before renaming cannot race. */
int fchmod(int fd, mode_t mode) { (void)fd; (void)mode; return 0; }
int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned flags)
{
	struct stat st;
	if (flags & ~(unsigned)RENAME_NOREPLACE) {
		errno = EINVAL;
		return -1;
	}
	if ((flags & RENAME_NOREPLACE) && fstatat(newdirfd, newpath, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		errno = EEXIST;
		return -1;
	}
	return renameat(olddirfd, oldpath, newdirfd, newpath);
}

/* No signals reach a WASI program: nothing to install, never interrupted. */
void sig_install(void) {}
bool sig_interrupted(void) { return false; }
int sig_fatal(void) { return 0; }
int sig_interrupt_err(void) { return 0; }
void sig_clear(void) {}
void sig_reraise(void) {}
void sig_catch_prompt(bool on) { (void)on; }
int sig_prompt_asked(void) { return 0; }
void sig_obey(void) {}
void sig_track_dir(const char *dir) { (void)dir; }
void sig_untrack_dir(const char *dir) { (void)dir; }

/* No processes: nothing spawns. */
pid_t proc_spawn(char *const argv[], const char *dir, int in, int out, int errfd)
{
	(void)argv; (void)dir; (void)in; (void)out; (void)errfd;
	return absent();
}
int proc_wait(pid_t pid) { (void)pid; return absent(); }
int proc_run(char *const argv[], const char *dir, struct sbuf *out) { (void)argv; (void)dir; (void)out; return absent(); }

/* No guests: 'target vm' boots none, so there is never one to stop. */
int vm_start(const struct kimage *k, struct vm_guest **g)
{
	(void)k;
	*g = NULL;
	return err("target vm needs the native program (qemu and a kernel image)");
}
void vm_stop(struct vm_guest *g) { (void)g; }
bool vm_alive(struct vm_guest *g) { (void)g; return false; }

/* kernel/invoke.c's process calls: a plan is built, but nothing is ever run here */
const unsigned int __rseq_size = 0;
const long __rseq_offset = 0;
int prctl(int option, ...) { (void)option; return absent(); }
long syscall(long nr, ...) { (void)nr; return absent(); }
pid_t waitpid(pid_t pid, int *status, int options) { (void)pid; (void)status; (void)options; errno = ECHILD; return -1; }
pid_t fork(void) { return absent(); }
unsigned alarm(unsigned seconds) { (void)seconds; return 0; }
pid_t getppid(void) { return 1; }
int kill(pid_t pid, int sig) { (void)pid; (void)sig; return absent(); }
const char *sigabbrev_np(int sig) { (void)sig; return NULL; }

/* strerror for Linux's errno numbers (cli/wasm/compat.h): WASI's libc numbers them its own way.
 * Named as libc's, so wasi-libc's printf (%m) and perror call this one too. */
char *strerror(int e)
{
	static const char *const text[] = {
#include <linux-strerror.h>
	};
	static char unknown[32];
	if (e >= 0 && (size_t)e < sizeof(text) / sizeof(text[0]))
		return (char *)text[e];
	snprintf(unknown, sizeof(unknown), "Unknown error %d", e);
	return unknown;
}
