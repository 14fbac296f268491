#include "base/util.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/diag.h"
#include "base/sig.h"
#include "base/banned.h"

void die(const char *fmt, ...)
{
	va_list ap;
	fputs("xsc: fatal: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap); /* NOLINT(clang-analyzer-valist.Uninitialized): clang 14 false positive */
	va_end(ap);
	fputc('\n', stderr);
	exit(128);
}

static void *checked(void *p)
{
	if (!p)
		die("out of memory");
	return p;
}

void *xmalloc(size_t n) { return checked(malloc(n ? n : 1)); }
void *xcalloc(size_t nmemb, size_t size) { return checked(calloc(nmemb ? nmemb : 1, size ? size : 1)); }
void *xrealloc(void *p, size_t n) { return checked(realloc(p, n ? n : 1)); }
char *xstrdup(const char *s) { return checked(strdup(s)); }
char *xstrndup(const char *s, size_t n) { return checked(strndup(s, n)); }

enum { SCAN_BLOCK = 256 };
static const unsigned char zero_block[SCAN_BLOCK];

size_t mem_nonzero(const unsigned char *p, size_t from, size_t n)
{
	/* whole blocks by memcmp, then the block that differs byte by byte */
	while (from + SCAN_BLOCK <= n && !memcmp(p + from, zero_block, SCAN_BLOCK))
		from += SCAN_BLOCK;
	while (from < n && !p[from])
		from++;
	return from;
}

size_t mem_diff(const unsigned char *a, const unsigned char *b, size_t from, size_t n)
{
	while (from + SCAN_BLOCK <= n && !memcmp(a + from, b + from, SCAN_BLOCK))
		from += SCAN_BLOCK;
	while (from < n && a[from] == b[from])
		from++;
	return from;
}

size_t levenshtein(const char *a, const char *b, size_t max)
{
	size_t la = strlen(a), lb = strlen(b);
	if (max > 64)
		max = 64;
	const size_t far = max + 1;
	if (la > 64 || lb > 64 || (la > lb ? la - lb : lb - la) > max)
		return far;
	/* one row of the table, and only its band |i - j| <= max: a cell outside it is
	 * already farther than max (Ukkonen) */
	size_t row[65];
	for (size_t j = 0; j <= lb; j++)
		row[j] = j <= max ? j : far;
	for (size_t i = 1; i <= la; i++) {
		size_t lo = i > max ? i - max : 1, hi = i + max < lb ? i + max : lb;
		size_t diag = row[lo - 1];
		row[lo - 1] = lo == 1 && i <= max ? i : far;
		size_t least = row[lo - 1];
		for (size_t j = lo; j <= hi; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best < far ? best : far;
			diag = up;
			if (row[j] < least)
				least = row[j];
		}
		if (least >= far)
			return far; /* every path is already too long */
	}
	return row[lb];
}

/* Reads the open file fd (described by st) whole, at most max bytes, and closes it. */
static int read_fd_max(int fd, const struct stat *st, size_t max, char **out, size_t *len)
{
	size_t cap = st->st_size > 0 && (size_t)st->st_size < max ? (size_t)st->st_size + 1 : 4096, n = 0;
	char *buf = xmalloc(cap + 1);
	for (;;) {
		if (n == cap) {
			if (cap > max) {
				free(buf);
				errno = EFBIG;
				goto fail;
			}
			cap *= 2;
			buf = xrealloc(buf, cap + 1);
		}
		ssize_t r = read(fd, buf + n, cap - n);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			goto fail;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (n > max) {
		free(buf);
		errno = EFBIG;
		return -1;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
fail:;
	int e = errno;
	close(fd);
	errno = e;
	return -1;
}

int read_file_max(const char *path, size_t max, char **out, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct stat st;
	int e = fstat(fd, &st) < 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : 0;
	if (e) {
		close(fd);
		errno = e;
		return -1;
	}
	return read_fd_max(fd, &st, max, out, len);
}

const char *stat_not_own(const struct stat *st, char *why, size_t n)
{
	if (st->st_uid != geteuid())
		snprintf(why, n, "owned by uid %u, not by you (uid %u)", (unsigned)st->st_uid, (unsigned)geteuid());
	else if (st->st_mode & (S_IWGRP | S_IWOTH))
		snprintf(why, n, "writable by %s (mode %04o)", st->st_mode & S_IWOTH ? "others" : "its group",
			 (unsigned)(st->st_mode & 07777));
	else
		return NULL;
	return why;
}

/* Why dir's parent lets someone else swap dir after it was checked, or NULL: writable by
 * others without the sticky bit (in a sticky one only dir's owner may rename it). */
static const char *parent_unsafe(const char *dir, char *why, size_t n)
{
	char *p = xstrdup(dir), *slash = strrchr(p, '/');
	struct stat st;
	const char *r = NULL;
	if (slash)
		*slash = '\0';
	if (lstat(!slash ? "." : slash == p ? "/" : p, &st) == 0 && (st.st_mode & (S_IWGRP | S_IWOTH)) &&
	    !(st.st_mode & S_ISVTX)) {
		snprintf(why, n, "in a directory others may write (mode %04o)", (unsigned)(st.st_mode & 07777));
		r = why;
	}
	free(p);
	return r;
}

const char *dir_not_own(const char *dir, char *why, size_t n)
{
	struct stat st;
	/* lstat: a symbolic link is refused whoever made it, it could point anywhere later */
	if (lstat(dir, &st) < 0)
		return strerror(errno);
	if (S_ISLNK(st.st_mode))
		return "a symbolic link";
	if (!S_ISDIR(st.st_mode))
		return "not a directory";
	const char *r = stat_not_own(&st, why, n);
	return r ? r : parent_unsafe(dir, why, n);
}

/* The directory part of path, checked: NULL when it is the user's own, else why not. */
static const char *cache_dir_unsafe(const char *path, char *why, size_t n)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	const char *r = NULL;
	if (slash && slash != dir) {
		*slash = '\0';
		r = dir_not_own(dir, why, n);
	}
	free(dir);
	return r;
}

int safe_cache_read(const char *path, size_t max, char **out, size_t *len)
{
	char why[96];
	const char *bad = cache_dir_unsafe(path, why, sizeof(why));
	struct stat st;
	if (bad) {
		if (access(path, F_OK) == 0)
			warning("ignoring the cache '%s': its directory is %s", path, bad);
		return -1;
	}
	/* no symbolic link, and no FIFO to hang on: only a regular file is a cache */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0) {
		if (errno != ENOENT)
			warning("ignoring the cache '%s': %s", path, errno == ELOOP ? "a symbolic link" : strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (bad = stat_not_own(&st, why, sizeof(why)))) {
		warning("ignoring the cache '%s': %s", path, bad ? bad : "not a regular file");
		close(fd);
		return -1;
	}
	return read_fd_max(fd, &st, max, out, len) < 0 ? -1 : 0;
}

int safe_cache_write(const char *path, const void *data, size_t len)
{
	char why[96];
	mkdir_parents(path, 0700);
	if (cache_dir_unsafe(path, why, sizeof(why)))
		return -1; /* safe_cache_read warned already, or will */
	return write_file_atomic(path, data, len);
}

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

int write_file_scratch(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	if (write_all(fd, data, len) < 0) {
		int e = errno;
		close(fd);
		unlink(path);
		errno = e;
		return -1;
	}
	return close(fd);
}

int write_file_atomic(const char *path, const void *data, size_t len)
{
	size_t plen = strlen(path);
	char *tmp = xmalloc(plen + 16);
	memcpy(tmp, path, plen);
	memcpy(tmp + plen, ".tmpXXXXXX", 11);
	int fd = mkstemp(tmp);
	if (fd < 0)
		goto fail;
	if (write_all(fd, data, len) < 0)
		goto fail_unlink;
	if (fsync(fd) < 0 || close(fd) < 0) {
		fd = -1;
		goto fail_unlink;
	}
	fd = -1;
	if (rename(tmp, path) < 0)
		goto fail_unlink;
	free(tmp);
	return 0;
fail_unlink:;
	int e = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	errno = e;
fail:
	free(tmp);
	return -1;
}

const char *scratch_dir(void)
{
	static const char *base;
	if (base)
		return base;
	const char *cands[] = { getenv("XSC_SANDBOX_DIR"), getenv("XDG_RUNTIME_DIR"), "/dev/shm", getenv("TMPDIR"), "/tmp" };
	for (size_t i = 0; i < ARRAY_SIZE(cands); i++)
		if (cands[i] && cands[i][0] == '/' && access(cands[i], W_OK | X_OK) == 0)
			return base = cands[i];
	return base = "/tmp";
}

/* Clear the immutable and append-only flags of a file or directory, which forbid removing it
 * (or, on a directory, its entries): a sandboxed call may have set them (file_setattr). */
static void clear_no_remove_flags(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return;
	int fl;
	if (ioctl(fd, FS_IOC_GETFLAGS, &fl) == 0 && (fl & (FS_IMMUTABLE_FL | FS_APPEND_FL))) {
		fl &= ~(FS_IMMUTABLE_FL | FS_APPEND_FL);
		ioctl(fd, FS_IOC_SETFLAGS, &fl);
	}
	close(fd);
}

static int rm_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	bool dir = type == FTW_DP || type == FTW_D || type == FTW_DNR;
	int (*rm)(const char *) = dir ? rmdir : unlink;
	if (rm(path) == 0 || errno != EPERM)
		return 0;
	/* EPERM: the entry or its directory is immutable or append-only; never open a device */
	if (dir || S_ISREG(st->st_mode))
		clear_no_remove_flags(path);
	if (ftw->base > 0) {
		char *parent = xstrndup(path, (size_t)ftw->base);
		clear_no_remove_flags(parent);
		free(parent);
	}
	rm(path);
	return 0;
}

void remove_tree(const char *path)
{
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
	sig_untrack_dir(path);
}

char *scratch_mkdtemp(char *tmpl)
{
	char *dir = mkdtemp(tmpl);
	if (dir)
		sig_track_dir(dir);
	return dir;
}

void scratch_remove(const char *dir)
{
	if (rmdir(dir) < 0) /* usually empty again; else remove what is left */
		remove_tree(dir);
	sig_untrack_dir(dir);
}

void *arena_alloc(struct arena *a, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	if (!a->base) {
		void *p = mmap(NULL, ARENA_RESERVE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (p == MAP_FAILED)
			die("out of memory (arena)");
		/* forked children (live calls) never read it; not copying it makes fork cheaper */
		madvise(p, ARENA_RESERVE, MADV_DONTFORK);
		a->base = p;
		a->cap = ARENA_RESERVE;
		a->used = 0;
	}
	if (n > a->cap - a->used)
		die("out of memory: the arena's %zu MiB are used up", a->cap >> 20);
	void *p = a->base + a->used;
	a->used += n;
	return p; /* fresh anonymous pages are zero */
}

char *arena_strdup(struct arena *a, const char *s)
{
	if (!s)
		return NULL;
	size_t n = strlen(s) + 1;
	return memcpy(arena_alloc(a, n), s, n);
}

void arena_release(struct arena *a)
{
	if (a->base)
		munmap(a->base, a->cap);
	a->base = NULL;
	a->used = a->cap = 0;
}

void suggest_add(struct suggest *s, const char *candidate)
{
	suggest_add_biased(s, candidate, 0);
}

void suggest_add_biased(struct suggest *s, const char *candidate, size_t bonus)
{
	/* only a strictly nearer candidate within maxd matters: that bounds the work */
	size_t bound = (s->bestd <= s->maxd ? s->bestd : s->maxd + 1) + bonus;
	if (!bound)
		return;
	size_t d = levenshtein(s->want, candidate, bound - 1);
	if (d >= bound)
		return;
	d = d > bonus ? d - bonus : (d ? 0 : d);
	if (d < s->bestd) {
		s->bestd = d;
		s->best = candidate;
	}
}

const char *suggest_best(const struct suggest *s)
{
	return s->best;
}

int mkdir_parents(const char *path, mode_t mode)
{
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	int r = 0;
	if (slash && slash != dir) {
		*slash = '\0';
		/* a parent that cannot be made shows in the last one */
		for (char *p = dir + 1; *p; p++)
			if (*p == '/') {
				*p = '\0';
				mkdir(dir, mode);
				*p = '/';
			}
		r = mkdir(dir, mode) && errno != EEXIST ? -1 : 0;
	}
	int e = errno;
	free(dir);
	errno = e;
	return r;
}

int cmp_strp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}
