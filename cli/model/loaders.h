/* loaders: the catalogue loader's entity loaders, each reading one entry of a section of a
 * file into the catalogue (loadlayout.c: flag sets, strace's tables and structs; loadcall.c:
 * syscalls), and what they share. dataload.c runs them over every file in order: flag sets
 * and strace's tables, then structs (which name them), then syscalls (which name both). */
#ifndef XSC_LOADERS_H
#define XSC_LOADERS_H
#include "model/expr.h"
#include "model/jsonpos.h"

void load_flagset(struct loader *L, json_t *o, struct flagset *fs);
void load_strace_table(struct loader *L, json_t *o, struct flagset *fs);
void load_struct(struct loader *L, json_t *o, struct cstruct *st);
void load_syscall(struct loader *L, json_t *o, struct syscall *sc);

/* "backported" (or key): stable releases with a change before since, into bp. */
void load_backports(struct loader *L, json_t *o, const char *key, uint32_t since, uint32_t bp[KVER_NBACKPORTS],
		    const char *what);
/* A fact's "source", "unverified" and "backported" (bp NULL: checked and dropped). */
void load_provenance(struct loader *L, json_t *o, const char *what, uint32_t since, uint32_t *bp,
		     struct provenance *pv);
/* A condition of the expression language compiled into the arena, a fault at its column. */
void compile_condition(struct loader *L, const struct expr_scope *scope, const char *key, const char *text,
		       struct expr_insn **code_out, size_t *ncode);
/* The flag set member key names, or NULL (an unknown one reported). */
const struct flagset *resolve_flagset(struct loader *L, json_t *o, const char *key);
/* "in", "out", "inout": a struct's or a call's direction, from FD_IN. */
extern const char *const ld_directions[];
#endif
