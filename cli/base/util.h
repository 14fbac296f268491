/* util: allocation that cannot fail, die/BUG, small helpers. Knows nothing of syscalls. */
#ifndef XSC_UTIL_H
#define XSC_UTIL_H
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <sys/types.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#define NORETURN __attribute__((noreturn))

/* Report and exit(128); only for impossible states and out-of-memory. */
NORETURN void die(const char *fmt, ...) PRINTF_LIKE(1, 2);
#define BUG(msg) die("BUG: %s:%d: %s", __FILE__, __LINE__, (msg))

/* Allocators: never return NULL. Free with free(). */
void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Grow *p (an array of nmemb elements of size sz, *alloc slots) to hold at least want. */
#define ALLOC_GROW(p, want, alloc)                                              \
	do {                                                                    \
		if ((size_t)(want) > (alloc)) {                                 \
			(alloc) = (alloc) ? (alloc) * 2 : 8;                    \
			if ((alloc) < (size_t)(want))                           \
				(alloc) = (want);                               \
			(p) = xrealloc((p), (alloc) * sizeof(*(p)));            \
		}                                                               \
	} while (0)
#define FREE_AND_NULL(p) do { free(p); (p) = NULL; } while (0)

/* n bytes (1..8) at p as a little-endian number, and back. Inline: the forked children of
 * live calls and probes use them, and they are async-signal-safe. */
static inline uint64_t le_load(const unsigned char *p, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

static inline void le_store(unsigned char *p, unsigned n, uint64_t v)
{
	for (unsigned i = 0; i < n; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

/* mkdir -p for the directory part of path (up to its last '/'), with mode (less the umask);
 * 0, or -1 with errno when the last of them cannot be made (one already there is no
 * error). Callers that open the file next may ignore it: the open tells. */
int mkdir_parents(const char *path, mode_t mode);
/* qsort's and bsearch's comparison of two elements of an array of strings (char *). */
int cmp_strp(const void *a, const void *b);

/* Edit distance between two strings (for "did you mean"). */
/* Byte scans that stay fast on megabyte structs: the first offset in [from, n) holding a
 * nonzero byte, or where a and b differ; n when there is none. */
size_t mem_nonzero(const unsigned char *p, size_t from, size_t n);
size_t mem_diff(const unsigned char *a, const unsigned char *b, size_t from, size_t n);
static inline bool mem_all_zero(const unsigned char *p, size_t n) { return mem_nonzero(p, 0, n) == n; }
size_t levenshtein(const char *a, const char *b, size_t max); /* max + 1 if farther */
/* Read a whole file into a NUL-terminated heap buffer; refuses files larger than max.
 * Returns 0, or -1 with errno set (EFBIG when too large). Caller frees *out. */
int read_file_max(const char *path, size_t max, char **out, size_t *len);
/* Caches are believed only when they are the user's own, as git's safe.directory: the file
 * and the directory holding it owned by the effective uid and writable by no one else, the
 * file a regular one (no symbolic link, no FIFO). cache_read returns 0 with the file read
 * whole (at most max bytes), or -1: silently when there is none, after a warning naming the
 * owner or mode when it is not safe. cache_write writes atomically, only into a safe
 * directory (created 0700 when missing). */
int safe_cache_read(const char *path, size_t max, char **out, size_t *len);
int safe_cache_write(const char *path, const void *data, size_t len);
/* Why the directory dir is not the user's own, or NULL when it is: not a symbolic link, owned
 * by the effective uid, writable by no one else, and in a parent no one else can swap it in
 * (not writable by others, or sticky). The one check every cache uses. why holds n bytes. */
const char *dir_not_own(const char *dir, char *why, size_t n);
struct stat;
/* Why st is not the user's own (another owner, or writable by group or others), or NULL. */
const char *stat_not_own(const struct stat *st, char *why, size_t n);
/* Write data to path atomically (temporary file in the same directory, then rename). */
int write_file_atomic(const char *path, const void *data, size_t len);
/* Create path (it must not exist) holding data, without syncing: for scratch files in a
 * private temporary directory, which a crash leaves nothing to lose in. 0, or -1 (errno). */
int write_file_scratch(const char *path, const void *data, size_t len);
/* Where scratch directories go (sandboxes, header copies): XSC_SANDBOX_DIR, else a memory
 * file system (XDG_RUNTIME_DIR, /dev/shm), where creating and removing files is cheap, else
 * TMPDIR, else /tmp. */
const char *scratch_dir(void);
/* Remove path and everything under it, following no symbolic link and staying on its file
 * system; what cannot be removed is left. */
void remove_tree(const char *path);
/* mkdtemp for scratch directories: one that a signal ends xsc with is removed (base/sig.h)
 * even if its owner cannot; scratch_remove (or remove_tree) removes it and forgets it. */
char *scratch_mkdtemp(char *tmpl);
void scratch_remove(const char *dir);

/* An arena: many small allocations in one contiguous region, freed at once. Being one
 * region, it can be saved and mapped back at another address (see catalog_relocate). */
struct arena {
	unsigned char *base;
	size_t used, cap;
};
#define ARENA_INIT { NULL, 0, 0 }
#if defined(__wasm__)
/* WebAssembly's mmap is malloc and memset (cli/wasm/compat.h): a reservation is memory there,
 * zeroed byte by byte, a tenth of a second for 16 MiB in the browser; the catalogue's arena
 * holds about 1 MiB (the size of its cache file) */
#define ARENA_RESERVE ((size_t)4 << 20)
#else
#define ARENA_RESERVE ((size_t)256 << 20) /* address space, not memory */
#endif
void *arena_alloc(struct arena *a, size_t n);      /* zeroed, 16-aligned */
char *arena_strdup(struct arena *a, const char *s); /* NULL stays NULL */
void arena_release(struct arena *a);


/* "Did you mean": feed candidates, then ask for the nearest one within maxd edits. */
struct suggest {
	const char *want, *best;
	size_t bestd, maxd;
};
#define SUGGEST_INIT(w, maxd) { (w), NULL, (size_t)-1, (maxd) }
void suggest_add(struct suggest *s, const char *candidate);
/* as if the candidate were nearer by bonus (but never below 0 unless it matches) */
void suggest_add_biased(struct suggest *s, const char *candidate, size_t bonus);
const char *suggest_best(const struct suggest *s); /* NULL if none is within maxd */
#endif
