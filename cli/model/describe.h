/* describe: what the catalogue says about a call, as a list of label/value items, so that each
 * fact is described once. `show` renders the items as text and in its JSON, docgen as the
 * reference's Markdown; the two once said different things about the same rule (sched_getattr's
 * cap errno) because each read the catalogue on its own. Engine code: it never prints, and the
 * words around a value (a sentence in `show`, a bullet in the reference) stay with each
 * renderer, keyed by the item's rule. */
#ifndef XSC_DESCRIBE_H
#define XSC_DESCRIBE_H
#include <stddef.h>
#include <stdint.h>
#include "model/catalog.h"

/* The size rules, in the order both renderers give them, then the other facts. */
enum describe_rule {
	DR_WHERE,       /* where the size travels (kind: enum size_where; value: the size's name) */
	DR_ZERO,        /* size 0 (kind: enum size_answer_kind) */
	DR_BELOW_VER0,  /* a size below the first version (kind: enum size_answer_kind) */
	DR_MIN,         /* the smallest size accepted (num: bytes) */
	DR_CAP,         /* the largest size accepted (num: bytes; value: the errno above it; since) */
	DR_TAIL,        /* bytes past the kernel's size (kind: enum size_tail) */
	DR_TAIL_STRUCT, /* the bigger struct whose size that is (value: its name; num: its newest size) */
	DR_WRITEBACK,   /* what the kernel writes back about the size (kind: enum size_writeback) */
	DR_ORDER,       /* the order of the checks, in words */
	DR_NRULES,
	DR_DIRECTION = DR_NRULES, /* which way a struct travels in a call (kind: enum fdir; num 1: the
				   * call uses an in/out struct one way only) */
};

struct describe_item {
	enum describe_rule rule;
	const char *key;    /* the rule in JSON: "where", "zero", "cap", ... */
	const char *label;  /* the rule in words: "Largest size accepted" */
	const char *value;  /* the answer in one token: "EINVAL", "ver0", "size-on-e2big", the size's
			     * name; NULL for DR_MIN, whose answer is num */
	int kind;           /* the answer's enum, as the rule above says */
	uint64_t num;       /* bytes (DR_MIN, DR_CAP) or the size's bits (DR_WHERE) */
	uint32_t since;     /* DR_CAP: the kernel that brought the cap; 0: the call always had it */
};

struct describe {
	struct describe_item items[DR_NRULES];
	size_t n;
};

/* The size rules of sc that the catalogue states: where the size travels always (SW_NONE
 * alone when the struct has a fixed size), then the rules the catalogue gives, the write-back
 * always once there are rules. Pointers point into the catalogue and static strings. */
void describe_size(const struct syscall *sc, struct describe *d);
/* The item for rule, or NULL when d has none. */
const struct describe_item *describe_find(const struct describe *d, enum describe_rule rule);
/* Flag f's value as show and the reference write it, in buf: hexadecimal, but a negative
 * enumeration value in decimal (-1, not 0xffffffffffffffff). Returns buf. */
const char *describe_flag_value(const struct flagset *fs, const struct flag *f, char buf[24]);
/* The way st travels in call sc (NULL: any call), as decode, show and the reference take it:
 * value "in", "out" or "inout" (kind the enum fdir, never FD_DEFAULT), num 1 when sc uses an
 * in/out struct one way only ("input in this call"). */
struct describe_item describe_direction(const struct syscall *sc, const struct cstruct *st);
/* "arg", "field", "ioctl", "pointer", "none". */
const char *size_where_name(enum size_where w);

#endif
