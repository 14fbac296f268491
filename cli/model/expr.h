/* expr: the conditions of a syscall's checks, a small C-like expression language.
 * Names are the struct's fields, the call's arguments, `size` (the size argument as the
 * kernel sees it) and flag names from the catalogue; functions: unknown(X), the bits of the
 * field or argument X outside its flag set at the simulated version; nonzero(FIELD) and
 * nonzero(FROM, TO), whether a byte of the field (an array too) or of the struct's bytes
 * [FROM, TO) is nonzero, as the kernel read them (past what it read, zero); arg(X) and
 * field(X) for a name that is both an argument and a field (a bare one is refused), also
 * inside unknown(); known(SET), the bits of a flag set (or, for an enum set, the values
 * counted) the simulated kernel knows, and count(SET), how many of its values it knows;
 * min(A, B); `index`, the number of the entry an entry's fill is about. Values are u64 with
 * C's unsigned semantics; a shift by 64 or more gives 0 (C leaves it undefined).
 * An expression is parsed once, at catalogue load, into postfix code whose operands are
 * indices, never pointers, so the code lives in the catalogue's arena and its cache as is.
 * Evaluation allocates nothing and cannot fail. */
#ifndef XSC_EXPR_H
#define XSC_EXPR_H
#include <stddef.h>
#include <stdint.h>
#include "base/sbuf.h"
#include "model/catalog.h"

#define EXPR_MAX_CODE 256  /* instructions in one expression */
#define EXPR_MAX_DEPTH 32  /* nesting of parentheses and operators, and the eval stack */

enum expr_opcode {
	XO_CONST, XO_FIELD, XO_ARG, XO_SIZE, XO_UNKNOWN_FIELD, XO_UNKNOWN_ARG, /* operands */
	XO_INDEX, XO_KNOWN, XO_COUNT, /* the entry's number; a flag set's known bits, its known values */
	XO_NOT, XO_LNOT, XO_NEG,                                               /* unary */
	XO_MUL, XO_ADD, XO_SUB, XO_SHL, XO_SHR, XO_LT, XO_LE, XO_GT, XO_GE, XO_EQ, XO_NE,
	XO_AND, XO_XOR, XO_OR, XO_LAND, XO_LOR,                                /* binary */
	XO_NONZERO, /* pops FROM and TO: whether a byte of the struct in [FROM, TO) is nonzero */
	XO_MIN,
	XO_LAST = XO_MIN
};

struct expr_insn {
	uint32_t op;   /* enum expr_opcode */
	uint32_t idx;  /* field or argument index */
	uint64_t val;  /* the constant, or the flag set's index in the catalogue */
};

/* What names mean while parsing: st's fields, sc's arguments, cat's flags. */
struct expr_scope {
	const struct catalog *cat;
	const struct syscall *sc;
	const struct cstruct *st; /* may be NULL */
	bool entry;               /* an entry's fill: `index` names the entry */
};

/* What the names stand for while evaluating. */
struct expr_env {
	const struct catalog *cat;
	const struct syscall *sc;
	const struct cstruct *st; /* the call's struct even when the caller passed none (buf NULL) */
	const unsigned char *buf; /* the struct as the caller wrote it */
	size_t seen;              /* bytes of it the kernel read; fields past it read as 0 */
	const uint64_t *args;     /* the six argument registers */
	uint64_t size;
	uint32_t kv;
	/* What-ifs for the prober: bits of assume_fs counted known, or unknown, whatever kv
	 * says (zero: none), so one request can be walked as a kernel with and without a flag */
	const struct flagset *assume_fs;
	uint64_t assume_known, assume_unknown;
	uint64_t index;           /* the entry an entry's fill is about */
};

/* Parses text into code[0..EXPR_MAX_CODE). Returns the number of instructions, or -1 with
 * *pos set to the byte offset of the fault in text and why holding the message. */
int expr_parse(const struct expr_scope *scope, const char *text, struct expr_insn *code, size_t *pos,
	       struct sbuf *why);
/* The value of code[0..n), which expr_parse made (or expr_valid accepted). */
uint64_t expr_eval(const struct expr_insn *code, size_t n, const struct expr_env *env);
/* Whether code[0..n) is well formed for sc (indices in range, the stack balanced): code
 * read back from a cache is held to this before it is run. */
bool expr_valid(const struct expr_insn *code, size_t n, const struct catalog *cat, const struct syscall *sc);
/* The same for a condition over st's fields alone (no arguments): a field's shown_if. */
bool expr_valid_struct(const struct expr_insn *code, size_t n, const struct catalog *cat, const struct cstruct *st);
#endif
