/* loadrules: the loader's rules that catalog_check (catcheck.c) applies again to a
 * catalogue mapped back from a cache, defined once in dataload.c (ld_: the loader's). */
#ifndef XSC_LOADRULES_H
#define XSC_LOADRULES_H
#include <stdbool.h>
#include <stddef.h>
#include "model/catalog.h"
#include "model/expr.h"

/* A catalogue type ("u32", "aligned_u64", "char[16]", "u8[24]") into f's type, element size,
 * count and size; false when it is none. */
bool ld_parse_ftype(const char *s, struct field *f);
/* Is "HOLDER:FLAG" a flag of a struct field or of a flags argument called HOLDER (2), a
 * holder without that flag (1), or no holder (0)? */
int ld_feature_known(const struct syscall *sc, const char *holder, size_t n, const char *flag);
/* The argument of sc called name, or NULL. */
const struct sarg *ld_find_arg(const struct syscall *sc, const char *name);
/* The first field code reads (its value or unknown bits) that call sc does not read, or NULL. */
const struct field *ld_output_field_read(const struct syscall *sc, const struct expr_insn *code, size_t n);
/* Whether a check's code reads the struct: a field, unknown(FIELD), nonzero(), or size when
 * the size is a field of the struct. */
bool ld_reads_struct(const struct expr_insn *code, size_t n, const struct syscall *sc);
/* Whether the rules' tail_struct (if any) can stand for the kernel's copy of sc's struct;
 * else false with the reason in why. */
bool ld_tail_struct_ok(const struct syscall *sc, struct sbuf *why);
#endif
