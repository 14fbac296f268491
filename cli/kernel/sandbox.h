/* sandbox: a fresh directory per call, and the child-side steps that confine a call to it.
 * The directory holds, when the call's paths name them, 'file' (a small regular file), 'a'
 * (for renames), 'dir/' and 'mnt/' (where namespace calls mount a private tmpfs). */
#ifndef XSC_SANDBOX_H
#define XSC_SANDBOX_H
#include <stdbool.h>

struct sandbox {
	char *dir; /* absolute path; heap */
};

enum sandbox_needs { SB_FILE = 1 << 0, SB_A = 1 << 1, SB_DIR = 1 << 2, SB_MNT = 1 << 3 };
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
#endif
