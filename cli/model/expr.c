#include "model/expr.h"
#include <stdarg.h>
#include <string.h>
#include "base/util.h"
#include "base/banned.h"

struct parser;
static int parse_binary(struct parser *P, int minprec);

struct parser {
	const struct expr_scope *sc;
	const char *text;
	size_t p, n, sp, depth, errpos;
	struct expr_insn *code;
	struct sbuf *why;
	bool failed;
};

PRINTF_LIKE(3, 4)
static int fail_at(struct parser *P, size_t pos, const char *fmt, ...)
{
	if (P->failed)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	sbuf_vaddf(P->why, fmt, ap);
	va_end(ap);
	P->failed = true;
	P->errpos = pos;
	return -1;
}

static bool is_operand(uint32_t op) { return op <= XO_COUNT; }
static bool is_unary(uint32_t op) { return op >= XO_NOT && op <= XO_NEG; }

static int emit(struct parser *P, uint32_t op, uint32_t idx, uint64_t val)
{
	if (P->failed)
		return -1;
	if (P->n >= EXPR_MAX_CODE)
		return fail_at(P, P->p, "the expression is longer than %d operations", EXPR_MAX_CODE);
	if (is_operand(op) && ++P->sp > EXPR_MAX_DEPTH)
		return fail_at(P, P->p, "the expression holds more than %d pending values", EXPR_MAX_DEPTH);
	if (!is_operand(op) && !is_unary(op))
		P->sp--;
	P->code[P->n++] = (struct expr_insn){ op, idx, val };
	return 0;
}

static void skip_blank(struct parser *P)
{
	while (P->text[P->p] == ' ' || P->text[P->p] == '\t' || P->text[P->p] == '\n')
		P->p++;
}

static bool is_ident(char c, bool first)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (!first && c >= '0' && c <= '9');
}

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

/* A C integer literal: 0x hex, 0 octal or decimal, within 64 bits. */
static int parse_number(struct parser *P)
{
	size_t start = P->p;
	const char *t = P->text;
	unsigned base = 10;
	if (t[P->p] == '0' && (t[P->p + 1] == 'x' || t[P->p + 1] == 'X')) {
		base = 16;
		P->p += 2;
		if (digit_value(t[P->p]) >= 16)
			return fail_at(P, start, "a hexadecimal number needs digits after 0x");
	} else if (t[P->p] == '0') {
		base = 8;
	}
	uint64_t v = 0;
	for (int d; (d = digit_value(t[P->p])) < (int)base; P->p++) {
		if (v > (UINT64_MAX - (uint64_t)d) / base)
			return fail_at(P, start, "the number does not fit 64 bits");
		v = v * base + (uint64_t)d;
	}
	if (is_ident(t[P->p], false))
		return fail_at(P, P->p, "'%c' cannot follow a base-%u number", t[P->p], base);
	return emit(P, XO_CONST, 0, v);
}

/* The name at the parser's place: its start in *start, its length (0: none). */
static size_t scan_name(struct parser *P, size_t *start)
{
	*start = P->p;
	/* a flattened nested struct's field keeps its parent's name (sq_off.head, entry.nr): the
	 * language has no '.' operator, so a dot between two names is part of one */
	while (is_ident(P->text[P->p], P->p == *start) ||
	       (P->p > *start && P->text[P->p] == '.' && is_ident(P->text[P->p + 1], true)))
		P->p++;
	return P->p - *start;
}

/* Past a function's '(' and blanks, the name its argument opens with. */
static size_t open_call(struct parser *P, size_t *start)
{
	P->p++; /* ( */
	skip_blank(P);
	return scan_name(P, start);
}

static bool name_is(const char *name, const char *s, size_t len)
{
	return strlen(name) == len && !memcmp(name, s, len);
}

static int find_field(const struct cstruct *st, const char *s, size_t len)
{
	for (size_t i = 0; st && i < st->nfields; i++)
		if (name_is(st->fields[i].name, s, len))
			return (int)i;
	return -1;
}

static int find_arg(const struct syscall *sc, const char *s, size_t len)
{
	for (size_t i = 0; sc && i < sc->nargs && i < 6; i++)
		if (name_is(sc->args[i].name, s, len))
			return (int)i;
	return -1;
}

static void suggest_flags(struct suggest *sg, const struct flagset *fs)
{
	for (size_t i = 0; fs && i < fs->nflags; i++)
		suggest_add(sg, fs->flags[i].name);
}

/* "unknown name 'X'", with the nearest field, argument or flag of this call. */
static int unknown_name(struct parser *P, size_t pos, const char *name)
{
	const struct expr_scope *S = P->sc;
	struct suggest sg = SUGGEST_INIT(name, 2);
	suggest_add(&sg, "size");
	suggest_add(&sg, "unknown");
	suggest_add(&sg, "nonzero");
	if (S->entry)
		suggest_add(&sg, "index");
	for (size_t i = 0; S->st && i < S->st->nfields; i++) {
		suggest_add(&sg, S->st->fields[i].name);
		suggest_flags(&sg, S->st->fields[i].flagset);
	}
	for (size_t i = 0; S->sc && i < S->sc->nargs; i++) {
		suggest_add(&sg, S->sc->args[i].name);
		suggest_flags(&sg, S->sc->args[i].flagset);
	}
	const char *best = suggest_best(&sg);
	if (best)
		return fail_at(P, pos, "unknown name '%s' (did you mean '%s'?)", name, best);
	return fail_at(P, pos, "unknown name '%s': not a field, argument, size or flag", name);
}

/* nonzero(FIELD): the field's bytes, an array's included, as constants for XO_NONZERO. */
static int parse_nonzero_field(struct parser *P, size_t s, size_t len, size_t at)
{
	const struct field *f = &P->sc->st->fields[find_field(P->sc->st, P->text + s, len)];
	skip_blank(P);
	if (P->text[P->p] != ')')
		return fail_at(P, P->p, "')' expected to close the nonzero( at byte %zu of the expression", at + 1);
	P->p++;
	if (emit(P, XO_CONST, 0, f->offset) < 0 || emit(P, XO_CONST, 0, (uint64_t)f->offset + f->size) < 0)
		return -1;
	return emit(P, XO_NONZERO, 0, 0);
}

/* A constant FROM or TO of nonzero(FROM, TO), held to the struct: code[n0..n1) is one bound's
 * code, checked when it is a lone constant (an offset past the struct is a catalogue's slip,
 * which evaluation would quietly read as zeros). */
static int check_bound(struct parser *P, size_t n0, size_t n1, size_t pos, bool to)
{
	/* a call's struct copied as part of a bigger one (its rules' tail_struct) is read up to it */
	const struct cstruct *st = P->sc->sc && P->sc->st == P->sc->sc->st ? syscall_tail_struct(P->sc->sc) : P->sc->st;
	if (n1 != n0 + 1 || P->code[n0].op != XO_CONST)
		return 0;
	uint64_t v = P->code[n0].val;
	if (v > st->size)
		return fail_at(P, pos, "nonzero(): %s %llu is past struct %s's %u bytes", to ? "TO" : "FROM", (unsigned long long)v,
			       st->name, st->size);
	if (to && n0 >= 1 && P->code[n0 - 1].op == XO_CONST && P->code[n0 - 1].val >= v)
		return fail_at(P, pos, "nonzero(): the range [%llu, %llu) is empty", (unsigned long long)P->code[n0 - 1].val,
			       (unsigned long long)v);
	return 0;
}

/* nonzero(FIELD) or nonzero(FROM, TO): whether a byte of the field, or of the struct's bytes
 * [FROM, TO), is nonzero; FROM and TO are expressions. */
static int parse_nonzero_call(struct parser *P, size_t at)
{
	if (!P->sc->st)
		return fail_at(P, at, "nonzero() reads the struct, and there is none here");
	size_t s, len = open_call(P, &s);
	size_t after = P->p;
	skip_blank(P);
	if (len && P->text[P->p] == ')' && find_field(P->sc->st, P->text + s, len) >= 0)
		return parse_nonzero_field(P, s, len, at);
	P->p = s;
	size_t n0 = P->n;
	if (parse_binary(P, 0) < 0 || check_bound(P, n0, P->n, s, false) < 0)
		return -1;
	skip_blank(P);
	if (P->text[P->p] != ',')
		return fail_at(P, P->p == after ? s : P->p,
			       "nonzero() takes a field, or two offsets FROM, TO of the struct's bytes");
	P->p++;
	skip_blank(P);
	size_t n1 = P->n, to_at = P->p;
	if (parse_binary(P, 0) < 0 || (check_bound(P, n1, P->n, to_at, true) < 0))
		return -1;
	skip_blank(P);
	if (P->text[P->p] != ')')
		return fail_at(P, P->p, "')' expected to close the nonzero( at byte %zu of the expression", at + 1);
	P->p++;
	return emit(P, XO_NONZERO, 0, 0);
}

/* unknown(X): X is a field or an argument with a flag set; unknown(arg(X)) and
 * unknown(field(X)) for a name that is both (rseq's flags argument and rseq.flags). */
static int parse_unknown_call(struct parser *P, size_t at)
{
	const struct expr_scope *S = P->sc;
	size_t s, len = open_call(P, &s);
	skip_blank(P);
	bool qualified = (name_is("arg", P->text + s, len) || name_is("field", P->text + s, len)) && P->text[P->p] == '(';
	bool want_arg = qualified && P->text[s] == 'a';
	if (qualified) {
		len = open_call(P, &s);
		skip_blank(P);
		if (P->text[P->p] != ')')
			return fail_at(P, P->p, "')' expected to close the %s( inside unknown(", want_arg ? "arg" : "field");
		P->p++;
	}
	int f = want_arg ? -1 : find_field(S->st, P->text + s, len);
	int a = f < 0 && (want_arg || !qualified) ? find_arg(S->sc, P->text + s, len) : -1;
	if (!qualified && f >= 0 && find_arg(S->sc, P->text + s, len) >= 0)
		return fail_at(P, s, "'%.*s' is both a field and an argument: write unknown(field(%.*s)) or unknown(arg(%.*s))",
			       (int)len, P->text + s, (int)len, P->text + s, (int)len, P->text + s);
	if (f >= 0 && S->st->fields[f].count)
		return fail_at(P, s, "'%s' is an array, not a number", S->st->fields[f].name);
	const struct flagset *fs = f >= 0 ? S->st->fields[f].flagset : a >= 0 ? S->sc->args[a].flagset : NULL;
	if (!fs)
		return fail_at(P, s, "unknown() takes a field or argument that has a flag set");
	skip_blank(P);
	if (P->text[P->p] != ')')
		return fail_at(P, P->p, "')' expected to close the unknown( at byte %zu of the expression", at + 1);
	P->p++;
	return emit(P, f >= 0 ? XO_UNKNOWN_FIELD : XO_UNKNOWN_ARG, (uint32_t)(f >= 0 ? f : a),
		    (uint64_t)(fs - S->cat->flagsets));
}

/* known(SET) or count(SET): SET names a flag set of the catalogue. */
static int parse_set_call(struct parser *P, uint32_t op, size_t at)
{
	size_t s, len = open_call(P, &s);
	const struct flagset *fs = NULL;
	for (size_t i = 0; i < P->sc->cat->nflagsets && !fs; i++)
		if (name_is(P->sc->cat->flagsets[i].name, P->text + s, len))
			fs = &P->sc->cat->flagsets[i];
	if (!fs)
		return fail_at(P, s, "%s() takes the name of a flag set", op == XO_KNOWN ? "known" : "count");
	skip_blank(P);
	if (P->text[P->p] != ')')
		return fail_at(P, P->p, "')' expected to close the %s( at byte %zu of the expression",
			       op == XO_KNOWN ? "known" : "count", at + 1);
	P->p++;
	return emit(P, op, 0, (uint64_t)(fs - P->sc->cat->flagsets));
}

/* min(A, B): the smaller of two expressions. */
static int parse_min_call(struct parser *P, size_t at)
{
	P->p++; /* ( */
	if (parse_binary(P, 0) < 0)
		return -1;
	skip_blank(P);
	if (P->text[P->p] != ',')
		return fail_at(P, P->p, "min() takes two expressions A, B");
	P->p++;
	if (parse_binary(P, 0) < 0)
		return -1;
	skip_blank(P);
	if (P->text[P->p] != ')')
		return fail_at(P, P->p, "')' expected to close the min( at byte %zu of the expression", at + 1);
	P->p++;
	return emit(P, XO_MIN, 0, 0);
}

static int emit_field(struct parser *P, int i, size_t at)
{
	if (P->sc->st->fields[i].count)
		return fail_at(P, at, "'%s' is an array, not a number", P->sc->st->fields[i].name);
	return emit(P, XO_FIELD, (uint32_t)i, 0);
}

/* arg(NAME) or field(NAME): the argument or the field, for a name that is both (lsm_ctx's
 * flags field and the lsm calls' flags argument). */
static int parse_qualified(struct parser *P, bool is_arg, size_t at)
{
	size_t s, len = open_call(P, &s);
	int i = is_arg ? find_arg(P->sc->sc, P->text + s, len) : find_field(P->sc->st, P->text + s, len);
	if (i < 0)
		return fail_at(P, s, is_arg ? "arg() takes an argument of this call" : "field() takes a field of this call's struct");
	skip_blank(P);
	if (P->text[P->p] != ')')
		return fail_at(P, P->p, "')' expected to close the %s( at byte %zu of the expression", is_arg ? "arg" : "field",
			       at + 1);
	P->p++;
	return is_arg ? emit(P, XO_ARG, (uint32_t)i, 0) : emit_field(P, i, s);
}

static int parse_name(struct parser *P)
{
	const struct expr_scope *S = P->sc;
	size_t s, len = scan_name(P, &s);
	char name[64];
	if (len >= sizeof(name))
		return fail_at(P, s, "a name longer than %zu bytes", sizeof(name) - 1);
	memcpy(name, P->text + s, len);
	name[len] = 0;
	skip_blank(P);
	if (!strcmp(name, "unknown") && P->text[P->p] == '(')
		return parse_unknown_call(P, s);
	if (!strcmp(name, "nonzero") && P->text[P->p] == '(')
		return parse_nonzero_call(P, s);
	if ((!strcmp(name, "arg") || !strcmp(name, "field")) && P->text[P->p] == '(')
		return parse_qualified(P, name[0] == 'a', s);
	if ((!strcmp(name, "known") || !strcmp(name, "count")) && P->text[P->p] == '(')
		return parse_set_call(P, name[0] == 'k' ? XO_KNOWN : XO_COUNT, s);
	if (!strcmp(name, "min") && P->text[P->p] == '(')
		return parse_min_call(P, s);
	if (P->text[P->p] == '(')
		return fail_at(P, s, "unknown function '%s' (the functions are unknown(), nonzero(), known(), count(), min(), arg() and field())",
			       name);
	int i;
	if ((i = find_field(S->st, name, len)) >= 0) {
		if (find_arg(S->sc, name, len) >= 0)
			return fail_at(P, s, "'%s' is both a field and an argument: write field(%s) or arg(%s)", name, name, name);
		return emit_field(P, i, s);
	}
	if (!strcmp(name, "size") || !strcmp(name, "usize")) /* usize: the size where a field is named size */
		return emit(P, XO_SIZE, 0, 0);
	if (!strcmp(name, "index")) {
		if (!S->entry)
			return fail_at(P, s, "'index' is the number of an entry, only in the fill of an entry's field");
		return emit(P, XO_INDEX, 0, 0);
	}
	if ((i = find_arg(S->sc, name, len)) >= 0)
		return emit(P, XO_ARG, (uint32_t)i, 0);
	const struct flagset *in;
	const struct flag *f = catalog_find_flag(S->cat, NULL, name, &in);
	if (f)
		return emit(P, XO_CONST, 0, f->value);
	return unknown_name(P, s, name);
}

static int parse_unary(struct parser *P)
{
	if (++P->depth > EXPR_MAX_DEPTH)
		return fail_at(P, P->p, "the expression is nested more than %d deep", EXPR_MAX_DEPTH);
	skip_blank(P);
	char c = P->text[P->p];
	size_t at = P->p;
	int rc;
	if (c == '~' || c == '!' || c == '-') {
		P->p++;
		rc = parse_unary(P) < 0 ? -1 : emit(P, c == '~' ? XO_NOT : c == '!' ? XO_LNOT : XO_NEG, 0, 0);
	} else if (c == '(') {
		P->p++;
		rc = parse_binary(P, 0);
		if (rc == 0) { /* after a fault the place may be the text's end: never step past it */
			skip_blank(P);
			if (P->text[P->p] != ')')
				rc = fail_at(P, P->p, "')' expected to close the '(' at byte %zu of the expression", at + 1);
			else
				P->p++;
		}
	} else if (c >= '0' && c <= '9') {
		rc = parse_number(P);
	} else if (is_ident(c, true)) {
		rc = parse_name(P);
	} else {
		rc = fail_at(P, at, c ? "unexpected '%c'" : "an operand expected at the end%.0d", c ? c : 0);
	}
	P->depth--;
	return rc;
}

static const struct binop {
	const char *tok;
	int prec;
	uint32_t op;
} binops[] = {
	/* two-character tokens first, so '<<' is not read as '<' */
	{ "||", 1, XO_LOR }, { "&&", 2, XO_LAND }, { "==", 6, XO_EQ }, { "!=", 6, XO_NE }, { "<=", 7, XO_LE },
	{ ">=", 7, XO_GE }, { "<<", 8, XO_SHL }, { ">>", 8, XO_SHR }, { "|", 3, XO_OR }, { "^", 4, XO_XOR },
	{ "&", 5, XO_AND }, { "<", 7, XO_LT }, { ">", 7, XO_GT }, { "+", 9, XO_ADD }, { "-", 9, XO_SUB },
	{ "*", 10, XO_MUL },
};

static const struct binop *peek_binop(struct parser *P)
{
	skip_blank(P);
	for (size_t i = 0; i < ARRAY_SIZE(binops); i++)
		if (!strncmp(P->text + P->p, binops[i].tok, strlen(binops[i].tok)))
			return &binops[i];
	return NULL;
}

/* Precedence climbing: C's precedences, all left-associative. */
static int parse_binary(struct parser *P, int minprec)
{
	if (parse_unary(P) < 0)
		return -1;
	const struct binop *b;
	while ((b = peek_binop(P)) && b->prec >= minprec) {
		P->p += strlen(b->tok);
		if (parse_binary(P, b->prec + 1) < 0 || emit(P, b->op, 0, 0) < 0)
			return -1;
	}
	return 0;
}

int expr_parse(const struct expr_scope *scope, const char *text, struct expr_insn *code, size_t *pos,
	       struct sbuf *why)
{
	struct parser P = { scope, text, 0, 0, 0, 0, 0, code, why, false };
	if (parse_binary(&P, 0) == 0) {
		skip_blank(&P);
		if (text[P.p])
			fail_at(&P, P.p, "unexpected '%c' after a complete expression", text[P.p]);
	}
	if (P.failed) {
		*pos = P.errpos;
		return -1;
	}
	return (int)P.n;
}

static uint64_t field_value(const struct expr_env *env, uint32_t idx)
{
	const struct field *f = &env->st->fields[idx];
	unsigned char v[8] = { 0 };
	/* copy_struct_from_user zero-fills what the caller's size leaves out, even mid-field */
	size_t n = f->elem_size < sizeof(v) ? f->elem_size : sizeof(v);
	if (env->buf && f->offset < env->seen)
		memcpy(v, env->buf + f->offset, env->seen - f->offset < n ? env->seen - f->offset : n);
	return le_load(v, (unsigned)n);
}

/* Whether a byte of buf[from, to) is nonzero, within what the kernel read. */
static uint64_t bytes_nonzero(const struct expr_env *env, uint64_t from, uint64_t to)
{
	if (to > env->seen)
		to = env->seen;
	for (uint64_t i = from; env->buf && i < to; i++)
		if (env->buf[i])
			return 1;
	return 0;
}

static uint64_t unknown_bits(const struct expr_env *env, uint64_t fs_idx, uint64_t v)
{
	const struct flagset *fs = &env->cat->flagsets[fs_idx];
	if (fs->kind == FS_ENUM) {
		for (size_t i = 0; v && i < fs->nflags; i++)
			if (fs->flags[i].value == v && kver_has(env->kv, fs->flags[i].since, fs->flags[i].backported))
				return 0;
		return v;
	}
	uint64_t known = flagset_known_bits(fs, env->kv);
	if (fs == env->assume_fs)
		known = (known | env->assume_known) & ~env->assume_unknown;
	return v & ~known;
}

/* known(SET): a bit set's bits the kernel knows; count(SET): how many of its values it knows
 * (IORING_OP_LAST, where the values run from 0 without a gap). */
static uint64_t set_known(const struct expr_env *env, uint64_t fs_idx, bool count)
{
	const struct flagset *fs = &env->cat->flagsets[fs_idx];
	if (!count && fs->kind != FS_ENUM)
		return flagset_known_bits(fs, env->kv);
	uint64_t n = 0;
	for (size_t i = 0; i < fs->nflags; i++)
		n += !fs->flags[i].mask && kver_has(env->kv, fs->flags[i].since, fs->flags[i].backported);
	return n;
}

static uint64_t operand(const struct expr_insn *x, const struct expr_env *env)
{
	switch (x->op) {
	case XO_CONST: return x->val;
	case XO_FIELD: return field_value(env, x->idx);
	case XO_ARG: return env->args[x->idx];
	case XO_SIZE: return env->size;
	case XO_UNKNOWN_FIELD: return unknown_bits(env, x->val, field_value(env, x->idx));
	case XO_INDEX: return env->index;
	case XO_KNOWN:
	case XO_COUNT: return set_known(env, x->val, x->op == XO_COUNT);
	default: return unknown_bits(env, x->val, env->args[x->idx]);
	}
}

static uint64_t binary(uint32_t op, uint64_t a, uint64_t b)
{
	switch (op) {
	case XO_MUL: return a * b;
	case XO_ADD: return a + b;
	case XO_SUB: return a - b;
	case XO_SHL: return b < 64 ? a << b : 0;
	case XO_SHR: return b < 64 ? a >> b : 0;
	case XO_LT: return a < b;
	case XO_LE: return a <= b;
	case XO_GT: return a > b;
	case XO_GE: return a >= b;
	case XO_EQ: return a == b;
	case XO_NE: return a != b;
	case XO_AND: return a & b;
	case XO_XOR: return a ^ b;
	case XO_OR: return a | b;
	case XO_LAND: return a && b;
	case XO_MIN: return a < b ? a : b;
	default: return a || b;
	}
}

uint64_t expr_eval(const struct expr_insn *code, size_t n, const struct expr_env *env)
{
	uint64_t stack[EXPR_MAX_DEPTH];
	size_t sp = 0;
	for (size_t i = 0; i < n; i++) {
		const struct expr_insn *x = &code[i];
		if (is_operand(x->op)) {
			if (sp < EXPR_MAX_DEPTH)
				stack[sp++] = operand(x, env);
		} else if (is_unary(x->op) && sp) {
			uint64_t *v = &stack[sp - 1];
			*v = x->op == XO_NOT ? ~*v : x->op == XO_LNOT ? !*v : -*v;
		} else if (sp >= 2) {
			sp--;
			stack[sp - 1] = x->op == XO_NONZERO ? bytes_nonzero(env, stack[sp - 1], stack[sp]) :
							      binary(x->op, stack[sp - 1], stack[sp]);
		}
	}
	return sp ? stack[sp - 1] : 0;
}

static bool insn_valid(const struct expr_insn *x, const struct catalog *cat, const struct cstruct *st, size_t nargs)
{
	switch (x->op) {
	case XO_FIELD: return st && x->idx < st->nfields && !st->fields[x->idx].count;
	case XO_ARG: return x->idx < nargs;
	case XO_UNKNOWN_FIELD:
		return st && x->idx < st->nfields && !st->fields[x->idx].count && x->val < cat->nflagsets;
	case XO_UNKNOWN_ARG: return x->idx < nargs && x->val < cat->nflagsets;
	case XO_KNOWN:
	case XO_COUNT: return x->val < cat->nflagsets;
	default: return x->op <= XO_LAST;
	}
}

static bool valid_in(const struct expr_insn *code, size_t n, const struct catalog *cat, const struct cstruct *st,
		     size_t nargs)
{
	size_t sp = 0;
	if (!code || !n || n > EXPR_MAX_CODE)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!insn_valid(&code[i], cat, st, nargs))
			return false;
		if (is_operand(code[i].op) && ++sp > EXPR_MAX_DEPTH)
			return false;
		if ((is_unary(code[i].op) && !sp) || (!is_operand(code[i].op) && !is_unary(code[i].op) && sp-- < 2))
			return false;
	}
	return sp == 1;
}

bool expr_valid(const struct expr_insn *code, size_t n, const struct catalog *cat, const struct syscall *sc)
{
	return valid_in(code, n, cat, sc->st, sc->nargs < 6 ? sc->nargs : 6);
}

bool expr_valid_struct(const struct expr_insn *code, size_t n, const struct catalog *cat, const struct cstruct *st)
{
	return valid_in(code, n, cat, st, 0);
}
