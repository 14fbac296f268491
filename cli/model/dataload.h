/* dataload: reads the catalogue JSON (jansson) into a struct catalog.
 * Refuses the whole catalogue at the first problem, printing "file:line:col: message"
 * through err(); nothing is half-loaded. */
#ifndef XSC_DATALOAD_H
#define XSC_DATALOAD_H
#include <stddef.h>
#include "model/catalog.h"

#define CATALOG_FILE_MAX (4u << 20) /* bytes per file */

/* Every *.json in dir except schema.json, in name order. Caller frees with catalog_free. */
struct catalog *catalog_load(const char *dir);
/* The same from in-memory files (names are used in messages). For tests and fuzzing. */
struct catalog *catalog_load_buffers(const char *const *names, const char *const *texts,
				     const size_t *lens, size_t n);
/* The bundled catalogue: XSC_DATA, else installed beside the binary (PREFIX/share/xsc/data),
 * else the source tree's data/. Returns a static string. */
const char *catalog_default_dir(void);
#endif
