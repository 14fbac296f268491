/* dataload: reads the catalogue JSON (jansson) into a struct catalog.
 * Refuses the whole catalogue at the first problem, printing "file:line:col: message"
 * through err(); nothing is half-loaded. */
#ifndef XSC_DATALOAD_H
#define XSC_DATALOAD_H
#include <stddef.h>
#include <stdint.h>
#include "base/sbuf.h"
#include "model/catalog.h"

#define CATALOG_FILE_MAX (4u << 20) /* bytes per file */

/* Every *.json in dir except schema.json, in name order. Caller frees with catalog_free.
 * dir NULL (catalog_default_dir found none, and said so): NULL. */
struct catalog *catalog_load(const char *dir);
/* The same from in-memory files (names are used in messages). For tests and fuzzing. */
struct catalog *catalog_load_buffers(const char *const *names, const char *const *texts,
				     const size_t *lens, size_t n);
/* How a load failed, for a caller that words it itself (design): the message without its
 * "file:line:col: ", that line and column, and where the value is (the section, "structs",
 * its entry, the entry's member, "fields", and its item; "" and -1 where the path stops). */
struct catalog_fault {
	unsigned long line, col;
	char section[16], member[16];
	long entry, item;
	struct sbuf msg;
};
/* CATALOG_DRAFT: a design in progress, whose structs may have no fields yet, fields past the
 * newest size version (not yet published) and an end short of their alignment (a struct's
 * size is then where its fields end); every other rule holds. */
enum { CATALOG_DRAFT = 1 };
/* One in-memory file named name. fault NULL: the first error reported with err(), as
 * catalog_load does; else the first broken rule into *fault (its msg initialised by the
 * caller), nothing printed (a file that is not JSON is still reported). */
struct catalog *catalog_load_text(const char *name, const char *text, size_t len, unsigned flags,
				  struct catalog_fault *fault);
/* Holds a loaded catalogue to the loader's rules again (for one mapped back from a cache):
 * 0, or -1 with the first broken rule in why. */
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
