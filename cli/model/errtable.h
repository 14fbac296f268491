/* errtable: a call's errors, generated from what the simulator runs: the size convention's
 * steps and the call's checks, in the kernel's order, each with its errno, the condition in
 * words, the kernels it holds for and its source. The hand-written prose `errors` of the
 * catalogue follow, marked as prose: what no check covers yet (the catalogue trims it as
 * checks come). One table
 * feeds show, the reference, the site and the man page; each renders it its own way. */
#ifndef XSC_ERRTABLE_H
#define XSC_ERRTABLE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/sbuf.h"
#include "model/catalog.h"

enum errrow_kind {
	ER_SYSCALL, /* ENOSYS before the call existed */
	ER_SIZE,    /* a step of the size convention (the catalogue's size rules) */
	ER_FLAGSET, /* the generic test of a flag set or reserved field, for a call without checks */
	ER_CHECK,   /* one of the call's checks */
	ER_ENV,     /* a check that depends on the world beyond the arguments */
	ER_PROSE,   /* the catalogue's prose, for what no check covers yet */
};

struct errrow {
	enum errrow_kind kind;
	const char *errno_name;  /* the first errno (an env check may give several) */
	char *errnos;            /* every errno it may give, "ENOENT/ENOTDIR" (heap) */
	char *depends;           /* ER_ENV: what it depends on, "path, fd" (heap), else NULL */
	char *why;               /* the condition in words (heap) */
	const char *cond;        /* the check's condition as written, or NULL */
	uint32_t since, until;   /* until 0: still in force; since 0: not dated (prose) */
	char *source;            /* where the kernel decides it (heap) */
	const struct check *check; /* ER_SIZE, ER_CHECK, ER_ENV: the entry of the checks list */
};

struct errtable {
	struct errrow *rows;
	size_t n, alloc;
};

/* The rows of sc, in the order the simulator tries them (prose last). Release with
 * errtable_release. */
void errtable_build(struct errtable *t, const struct syscall *sc);
void errtable_release(struct errtable *t);
/* Whether the table's rows of this kind exist: renderers print a heading only then. */
bool errtable_has(const struct errtable *t, enum errrow_kind kind);
/* A short name of the kind, for JSON ("syscall", "size", "flagset", "check", "env", "prose"). */
const char *errrow_kind_name(enum errrow_kind kind);
/* The kernels a row holds for, in words: "5.6 and later", "5.6, gone in 6.4", "before 5.6",
 * or nothing for undated prose. */
void errrow_kernels(struct sbuf *sb, const struct errrow *r);
/* The first row of this errno in the table (for one anchor per errno), or NULL. */
const struct errrow *errtable_first(const struct errtable *t, const char *errno_name);
#endif
