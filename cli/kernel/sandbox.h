/* sandbox: a fresh directory per call, and the child-side steps that confine a call to it.
 * The directory holds, when the call's paths name them, 'file' (a small regular file), 'a'
 * (for renames), 'dir/' and 'mnt/' (where namespace calls mount a private tmpfs). */
#ifndef XSC_SANDBOX_H
#define XSC_SANDBOX_H
#include <stdbool.h>
#include "model/world.h"

struct sandbox {
	char *dir;   /* absolute path; heap */
	int dirfd;   /* the directory, O_PATH|O_CLOEXEC: the Landlock rule's anchor (-1: none) */
	bool new_session; /* xsc has a controlling terminal: the child calls setsid() */
};

/* Bits of world_entries (model/world.h: the table the simulator's model reads too). */
enum sandbox_needs { SB_FILE = 1 << WORLD_FILE, SB_A = 1 << WORLD_A, SB_DIR = 1 << WORLD_DIR, SB_MNT = 1 << WORLD_MNT };
/* Creates the directory with the entries needs asks for. Returns 0 or -1 (reported). */
int sandbox_create(struct sandbox *sb, unsigned needs);
/* The entry a relative path starts with, as a sandbox_needs bit (0: none). */
unsigned sandbox_needs(const char *path);
/* Removes the directory and everything a call left in it; safe to call twice. */
void sandbox_destroy(struct sandbox *sb);

/* In the child, before the call: only async-signal-safe steps. With ns, enters private user
 * and mount namespaces and mounts a tmpfs on mnt/. Returns 0, or the errno of the failing
 * step with *step naming it. */
int sandbox_enter(const struct sandbox *sb, bool ns, unsigned timeout_s, const char **step);

/* The confinement layers, in the child after sandbox_enter and before the call, in the
 * order bubblewrap and minijail use. sandbox_confine makes the first three:
 *   1. descriptors: *keep (the report pipe, or NULL) moves to fd 3 and sb->dirfd to the next
 *      one (*keep and sb->dirfd are updated); every other descriptor the process inherited is
 *      closed (close_range); stdin, stdout and stderr are the read end of a pipe whose write
 *      end is closed: reads see EOF, writes fail with EBADF (as on /dev/null opened
 *      read-only; not /dev/null itself: that inode is shared by the whole system, and a call
 *      handed fd 1 with AT_EMPTY_PATH could set its xattrs);
 *   2. setsid(): a new session without a controlling terminal (no TIOCSTI through it, no
 *      signals from the user's terminal), when xsc has a controlling terminal
 *      (sb->new_session). Without one the child has none either and, not leading a session,
 *      cannot acquire one; and setsid is not free: it makes a scheduler autogroup, and
 *      moving into it reschedules the child (tens to hundreds of µs on a busy machine);
 *   3. PR_SET_NO_NEW_PRIVS;
 * and sandbox_landlock the fourth, then closes sb->dirfd:
 *   4. with landlock_abi > 0, a Landlock domain that handles every write-type file access
 *      the ABI knows (and, from ABI 6, scopes signals and abstract unix sockets to the
 *      domain) and allows writes only beneath the sandbox directory; reads stay allowed
 *      everywhere. landlock_abi 0 (no Landlock, or --unsafe) only closes sb->dirfd.
 * Mounts must be made before 4 (a Landlock domain forbids mount changes) and descriptors
 * the call needs (pidfd, userfaultfd, io_uring) after 1. Async-signal-safe. They return 0,
 * or the errno of the failing step with *step naming it. */
int sandbox_confine(struct sandbox *sb, int *keep, const char **step);
int sandbox_landlock(struct sandbox *sb, int landlock_abi, const char **step);
/* The last layer, just before a live call, after every other step of the child: a seccomp
 * filter that allows the call's own number and only what reporting needs (write, exit,
 * exit_group, rt_sigreturn, and wait4 for a call that makes processes) and kills the
 * process on anything else, or on another syscall ABI. So code the call could divert the
 * child into (rseq's abort_ip, for one) can make no other system call. The probe, which
 * makes many calls in one child, does without it, and so does a child run under valgrind,
 * whose own system calls the filter would kill. Returns 0 or the errno, as above. */
int sandbox_seccomp(long nr, bool makes_processes, const char **step);
#endif
