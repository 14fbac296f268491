/* xlat: numbers to names and back: errno names, flag words (strace style). */
#ifndef XSC_XLAT_H
#define XSC_XLAT_H
#include <stdint.h>
#include "base/sbuf.h"
#include "model/catalog.h"

/* "E2BIG" for 7; NULL when unknown. */
const char *errno_name(int e);
/* 7 for "E2BIG"; -1 when unknown. */
int errno_from_name(const char *name);
/* Call fn for every known errno name (for completion and suggestions). */
void errno_each(void (*fn)(const char *name, void *ctx), void *ctx);

/* Decodes v with fs into sb: bits as "A|B|0x40", an enum as "NAME" or
 * "7 /\* PREFIX??? *\/". With fs NULL, the number alone (decimal below 10, else hex).
 * Returns the bits no flag explains (0 for an enum that matched). */
uint64_t xlat_flags(struct sbuf *sb, const struct flagset *fs, uint64_t v);
/* As xlat_flags, but the set's value bits (open's access mode, "value_bits") come first and
 * are always named, even 0 (O_RDONLY), as strace's call lines name them. */
uint64_t xlat_flags_valued(struct sbuf *sb, const struct flagset *fs, uint64_t v);
/* Decodes v as strace does (the set's "strace" tables, sprintflags_ex in strace's
 * src/xlat.c): each table's names in its order, a name taken when all its bits are in what is
 * left; the set's names strace's table lacks (newer ones) after them, in xsc's order; a
 * remainder in hex ("|0x8"); a value nothing names as "0x8000 /\* STATX_??? *\/"; 0 as the
 * table's zero name or "0". An enum: its name, else hex and the comment. Without strace
 * tables, the same rules over the set in xsc's order. */
void xlat_strace(struct sbuf *sb, const struct flagset *fs, uint64_t v);
/* The same, an enum's unknown value in decimal when dec (strace's printxval_u: 128 /\* X_??? *\/). */
void xlat_strace_as(struct sbuf *sb, const struct flagset *fs, uint64_t v, bool dec);
/* Writes v in hex ("0x1f") or decimal for small values. */
void xlat_number(struct sbuf *sb, uint64_t v);
#endif
