/* proc: running another program (apt, dpkg-deb, tar, a decompressor) without a shell: every
 * argument is a word of its own, so no name from a package list or a path is ever parsed. */
#ifndef XSC_PROC_H
#define XSC_PROC_H
#include <sys/types.h>
#include "base/sbuf.h"

/* Starts argv[0] (looked up in PATH) in dir (NULL: here) with standard input, output and
 * error on the given descriptors (-1: /dev/null) and no other descriptor of xsc's. The
 * pid, or -1. */
pid_t proc_spawn(char *const argv[], const char *dir, int in, int out, int errfd);
/* Waits for pid: its exit status, 128 + N for a signal, -1 when it cannot be waited for. */
int proc_wait(pid_t pid);
/* Runs argv to its end with standard output and error appended to out: its status, or -1. */
int proc_run(char *const argv[], const char *dir, struct sbuf *out);
#endif
