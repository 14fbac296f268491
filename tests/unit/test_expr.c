/* The check expressions: C's precedence and unsigned semantics, names from the catalogue,
 * and hostile text refused at the right column with a bounded parse. */
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "model/dataload.h"
#include "model/expr.h"
#include "model/kver.h"
#include "base/sbuf.h"

static struct catalog *cat;
static const struct syscall *sc;
static unsigned char how[24];
static uint64_t args[6];

/* The value of text for openat2 at kernel kv, or ~0 - 1 when it does not parse. */
static uint64_t val_at(const char *text, uint32_t kv)
{
	struct expr_scope scope = { cat, sc, sc->st };
	struct expr_insn code[EXPR_MAX_CODE];
	struct sbuf why = SBUF_INIT;
	size_t pos;
	int n = expr_parse(&scope, text, code, &pos, &why);
	sbuf_release(&why);
	if (n < 0 || !expr_valid(code, (size_t)n, cat, sc))
		return ~0ULL - 1;
	struct expr_env env = { cat, sc, sc->st, how, sizeof(how), args, 24, kv };
	return expr_eval(code, (size_t)n, &env);
}

static uint64_t val(const char *text) { return val_at(text, KVER(6, 18, 0)); }

/* The value of text with bits of resolve's flag set assumed known or unknown. */
static uint64_t assumed(const char *text, uint64_t known, uint64_t unknown, uint32_t kv)
{
	struct expr_scope scope = { cat, sc, sc->st };
	struct expr_insn code[EXPR_MAX_CODE];
	struct sbuf why = SBUF_INIT;
	size_t pos;
	int n = expr_parse(&scope, text, code, &pos, &why);
	sbuf_release(&why);
	if (n < 0)
		return ~0ULL - 1;
	const struct flagset *fs = cstruct_find_field(sc->st, "resolve")->flagset;
	struct expr_env env = { cat, sc, sc->st, how, sizeof(how), args, 24, kv, fs, known, unknown };
	return expr_eval(code, (size_t)n, &env);
}

/* The error for text: "COL: message" (columns from 1). */
static void error_of(const char *text, struct sbuf *out)
{
	struct expr_scope scope = { cat, sc, sc->st };
	struct expr_insn code[EXPR_MAX_CODE];
	struct sbuf why = SBUF_INIT;
	size_t pos = 0;
	sbuf_reset(out);
	if (expr_parse(&scope, text, code, &pos, &why) >= 0)
		sbuf_adds(out, "parsed");
	else
		sbuf_addf(out, "%zu: %s", pos + 1, why.buf);
	sbuf_release(&why);
}

static void set_how(uint64_t flags, uint64_t mode, uint64_t resolve)
{
	le_store(how, 8, flags);
	le_store(how + 8, 8, mode);
	le_store(how + 16, 8, resolve);
}

static void test_arithmetic(void)
{
	ok(val("1 + 2 * 3") == 7, "* binds tighter than +");
	ok(val("1 | 2 & 0") == 1, "& binds tighter than |");
	ok(val("1 ^ 3 | 4") == 6, "^ binds tighter than |");
	ok(val("1 << 2 == 4") == 1, "<< binds tighter than ==");
	ok(val("2 < 3 == 1") == 1, "< binds tighter than ==");
	ok(val("0 || 1 && 0") == 0, "&& binds tighter than ||");
	ok(val("10 - 3 - 2") == 5, "left-associative");
	ok(val("(1 + 2) * 3") == 9, "parentheses");
	ok(val("0 - 1") == UINT64_MAX, "u64 wraps below zero");
	ok(val("0xffffffffffffffff + 1") == 0, "and above");
	ok(val("~0") == UINT64_MAX && val("!5") == 0 && val("!0") == 1 && val("-1") == UINT64_MAX, "unary operators");
	ok(val("1 << 64") == 0 && val("1 << 63") == 1ULL << 63 && val("8 >> 70") == 0, "a shift by 64 or more gives 0");
	ok(val("010") == 8 && val("0x10") == 16 && val("0") == 0, "octal, hex, decimal");
	ok(val("18446744073709551615") == UINT64_MAX, "the largest decimal");
	ok(val("3 && 4") == 1 && val("0 || 7") == 1, "logical operators give 0 or 1");
}

static void test_names(void)
{
	set_how(0100 | 02, 0644, 0x18);
	ok(val("flags") == 0102 && val("mode") == 0644 && val("resolve") == 0x18, "fields read from the struct");
	ok(val("flags & O_CREAT") == 0100, "flag names from the catalogue");
	ok(val("(resolve & RESOLVE_BENEATH) && (resolve & RESOLVE_IN_ROOT)") == 1, "a constraint between flags");
	ok(val("mode & ~07777") == 0, "mode within S_IALLUGO");
	ok(val("size") == 24, "size");
	args[0] = 7;
	ok(val("dirfd") == 7, "arguments");
	set_how(1ULL << 40, 0, 0x40);
	ok(val("unknown(flags)") == 1ULL << 40, "unknown(): bits outside the flag set");
	ok(val("unknown(resolve)") == 0x40, "unknown() of another field");
	set_how(0, 0, 0x20);
	ok(val_at("unknown(resolve)", KVER(5, 11, 0)) == 0x20 && val("unknown(resolve)") == 0,
	   "unknown() at the simulated version (RESOLVE_CACHED came in 5.12)");
	ok(assumed("unknown(resolve)", 0x20, 0, KVER(5, 11, 0)) == 0 && assumed("unknown(resolve)", 0, 0x20, KVER(6, 18, 0)) == 0x20,
	   "unknown() with a flag assumed known, or unknown, whatever the version says (the prober's what-ifs)");
}

static void test_nonzero(void)
{
	set_how(0, 0, 0);
	ok(val("nonzero(0, 24)") == 0 && val("nonzero(mode)") == 0, "nonzero(): all zero");
	how[13] = 1;
	ok(val("nonzero(mode)") == 1 && val("nonzero(flags)") == 0 && val("nonzero(resolve)") == 0,
	   "nonzero(FIELD): a byte of that field only");
	ok(val("nonzero(8, 16)") == 1 && val("nonzero(14, 24)") == 0 && val("nonzero(0, 13)") == 0,
	   "nonzero(FROM, TO): bytes FROM up to TO, TO excluded");
	ok(val("nonzero(4 + 4, 2 * 7)") == 1 && val("!nonzero(mode) || 0") == 0, "offsets are expressions; an operand");
	ok(val("nonzero(16, 4 + 4)") == 0 && val("nonzero(13, 1 << 40)") == 1, "an empty range; a range past the buffer");
	struct expr_scope scope = { cat, sc, sc->st };
	struct expr_insn code[EXPR_MAX_CODE];
	struct sbuf why = SBUF_INIT;
	size_t pos;
	int n = expr_parse(&scope, "nonzero(mode)", code, &pos, &why);
	struct expr_env env = { cat, sc, sc->st, how, 12, args, 12, KVER(6, 18, 0) };
	ok(n > 0 && expr_eval(code, (size_t)n, &env) == 0, "a byte past what the kernel read counts as zero");
	env.seen = 14;
	ok(n > 0 && expr_eval(code, (size_t)n, &env) == 1, "one within it counts");
	sbuf_release(&why);
	how[13] = 0;
}

/* A name that is both a field and an argument: lsm_set_self_attr's flags argument and
 * lsm_ctx's flags field. */
static void test_qualified(void)
{
	const struct syscall *lsm = catalog_find_syscall(cat, "lsm_set_self_attr");
	struct expr_scope scope = { cat, lsm, lsm->st };
	struct expr_insn code[EXPR_MAX_CODE];
	struct sbuf why = SBUF_INIT;
	size_t pos = 0;
	unsigned char ctx[32] = { 0 };
	uint64_t a[6] = { 100, 0, 32, 5, 0, 0 };
	struct expr_env env = { cat, lsm, lsm->st, ctx, sizeof(ctx), a, 32, KVER(6, 18, 0) };
	ctx[8] = 7;
	ok(expr_parse(&scope, "flags", code, &pos, &why) < 0 &&
	   !strcmp(why.buf, "'flags' is both a field and an argument: write field(flags) or arg(flags)"),
	   "a bare name that is both is refused: %s", why.buf);
	int n = expr_parse(&scope, "arg(flags)", code, &pos, &why);
	ok(n > 0 && expr_eval(code, (size_t)n, &env) == 5, "arg(flags) is the argument");
	n = expr_parse(&scope, "field( flags ) + 1", code, &pos, &why);
	ok(n > 0 && expr_eval(code, (size_t)n, &env) == 8, "field(flags) is the field");
	sbuf_reset(&why);
	ok(expr_parse(&scope, "arg(len)", code, &pos, &why) < 0 && pos == 4 &&
	   !strcmp(why.buf, "arg() takes an argument of this call"), "arg() of a field: %s", why.buf);
	sbuf_reset(&why);
	ok(expr_parse(&scope, "field(attr)", code, &pos, &why) < 0 && !strcmp(why.buf, "field() takes a field of this call's struct"),
	   "field() of an argument: %s", why.buf);
	sbuf_reset(&why);
	ok(expr_parse(&scope, "arg(flags", code, &pos, &why) < 0 && pos == 9, "an unclosed arg(: %s", why.buf);
	sbuf_release(&why);
}

/* unknown() of a name that is both: rseq's flags argument (rseq_flags) and rseq.flags
 * (rseq_cs_flags). */
static void test_unknown_qualified(void)
{
	const struct syscall *rs = catalog_find_syscall(cat, "rseq");
	struct expr_scope scope = { cat, rs, rs->st };
	struct expr_insn code[EXPR_MAX_CODE];
	struct sbuf why = SBUF_INIT;
	size_t pos = 0;
	unsigned char area[32] = { 0 };
	area[16] = 1 | 0x40;
	uint64_t a[6] = { 0x1000, 32, 1 | 8, 0 };
	struct expr_env env = { cat, rs, rs->st, area, sizeof(area), a, 32, KVER(6, 18, 0) };
	int n = expr_parse(&scope, "unknown(arg(flags))", code, &pos, &why);
	ok(n > 0 && code[0].op == XO_UNKNOWN_ARG && expr_eval(code, (size_t)n, &env) == 8,
	   "unknown(arg(flags)): the argument's unknown bits");
	n = expr_parse(&scope, "unknown( field( flags ) )", code, &pos, &why);
	ok(n > 0 && code[0].op == XO_UNKNOWN_FIELD && expr_eval(code, (size_t)n, &env) == 0x40,
	   "unknown(field(flags)): the field's");
	ok(expr_parse(&scope, "unknown(flags)", code, &pos, &why) < 0 && pos == 8 &&
	   !strcmp(why.buf, "'flags' is both a field and an argument: write unknown(field(flags)) or unknown(arg(flags))"),
	   "a bare name that is both is refused in unknown() too: %s", why.buf);
	sbuf_reset(&why);
	ok(expr_parse(&scope, "unknown(arg(flags)", code, &pos, &why) < 0 && pos == 18, "an unclosed unknown(: %s", why.buf);
	sbuf_reset(&why);
	ok(expr_parse(&scope, "unknown(arg(flags x))", code, &pos, &why) < 0 &&
	   !strcmp(why.buf, "')' expected to close the arg( inside unknown("), "an unclosed arg( inside: %s", why.buf);
	sbuf_reset(&why);
	ok(expr_parse(&scope, "unknown(arg(rseq_cs))", code, &pos, &why) < 0 &&
	   !strcmp(why.buf, "unknown() takes a field or argument that has a flag set"), "arg() of a field inside: %s", why.buf);
	sbuf_release(&why);
}

static void test_hostile(void)
{
	struct sbuf e = SBUF_INIT;
	error_of("flags & O_CREATE", &e);
	is_str(e.buf, "9: unknown name 'O_CREATE' (did you mean 'O_CREAT'?)", "an unknown name, with did-you-mean");
	error_of("flgs", &e);
	is_str(e.buf, "1: unknown name 'flgs' (did you mean 'flags'?)", "a misspelt field");
	error_of("zzzzzz", &e);
	is_str(e.buf, "1: unknown name 'zzzzzz': not a field, argument, size or flag", "nothing near");
	error_of("18446744073709551616", &e);
	is_str(e.buf, "1: the number does not fit 64 bits", "overflow");
	error_of("0x", &e);
	is_str(e.buf, "1: a hexadecimal number needs digits after 0x", "0x alone");
	error_of("09", &e);
	is_str(e.buf, "2: '9' cannot follow a base-8 number", "not octal");
	error_of("(flags & 1", &e);
	is_str(e.buf, "11: ')' expected to close the '(' at byte 1 of the expression", "an unclosed parenthesis");
	error_of("flags &", &e);
	is_str(e.buf, "8: an operand expected at the end", "a missing operand");
	error_of("flags ) 1", &e);
	is_str(e.buf, "7: unexpected ')' after a complete expression", "trailing text");
	error_of("", &e);
	is_str(e.buf, "1: an operand expected at the end", "empty");
	error_of("flags @ 1", &e);
	is_str(e.buf, "7: unexpected '@' after a complete expression", "an unknown operator");
	error_of("unknown(mode)", &e);
	is_str(e.buf, "9: unknown() takes a field or argument that has a flag set", "unknown() of a plain field");
	error_of("popcount(flags)", &e);
	is_str(e.buf, "1: unknown function 'popcount' (the functions are unknown(), nonzero(), known(), count(), min(), arg() and field())", "an unknown function");
	error_of("nonzero(8)", &e);
	is_str(e.buf, "10: nonzero() takes a field, or two offsets FROM, TO of the struct's bytes", "nonzero() of one number");
	error_of("nonzero(0, 8", &e);
	is_str(e.buf, "13: ')' expected to close the nonzero( at byte 1 of the expression", "an unclosed nonzero(");
	error_of("nonzero(nosuch)", &e);
	is_str(e.buf, "9: unknown name 'nosuch': not a field, argument, size or flag", "nonzero() of an unknown name");
	error_of("nonzero(0, 4096)", &e);
	is_str(e.buf, "12: nonzero(): TO 4096 is past struct open_how's 24 bytes", "a constant range past the struct");
	error_of("nonzero(25, size)", &e);
	is_str(e.buf, "9: nonzero(): FROM 25 is past struct open_how's 24 bytes", "a constant start past the struct");
	error_of("nonzero(16, 8)", &e);
	is_str(e.buf, "13: nonzero(): the range [16, 8) is empty", "an empty constant range");
	ok(val("nonzero(24, size)") == 0, "a range from the struct's end is taken (bpf's CHECK_ATTR past the last field)");
	{
		const struct syscall *plain = catalog_find_syscall(cat, "rename");
		struct expr_scope scope = { cat, plain, NULL };
		struct expr_insn code[EXPR_MAX_CODE];
		size_t pos = 0;
		struct sbuf why = SBUF_INIT;
		ok(plain && expr_parse(&scope, "nonzero(0, 8)", code, &pos, &why) < 0 && pos == 0 &&
			   !strcmp(why.buf, "nonzero() reads the struct, and there is none here"),
		   "nonzero() of a call without a struct: %s", why.buf);
		sbuf_release(&why);
	}

	struct sbuf deep = SBUF_INIT;
	for (int i = 0; i < 100000; i++)
		sbuf_addch(&deep, '(');
	error_of(deep.buf, &e);
	is_str(e.buf, "33: the expression is nested more than 32 deep", "deep nesting is bounded");
	sbuf_reset(&deep);
	for (int i = 0; i < 100000; i++)
		sbuf_addch(&deep, '~');
	error_of(deep.buf, &e);
	ok(strstr(e.buf, "nested more than 32 deep") != NULL, "so are long unary chains");
	sbuf_reset(&deep);
	sbuf_adds(&deep, "1");
	for (int i = 0; i < 300; i++)
		sbuf_adds(&deep, " + 1");
	error_of(deep.buf, &e);
	ok(strstr(e.buf, "longer than 256 operations") != NULL, "the code is bounded: %s", e.buf);
	sbuf_reset(&deep);
	for (int i = 0; i < 40; i++)
		sbuf_adds(&deep, "1 + (");
	error_of(deep.buf, &e);
	ok(strstr(e.buf, "more than 32") != NULL, "so is the stack: %s", e.buf);
	sbuf_reset(&deep);
	/* too deep with fewer closing parentheses left than open ones: the unwinding must not
	 * step past the text's end (it read past the NUL, one byte a level) */
	for (int i = 0; i < 40; i++)
		sbuf_adds(&deep, "1+(");
	sbuf_adds(&deep, "))");
	char *exact = xstrdup(deep.buf);
	error_of(exact, &e);
	free(exact);
	ok(strstr(e.buf, "nested more than 32 deep") != NULL, "nesting refused within the text: %s", e.buf);
	sbuf_reset(&deep);
	for (int i = 0; i < 70; i++)
		sbuf_addch(&deep, 'a');
	error_of(deep.buf, &e);
	is_str(e.buf, "1: a name longer than 63 bytes", "a long name");
	sbuf_release(&deep);
	sbuf_release(&e);

	struct expr_insn bad[2] = { { XO_FIELD, 99, 0 }, { XO_LNOT, 0, 0 } };
	ok(!expr_valid(bad, 2, cat, sc), "code naming a field past the struct is refused");
	struct expr_insn under[1] = { { XO_ADD, 0, 0 } };
	ok(!expr_valid(under, 1, cat, sc), "code that pops an empty stack is refused");
	struct expr_insn badop[1] = { { 200, 0, 0 } };
	ok(!expr_valid(badop, 1, cat, sc), "an opcode out of range is refused");
}

/* known(SET), count(SET), min(A, B), and `index`, which only an entry's fill may use. */
static void test_sets(void)
{
	struct sbuf e = SBUF_INIT;
	ok(val_at("known(resolve_flags)", KVER(5, 6, 0)) == 0x1f, "known(): RESOLVE_NO_XDEV..RESOLVE_IN_ROOT at 5.6");
	ok(val_at("known(resolve_flags)", KVER(6, 18, 0)) == 0x3f, "known(): RESOLVE_CACHED from 5.12");
	ok(val_at("count(io_uring_op)", KVER(5, 10, 0)) == 34, "count(): 34 io_uring opcodes at 5.10 (through IORING_OP_TEE)");
	ok(val_at("count(io_uring_op)", KVER(5, 10, 223)) == 37, "count(): 37 at Debian's 5.10.223 (the 5.11 opcodes backported)");
	ok(val_at("count(io_uring_op)", KVER(6, 18, 0)) == 63, "count(): 63 at 6.18 (IORING_OP_LAST, measured)");
	ok(val_at("count(io_uring_op)", KVER(7, 3, 0)) == 65, "count(): 65 at 7.3 (the header's enum)");
	ok(val("min(3, 2 + 5)") == 3 && val("min(9, 2) * 2") == 4, "min()");
	error_of("known(flags)", &e);
	is_str(e.buf, "7: known() takes the name of a flag set", "known() of a field");
	error_of("min(1 2)", &e);
	is_str(e.buf, "7: min() takes two expressions A, B", "min() of one");
	error_of("index", &e);
	is_str(e.buf, "1: 'index' is the number of an entry, only in the fill of an entry's field", "index outside an entry's fill");
	sbuf_release(&e);
}

int main(void)
{
	cat = catalog_load("data");
	sc = cat ? catalog_find_syscall(cat, "openat2") : NULL;
	if (!sc) {
		printf("Bail out! no catalogue\n");
		return 1;
	}
	test_arithmetic();
	test_names();
	test_nonzero();
	test_qualified();
	test_unknown_qualified();
	test_hostile();
	test_sets();
	catalog_free(cat);
	return tap_done();
}
