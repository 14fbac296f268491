/* hmacro: the parts of reading a header that need no libclang (hmacro.c), shared by the
 * libclang front end (header.c) and the catalogue adapter (hcatalog.c). */
#ifndef XSC_HMACRO_H
#define XSC_HMACRO_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "headers/header.h"

/* The names of the object-like macros with a body that text #defines, in order; the caller
 * frees each and the array. */
void header_scan_macro_names(const char *text, size_t len, char ***out, size_t *n);
/* Is n a FOO_SIZE_VERn macro? Its n in *ver, the length of FOO in *plen. */
bool header_ver_macro(const char *n, unsigned *ver, size_t *plen);
/* Indices 0..n-1 ordered by names[i], ties by index; the caller frees. */
size_t *header_order_by_name(char **names, size_t n);
/* The *_SIZE_VERn macros among h->macros, each given to its struct in n order; the rest
 * become flag groups (h->flagsets). */
void header_collect_versions(struct header *h);
/* A zeroed new last element of the growing array *arrp of n elements of sz bytes. */
void *header_push(void *arrp, size_t *n, size_t *alloc, size_t sz);

static inline bool header_pow2(uint64_t v) { return v && !(v & (v - 1)); }
#endif
