/* owndir: output directories with a marker listing what xsc wrote. See owndir.h. */
#include "docs/owndir.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/diag.h"
#include "base/outfile.h"
#include "base/sbuf.h"
#include "base/util.h"
#include "base/banned.h"

#define MARKER_MAX (4u << 20)

/* A path the marker may name: relative, plain components, no temporaries. The marker is
 * as untrusted as the directory it sits in, so "../x" must not reach outside. */
bool owndir_rel_ok(const char *rel, const char *marker)
{
	if (!*rel || *rel == '/' || strlen(rel) > 1024 || !strcmp(rel, marker))
		return false;
	for (const unsigned char *p = (const unsigned char *)rel; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return false;
	for (const char *c = rel; c;) {
		const char *slash = strchr(c, '/');
		size_t n = slash ? (size_t)(slash - c) : strlen(c);
		size_t tn = strlen(OUTFILE_TMP_PREFIX);
		if (!n || (n == 1 && *c == '.') || (n == 2 && !strncmp(c, "..", 2)) ||
		    (n >= tn && !strncmp(c, OUTFILE_TMP_PREFIX, tn)))
			return false;
		c = slash ? slash + 1 : NULL;
	}
	return true;
}

static int read_at(int dirfd, const char *name, char **text, size_t *len)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size > MARKER_MAX) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	char *buf = xmalloc((size_t)st.st_size + 1);
	size_t n = 0;
	ssize_t r;
	while (n < (size_t)st.st_size && (r = read(fd, buf + n, (size_t)st.st_size - n)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			close(fd);
			return -1;
		}
		n += (size_t)r;
	}
	close(fd);
	buf[n] = 0;
	*text = buf;
	*len = n;
	return 0;
}

int owndir_read_marker(int dirfd, const char *marker, const char *what, char ***list, size_t *n, int *found)
{
	*list = NULL;
	*n = 0;
	*found = 0;
	char *text;
	size_t len, alloc = 0;
	if (read_at(dirfd, marker, &text, &len) < 0)
		return errno == ENOENT ? 0 : -1;
	struct sbuf head = SBUF_INIT;
	sbuf_addf(&head, "xsc %s\n", what);
	if (strncmp(text, head.buf, head.len)) {
		sbuf_release(&head);
		free(text);
		return 0;
	}
	*found = 1;
	for (char *p = text + head.len; *p;) {
		char *nl = strchr(p, '\n');
		if (nl)
			*nl = 0;
		if (owndir_rel_ok(p, marker)) {
			ALLOC_GROW(*list, *n + 1, alloc);
			(*list)[(*n)++] = xstrdup(p);
		}
		p = nl ? nl + 1 : p + strlen(p);
	}
	sbuf_release(&head);
	free(text);
	return 0;
}

bool owndir_is_empty(int dirfd)
{
	DIR *d = outfile_opendir(dirfd);
	if (!d)
		return false;
	struct dirent *e;
	bool empty = true;
	while (empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	return empty;
}

static int write_marker(struct owndir *d, char **a, size_t na, char **b, size_t nb)
{
	char **all = xcalloc(na + nb + 1, sizeof(*all));
	if (na)
		memcpy(all, a, na * sizeof(*all));
	if (nb)
		memcpy(all + na, b, nb * sizeof(*all));
	if (na + nb)
		qsort(all, na + nb, sizeof(*all), cmp_strp);
	struct sbuf sb = SBUF_INIT;
	sbuf_addf(&sb, "xsc %s\n", d->what);
	for (size_t i = 0; i < na + nb; i++)
		if (!i || strcmp(all[i], all[i - 1]))
			sbuf_addf(&sb, "%s\n", all[i]);
	free(all);
	struct outfile f;
	int r = outfile_begin_at(&f, d->fd, d->marker, OF_FORCE);
	if (!r)
		r = outfile_write(&f, sb.buf, sb.len);
	if (!r)
		r = outfile_commit(&f);
	if (r)
		r = err("%s: cannot write '%s/%s': %m", d->what, d->path, d->marker);
	outfile_release(&f);
	sbuf_release(&sb);
	return r;
}

/* The directory fd of rel's parent, walked one component at a time without following a
 * link; *base is rel's last component. -1 (errno) when a component is missing or a link. */
static int parent_of(int top, const char *rel, bool create, const char **base)
{
	int fd = dup(top);
	const char *c = rel;
	for (const char *slash; fd >= 0 && (slash = strchr(c, '/')); c = slash + 1) {
		char *comp = xstrndup(c, (size_t)(slash - c));
		int sub = outdir_open_at(fd, comp, create);
		int e = errno;
		free(comp);
		close(fd);
		errno = e;
		fd = sub;
	}
	*base = c;
	return fd;
}

static void sweep_tree(int fd, int depth)
{
	outfile_sweep(fd);
	DIR *d = outfile_opendir(fd);
	if (!d)
		return;
	struct dirent *e;
	while (depth > 0 && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		int sub = outdir_open_at(fd, e->d_name, false);
		if (sub >= 0) {
			sweep_tree(sub, depth - 1);
			close(sub);
		}
	}
	closedir(d);
}

static int open_top(struct owndir *d, bool *created)
{
	mkdir_parents(d->path, 0777); /* the user's to have, only the last one is ours */
	*created = mkdir(d->path, 0777) == 0;
	d->fd = open(d->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (d->fd >= 0)
		return 0;
	if (errno == ELOOP || errno == ENOTDIR)
		return err("%s: '%s' is a symbolic link or not a directory; refusing to write into it", d->what,
			   d->path);
	return err("%s: cannot create directory '%s': %m", d->what, d->path);
}

int owndir_begin(struct owndir *d, const char *path, const char *marker, const char *what,
		 const char *const *planned, size_t nplanned)
{
	memset(d, 0, sizeof(*d));
	d->fd = -1;
	d->marker = marker;
	d->what = what;
	if (!*path)
		return err("%s: the output directory name is empty", what);
	d->path = xstrdup(path);
	for (size_t n = strlen(d->path); n > 1 && d->path[n - 1] == '/';)
		d->path[--n] = 0;
	bool created;
	if (open_top(d, &created))
		return -1;
	int found;
	if (owndir_read_marker(d->fd, marker, what, &d->old, &d->nold, &found) < 0)
		return err("%s: cannot read '%s/%s': %m", what, d->path, marker);
	if (!found && !created)
		outfile_sweep(d->fd); /* a run killed while writing its first marker left only its temporary */
	if (!found && !created && !owndir_is_empty(d->fd))
		return err("%s: '%s' exists and xsc did not make it (it has no %s); refusing to write into it: "
			   "name a new or empty directory", what, d->path, marker);
	sweep_tree(d->fd, 2);
	for (size_t i = 0; i < nplanned; i++)
		if (!owndir_rel_ok(planned[i], marker))
			BUG("a generated page has an unsafe path");
	return write_marker(d, d->old, d->nold, (char **)planned, nplanned);
}

int owndir_put(struct owndir *d, const char *rel, const void *data, size_t len)
{
	const char *base;
	int fd = parent_of(d->fd, rel, true, &base);
	if (fd < 0)
		return err("%s: cannot write '%s/%s': %s", d->what, d->path, rel,
			   errno == ELOOP || errno == ENOTDIR ? "a directory on the way is a symbolic link" : strerror(errno));
	struct outfile f;
	int r = outfile_begin_at(&f, fd, base, OF_FORCE);
	if (!r)
		r = outfile_write(&f, data, len);
	if (!r)
		r = outfile_commit(&f);
	if (r)
		r = err("%s: cannot write '%s/%s': %m", d->what, d->path, rel);
	outfile_release(&f);
	close(fd);
	if (!r) {
		ALLOC_GROW(d->wrote, d->nwrote + 1, d->alloc);
		d->wrote[d->nwrote++] = xstrdup(rel);
	}
	return r;
}

static bool listed(char **list, size_t n, const char *rel)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], rel))
			return true;
	return false;
}

int owndir_finish(struct owndir *d)
{
	for (size_t i = 0; i < d->nold; i++) {
		if (listed(d->wrote, d->nwrote, d->old[i]))
			continue;
		const char *base;
		struct stat st;
		int fd = parent_of(d->fd, d->old[i], false, &base);
		/* only a regular file: what sits there now may be the user's link or directory */
		if (fd >= 0 && fstatat(fd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
			unlinkat(fd, base, 0);
		if (fd >= 0)
			close(fd);
	}
	return write_marker(d, d->wrote, d->nwrote, NULL, 0);
}

void owndir_release(struct owndir *d)
{
	for (size_t i = 0; i < d->nold; i++)
		free(d->old[i]);
	for (size_t i = 0; i < d->nwrote; i++)
		free(d->wrote[i]);
	free(d->old);
	free(d->wrote);
	free(d->path);
	if (d->fd >= 0)
		close(d->fd);
	memset(d, 0, sizeof(*d));
	d->fd = -1;
}
