/* world: the sandbox a live call runs in, as the simulator models it. One table says what a
 * sandbox holds: kernel/sandbox.c creates its entries from it and numbers the descriptors as
 * it says (tests/unit/test_sandbox.c holds both to it), and the simulator decides a check
 * that depends on the world (a path that exists, a descriptor that is open, a pointer xsc
 * supplied) from it, so a simulated answer about the sandbox is the live one. */
#ifndef XSC_WORLD_H
#define XSC_WORLD_H
#include <stdbool.h>
#include <stddef.h>

enum world_entry_id { WORLD_FILE, WORLD_A, WORLD_DIR, WORLD_MNT, WORLD_NENTRIES };
enum world_entry_type { WE_FILE, WE_DIR };
struct world_entry {
	const char *name;
	enum world_entry_type type;
	const char *why;
};
/* The entries a sandbox directory can hold, each made when a call's path names it (mnt/ also
 * for a namespace call, which mounts a private tmpfs on it). */
extern const struct world_entry world_entries[WORLD_NENTRIES];

/* The descriptors of the call's process: 0-2 are the read end of a pipe whose write end is
 * closed (reads see EOF, writes fail), 3 is the report pipe's write end; everything else is
 * closed. The descriptor a call needs prepared (a pidfd, a userfaultfd, ...) is opened next,
 * and a descriptor the call returns takes the lowest free number after that. */
enum { WORLD_STDIO_FDS = 3, WORLD_REPORT_FD = 3, WORLD_FIRST_FREE_FD = 4 };
/* The pid a simulated clone3 answers: any number would do, the kernel picks it (marked as
 * made up wherever it is shown). */
enum { WORLD_PLAUSIBLE_PID = 1000 };

/* The entry of the sandbox named by name[0..len), or -1. */
int world_entry_find(const char *name, size_t len);

/* A path looked up in the sandbox (relative to it: the working directory and the prepared
 * directory descriptor are the sandbox). */
enum world_lookup {
	WL_FILE,      /* a regular file */
	WL_DIR,       /* a directory */
	WL_MISSING,   /* a component does not exist (ENOENT) */
	WL_NOTDIR,    /* a component before the last is not a directory (ENOTDIR) */
	WL_UNKNOWN,   /* outside the sandbox (absolute or ".."): the host's world; below dir/ and
		       * mnt/ nothing exists (mnt/ of a namespace call is an empty tmpfs) */
};
enum world_lookup world_lookup(const char *path);
/* The directory path's last name goes into (what a call that creates it looks up). */
enum world_lookup world_lookup_parent(const char *path);
#endif
