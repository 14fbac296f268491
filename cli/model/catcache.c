/* The catalogue cache (dataload.h, catcache.h). */
#include "model/catcache.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/diag.h"
#include "base/sbuf.h"
#include "model/dataload.h"
#include "model/expr.h"
#include "base/banned.h"

/* ---- the cache: a parsed catalogue saved as its arena plus a relocation ----
 * Parsing ~200 KB of JSON takes milliseconds; mapping the saved arena back takes
 * microseconds. The key covers the layout of the types, the binary, the directory and every
 * file's identity, so any edit (or another build) parses afresh. A cache is believed only
 * when it is the user's own (cache_read); the checksum covers the header and the arena; and
 * what it holds is relocated with every count, offset and reference checked against the
 * file's length (catalog_relocate), then held to the loader's rules (catalog_check), so a
 * damaged or forged cache is refused instead of followed. */

#define CACHE_MAGIC "XSCCAT2"

struct cache_header {
	char magic[8];
	uint64_t key, checksum, used, old_base;
	struct catalog cat;
};

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

/* The checksum of the saved arena: FNV-style, a word at a time. */
static uint64_t checksum(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, b + i, 8);
		h = (h ^ w) * 0x100000001b3ULL;
		h ^= h >> 29;
	}
	return fnv(h, b + i, n - i);
}

/* The checksum of a whole cache file: header (its checksum field as zero) and arena. */
static uint64_t cache_checksum(const struct cache_header *h, const void *body)
{
	struct cache_header z = *h;
	z.checksum = 0;
	return checksum(checksum(h->key, &z, sizeof(z)), body, (size_t)h->used);
}

static uint64_t fnv_stat(uint64_t h, const struct stat *st)
{
	h = fnv(h, &st->st_dev, sizeof(st->st_dev));
	h = fnv(h, &st->st_ino, sizeof(st->st_ino));
	h = fnv(h, &st->st_size, sizeof(st->st_size));
	return fnv(h, &st->st_mtim, sizeof(st->st_mtim));
}

/* The cache file for dir, or NULL when caching is off or there is no cache directory. */
char *catalog_cache_path(const char *dir)
{
	const char *off = getenv("XSC_NO_CACHE"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	if (off && *off && strcmp(off, "0"))
		return NULL;
	struct sbuf sb = SBUF_INIT;
	if (xdg && *xdg == '/')
		sbuf_addf(&sb, "%s/xsc", xdg);
	else if (home && *home == '/')
		sbuf_addf(&sb, "%s/.cache/xsc", home);
	else
		return NULL;
	char *real = realpath(dir, NULL);
	uint64_t h = fnv(0xcbf29ce484222325ULL, real ? real : dir, strlen(real ? real : dir));
	free(real);
	sbuf_addf(&sb, "/catalog-%016llx.bin", (unsigned long long)h);
	return sbuf_detach(&sb);
}

/* Catalogue caches kept: one per --data directory, about 250 KB each, so a user who tries
 * many directories does not fill the cache directory. */
#define CATALOG_CACHES_MAX 8

struct cache_ent {
	char *name;
	struct timespec mtime;
};

static int older_first(const void *a, const void *b)
{
	const struct timespec *x = &((const struct cache_ent *)a)->mtime, *y = &((const struct cache_ent *)b)->mtime;
	return x->tv_sec != y->tv_sec ? (x->tv_sec < y->tv_sec ? -1 : 1)
	     : x->tv_nsec != y->tv_nsec ? (x->tv_nsec < y->tv_nsec ? -1 : 1) : 0;
}

/* Removes the least recently used catalog-*.bin beside path (regular files only) beyond the newest
 * CATALOG_CACHES_MAX; path was just written, so it is among those kept. */
static void cache_prune(const char *path)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	*slash = '\0';
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct cache_ent *e = NULL;
	size_t n = 0, alloc = 0;
	for (struct dirent *de; d && (de = readdir(d));) {
		struct stat st;
		size_t len = strlen(de->d_name);
		if (strncmp(de->d_name, "catalog-", 8) || len < 12 || strcmp(de->d_name + len - 4, ".bin") ||
		    fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
			continue;
		ALLOC_GROW(e, n + 1, alloc);
		e[n++] = (struct cache_ent){ xstrdup(de->d_name), st.st_mtim };
	}
	if (n > CATALOG_CACHES_MAX)
		qsort(e, n, sizeof(*e), older_first);
	for (size_t i = 0; i < n; i++) {
		if (n - i > CATALOG_CACHES_MAX)
			unlinkat(fd, e[i].name, 0);
		free(e[i].name);
	}
	free(e);
	if (d)
		closedir(d);
	else if (fd >= 0)
		close(fd);
	free(dir);
}

uint64_t catalog_cache_key(char **paths, size_t n)
{
	static const size_t layout[] = { sizeof(struct catalog), sizeof(struct syscall), sizeof(struct cstruct),
		sizeof(struct field), sizeof(struct flagset), sizeof(struct flag), sizeof(struct sarg),
		sizeof(struct sversion), sizeof(struct serror), sizeof(struct lineage), sizeof(struct check),
		sizeof(struct expr_insn), 14 /* format version */ };
	uint64_t h = fnv(0xcbf29ce484222325ULL, layout, sizeof(layout));
	struct stat st;
	if (stat("/proc/self/exe", &st) == 0)
		h = fnv_stat(h, &st);
	for (size_t i = 0; i < n; i++) {
		h = fnv(h, paths[i], strlen(paths[i]) + 1);
		if (stat(paths[i], &st) == 0)
			h = fnv_stat(h, &st);
	}
	return h;
}

/* The catalogue in a cache file's bytes, or NULL (with why, when it is not merely stale). */
struct catalog *catalog_from_cache(const void *buf, size_t len, uint64_t key, struct sbuf *why)
{
	struct cache_header h;
	if (len < sizeof(h))
		return NULL; /* not even a header: an interrupted write, say */
	memcpy(&h, buf, sizeof(h));
	if (memcmp(h.magic, CACHE_MAGIC, 8) || h.key != key)
		return NULL; /* another format, build or catalogue: stale, not wrong */
	if (h.used != len - sizeof(h) || h.used > ARENA_RESERVE || h.used % 16) {
		sbuf_addf(why, "its length does not match its header");
		return NULL;
	}
	if (h.checksum != cache_checksum(&h, (const char *)buf + sizeof(h))) {
		sbuf_addf(why, "its checksum does not match");
		return NULL;
	}
	struct catalog *c = xcalloc(1, sizeof(*c));
	*c = h.cat;
	memset(&c->arena, 0, sizeof(c->arena));
	c->dir = NULL;
	unsigned char *base = h.used ? arena_alloc(&c->arena, (size_t)h.used) : NULL;
	if (base)
		memcpy(base, (const char *)buf + sizeof(h), (size_t)h.used);
	c->arena.used = (size_t)h.used;
	if (!base || catalog_relocate(c, (ptrdiff_t)((uintptr_t)base - (uintptr_t)h.old_base), base, (size_t)h.used) < 0)
		sbuf_addf(why, "a count, offset or reference in it points outside it");
	else if (catalog_check(c, why) == 0)
		return c;
	catalog_free(c);
	return NULL;
}

/* The bytes of a cache file for c (the caller frees *out). */
void catalog_to_cache(const struct catalog *c, uint64_t key, void **out, size_t *len)
{
	struct cache_header h;
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, CACHE_MAGIC, 8);
	h.key = key;
	h.used = c->arena.used;
	h.old_base = (uint64_t)(uintptr_t)c->arena.base;
	h.cat = *c;
	memset(&h.cat.arena, 0, sizeof(h.cat.arena));
	h.cat.dir = NULL;
	h.checksum = cache_checksum(&h, c->arena.base);
	*len = sizeof(h) + c->arena.used;
	*out = xmalloc(*len);
	memcpy(*out, &h, sizeof(h));
	memcpy((char *)*out + sizeof(h), c->arena.base, c->arena.used);
}

void catalog_cache_reseal(void *buf, size_t len)
{
	struct cache_header h;
	if (len < sizeof(h))
		return;
	memcpy(&h, buf, sizeof(h));
	if (h.used > len - sizeof(h))
		h.used = len - sizeof(h);
	uint64_t sum = cache_checksum(&h, (const char *)buf + sizeof(h));
	memcpy((char *)buf + offsetof(struct cache_header, checksum), &sum, sizeof(sum));
}

struct catalog *catalog_cache_load(const char *path, uint64_t key)
{
	char *buf;
	size_t len;
	if (!path || safe_cache_read(path, ARENA_RESERVE, &buf, &len) < 0)
		return NULL;
	struct sbuf why = SBUF_INIT;
	struct catalog *c = catalog_from_cache(buf, len, key, &why);
	if (why.len)
		warning("ignoring the catalogue cache '%s': %s", path, why.buf);
	sbuf_release(&why);
	free(buf);
	if (c) /* pruning keeps the most recently used, not only the most recently written */
		utimensat(AT_FDCWD, path, NULL, AT_SYMLINK_NOFOLLOW);
	return c;
}

void catalog_cache_save(const char *path, uint64_t key, const struct catalog *c)
{
	void *out;
	size_t total;
	struct sbuf why = SBUF_INIT;
	if (!path)
		return;
	/* a catalogue its own cache would be refused for is not saved: no warning every run
	 * for a rule the loader and catalog_check disagree on (test_dataload keeps them one) */
	bool ok = catalog_check(c, &why) == 0;
	sbuf_release(&why);
	if (!ok)
		return;
	catalog_to_cache(c, key, &out, &total);
	if (safe_cache_write(path, out, total) == 0) /* best effort: no cache just means parsing */
		cache_prune(path);
	free(out);
}
