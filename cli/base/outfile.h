/* outfile: files written whole or not at all, relative to a directory descriptor and
 * without following symbolic links (transcripts, exports, the reference, the site).
 * A file is written under a temporary name in its own directory, ".xsc-tmp.PID.NAME",
 * then renamed into place; the PID lets a later run tell a dead run's leftovers
 * (outfile_sweep) from a running one's. */
#ifndef XSC_OUTFILE_H
#define XSC_OUTFILE_H
#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define OUTFILE_TMP_PREFIX ".xsc-tmp."

enum outfile_flags {
	OF_FORCE = 1 << 0, /* replace an existing file (keeping its mode); else EEXIST */
	OF_SYNC = 1 << 1,  /* fsync before the rename */
	OF_BENEATH = 1 << 2, /* outfile_begin_path: the directory is opened as outdir_open_beneath does */
};

struct outfile {
	int dirfd;         /* owned when opened by outfile_begin_path */
	bool own_dirfd;
	int fd;            /* the file being written; stays valid after the commit */
	char *name, *tmp;  /* in dirfd */
	unsigned flags;
};

/* Starts name in dirfd: refuses an existing name unless OF_FORCE (errno EEXIST), refuses a
 * name with '/' or a dot name (EINVAL); creates the temporary, with the existing file's
 * mode under OF_FORCE. 0, or -1 with errno set and nothing left behind. */
int outfile_begin_at(struct outfile *f, int dirfd, const char *name, unsigned flags);
/* The same for a path: its directory is opened (a symbolic link as the last component of
 * the directory is refused), the file name is the part after the last '/'. */
int outfile_begin_path(struct outfile *f, const char *path, unsigned flags);
int outfile_write(struct outfile *f, const void *data, size_t len); /* 0, or -1 (errno) */
/* Puts the file in place (never over a file that appeared meanwhile, unless OF_FORCE).
 * f->fd stays open for appends; outfile_release closes it. 0, or -1 (errno, temp removed). */
int outfile_commit(struct outfile *f);
/* Removes the temporary if not committed, closes what is open. */
void outfile_release(struct outfile *f);
/* One call: path holds data, whole or not at all. 0, or -1 (errno). */
int outfile_put(const char *path, const void *data, size_t len, unsigned flags);

/* Opens dirfd/name as a directory without following a symbolic link; creates it (0777
 * less the umask) first when create. The descriptor, or -1 (errno; ELOOP for a link). */
int outdir_open_at(int dirfd, const char *name, bool create);
/* Opens the directory dir beneath the current directory one component at a time, none a
 * symbolic link: what a checked path is written through, so nothing swapped in after the
 * check (outpath_beneath) is followed. The descriptor, or -1 (EPERM for an absolute path or
 * "..", ELOOP for a link). */
int outdir_open_beneath(const char *dir);
/* Is path beneath the current directory: relative, no ".." component, and no symbolic link
 * among the components that exist (each directory opened by descriptor, O_NOFOLLOW)? 0, or
 * -1 with errno EPERM (absolute, "..") or ELOOP (a link). What scripts may write. */
int outpath_beneath(const char *path);
/* Removes temporaries of dead runs from dirfd (regular files only). */
void outfile_sweep(int dirfd);
/* A listing of dirfd's directory on a descriptor of its own (a dup would share, and move,
 * dirfd's read position), or NULL; closedir() frees it. */
DIR *outfile_opendir(int dirfd);
/* name as one safe path component: not empty, no '/', not "." or "..". */
bool outfile_name_ok(const char *name);
#endif
