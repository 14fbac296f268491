/* sandbox: a fresh directory per call, and the child-side steps that confine a call to it.
 * The directory holds 'file' (a small regular file), 'a' (for renames), 'dir/' and 'mnt/'
 * (where namespace calls mount a private tmpfs). */
#ifndef XSC_SANDBOX_H
#define XSC_SANDBOX_H
#include <stdbool.h>

struct sandbox {
	char *dir; /* absolute path; heap */
};

/* Creates the directory and its files. Returns 0 or -1 (reported). */
int sandbox_create(struct sandbox *sb);
/* Removes the directory and everything a call left in it; safe to call twice. */
void sandbox_destroy(struct sandbox *sb);

/* In the child, before the call: only async-signal-safe steps. With ns, enters private user
 * and mount namespaces and mounts a tmpfs on mnt/. Returns 0, or the errno of the failing
 * step with *step naming it. */
int sandbox_enter(const struct sandbox *sb, bool ns, unsigned timeout_s, const char **step);
#endif
