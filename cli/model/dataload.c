/* The catalogue loader's driver (model/dataload.h): files read and parsed, the entity loaders
 * (model/loaders.h) run over their sections, the cache (catcache.c) consulted and filled, and
 * where the bundled catalogue is. */
#include "model/dataload.h"
#include "model/loaders.h"
#include "model/catcache.h"
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/diag.h"
#include "base/embed.h"
#include "base/sbuf.h"
#include "base/banned.h"

/* ---- driver ---- */

static const char *const top_keys[] = { "syscalls", "structs", "flagsets", "strace_tables", NULL };

static size_t section_size(struct loader *L, json_t *root, const char *key)
{
	json_t *arr = get_array(L, root, key, false, "the file");
	return arr ? json_array_size(arr) : 0;
}

/* Runs fn over every entry of section key of every file; checks names for duplicates. */
#define EACH_ENTRY(L, srcs, n, key, arr, count, fn)                                          \
	for (size_t f_ = 0; f_ < (n) && !(L)->failed; f_++) {                                  \
		(L)->src = &(srcs)[f_];                                                        \
		json_t *a_ = json_object_get((srcs)[f_].root, key);                            \
		push_key(L, key);                                                              \
		for (size_t i_ = 0; a_ && i_ < json_array_size(a_) && !(L)->failed; i_++) {    \
			push_idx(L, i_);                                                       \
			fn(L, json_array_get(a_, i_), &(arr)[(count)]);                        \
			if (!(L)->failed)                                                      \
				for (size_t j_ = 0; j_ < (count); j_++)                        \
					if (!strcmp((arr)[j_].name, (arr)[(count)].name)) {    \
						push_key(L, "name");                   \
						lerr(L, "duplicate name '%s' (first defined in %s)", \
						     (arr)[j_].name, (arr)[j_].file);          \
						pop_step(L);                                        \
					}                                                      \
			(count)++;                                                             \
			pop_step(L);                                                                \
		}                                                                              \
		pop_step(L);                                                                        \
	}

static struct catalog *load_sources(struct src *srcs, size_t n, unsigned flags, struct catalog_fault *fault)
{
	struct catalog *cat = xcalloc(1, sizeof(*cat));
	struct loader L = { .cat = cat, .a = &cat->arena, .srcs = srcs, .nsrcs = n, .flags = flags, .fault = fault };
	size_t nsys = 0, nst = 0, nfs = 0, ntab = 0;

	for (size_t i = 0; i < n && !L.failed; i++) {
		json_error_t je;
		L.src = &srcs[i];
		srcs[i].root = json_loadb(srcs[i].text, srcs[i].len, JSON_REJECT_DUPLICATES, &je);
		if (!srcs[i].root) {
			report_json_error(&srcs[i], &je);
			L.failed = true;
			break;
		}
		if (!check_object(&L, srcs[i].root, "the top level", top_keys))
			break;
		nsys += section_size(&L, srcs[i].root, "syscalls");
		nst += section_size(&L, srcs[i].root, "structs");
		nfs += section_size(&L, srcs[i].root, "flagsets");
		ntab += section_size(&L, srcs[i].root, "strace_tables");
	}
	if (!L.failed) {
		cat->flagsets = arena_alloc(L.a, sizeof(*cat->flagsets) * (nfs + 1));
		cat->structs = arena_alloc(L.a, sizeof(*cat->structs) * (nst + 1));
		cat->syscalls = arena_alloc(L.a, sizeof(*cat->syscalls) * (nsys + 1));
		/* flag sets and strace's tables, then structs (which name them), then syscalls (which
		 * name both) */
		cat->strace_tables = arena_alloc(L.a, sizeof(*cat->strace_tables) * (ntab + 1));
		EACH_ENTRY(&L, srcs, n, "flagsets", cat->flagsets, cat->nflagsets, load_flagset);
		EACH_ENTRY(&L, srcs, n, "strace_tables", cat->strace_tables, cat->nstrace_tables, load_strace_table);
		EACH_ENTRY(&L, srcs, n, "structs", cat->structs, cat->nstructs, load_struct);
		EACH_ENTRY(&L, srcs, n, "syscalls", cat->syscalls, cat->nsyscalls, load_syscall);
	}
	for (size_t i = 0; i < n; i++)
		json_decref(srcs[i].root);
	if (L.failed) {
		catalog_free(cat);
		return NULL;
	}
	return cat;
}

struct catalog *catalog_load_buffers(const char *const *names, const char *const *texts,
				     const size_t *lens, size_t n)
{
	struct src *srcs = xcalloc(n ? n : 1, sizeof(*srcs));
	for (size_t i = 0; i < n; i++)
		srcs[i] = (struct src){ names[i], texts[i], lens[i], NULL };
	struct catalog *c = load_sources(srcs, n, 0, NULL);
	free(srcs);
	return c;
}

struct catalog *catalog_load_text(const char *name, const char *text, size_t len, unsigned flags,
				  struct catalog_fault *fault)
{
	struct src src = { name, text, len, NULL };
	return load_sources(&src, 1, flags, fault);
}

static bool is_dir(const char *p)
{
	return access(p, R_OK | X_OK) == 0;
}

/* dir if it holds a catalogue, noting it in tried either way. */
static bool try_dir(char *found, const char *dir, struct sbuf *tried)
{
	sbuf_addf(tried, "%s'%s'", tried->len ? ", " : "", dir);
	if (!is_dir(dir) || strlen(dir) >= PATH_MAX)
		return false;
	snprintf(found, PATH_MAX, "%s", dir);
	return true;
}

/* The source tree's data/ when exe lies in its build directory (build/xsc, build/asan/xsc,
 * build/tests/...): T/data for the last T/build/ in exe's path, if T/data/schema.json is there. */
static bool build_tree_dir(char *found, const char *exe, struct sbuf *tried)
{
	const char *last = NULL;
	for (const char *p = strstr(exe, "/build/"); p; p = strstr(p + 1, "/build/"))
		last = p;
	if (!last)
		return false;
	struct sbuf d = SBUF_INIT, schema = SBUF_INIT;
	sbuf_addf(&d, "%.*s/data", (int)(last - exe), exe);
	sbuf_addf(&schema, "%s/schema.json", d.buf);
	bool ok = access(schema.buf, R_OK) == 0 && try_dir(found, d.buf, tried);
	if (!ok && !strstr(tried->buf, d.buf))
		sbuf_addf(tried, "%s'%s'", tried->len ? ", " : "", d.buf);
	sbuf_release(&schema);
	sbuf_release(&d);
	return ok;
}

/* Where the catalogue is when neither --data nor XSC_DATA says: installed beside the
 * binary, the source tree the binary was built in, or where 'make install' put it. Never
 * the current directory: a copied binary must not pick up whatever ./data it runs beside. */
const char *catalog_default_dir(void)
{
	static char found[PATH_MAX];
	if (found[0])
		return found;
	struct sbuf tried = SBUF_INIT, d = SBUF_INIT;
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	bool ok = false;
	/* a self-contained build's own catalogue first: it matches its code, an installed one
	 * may not */
	if (embed_root() && strlen(embed_root()) + 5 < PATH_MAX) {
		snprintf(found, PATH_MAX, "%s/data", embed_root());
		ok = true;
	}
	if (!ok && n > 0 && exe[0] == '/') {
		exe[n] = '\0';
		sbuf_addf(&d, "%.*s/../share/xsc/data", (int)(strrchr(exe, '/') - exe), exe);
		ok = try_dir(found, d.buf, &tried) || build_tree_dir(found, exe, &tried);
	}
#ifdef XSC_DATADIR
	ok = ok || try_dir(found, XSC_DATADIR, &tried);
#endif
	if (!ok)
		err("no catalogue found (looked in %s); give --data DIR or set XSC_DATA", tried.len ? tried.buf : "no place");
	sbuf_release(&d);
	sbuf_release(&tried);
	return ok ? found : NULL;
}

struct catalog *catalog_load(const char *dir)
{
	if (!dir)
		return NULL; /* catalog_default_dir() found none and said where it looked */
	DIR *d = opendir(dir);
	if (!d) {
		err("cannot read the catalogue directory '%s': %s", dir, strerror(errno));
		return NULL;
	}
	char **paths = NULL;
	size_t n = 0, alloc = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		if (de->d_name[0] == '.' || l < 6 || strcmp(de->d_name + l - 5, ".json") ||
		    !strcmp(de->d_name, "schema.json"))
			continue;
		struct sbuf sb = SBUF_INIT;
		sbuf_addf(&sb, "%s/%s", dir, de->d_name);
		ALLOC_GROW(paths, n + 1, alloc);
		paths[n++] = sbuf_detach(&sb);
	}
	closedir(d);
	if (n)
		qsort(paths, n, sizeof(*paths), cmp_strp);

	struct src *srcs = xcalloc(n ? n : 1, sizeof(*srcs));
	char *cpath = n ? catalog_cache_path(dir) : NULL;
	uint64_t key = cpath ? catalog_cache_key(paths, n) : 0;
	struct catalog *c = catalog_cache_load(cpath, key);
	size_t loaded = 0;
	if (c)
		goto done;
	for (; loaded < n; loaded++) {
		char *text;
		size_t len;
		if (read_file_max(paths[loaded], CATALOG_FILE_MAX, &text, &len) < 0) {
			if (errno == EFBIG)
				err("%s:1:1: file too large (limit %u bytes)", paths[loaded], CATALOG_FILE_MAX);
			else
				err("%s: %s", paths[loaded], strerror(errno));
			goto out;
		}
		srcs[loaded] = (struct src){ paths[loaded], text, len, NULL };
	}
	if (!n) {
		err("no catalogue files (*.json) in '%s'", dir);
		goto out;
	}
	c = load_sources(srcs, n, 0, NULL);
	if (c)
		catalog_cache_save(cpath, key, c);
done:
	if (c)
		c->dir = dir;
out:
	for (size_t i = 0; i < loaded; i++)
		free((char *)srcs[i].text);
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	free(srcs);
	free(cpath);
	return c;
}
