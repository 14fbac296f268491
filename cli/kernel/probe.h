/* probe: a userspace sys_features. For each syscall, on the running kernel: is it there,
 * how big is its struct (bisection over one nonzero byte, the size the kernel writes back,
 * and BTF, which must agree), which flags of each flags field it accepts (one call per bit,
 * with the companions a flag needs), which bits unknown to the catalogue it accepts, and
 * what its own queries say. Every call runs in one sandboxed child; the report says how
 * many calls were made and how long they took. */
#ifndef XSC_PROBE_H
#define XSC_PROBE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/util.h"
#include "model/catalog.h"

enum answer { ANS_NO, ANS_YES, ANS_INCONCLUSIVE };

struct flag_answer {
	const char *holder;   /* the field or argument */
	const char *name;     /* the catalogue's flag, or NULL for a bit it does not know */
	uint64_t bit;
	enum answer answer;
	int err;              /* what the kernel said (0: success) */
	int unknown_err;      /* the errno an unknown flag gets, when the checks' order tells (0: not) */
	bool fs_dependent;    /* the answer depends on the sandbox's file system */
	const char *reason;   /* for inconclusive answers, and how a known flag was told */
};

struct query_answer {
	const char *name;     /* "landlock_abi", "io_uring_last_op", … */
	int64_t value;
	bool ok;
};

struct probe_report {
	const struct syscall *sc;
	enum answer available;
	const char *why;          /* inconclusive or skipped: the reason */
	int base_err;             /* the baseline call's errno (0 = success) */
	int ksize_bisect, ksize_writeback, ksize_btf; /* -1: not measured */
	int ksize;                /* the agreed size, -1 when unknown */
	bool disagree;            /* the three ways did not agree */
	struct flag_answer *flags;
	size_t nflags;
	struct query_answer queries[4];
	size_t nqueries;
	uint32_t *bitmap;         /* over sc->features */
	size_t nbits;
	unsigned calls;           /* syscalls issued for this syscall */
	uint64_t us;
};

struct probe_run {
	char kernel[65];          /* uname release */
	struct arena strings;     /* strings of a run read back from the cache */
	struct probe_report *reports;
	size_t nreports;
	unsigned calls;
	uint64_t us;              /* wall time of the whole probe, fork included */
	bool cached;              /* read from this boot's cache: no call was made now */
};

/* Probes the named syscalls (all probe-able ones when n == 0). Returns 0, or -1 (reported). */
int probe_run(const struct catalog *cat, const char *const *names, size_t n, unsigned timeout_ms,
	      struct probe_run *run);
void probe_run_release(struct probe_run *run);
/* (Re)computes r->bitmap from the answers. */
void probe_fill_bitmap(struct probe_report *r);
/* The feature bits of one report: set, clear, or unknown (inconclusive). */
bool probe_feature(const struct probe_report *r, size_t bit, bool *known);
/* A flags word whose unknown bits the kernel ignores by design (the catalogue's rules'
 * ignore_unknown: a request mask): they are not probed. */
bool probe_ignores_unknown(const struct syscall *sc, const char *holder);
/* Does a field at field_off of width bytes lie (partly) past the kernel's struct, as the
 * report measured it? Such a field is one the kernel cannot read: a nonzero byte there is
 * E2BIG, so none of its flags is supported. */
bool probe_past_struct(const struct probe_report *r, int field_off, unsigned width);
/* Can this syscall be probed at all? */
bool probe_supported(const struct syscall *sc, const char **why);
#endif
