/* owndir: an output directory xsc owns, as 'docs -o DIR' writes it. A marker file in it
 * ("xsc WHAT", then one relative path a line) says xsc made it and lists every file the
 * last run wrote: a directory without one is refused unless it is new or empty, and only
 * listed files are ever removed. Nothing is written through a symbolic link. */
#ifndef XSC_OWNDIR_H
#define XSC_OWNDIR_H
#include <stdbool.h>
#include <stddef.h>

struct owndir {
	int fd;
	char *path;          /* as given, for messages */
	const char *marker;  /* file name, e.g. ".xsc-docs" */
	const char *what;    /* "docs" */
	char **old;          /* listed by the marker on arrival */
	size_t nold;
	char **wrote;        /* by this run */
	size_t nwrote, alloc;
};

/* Opens or creates path (and its parents) for what; planned are the paths this run means
 * to write: the marker lists them with the old ones before anything is written, so an
 * interrupted run leaves nothing a later run does not know. Temporaries of dead runs are
 * removed. 0, or -1 (reported). */
int owndir_begin(struct owndir *d, const char *path, const char *marker, const char *what,
		 const char *const *planned, size_t nplanned);
/* rel ("syscalls/openat2.md") holds data, replaced whole. 0, or -1 (reported). */
int owndir_put(struct owndir *d, const char *rel, const void *data, size_t len);
/* Removes the listed files of the last run this run did not write, and lists this run's.
 * 0, or -1 (reported). */
int owndir_finish(struct owndir *d);
void owndir_release(struct owndir *d);
/* Reads a marker's list (paths that are safe and relative) from dirfd; NULL-free arrays.
 * 0 with *n = 0 when there is no marker or it is not for what; -1 when it cannot be read. */
int owndir_read_marker(int dirfd, const char *marker, const char *what, char ***list, size_t *n, int *found);
/* dirfd has no entries. */
bool owndir_is_empty(int dirfd);
/* rel may be named by a marker: relative, plain components, no temporaries. */
bool owndir_rel_ok(const char *rel, const char *marker);
#endif
