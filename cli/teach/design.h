/* design: hypothetical extensible syscalls made in the session (struct new, field add,
 * flagset new, flag add, version add, syscall new) and exported as catalogue JSON, a uapi
 * header, a kernel-side skeleton and a kselftest skeleton.
 * The loaded catalogue is read-only, so designed entries live in a second catalogue, made
 * after every change the way any catalogue is made: the design is written as catalogue JSON
 * by the one writer (model/catwrite.h) and read by the loader (model/dataload.h), as a draft;
 * a change the loader refuses is undone, with the loader's message. Earlier builds stay
 * valid (buffers point into them) until design_free. Designed syscalls are marked
 * `designed`: the simulator answers them, the invoker refuses to run them live. */
#ifndef XSC_DESIGN_H
#define XSC_DESIGN_H
#include <stdbool.h>
#include <stdint.h>
#include "base/sbuf.h"
#include "model/catalog.h"

#define DESIGN_DEFAULT_SINCE 0x070000 /* 7.0: the first kernel after the catalogue's newest */

struct design;

struct design *design_new(void);
void design_free(struct design *d); /* NULL is fine */
/* The designed entries as a catalogue, or NULL when nothing has been designed. Owned by d. */
const struct catalog *design_catalog(const struct design *d);
/* The struct / flag set being designed (the last one made), or NULL. */
const char *design_current_struct(const struct design *d);
const char *design_current_flagset(const struct design *d);

/* Each returns 0, or -1 after reporting with err(). cat is the loaded catalogue (names must
 * not clash with it). since 0 means the default. */
int design_struct_new(struct design *d, const struct catalog *cat, const char *name, uint32_t since);
/* Appends a field at its natural alignment (or at `at` when at >= 0); flagset may be NULL. */
int design_field_add(struct design *d, const char *type, const char *name, uint32_t since, const char *zero,
		     const char *flagset, long at);
int design_flagset_new(struct design *d, const struct catalog *cat, const char *name);
int design_flag_add(struct design *d, const char *name, uint64_t value, uint32_t since);
int design_version_add(struct design *d, unsigned size, uint32_t since);
/* flags: a designed flag set for a `flags` argument, or NULL for none. */
int design_syscall_new(struct design *d, const struct catalog *cat, const char *name, const char *st,
		       const char *flags, uint32_t since);

/* Export NAME (a designed syscall or struct) into dir: NAME.json, NAME.h, NAME_kernel.c and
 * NAME_test.c, each written whole (base/outfile.h). An existing file is refused, before any
 * is written, unless flags has OF_FORCE; a replaced one keeps its mode. The JSON is checked
 * with the catalogue loader first (its messages if it is refused; nothing is written then).
 * *written gets one path a line. */
int design_export(const struct design *d, const char *name, const char *dir, unsigned flags, struct sbuf *written);
/* The four texts of an export, without writing them (tests). */
int design_render(const struct design *d, const char *name, struct sbuf *json, struct sbuf *header,
		  struct sbuf *kernel, struct sbuf *selftest);
#endif
