/* catalog: the in-memory catalogue of syscalls, structs and flag sets.
 * Built by dataload; read-only afterwards. Every string and array lives in the
 * catalogue's arena and is freed by catalog_free(). */
#ifndef XSC_CATALOG_H
#define XSC_CATALOG_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/util.h"
#include "model/kver.h"

/* How a field's value is shown (the strace way): decimal unless the catalogue says. */
/* FF_BIT_NUMBERS: a bit set whose bits an enum of bit numbers names, strace's 1<<CAP_CHOWN */
enum fformat { FF_DEC, FF_HEX, FF_OCTAL, FF_PTR, FF_SIGNAL, FF_FD, FF_MODE, FF_EPOCH, FF_BIT_NUMBERS };
#define FF_LAST FF_BIT_NUMBERS

/* Which way a struct or a field travels between the caller and the kernel. FD_DEFAULT: not
 * stated (a field, or a call's use of its struct, takes its struct's); a struct always has
 * one of in, out, inout. FD_IGNORED: the kernel neither reads nor writes the field. */
enum fdir { FD_DEFAULT, FD_IN, FD_OUT, FD_INOUT, FD_IGNORED };
#define FD_LAST FD_IGNORED

enum ftype { FT_U8, FT_U16, FT_U32, FT_U64, FT_S8, FT_S16, FT_S32, FT_S64, FT_ALIGNED_U64, FT_PTR, FT_CHAR };

/* Where a fact comes from: its "source" (a uapi header at a version, a commit, a kernel file
 * and function, or "measured on" a kernel; NULL: its struct's or flag set's header, held to the
 * uapi headers by the layout test) and whether no source confirms its "since". */
struct provenance {
	const char *source;
	bool unverified;
};

struct flag {
	const char *name, *doc;
	struct provenance prov;
	uint64_t value;
	uint32_t since;
	uint32_t backported[KVER_NBACKPORTS]; /* stable releases with it before since (model/kver.h) */
	bool mask;             /* a combination or alias, not a single bit */
	bool negative;         /* an enum's value written as a negative number ("-100"), a signed C value */
	const char **companions;
	size_t ncompanions;
};

enum flagset_kind { FS_BITS, FS_ENUM };

/* How strace prints a flag set ("strace": its xlat tables, model/xlat.c xlat_strace): an
 * optional first table over the bits of first_mask (a value looked up, open's access mode,
 * or bits, statx's sync type), then its main table; each an ordered list of indices into the
 * set's flags, applied in order as strace applies its tables. n == 0: strace has no table. */
struct strace_xlat {
	const char *source, *unknown;  /* unknown: strace's comment for a value it cannot name */
	uint64_t first_mask;
	bool first_by_value;
	unsigned *first, *order;
	size_t nfirst, norder;
	/* names strace's table has that the set does not (flags the call refuses: statx's
	 * AT_REMOVEDIR); an index i >= the set's nflags in first or order is extra[i - nflags] */
	struct flag *extra;
	size_t nextra;
};

struct flagset {
	const char *name, *prefix, *header, *doc, *file;
	enum flagset_kind kind;
	struct flag *flags;
	size_t nflags;
	/* "value_bits": the bits that hold one value, not bits (open's O_ACCMODE); 0: none */
	uint64_t value_mask;
	struct strace_xlat strace;
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
	struct provenance prov;
	enum ftype type;
	enum fformat format;
	unsigned elem_size, count; /* count: array length, 0 for a scalar */
	unsigned offset, size;
	uint32_t since;
	const struct flagset *flagset;
	const char **aliases;
	size_t naliases;
	enum fdir direction;   /* FD_DEFAULT: the struct's (or the call's) */
	bool reserved, string;
	bool verbose_only;     /* strace shows it only with -v (statx's stx_blksize), else ", ..." */
	bool strace_extra;     /* a reserved area strace shows, when nonzero, as ... (-v: extra_data=) */
	/* how strace decodes it (model/decode.c): shown_if, when the call line shows the field
	 * (else always); written_if, when a successful call wrote it back (shown after "=>") */
	struct field_cond shown_if, written_if;
	/* "high": the field holding this value's upper 32 bits, which strace prints joined with
	 * it as one value (capget's effective and effective_hi); the high half is then not shown
	 * on its own (is_high) */
	const struct field *high;
	bool is_high;
	bool format_stated;    /* "format" is given: an enum's unknown value then in that base */
};

struct sversion {
	const char *name; /* NULL when the kernel publishes no macro */
	const char *internal; /* the kernel-internal header defining a name uapi lacks, or NULL */
	struct provenance prov;
	unsigned size;
	uint32_t since;
	uint32_t backported[KVER_NBACKPORTS];
};

/* One item of strace's own view of a struct ("strace": {"view": [...]}, perf_event_attr's),
 * shown in order in place of the fields: a value read from a field (or some of its bits),
 * under a condition, in a format, a table's names or a named printer (model/decode.c). */
struct strace_item {
	const char *name;
	const struct field *field;
	uint64_t mask;                /* the field's bits it shows, shifted down; 0: the whole field */
	struct field_cond cond;       /* shown only when it holds */
	const struct flagset *table;  /* names for the value: a strace table or a flag set */
	enum fformat format;          /* else the value in this format */
	unsigned printer;             /* 1 + an index into decode.c's named printers; 0: none */
	const char *unknown;          /* version names: strace's comment for a size it cannot name */
	const char *comment;          /* a fixed comment after the value ("Bits 63..38") */
	const char **comments;        /* a comment by value (precise_ip's skid) */
	size_t ncomments;
	const char *newer;            /* the later strace whose style it follows: the installed one lacks it */
	bool version_name;            /* the value is a size: the struct's version name for it */
	bool as_comment;              /* only " /\* bytes A..B: 0x.. *\/" after the previous item, when nonzero */
	bool nonzero;                 /* shown only when nonzero */
	bool abbrev_nonzero;          /* without -v, shown only when nonzero (perf's bit flags) */
	bool verbose_only;            /* shown only with -v */
	bool changed;                 /* a value the kernel rewrote is followed by " => " and the new one */
};

struct cstruct {
	const char *name, *header, *doc, *file;
	enum fdir direction;   /* FD_IN, FD_OUT or FD_INOUT */
	bool packed;
	bool align_stated;     /* "align" is given, not the fields' natural alignment */
	unsigned align, size;
	struct field *fields;
	size_t nfields;
	struct sversion *versions;
	size_t nversions;
	/* Set by the loader when some syscall carries this struct's size in a field. */
	const struct field *size_field;
	/* "strace": how strace prints it beyond the fields' own facts: its source; tail_more,
	 * a size past the struct shown as ", ..." (sched_attr) rather than its nonzero bytes */
	const char *strace_source;
	bool tail_more;
	bool strace_by_version; /* fields shown up to the largest version the size holds (sched_attr) */
	unsigned strace_size;   /* where that strace's struct ends, when before ours (landlock's 8); 0: ours */
	/* "entry" and "exit": the fields strace prints on the call's entry, and those it adds
	 * on a successful exit from what the kernel wrote, each in strace's order (indices into
	 * fields; "a.b" fields of one group print nested, a={b=...}); none: the fields in order */
	unsigned *strace_entry, *strace_exit;
	size_t nstrace_entry, nstrace_exit;
	/* strace's own view (perf_event_attr): items shown in place of the fields; a size below
	 * the first version is shown as the address */
	struct strace_item *view;
	size_t nview;
	/* "entry_if_set": strace prints the struct (and the call's entries after it) on entry
	 * only when a byte of it is set, and again after " => " when the call succeeded; an
	 * all-zero one only on exit (io_uring_probe). strace_count: "count", the field that says
	 * how many entries the kernel filled (ops_len); NULL: the count argument's */
	bool strace_entry_if_set;
	const struct field *strace_count;
	/* "partial": strace reads the size's bytes into a zeroed struct and shows a field the size
	 * cuts with the bytes it holds (clone3's set_tid_size at size 79) */
	bool strace_partial;
};

enum arg_role { AR_FD, AR_PATH, AR_STRUCT, AR_SIZE, AR_FLAGS, AR_PID, AR_INT, AR_PTR, AR_CMD };

struct sarg {
	const char *name, *type, *def, *doc;
	enum arg_role role;
	const struct cstruct *st;
	const struct flagset *flagset;
	/* what the C type says, worked out once (sarg_type): the bytes the kernel takes (4 or 8),
	 * whether it reads them as signed, and whether it is a pointer */
	unsigned char width;
	bool is_signed, is_ptr;
	/* "direction": out when the kernel writes what it points at (capget's dataptr): strace
	 * shows it on exit, as the kernel left it, or as its address when the call failed */
	enum fdir direction;
	/* "strace": a flags word strace prints as a plain number (strace_format dec or hex:
	 * PRINT_VAL_U, PRINT_VAL_X) rather than through a table; strace_source says where */
	const char *strace_source;
	bool strace_numeric;
	enum fformat strace_format;
	/* "signal": the mask flag of the flag set (signal_name, its bits signal_mask) whose bits
	 * hold a signal number, not flags (clone's CSIGNAL byte), and what that signal is for;
	 * signal_mask 0: none */
	const char *signal_name, *signal_means;
	uint64_t signal_mask;
};

enum size_where { SW_ARG, SW_FIELD, SW_IOCTL, SW_POINTER, SW_NONE };

/* What a size rule answers: not stated, accepted, read as VER0 (size 0 only), or an errno. */
enum size_answer_kind { SA_UNSAID, SA_OK, SA_VER0, SA_ERRNO };
struct size_answer {
	enum size_answer_kind kind;
	int err;               /* the errno number, for SA_ERRNO */
};
/* Bytes past the kernel's struct: refused unless zero (an input struct), cleared, left as
 * they are, or never looked at; TAIL_UNSAID reads as TAIL_E2BIG. */
enum size_tail { TAIL_UNSAID, TAIL_E2BIG, TAIL_ZEROED, TAIL_UNTOUCHED, TAIL_IGNORED };
#define TAIL_LAST TAIL_IGNORED
/* What the kernel writes back: nothing, its size into the size field on E2BIG, the size on
 * success, or the needed size through the size pointer on E2BIG. */
enum size_writeback { WB_NONE, WB_SIZE_ON_E2BIG, WB_SIZE_ON_SUCCESS, WB_REQUIRED_SIZE };
#define WB_LAST WB_REQUIRED_SIZE

/* A call's size rules, typed at load: the size steps of its checks apply them. */
struct size_rules {
	struct size_answer zero, below_ver0; /* below_ver0 is never SA_VER0 */
	int null_errno;        /* a NULL struct pointer's errno; 0: not stated */
	int cap_errno;         /* the errno above the cap (E2BIG unless stated) */
	enum size_tail tail;
	enum size_writeback writeback;
	const char *check_order;
	const char **ignore_unknown;    /* flags holders whose unknown bits the kernel ignores */
	/* The bigger struct the kernel copies, the call's struct its first part (bpf's per-command
	 * members of union bpf_attr): the tail is judged against its size and the checks may read
	 * up to it; NULL: the call's own struct. */
	const struct cstruct *tail_struct;
	size_t nignore_unknown;
	unsigned min;          /* 0: VER0 */
	uint64_t cap;          /* 0: none */
	uint32_t cap_since;    /* 0: since the call */
	uint32_t cap_backported[KVER_NBACKPORTS]; /* stable releases with the cap before cap_since */
};
/* "ok", "ver0" or the errno's name; NULL when not stated. */
const char *size_answer_name(const struct size_answer *a);
/* "E2BIG", "zeroed", "untouched", "ignored"; NULL for TAIL_UNSAID or out of range. */
const char *size_tail_name(enum size_tail t);
/* "none", "size-on-e2big", "size-on-success", "required-size"; NULL out of range. */
const char *size_writeback_name(enum size_writeback w);

struct serror { const char *errno_name, *meaning; };

/* One of an interface's own questions ("probe": {"queries": [...]}): what a call writes or
 * returns, read by name. With args or set it is a call of its own (the baseline's recipe plus
 * these; queries in a row with the same ones share it), else what the baseline call wrote. */
struct probe_query {
	const char *name;        /* the answer's name in probe's report */
	const char **args, **set; /* ARG=VALUE, FIELD=VALUE */
	size_t nargs, nset;
	const char *read;        /* "return", or a field of the struct read */
	const char *in;          /* where that struct is: a pointer argument, or a field holding its address (NULL: the call's) */
	const struct cstruct *st; /* the struct read (the call's, the argument's, or "struct") */
	const char *count;       /* "FIELD:FLAG": count the entries of st after the call's struct, read giving how many */
	const char *auxv;        /* a constant: the answer is the process's auxiliary vector entry (no call) */
};

struct expr_insn; /* model/expr.h */

/* What a check depends on beyond the arguments (its "env"), as bits of struct check's env:
 * the simulator decides such a check from its model of the sandbox's world when it can, and
 * otherwise records the check's errnos as possible and goes on. */
enum env_kind {
	ENV_PATH, ENV_FD, ENV_POINTER, ENV_PRIVILEGE, ENV_HARDWARE, ENV_LSM, ENV_FILESYSTEM,
	ENV_OBJECT, ENV_PID, ENV_MEMORY,
	ENV_CONFIG, /* the kernel's build configuration (CONFIG_*): an option a kernel may lack */
	ENV_SIGNAL, /* the caller's signal dispositions: what an effect of success depends on */
	ENV_NKINDS
};

/* The size convention's steps: entries of a call's checks list like its conditions, so the
 * order is data. Each applies the rule of its name in `rules` (the step restates nothing).
 * CS_COPY_IN is copy_struct_from_user: short structs zero-filled, a nonzero tail refused; the
 * struct is read from there on. CS_COPY_OUT is what an output call writes back. */
enum check_step { CS_COND, CS_NULL, CS_ZERO, CS_CAP, CS_BELOW_VER0, CS_COPY_IN, CS_COPY_OUT };
#define CS_LAST CS_COPY_OUT

/* One entry of a call's checks, in the kernel's order. A condition (step CS_COND): when
 * `text` (code, its compiled form) is nonzero at a kernel in [since, until), the call fails
 * with errno_name. A size step: text, why and source are made by the loader from the step
 * and its rule; errno_name is the rule's errno, NULL for a step that cannot fail (size 0
 * read as VER0, an output call's tail and write-back). */
struct check {
	const char *text, *errno_name, *source, *why;
	int err;               /* errno_name's number (0: a step without one), set with it at load */
	uint32_t since, until; /* until 0: still in force */
	uint32_t backported[KVER_NBACKPORTS]; /* stable releases with it before since */
	uint32_t until_backported[KVER_NBACKPORTS]; /* stable releases without it before until */
	enum check_step step;
	bool placed;           /* a step named in the data (else the loader put it at its default place) */
	const char **errnos;   /* every errno it may give (a list only with env), errnos[0] == errno_name */
	size_t nerrnos;
	unsigned env;          /* bits 1 << enum env_kind; 0: decided by the arguments alone */
	bool lookup_parent;    /* "lookup": "parent": a path check about the directory the last
				* name goes into (a call that creates it), not the name itself */
	struct expr_insn *code;
	size_t ncode;
};
/* What a successful call returns, at a kernel the value was measured on: when `text` holds,
 * the value of the newest rule whose since is at or before the kernel (landlock's ABI). */
struct result_rule {
	const char *text, *source;
	uint32_t since;
	uint64_t value;
	struct expr_insn *code;
	size_t ncode;
};
/* A value a successful call writes into an output field of its struct ("fills"), where the
 * catalogue knows it at that kernel: when `text` (the entry's "if", "1" when absent) holds,
 * the value of the newest rule for the field whose since is at or before the kernel. A field
 * the kernel writes that no rule covers is left as the caller wrote it (never invented). */
struct fill_rule {
	const char *text, *value_text, *source;
	uint32_t since;
	unsigned field;        /* index in the struct it fills (below) */
	int in_arg;            /* -1: the call's struct; else the argument whose struct it fills
				* ("in": statmount's smbuf) */
	bool entry;            /* it fills that field of each of the call's entries ("ops[].flags"):
				* `index` in its expressions is the entry's number */
	struct expr_insn *code, *value_code;
	size_t ncode, nvalue_code;
};
/* Entries of a struct that follow the call's struct in the same buffer, as many as an
 * argument says ("entries": io_uring_probe's ops[], nr_args of them): a live call passes
 * that many, zeroed, and shows what the kernel wrote into each; at most max are passed. */
struct call_entries {
	const char *name;      /* the flexible array's name, as in "ops[3].flags" */
	const struct cstruct *st;
	int count_arg;         /* the argument that counts them */
	unsigned max;          /* the most the buffer holds (the kernel refuses more) */
};
/* What a successful call may do besides returning ("effects"): when `text` holds at a kernel
 * at or after since, the caller may be killed by the signal `signal` evaluates to (0: none),
 * depending on how it handles that signal (clone3's exit_signal, sent to the caller when the
 * new process exits). The answer stays the call's; the simulator adds the death as possible. */
struct effect_rule {
	const char *text, *signal_text, *source, *why;
	uint32_t since;
	struct expr_insn *code, *signal_code;
	size_t ncode, nsignal_code;
};
/* The step's name in the data ("size-cap"), NULL for CS_COND or a value out of range. */
const char *check_step_name(enum check_step s);
struct syscall;
/* Whether sc's rules give step s something to do (the loader inserts only those steps, and
 * refuses a named one without). */
bool check_step_applies(const struct syscall *sc, enum check_step s);
/* Fills a size step's text, why, errno and source (the rule's name when source is NULL) from
 * sc's rules, the strings in a: the data names only the step. */
void check_describe_step(struct arena *a, const struct syscall *sc, struct check *ck, const char *source);
/* The index of step s in list[0..n), or n. */
size_t checks_find_step(const struct check *list, size_t n, enum check_step s);
/* Puts the steps sc's rules call for and list[0..*n) lacks at their default places: with none
 * named, size-zero, size-cap, size-below-ver0, struct-null, copy-in first; else each after the
 * last in the list of those before it in that order, or before the first of those after it;
 * copy-out last. list has room for CS_LAST more; pos (may be NULL) moves along, -1 for the
 * inserted ones. */
void checks_insert_steps(struct arena *a, const struct syscall *sc, struct check *list, long *pos, size_t *n);
/* Whether ck, an entry of sc's checks, comes before sc's copy-in step (the struct not read yet). */
bool check_before_copy_in(const struct syscall *sc, const struct check *ck);
struct lineage { const char *name, *why; uint32_t since; };

/* The catalogue's "kind" of an interface: how it can grow. */
enum sc_kind { SK_EXTENSIBLE, SK_FLAGS_ONLY, SK_MULTIPLEXER, SK_FIXED_PADDED, SK_LEGACY };
/* "safety": how a live call is confined (the build's systable decides; the catalogue must agree). */
enum safety { SAFE_PURE, SAFE_SANDBOX, SAFE_NAMESPACE, SAFE_PRIVILEGED };
/* An ioctl's direction, valued as the _IOC direction bits (asm-generic/ioctl.h). */
enum ioctl_dir { IOD_NONE = 0, IOD_W = 1, IOD_R = 2, IOD_RW = 3 };

/* What a successful call returns, where the catalogue says ("returns"). */
enum sc_returns { RET_UNSAID, RET_FD, RET_PID };

struct syscall {
	const char *name, *header, *prototype, *summary, *file;
	enum sc_kind kind;
	enum safety safety;
	long nr_x86_64, nr_aarch64; /* -1: not on that architecture */
	bool is_ioctl;
	const char *ioctl_fd;
	enum ioctl_dir ioctl_dir;
	unsigned ioctl_type, ioctl_nr;
	uint32_t since;
	struct sarg *args;
	size_t nargs;
	const struct cstruct *st;
	enum fdir direction;   /* how this call uses an inout struct (FD_IN or FD_OUT); FD_DEFAULT: the struct's */
	enum size_where size_where;
	const char *size_name;
	unsigned size_bits;
	bool has_rules;
	struct size_rules rules;
	struct serror *errors;
	size_t nerrors;
	struct check *checks;  /* in the kernel's order, the size convention's steps among them */
	size_t nchecks;
	size_t nconds;         /* how many of them are conditions (the call's own checks) */
	struct result_rule *results; /* "results": values a successful call returns, by kernel */
	size_t nresults;
	struct effect_rule *effects; /* "effects": what success may do to the caller */
	size_t neffects;
	struct fill_rule *fills; /* "fills": output fields' values on success, by kernel */
	size_t nfills;
	struct call_entries entries; /* "entries": st NULL when the call has none */
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
	const char **probe_skip_args;   /* flags arguments the prober leaves alone (rseq's flags unregister) */
	size_t nprobe_skip_args;
	struct probe_query *queries;    /* the interface's own questions, answered by probe */
	size_t nqueries;
	bool designed;         /* made in the session (struct new … syscall new): no kernel has it */
	bool check_fields;     /* the 2024 CHECK_FIELDS proposal covered it ('target sim --check-fields') */
	enum sc_returns returns;
	const char *simulation_only; /* why no kernel is called for it (a descriptor the sandbox cannot make), or NULL */
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
	/* strace's xlat tables that are no flag set of the catalogue ("strace_tables": perf's
	 * PERF_COUNT_HW_*): names for a struct's strace view, with strace's table as source */
	struct flagset *strace_tables;
	size_t nstrace_tables;
};

void catalog_free(struct catalog *c); /* NULL is fine */
const struct syscall *catalog_find_syscall(const struct catalog *c, const char *name);
const struct cstruct *catalog_find_struct(const struct catalog *c, const char *name);
const struct flagset *catalog_find_flagset(const struct catalog *c, const char *name);
/* A strace table by name, or NULL. */
const struct flagset *catalog_find_strace_table(const struct catalog *c, const char *name);
/* A flag by name: first in fs (may be NULL), then in the "constants" set, then anywhere
 * (the strace tables last).
 * *in is set to the set it came from. */
const struct flag *catalog_find_flag(const struct catalog *c, const struct flagset *fs,
				     const char *name, const struct flagset **in);
/* The bits of a bit-flag set a kernel of version kv knows. */
uint64_t flagset_known_bits(const struct flagset *fs, uint32_t kv);
/* Whether check ck is in force at kernel kv: it has come (since, or a backport) and not gone
 * (until, or a backport of its removal). */
bool check_in_force(const struct check *ck, uint32_t kv);
const struct field *cstruct_find_field(const struct cstruct *st, const char *name);
/* The field covering byte offset off, or NULL. */
const struct field *cstruct_field_at(const struct cstruct *st, size_t off);
/* Appends to sets[0..n) the flag sets st's fields use, each once, in field order (at most
 * max in all); st may be NULL. Returns the new count. */
size_t cstruct_flagsets(const struct cstruct *st, const struct flagset **sets, size_t n, size_t max);
/* Widens [*lo, *hi] (start both at 0) to the kernels catalogue c has facts for: its oldest
 * and newest "since" of a syscall, check, result, struct version, field or flag. */
void catalog_widen_span(const struct catalog *c, uint32_t *lo, uint32_t *hi);
/* The newest version's size, or the struct size when it has no versions. */
unsigned cstruct_newest_size(const struct cstruct *st);
/* The struct size a kernel of version kv knows (its newest version then; 0 kv = newest). */
unsigned cstruct_size_at(const struct cstruct *st, uint32_t kv);
const struct sversion *cstruct_find_version(const struct cstruct *st, const char *name);
/* The last field version i of st had (dated at or before it and ending within its size), or
 * NULL: a version may end in padding (rseq's 32 bytes of 4.18 end after flags, at 20). */
const struct field *cstruct_version_last_field(const struct cstruct *st, size_t i);
/* The version that brought field f: one of f's own release, else the first that covers it;
 * *inside is set when f came later, inside that version's bytes (rseq's node_id, 6.3, in the
 * 32 bytes of 4.18). st->nversions when no version covers it. */
size_t cstruct_field_version(const struct cstruct *st, const struct field *f, bool *inside);

/* Whether sc has a size convention its checks list runs as steps (a struct, size rules, and
 * a size the kernel reads as an argument, a field or an ioctl number). */
bool syscall_has_size_steps(const struct syscall *sc);
/* The struct whose size a kernel judges the call's tail against: the rules' tail_struct, else
 * the call's own (NULL without one). */
const struct cstruct *syscall_tail_struct(const struct syscall *sc);
/* The smallest size the size-below-ver0 step accepts: rules.min, else the first version's. */
unsigned syscall_ver0(const struct syscall *sc);
/* The index of the argument that carries sc's struct, or -1. */
int syscall_struct_arg(const struct syscall *sc);
/* Whether sc's struct is written by the kernel (its tail rule is not E2BIG), so copy-out
 * applies and copy-in checks no tail. */
bool syscall_size_output(const struct syscall *sc);

/* "in", "out", "inout", "ignored" ("default" for FD_DEFAULT); NULL out of range. */
const char *fdir_name(enum fdir d);
/* The way struct st travels in call sc (NULL, or a call of another struct: the struct's own
 * direction): an in/out struct that the call uses one way only says so. Never FD_DEFAULT. */
enum fdir struct_direction(const struct syscall *sc, const struct cstruct *st);
/* The way field f of struct st travels in call sc (NULL: the struct's own view): the call's
 * or the struct's direction, narrowed by the field's own where the struct goes both ways;
 * an ignored field is ignored in every call. Never FD_DEFAULT. */
enum fdir field_direction(const struct syscall *sc, const struct cstruct *st, const struct field *f);
/* Whether the kernel reads field f as input in call sc (in or inout): only those are validated. */
bool field_is_input(const struct syscall *sc, const struct cstruct *st, const struct field *f);

const char *ftype_name(enum ftype t);
/* A field's "format" in the catalogue ("hex"), NULL out of range; fformat_names is the same,
 * NULL-terminated, for the loader. */
extern const char *const fformat_names[];
const char *fformat_name(enum fformat f);
bool ftype_signed(enum ftype t);
const char *arg_role_name(enum arg_role r);
/* Sets a's width, is_signed and is_ptr from its C type ("unsigned int", "size_t", "__u32 *"). */
void sarg_type(struct sarg *a);
/* The bits of a register the kernel reads for argument a: cut to its width (a flags word of
 * an int keeps bit 31 as a bit; print with is_signed for the number). */
uint64_t sarg_bits(const struct sarg *a, uint64_t reg);
/* The catalogue's words for them ("extensible", "sandbox", "rw"). */
const char *sc_kind_name(enum sc_kind k);
const char *safety_name(enum safety s);
const char *ioctl_dir_name(enum ioctl_dir d);
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
