/* dataload: reads the catalogue JSON (jansson) into a struct catalog.
 * Refuses the whole catalogue at the first problem, printing "file:line:col: message"
 * through err(); nothing is half-loaded. */
#ifndef XSC_DATALOAD_H
#define XSC_DATALOAD_H
#include <stddef.h>
#include <stdint.h>
#include "model/catalog.h"

#define CATALOG_FILE_MAX (4u << 20) /* bytes per file */

/* Every *.json in dir except schema.json, in name order. Caller frees with catalog_free.
 * dir NULL (catalog_default_dir found none, and said so): NULL. */
struct catalog *catalog_load(const char *dir);
/* The same from in-memory files (names are used in messages). For tests and fuzzing. */
struct catalog *catalog_load_buffers(const char *const *names, const char *const *texts,
				     const size_t *lens, size_t n);
/* Holds a loaded catalogue to the loader's rules again (for one mapped back from a cache):
 * 0, or -1 with the first broken rule in why. */
struct sbuf;
int catalog_check(const struct catalog *c, struct sbuf *why);
/* The catalogue cache's format, for tests: c as the bytes of a cache file under key (caller
 * frees *out), and back: NULL when the bytes are stale (silently) or damaged or forged (why
 * says how). The result is relocated with every pointer checked and passes catalog_check. */
void catalog_to_cache(const struct catalog *c, uint64_t key, void **out, size_t *len);
struct catalog *catalog_from_cache(const void *buf, size_t len, uint64_t key, struct sbuf *why);
/* What a forger does: recomputes the checksum of a cache file's bytes after an edit. */
void catalog_cache_reseal(void *buf, size_t len);
/* The bundled catalogue when there is no --data or XSC_DATA: installed beside the binary
 * (PREFIX/share/xsc/data), the source tree the binary sits in the build directory of
 * (T/build/xsc -> T/data), else XSC_DATADIR; never the current directory. Returns a static
 * string, or NULL after an error naming every place it looked. */
const char *catalog_default_dir(void);
#endif
