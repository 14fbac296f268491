/* outfile: whole-or-nothing files, relative to directory descriptors. See outfile.h. */
#include "base/outfile.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/sbuf.h"
#include "base/util.h"
#include "base/banned.h"

bool outfile_name_ok(const char *name)
{
	return *name && !strchr(name, '/') && strcmp(name, ".") && strcmp(name, "..");
}

int outdir_open_at(int dirfd, const char *name, bool create)
{
	if (create && mkdirat(dirfd, name, 0777) < 0 && errno != EEXIST)
		return -1;
	return openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

/* One component of path beneath fd: 0 to go on, 1 to stop (the rest is not there yet),
 * -1 (errno). A directory replaces *fd by its own descriptor. */
static int beneath_step(int *fd, const char *c, bool last)
{
	struct stat st;
	if (!strcmp(c, ".."))
		return errno = EPERM, -1;
	if (!strcmp(c, ".") || !*c)
		return 0;
	if (last) /* missing is fine, a link is not */
		return fstatat(*fd, c, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode) ? (errno = ELOOP, -1) : 0;
	/* each directory by its descriptor, so no link swapped in is followed */
	int sub = outdir_open_at(*fd, c, false);
	if (sub < 0 && errno == ENOENT)
		return 1; /* what makes the rest makes no link */
	if (sub < 0 && errno == ENOTDIR && fstatat(*fd, c, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
		errno = ELOOP;
	if (sub < 0)
		return -1;
	if (*fd >= 0)
		close(*fd);
	*fd = sub;
	return 0;
}

/* Has path a ".." component? */
static bool climbs(const char *path)
{
	for (const char *c = path; c; c = strchr(c, '/') ? strchr(c, '/') + 1 : NULL)
		if (c[0] == '.' && c[1] == '.' && (!c[2] || c[2] == '/'))
			return true;
	return false;
}

int outdir_open_beneath(const char *dir)
{
	if (*dir == '/' || climbs(dir))
		return errno = EPERM, -1;
	char *p = xstrdup(dir);
	int fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	for (char *c = p, *slash; fd >= 0 && c; c = slash ? slash + 1 : NULL) {
		if ((slash = strchr(c, '/')))
			*slash = '\0';
		if (!*c || !strcmp(c, "."))
			continue;
		int sub = outdir_open_at(fd, c, false);
		struct stat st; /* O_DIRECTORY meeting a link says ENOTDIR: name it as the link it is */
		int e = sub < 0 && errno == ENOTDIR && fstatat(fd, c, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
				S_ISLNK(st.st_mode) ? ELOOP : errno;
		close(fd);
		fd = sub;
		errno = e;
	}
	free(p);
	return fd;
}

int outpath_beneath(const char *path)
{
	if (!*path || *path == '/' || climbs(path))
		return errno = EPERM, -1;
	char *p = xstrdup(path);
	int fd = AT_FDCWD, r = 0;
	for (char *c = p; !r;) {
		char *slash = strchr(c, '/');
		if (slash)
			*slash = '\0';
		r = beneath_step(&fd, c, !slash);
		if (!slash || r > 0) /* past a missing directory only ".." can still climb */
			break;
		c = slash + 1;
	}
	int e = errno;
	if (fd >= 0)
		close(fd);
	free(p);
	errno = e;
	return r < 0 ? -1 : 0;
}

static void outfile_init(struct outfile *f)
{
	memset(f, 0, sizeof(*f));
	f->dirfd = f->fd = -1;
}

int outfile_begin_at(struct outfile *f, int dirfd, const char *name, unsigned flags)
{
	outfile_init(f);
	if (!outfile_name_ok(name)) {
		errno = EINVAL;
		return -1;
	}
	struct stat st;
	bool exists = fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0;
	if (exists && !(flags & OF_FORCE)) {
		errno = EEXIST;
		return -1;
	}
	if (exists && S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		return -1;
	}
	struct sbuf tmp = SBUF_INIT;
	sbuf_addf(&tmp, OUTFILE_TMP_PREFIX "%ld.%s", (long)getpid(), name);
	int fd = openat(dirfd, tmp.buf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	if (fd < 0) {
		sbuf_release(&tmp);
		return -1;
	}
	/* a replaced file keeps its permissions: --force changes the text, not who may read it */
	if (exists && S_ISREG(st.st_mode) && fchmod(fd, st.st_mode & 07777) < 0) {
		int e = errno;
		close(fd);
		unlinkat(dirfd, tmp.buf, 0);
		sbuf_release(&tmp);
		errno = e;
		return -1;
	}
	f->dirfd = dirfd;
	f->fd = fd;
	f->name = xstrdup(name);
	f->tmp = sbuf_detach(&tmp);
	f->flags = flags;
	return 0;
}

int outfile_begin_path(struct outfile *f, const char *path, unsigned flags)
{
	outfile_init(f);
	const char *slash = strrchr(path, '/');
	struct sbuf dir = SBUF_INIT;
	if (slash)
		sbuf_add(&dir, path, slash == path ? 1 : (size_t)(slash - path));
	else
		sbuf_adds(&dir, ".");
	int dfd = flags & OF_BENEATH ? outdir_open_beneath(dir.buf) : open(dir.buf, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	sbuf_release(&dir);
	if (dfd < 0)
		return -1;
	if (outfile_begin_at(f, dfd, slash ? slash + 1 : path, flags) < 0) {
		int e = errno;
		close(dfd);
		errno = e;
		return -1;
	}
	f->own_dirfd = true;
	return 0;
}

int outfile_write(struct outfile *f, const void *data, size_t len)
{
	const char *p = data;
	while (len) {
		ssize_t n = write(f->fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int place(struct outfile *f)
{
	if (f->flags & OF_FORCE)
		return renameat(f->dirfd, f->tmp, f->dirfd, f->name);
	if (renameat2(f->dirfd, f->tmp, f->dirfd, f->name, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	/* a file system without RENAME_NOREPLACE: a hard link refuses an existing name too */
	if (linkat(f->dirfd, f->tmp, f->dirfd, f->name, 0) < 0)
		return -1;
	unlinkat(f->dirfd, f->tmp, 0);
	return 0;
}

int outfile_commit(struct outfile *f)
{
	if ((f->flags & OF_SYNC) && fsync(f->fd) < 0)
		goto fail;
	if (place(f) < 0)
		goto fail;
	FREE_AND_NULL(f->tmp);
	return 0;
fail:;
	int e = errno;
	unlinkat(f->dirfd, f->tmp, 0);
	FREE_AND_NULL(f->tmp);
	errno = e;
	return -1;
}

void outfile_release(struct outfile *f)
{
	if (f->tmp)
		unlinkat(f->dirfd, f->tmp, 0);
	if (f->fd >= 0)
		close(f->fd);
	if (f->own_dirfd && f->dirfd >= 0)
		close(f->dirfd);
	free(f->tmp);
	free(f->name);
	outfile_init(f);
}

int outfile_put(const char *path, const void *data, size_t len, unsigned flags)
{
	struct outfile f;
	if (outfile_begin_path(&f, path, flags) < 0)
		return -1;
	int r = outfile_write(&f, data, len);
	if (!r)
		r = outfile_commit(&f);
	int e = errno;
	outfile_release(&f);
	errno = e;
	return r;
}

/* ".xsc-tmp.PID.rest" of a process that is gone (ours are never stale: the run is live) */
static bool stale_tmp(const char *name)
{
	size_t n = strlen(OUTFILE_TMP_PREFIX);
	if (strncmp(name, OUTFILE_TMP_PREFIX, n))
		return false;
	char *end;
	long pid = strtol(name + n, &end, 10);
	if (end == name + n || *end != '.' || pid <= 0 || pid == (long)getpid())
		return false;
	return kill((pid_t)pid, 0) < 0 && errno == ESRCH;
}

DIR *outfile_opendir(int dirfd)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	if (!d && fd >= 0)
		close(fd);
	return d;
}

void outfile_sweep(int dirfd)
{
	DIR *d = outfile_opendir(dirfd);
	if (!d)
		return;
	struct dirent *e;
	struct stat st;
	while ((e = readdir(d)))
		if (stale_tmp(e->d_name) && fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(st.st_mode))
			unlinkat(dirfd, e->d_name, 0);
	closedir(d);
}
