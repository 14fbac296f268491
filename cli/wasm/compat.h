/* Force-included into every file of the WebAssembly build (make wasm). WASI's libc numbers
 * errno its own way (EINVAL is 28) and lacks Linux's rarer names; the catalogue, the simulator
 * and xlat.c speak Linux's numbers, so they get the uapi's asm-generic values here. Errors that
 * WASI's libc itself sets are turned into these at the end of this file. */
#include <errno.h>
#include <errno-undef.h>
#include <asm-generic/errno.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/types.h>

/* POSIX calls WASI leaves out; cli/wasm/absent.c answers them (no processes, no users) */
uid_t geteuid(void);
int dup(int fd);
char *realpath(const char *restrict path, char *restrict resolved);
char *mkdtemp(char *tmpl);
int mkstemp(char *tmpl);
/* What base/outfile.c (save, transcript, export) needs beyond WASI: files have no modes, and
 * renameat2's RENAME_NOREPLACE is answered by cli/wasm/absent.c */
int fchmod(int fd, mode_t mode);
#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE 1
#endif
int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned flags);

/* What pager.c needs to compile: WASI has no signal actions and no terminal size. The calls
 * fail (cli/wasm/absent.c), so pager_start runs no pager and term_columns says 0 (unknown). */
#include <signal.h>
#include <sys/ioctl.h>
#ifndef F_DUPFD_CLOEXEC
#define F_DUPFD_CLOEXEC 1030
#endif
#ifndef TIOCGWINSZ
#define TIOCGWINSZ 0x5413
#endif
struct sigaction { void (*sa_handler)(int); };
struct winsize { unsigned short ws_row, ws_col, ws_xpixel, ws_ypixel; };
int sigaction(int sig, const struct sigaction *act, struct sigaction *old);
int pipe2(int fds[2], int flags);
int dup2(int fd, int to);

/* wasi-libc's emulated mmap refuses MAP_NORESERVE (EINVAL): the arena's reservation
 * (util.h ARENA_RESERVE) is then plain memory, grown into the module's linear memory */
#include <sys/mman.h>
#undef MAP_NORESERVE
#define MAP_NORESERVE 0

/* What kernel/invoke.c (the call's plan, built for the simulator too) names; cli/wasm/absent.c
 * answers each with ENOSYS. Its rseq release is never reached (__rseq_size is 0). */
#define __builtin_thread_pointer() ((void *)0)
unsigned alarm(unsigned seconds);
pid_t getppid(void);
int kill(pid_t pid, int sig);
const char *sigabbrev_np(int sig);

/* kernel/systable.c's guards of live calls (never run here) name two flags WASI lacks; the
 * uapi's values (asm-generic/fcntl.h). WASI's other O_ flags are not Linux's numbers. */
#define O_PATH 010000000
#define O_TMPFILE (020000000 | O_DIRECTORY)

/* The errno numbers above are Linux's, so their messages are too: glibc's texts, written by
 * the Makefile from the native libc. cli/wasm/absent.c defines strerror itself, in place of
 * wasi-libc's (whose archive member is then never linked), so printf's %m says them too. */
#include <string.h>

/* wasi-libc sets WASI's errno numbers when a call fails; each libc call xsc makes that sets
 * errno goes through XSC_LINUX_ERRNO, which hands Linux's number back (cli/wasm/errno.c). The
 * headers that declare them come first, so the macros touch calls only. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
int xsc_errno_enter(void);
void xsc_errno_leave(int saved);
#define XSC_LINUX_ERRNO(f, ...) ({ int xsc_saved_ = xsc_errno_enter(); \
	__typeof__(f(__VA_ARGS__)) xsc_r_ = f(__VA_ARGS__); xsc_errno_leave(xsc_saved_); xsc_r_; })
#define open(...) XSC_LINUX_ERRNO(open, __VA_ARGS__)
#define openat(...) XSC_LINUX_ERRNO(openat, __VA_ARGS__)
#define fopen(...) XSC_LINUX_ERRNO(fopen, __VA_ARGS__)
#define fdopen(...) XSC_LINUX_ERRNO(fdopen, __VA_ARGS__)
#define close(...) XSC_LINUX_ERRNO(close, __VA_ARGS__)
#define fclose(...) XSC_LINUX_ERRNO(fclose, __VA_ARGS__)
#define fflush(...) XSC_LINUX_ERRNO(fflush, __VA_ARGS__)
#define fwrite(...) XSC_LINUX_ERRNO(fwrite, __VA_ARGS__)
#define read(...) XSC_LINUX_ERRNO(read, __VA_ARGS__)
#define write(...) XSC_LINUX_ERRNO(write, __VA_ARGS__)
#define stat(...) XSC_LINUX_ERRNO(stat, __VA_ARGS__)
#define lstat(...) XSC_LINUX_ERRNO(lstat, __VA_ARGS__)
#define fstat(...) XSC_LINUX_ERRNO(fstat, __VA_ARGS__)
#define fstatat(...) XSC_LINUX_ERRNO(fstatat, __VA_ARGS__)
#define mkdir(...) XSC_LINUX_ERRNO(mkdir, __VA_ARGS__)
#define rename(...) XSC_LINUX_ERRNO(rename, __VA_ARGS__)
#define unlink(...) XSC_LINUX_ERRNO(unlink, __VA_ARGS__)
#define unlinkat(...) XSC_LINUX_ERRNO(unlinkat, __VA_ARGS__)
#define rmdir(...) XSC_LINUX_ERRNO(rmdir, __VA_ARGS__)
#define opendir(...) XSC_LINUX_ERRNO(opendir, __VA_ARGS__)
#define fdopendir(...) XSC_LINUX_ERRNO(fdopendir, __VA_ARGS__)
#define readdir(...) XSC_LINUX_ERRNO(readdir, __VA_ARGS__)
#define access(...) XSC_LINUX_ERRNO(access, __VA_ARGS__)
#define fsync(...) XSC_LINUX_ERRNO(fsync, __VA_ARGS__)
#define readlink(...) XSC_LINUX_ERRNO(readlink, __VA_ARGS__)
#define utimensat(...) XSC_LINUX_ERRNO(utimensat, __VA_ARGS__)
#define mkdirat(...) XSC_LINUX_ERRNO(mkdirat, __VA_ARGS__)
#define renameat(...) XSC_LINUX_ERRNO(renameat, __VA_ARGS__)
#define linkat(...) XSC_LINUX_ERRNO(linkat, __VA_ARGS__)
