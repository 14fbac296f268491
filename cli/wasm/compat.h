/* Force-included into every file of the WebAssembly build (make wasm). WASI's libc numbers
 * errno its own way (EINVAL is 28) and lacks Linux's rarer names; the catalogue, the simulator
 * and xlat.c speak Linux's numbers, so they get the uapi's asm-generic values here. Errors that
 * WASI's libc itself sets keep WASI's numbers: only the simulator's answers use these. */
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
 * the Makefile from the native libc (cli/wasm/absent.c xsc_strerror) */
#include <string.h>
char *xsc_strerror(int e);
#define strerror xsc_strerror
