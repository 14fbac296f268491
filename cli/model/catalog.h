/* catalog: the in-memory catalogue of syscalls, structs and flag sets.
 * Built by dataload; read-only afterwards. Every string and array lives in the
 * catalogue's arena and is freed by catalog_free(). */
#ifndef XSC_CATALOG_H
#define XSC_CATALOG_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/util.h"

/* How a field's value is shown (the strace way): decimal unless the catalogue says. */
enum fformat { FF_DEC, FF_HEX, FF_OCTAL, FF_PTR, FF_SIGNAL, FF_FD };

enum ftype { FT_U8, FT_U16, FT_U32, FT_U64, FT_S8, FT_S16, FT_S32, FT_S64, FT_ALIGNED_U64, FT_PTR, FT_CHAR };

struct flag {
	const char *name, *doc;
	uint64_t value;
	uint32_t since;
	bool mask;             /* a combination or alias, not a single bit */
	const char **companions;
	size_t ncompanions;
};

enum flagset_kind { FS_BITS, FS_ENUM };

struct flagset {
	const char *name, *prefix, *header, *doc, *file;
	enum flagset_kind kind;
	struct flag *flags;
	size_t nflags;
};

struct expr_insn; /* model/expr.h */

/* A condition over a struct's fields and flag names, compiled at load (model/expr.h). */
struct field_cond {
	const char *text; /* NULL: none */
	struct expr_insn *code;
	size_t ncode;
};

struct field {
	const char *name, *doc, *zero, *type_text;
	enum ftype type;
	enum fformat format;
	unsigned elem_size, count; /* count: array length, 0 for a scalar */
	unsigned offset, size;
	uint32_t since;
	const struct flagset *flagset;
	const char **aliases;
	size_t naliases;
	bool reserved, string;
	/* how strace decodes it (model/decode.c): shown_if, when the call line shows the field
	 * (else always); written_if, when a successful call wrote it back (shown after "=>") */
	struct field_cond shown_if, written_if;
};

struct sversion {
	const char *name; /* NULL when the kernel publishes no macro */
	unsigned size;
	uint32_t since;
};

struct cstruct {
	const char *name, *header, *doc, *file;
	const char *direction; /* "in", "out", "inout" */
	bool packed;
	unsigned align, size;
	struct field *fields;
	size_t nfields;
	struct sversion *versions;
	size_t nversions;
	/* Set by the loader when some syscall carries this struct's size in a field. */
	const struct field *size_field;
};

enum arg_role { AR_FD, AR_PATH, AR_STRUCT, AR_SIZE, AR_FLAGS, AR_PID, AR_INT, AR_PTR, AR_CMD };

struct sarg {
	const char *name, *type, *def, *doc;
	enum arg_role role;
	const struct cstruct *st;
	const struct flagset *flagset;
};

enum size_where { SW_ARG, SW_FIELD, SW_IOCTL, SW_POINTER, SW_NONE };

struct size_rules {
	const char *zero, *below_ver0, *tail, *writeback, *check_order;
	const char *cap_errno;          /* the errno above the cap (default E2BIG) */
	const char **ignore_unknown;    /* flags holders whose unknown bits the kernel ignores */
	size_t nignore_unknown;
	unsigned min;          /* 0: VER0 */
	uint64_t cap;          /* 0: none */
	uint32_t cap_since;    /* 0: since the call */
};

struct serror { const char *errno_name, *meaning; };

struct expr_insn; /* model/expr.h */

/* What a check depends on beyond the arguments (its "env"), as bits of struct check's env:
 * the simulator decides such a check from its model of the sandbox's world when it can, and
 * otherwise records the check's errnos as possible and goes on. */
enum env_kind {
	ENV_PATH, ENV_FD, ENV_POINTER, ENV_PRIVILEGE, ENV_HARDWARE, ENV_LSM, ENV_FILESYSTEM,
	ENV_OBJECT, ENV_PID, ENV_MEMORY, ENV_NKINDS
};

/* One of the call's own checks, in the kernel's order: when `text` (code, its compiled
 * form) is nonzero at a kernel in [since, until), the call fails with errno_name. */
struct check {
	const char *text, *errno_name, *source, *why;
	uint32_t since, until; /* until 0: still in force */
	bool before_size;      /* "stage": "before-size": runs before the size convention's steps */
	const char **errnos;   /* every errno it may give (a list only with env), errnos[0] == errno_name */
	size_t nerrnos;
	unsigned env;          /* bits 1 << enum env_kind; 0: decided by the arguments alone */
	struct expr_insn *code;
	size_t ncode;
};
struct lineage { const char *name, *why; uint32_t since; };

/* What a successful call returns, where the catalogue says ("returns"). */
enum sc_returns { RET_UNSAID, RET_FD, RET_PID };

struct syscall {
	const char *name, *kind, *header, *prototype, *summary, *safety, *file;
	long nr_x86_64, nr_aarch64; /* -1: not on that architecture */
	bool is_ioctl;
	const char *ioctl_fd, *ioctl_dir;
	unsigned ioctl_type, ioctl_nr;
	uint32_t since;
	struct sarg *args;
	size_t nargs;
	const struct cstruct *st;
	enum size_where size_where;
	const char *size_name;
	unsigned size_bits;
	bool has_rules;
	struct size_rules rules;
	struct serror *errors;
	size_t nerrors;
	struct check *checks;  /* in the kernel's order: the before-size ones first, the rest after the size steps */
	size_t nchecks;
	struct lineage *lineage;
	size_t nlineage;
	const char **notes, **links;
	size_t nnotes, nlinks;
	/* feature bits, in bit order (stable: append only): "available", "size:N", "FIELD:FLAG" */
	const char **features;
	size_t nfeatures;
	/* the probe's recipe: FIELD=VALUE for the baseline struct, ARG=VALUE for arguments */
	const char **probe_set, **probe_args, **probe_skip; /* skip: output fields, or "*" */
	const char **probe_refuses;     /* "FIELD:FLAG" this call refuses by design (EINVAL is "no") */
	size_t nprobe_set, nprobe_args, nprobe_skip, nprobe_refuses;
	const char *probe_note;
	bool designed;         /* made in the session (struct new … syscall new): no kernel has it */
	bool check_fields;     /* the 2024 CHECK_FIELDS proposal covered it ('target sim --check-fields') */
	enum sc_returns returns;
};

struct catalog {
	struct arena arena;
	const char *dir;
	struct syscall *syscalls;
	size_t nsyscalls;
	struct cstruct *structs;
	size_t nstructs;
	struct flagset *flagsets;
	size_t nflagsets;
};

void catalog_free(struct catalog *c); /* NULL is fine */
const struct syscall *catalog_find_syscall(const struct catalog *c, const char *name);
const struct cstruct *catalog_find_struct(const struct catalog *c, const char *name);
const struct flagset *catalog_find_flagset(const struct catalog *c, const char *name);
/* A flag by name: first in fs (may be NULL), then in the "constants" set, then anywhere.
 * *in is set to the set it came from. */
const struct flag *catalog_find_flag(const struct catalog *c, const struct flagset *fs,
				     const char *name, const struct flagset **in);
/* The bits of a bit-flag set a kernel of version kv knows. */
uint64_t flagset_known_bits(const struct flagset *fs, uint32_t kv);
const struct field *cstruct_find_field(const struct cstruct *st, const char *name);
/* The field covering byte offset off, or NULL. */
const struct field *cstruct_field_at(const struct cstruct *st, size_t off);
/* Appends to sets[0..n) the flag sets st's fields use, each once, in field order (at most
 * max in all); st may be NULL. Returns the new count. */
size_t cstruct_flagsets(const struct cstruct *st, const struct flagset **sets, size_t n, size_t max);
/* Widens [*lo, *hi] (start both at 0) to the kernels catalogue c has facts for: its oldest
 * and newest "since" of a syscall, struct version, field or flag. */
void catalog_widen_span(const struct catalog *c, uint32_t *lo, uint32_t *hi);
/* The newest version's size, or the struct size when it has no versions. */
unsigned cstruct_newest_size(const struct cstruct *st);
/* The struct size a kernel of version kv knows (its newest version then; 0 kv = newest). */
unsigned cstruct_size_at(const struct cstruct *st, uint32_t kv);
const struct sversion *cstruct_find_version(const struct cstruct *st, const char *name);

const char *ftype_name(enum ftype t);
bool ftype_signed(enum ftype t);
const char *arg_role_name(enum arg_role r);
const char *env_kind_name(enum env_kind k);
/* The kind called name, or -1. */
int env_kind_from_name(const char *name);
struct sbuf;
/* Appends a check's errnos to en ("ENOENT/ENOTDIR") and its env kinds to env ("path, fd"). */
void check_errnos_env(const struct check *ck, struct sbuf *en, struct sbuf *env);

/* Moves every pointer in c by delta after its arena was copied elsewhere, checking each
 * before it is followed: arrays (with their counts), strings (NUL-terminated) and references
 * (to elements of c's own arrays) must lie inside [lo, lo + len); enumerations and booleans
 * must hold valid values. Returns -1 (c unusable) at the first that does not. */
int catalog_relocate(struct catalog *c, ptrdiff_t delta, const void *lo, size_t len);
#endif
