/* sitedir: the site's temporary directory and the swap that keeps what is not xsc's. */
#include "docs/sitedir.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/diag.h"
#include "base/outfile.h"
#include "base/util.h"
#include "docs/owndir.h"
#include "base/banned.h"

/* What a GitHub Pages checkout holds before any site is in it. */
static const char *const pages_files[] = { ".git", "CNAME", ".nojekyll", ".gitignore", "README.md", NULL };

static bool dead_tmp(const char *name, const char *base)
{
	size_t bl = strlen(base);
	if (name[0] != '.' || strncmp(name + 1, base, bl) || strncmp(name + 1 + bl, ".tmp.", 5))
		return false;
	char *end;
	long pid = strtol(name + 1 + bl + 5, &end, 10);
	if (end == name + 1 + bl + 5 || (*end && strcmp(end, ".old")) || pid <= 0 || pid == (long)getpid())
		return false;
	return kill((pid_t)pid, 0) < 0 && errno == ESRCH;
}

/* Removes the empty directories under fd (a dead build's listed files are gone). */
static void rm_empty_dirs(int fd)
{
	DIR *d = outfile_opendir(fd);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		int sub = outdir_open_at(fd, e->d_name, false);
		if (sub < 0)
			continue;
		rm_empty_dirs(sub);
		close(sub);
		unlinkat(fd, e->d_name, AT_REMOVEDIR); /* fails when something is left: kept */
	}
	if (d)
		closedir(d);
}

/* A dead build's directory: a build writes its marker first and lists its files in it
 * before the swap, after which the directory holds the old site. So: with a list, only
 * the listed files go (the old site's .git/ stays if a build died mid-swap); without one,
 * everything but the marker, then the marker, so a sweep that dies itself leaves a
 * directory the next sweep still recognises. */
/* A marker a dead build had begun: a regular file holding a beginning of "xsc site\n"
 * (empty when the build died between creating and writing it). */
static bool partial_marker(int sub)
{
	static const char head[] = "xsc site\n";
	char buf[sizeof(head)];
	struct stat st;
	int fd = openat(sub, ".xsc-site", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return false;
	bool partial = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size < sizeof(head) - 1 &&
		       read(fd, buf, sizeof(buf)) == st.st_size && !memcmp(buf, head, (size_t)st.st_size);
	close(fd);
	return partial;
}

static void remove_dead(int dfd, const char *name, const char *path)
{
	int sub = outdir_open_at(dfd, name, false);
	if (sub < 0)
		return;
	char **list;
	size_t n;
	int found;
	struct stat st;
	if (owndir_read_marker(sub, ".xsc-site", "site", &list, &n, &found) == 0 && found) {
		for (size_t i = 0; i < n; i++) {
			const char *rel = list[i];
			const char *slash = strrchr(rel, '/');
			int pfd = sub;
			if (slash) {
				char *dir = xstrndup(rel, (size_t)(slash - rel));
				pfd = openat(sub, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
				free(dir);
			}
			const char *base = slash ? slash + 1 : rel;
			if (pfd >= 0 && fstatat(pfd, base, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
				unlinkat(pfd, base, 0);
			if (pfd >= 0 && pfd != sub)
				close(pfd);
			free(list[i]);
		}
		free(list);
		if (!n) {
			DIR *d = outfile_opendir(sub);
			struct dirent *e;
			while (d && (e = readdir(d)))
				if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strcmp(e->d_name, ".xsc-site")) {
					struct sbuf p = SBUF_INIT;
					sbuf_addf(&p, "%s/%s", path, e->d_name);
					remove_tree(p.buf);
					sbuf_release(&p);
				}
			if (d)
				closedir(d);
		}
		rm_empty_dirs(sub);
		unlinkat(sub, ".xsc-site", 0);
	} else if (!found && partial_marker(sub)) {
		unlinkat(sub, ".xsc-site", 0); /* killed while writing its marker: nothing else is there */
	}
	close(sub);
	unlinkat(dfd, name, AT_REMOVEDIR); /* only if empty: what is not xsc's stays */
}

/* Removes .BASE.tmp.PID[.old] of dead builds in dir: directories only, never a link. */
static void sweep(const char *dir, const char *base)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = dfd < 0 ? NULL : outfile_opendir(dfd);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		if (!dead_tmp(e->d_name, base))
			continue;
		struct sbuf p = SBUF_INIT;
		sbuf_addf(&p, "%s/%s", dir, e->d_name);
		remove_dead(dfd, e->d_name, p.buf);
		sbuf_release(&p);
	}
	if (d)
		closedir(d);
	if (dfd >= 0)
		close(dfd);
}

void sitedir_prepare(const char *out, struct sbuf *tmp)
{
	struct sbuf o = SBUF_INIT;
	sbuf_adds(&o, out);
	while (o.len > 1 && o.buf[o.len - 1] == '/')
		o.buf[--o.len] = 0;
	char *slash = strrchr(o.buf, '/');
	const char *base = slash ? slash + 1 : o.buf;
	struct sbuf dir = SBUF_INIT;
	if (slash)
		sbuf_add(&dir, o.buf, slash == o.buf ? 1 : (size_t)(slash - o.buf));
	else
		sbuf_adds(&dir, ".");
	sweep(dir.buf, base);
	sbuf_addf(tmp, "%s%s.%s.tmp.%ld", slash ? dir.buf : "", slash && slash != o.buf ? "/" : "", base, (long)getpid());
	sbuf_release(&dir);
	sbuf_release(&o);
}

struct carry {
	char *const *list; /* what xsc wrote in the old site */
	size_t n;
	const char *marker;
	bool dry;          /* only look for clashes */
	const char *out;   /* for messages */
};

static bool listed(const struct carry *c, const char *rel, bool as_dir)
{
	size_t l = strlen(rel);
	for (size_t i = 0; i < c->n; i++)
		if (as_dir ? !strncmp(c->list[i], rel, l) && c->list[i][l] == '/' : !strcmp(c->list[i], rel))
			return true;
	return false;
}

/* Moves every entry of oldfd that xsc did not write into newfd (dry: reports clashes
 * only). A directory xsc wrote into is walked; any other entry moves whole. */
static int carry(const struct carry *c, int oldfd, int newfd, const char *prefix)
{
	DIR *d = outfile_opendir(oldfd);
	if (!d)
		return err("site: cannot read the old site '%s': %m", c->out);
	int r = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		const char *nm = e->d_name;
		struct stat st, nst;
		if (!strcmp(nm, ".") || !strcmp(nm, "..") || (!*prefix && !strcmp(nm, c->marker)) ||
		    !strncmp(nm, OUTFILE_TMP_PREFIX, strlen(OUTFILE_TMP_PREFIX)) ||
		    fstatat(oldfd, nm, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		struct sbuf rel = SBUF_INIT;
		sbuf_addf(&rel, "%s%s", prefix, nm);
		bool in_new = newfd >= 0 && fstatat(newfd, nm, &nst, AT_SYMLINK_NOFOLLOW) == 0;
		if (S_ISDIR(st.st_mode) && listed(c, rel.buf, true)) {
			int so = outdir_open_at(oldfd, nm, false);
			int sn = in_new ? outdir_open_at(newfd, nm, false) : c->dry ? -1 : outdir_open_at(newfd, nm, true);
			sbuf_addch(&rel, '/');
			if (so >= 0 && (sn >= 0 || c->dry))
				r |= carry(c, so, sn, rel.buf);
			else
				r = err("site: cannot keep what is in '%s/%s': %m", c->out, rel.buf);
			if (so >= 0)
				close(so);
			if (sn >= 0)
				close(sn);
		} else if (!listed(c, rel.buf, false)) {
			if (in_new)
				r = err("site: '%s/%s' is not something xsc wrote, and the new site has a file of that name; "
					"move it away and build again", c->out, rel.buf);
			else if (!c->dry && renameat(oldfd, nm, newfd, nm) < 0)
				r = err("site: cannot keep '%s/%s': %m", c->out, rel.buf);
		}
		sbuf_release(&rel);
	}
	closedir(d);
	return r ? -1 : 0;
}

static bool pages_checkout(int fd)
{
	DIR *d = outfile_opendir(fd);
	struct dirent *e;
	bool ok = d != NULL;
	while (ok && (e = readdir(d))) {
		bool known = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
		for (size_t i = 0; pages_files[i] && !known; i++)
			known = !strcmp(e->d_name, pages_files[i]);
		ok = known;
	}
	if (d)
		closedir(d);
	return ok;
}

/* Old tree at tmp or tmp.old, new one at out; *old says where the old one went. */
static int exchange(const char *tmp, const char *out, struct sbuf *old)
{
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, out, RENAME_EXCHANGE) == 0) {
		sbuf_adds(old, tmp);
		return 0;
	}
	sbuf_addf(old, "%s.old", tmp);
	if (rename(out, old->buf))
		return err("site: cannot move the old site '%s' away: %m", out);
	if (rename(tmp, out)) {
		int r = err("site: cannot rename '%s' to '%s': %m", tmp, out);
		rename(old->buf, out);
		return r;
	}
	return 0;
}

static int swap_dir(const char *tmp, const char *out, int outfd, struct carry *c)
{
	int tmpfd = open(tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (tmpfd < 0)
		return err("site: cannot open '%s': %m", tmp);
	struct sbuf old = SBUF_INIT;
	c->dry = true;
	int r = carry(c, outfd, tmpfd, "");
	if (!r)
		r = exchange(tmp, out, &old);
	if (!r) {
		/* the descriptors follow the trees: outfd is the old site now wherever it is */
		c->dry = false;
		if (carry(c, outfd, tmpfd, "") == 0) {
			remove_tree(old.buf);
		} else {
			struct sbuf kept = SBUF_INIT;
			sbuf_addf(&kept, "%s.xsc-old-%ld", out, (long)getpid());
			if (rename(old.buf, kept.buf) == 0)
				warning("site: the old site is kept in '%s'", kept.buf);
			sbuf_release(&kept);
			r = -1;
		}
	}
	close(tmpfd);
	sbuf_release(&old);
	return r;
}

int sitedir_swap(const char *tmp, const char *out, const char *marker, char *const *list, size_t n)
{
	struct stat st;
	if (lstat(out, &st) < 0) {
		if (errno != ENOENT)
			return err("site: cannot use '%s': %m", out);
		return rename(tmp, out) ? err("site: cannot rename '%s' to '%s': %m", tmp, out) : 0;
	}
	int outfd = S_ISDIR(st.st_mode) ? open(out, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
	char **old = NULL;
	size_t nold = 0;
	int found = 0;
	if (outfd >= 0)
		owndir_read_marker(outfd, marker, "site", &old, &nold, &found);
	int r;
	if (outfd < 0 || (!found && !pages_checkout(outfd))) {
		r = err("'%s' exists and is not a site xsc built; refusing to replace it", out);
	} else {
		/* a marker from before markers listed files: what this build writes was xsc's */
		struct carry c = { found && nold ? old : list, found && nold ? nold : n, marker, true, out };
		r = swap_dir(tmp, out, outfd, &c);
	}
	for (size_t i = 0; i < nold; i++)
		free(old[i]);
	free(old);
	if (outfd >= 0)
		close(outfd);
	return r;
}
