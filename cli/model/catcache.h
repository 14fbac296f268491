/* catcache: the catalogue cache of catalog_load (catcache.c), a parsed catalogue saved as
 * its arena plus a relocation, believed only after catalog_check. */
#ifndef XSC_CATCACHE_H
#define XSC_CATCACHE_H
#include <stddef.h>
#include <stdint.h>
#include "model/catalog.h"

/* The cache file for the catalogue directory dir, or NULL when there is no cache directory;
 * the caller frees it. */
char *catalog_cache_path(const char *dir);
/* The key of a cache: the types' layout, the binary and each file's identity. */
uint64_t catalog_cache_key(char **paths, size_t n);
/* The catalogue in the cache at path when it is valid for key, else NULL (a damaged one
 * said with a warning). */
struct catalog *catalog_cache_load(const char *path, uint64_t key);
/* Saves c at path for key (best effort), pruning old caches. */
void catalog_cache_save(const char *path, uint64_t key, const struct catalog *c);
#endif
