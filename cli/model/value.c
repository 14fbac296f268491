#include "model/value.h"
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "base/diag.h"
#include "base/banned.h"

struct parser {
	const struct catalog *cat;
	const struct flagset *fs;
	const char *text, *p;
	struct sbuf msg;  /* first error */
	size_t errcol;
	unsigned depth;   /* nesting of unary operators and parentheses */
};

static bool failed(struct parser *P) { return P->msg.len > 0; }

PRINTF_LIKE(2, 3)
static void perr(struct parser *P, const char *fmt, ...)
{
	if (failed(P))
		return;
	va_list ap;
	va_start(ap, fmt);
	sbuf_vaddf(&P->msg, fmt, ap);
	va_end(ap);
	P->errcol = (size_t)(P->p - P->text) + 1;
}

static uint64_t mask_of(unsigned w) { return w >= 64 ? ~0ULL : (1ULL << w) - 1; }

/* Normalise bits to the value's own type: truncate, then sign- or zero-extend. */
static void fit(struct value *v)
{
	uint64_t m = mask_of(v->width);
	v->bits &= m;
	if (v->is_signed && v->width < 64 && (v->bits >> (v->width - 1)) & 1)
		v->bits |= ~m;
}

static void skip(struct parser *P)
{
	while (*P->p == ' ' || *P->p == '\t')
		P->p++;
}

static const struct { const char *name; unsigned width; bool is_signed; } ctypes[] = {
	{ "int", 32, true }, { "signed", 32, true }, { "signed int", 32, true }, { "s32", 32, true },
	{ "int32_t", 32, true }, { "__s32", 32, true },
	{ "unsigned", 32, false }, { "unsigned int", 32, false }, { "u32", 32, false },
	{ "uint32_t", 32, false }, { "__u32", 32, false },
	{ "long", 64, true }, { "long long", 64, true }, { "s64", 64, true }, { "int64_t", 64, true },
	{ "__s64", 64, true }, { "ssize_t", 64, true }, { "long int", 64, true },
	{ "unsigned long", 64, false }, { "unsigned long long", 64, false }, { "u64", 64, false },
	{ "uint64_t", 64, false }, { "__u64", 64, false }, { "size_t", 64, false },
	{ "__aligned_u64", 64, false }, { "aligned_u64", 64, false },
	{ "short", 16, true }, { "s16", 16, true }, { "int16_t", 16, true },
	{ "unsigned short", 16, false }, { "u16", 16, false }, { "uint16_t", 16, false },
	{ "char", 8, true }, { "signed char", 8, true }, { "s8", 8, true }, { "int8_t", 8, true },
	{ "unsigned char", 8, false }, { "u8", 8, false }, { "uint8_t", 8, false },
};

const char *value_type_name(const struct value *v)
{
	switch (v->width) {
	case 8: return v->is_signed ? "signed char" : "unsigned char";
	case 16: return v->is_signed ? "short" : "unsigned short";
	case 32: return v->is_signed ? "int" : "unsigned int";
	default: return v->is_signed ? "long" : "unsigned long";
	}
}

/* If P->p is at "(TYPE)", consumes it and returns the index into ctypes; else -1. */
static int try_cast(struct parser *P)
{
	const char *q = P->p + 1;
	char name[32] = "";
	size_t n = 0;
	while (*q == ' ')
		q++;
	while ((isalnum((unsigned char)*q) || *q == '_' || *q == ' ') && n < sizeof(name) - 1)
		name[n++] = *q++;
	while (n && name[n - 1] == ' ')
		n--;
	name[n] = '\0';
	if (*q != ')')
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(ctypes); i++)
		if (!strcmp(ctypes[i].name, name)) {
			P->p = q + 1;
			return (int)i;
		}
	return -1;
}

static void number(struct parser *P, struct value *v)
{
	const char *start = P->p;
	int base = 10;
	if (P->p[0] == '0' && (P->p[1] == 'x' || P->p[1] == 'X')) {
		base = 16;
		P->p += 2;
	} else if (P->p[0] == '0' && (P->p[1] == 'b' || P->p[1] == 'B')) {
		base = 2;
		P->p += 2;
	} else if (P->p[0] == '0' && P->p[1]) {
		base = 8;
	}
	uint64_t acc = 0;
	bool any = false, overflow = false;
	for (;; P->p++) {
		int c = (unsigned char)*P->p, d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else if (c == '\'' || c == '_')
			continue;
		else
			break;
		if (d >= base) {
			if (base == 16 || !isxdigit(c) || (base == 10 && d < 10) || base < 10)
				break;
			break;
		}
		if (acc > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			overflow = true;
		acc = acc * (uint64_t)base + (uint64_t)d;
		any = true;
	}
	if (base == 8)
		any = true; /* "0" prefix counts */
	if (!any) {
		perr(P, "a number needs digits after '%.*s'", (int)(P->p - start), start);
		return;
	}
	if (overflow) {
		int n = (int)(P->p - start);
		P->p = start;
		if (n > 40)
			perr(P, "number '%.*s...' does not fit in 64 bits", 40, start);
		else
			perr(P, "number '%.*s' does not fit in 64 bits", n, start);
		return;
	}
	bool u = false, l = false;
	while (strchr("uUlL", *P->p) && *P->p) {
		if (*P->p == 'u' || *P->p == 'U')
			u = true;
		else
			l = true;
		P->p++;
	}
	if (isalnum((unsigned char)*P->p) || *P->p == '_') {
		perr(P, "unexpected '%c' in a number", *P->p);
		return;
	}
	/* C11 6.4.4.1: the first type that can represent the value */
	v->kind = VK_INT;
	v->bits = acc;
	if (!l && !u && acc <= 0x7fffffff)
		v->width = 32, v->is_signed = true;
	else if (!l && (u || base != 10) && acc <= 0xffffffff)
		v->width = 32, v->is_signed = false;
	else if (!u && acc <= 0x7fffffffffffffffULL)
		v->width = 64, v->is_signed = true;
	else
		v->width = 64, v->is_signed = false;
}

static void name_value(struct parser *P, struct value *v)
{
	const char *start = P->p;
	while (isalnum((unsigned char)*P->p) || *P->p == '_')
		P->p++;
	char *name = xstrndup(start, (size_t)(P->p - start));
	if (!strcmp(name, "NULL")) { /* as strace prints a null pointer (attr=NULL): C's null pointer, 0 */
		free(name);
		v->kind = VK_INT;
		v->bits = 0;
		v->width = 64, v->is_signed = false;
		return;
	}
	const struct flagset *in = NULL;
	const struct flag *f = P->cat ? catalog_find_flag(P->cat, P->fs, name, &in) : NULL;
	if (!f) {
		/* nearest name: the field's own set first, then the constants and everything */
		struct suggest sg = SUGGEST_INIT(name, 3 + strlen(name) / 4);
		for (size_t s = 0; P->cat && s < P->cat->nflagsets; s++) {
			const struct flagset *fs = &P->cat->flagsets[s];
			for (size_t i = 0; i < fs->nflags; i++)
				suggest_add_biased(&sg, fs->flags[i].name, fs == P->fs);
		}
		const char *best = suggest_best(&sg);
		P->p = start;
		if (best)
			perr(P, "unknown name '%s' (did you mean '%s'?)", name, best);
		else
			perr(P, "unknown name '%s'", name);
		free(name);
		return;
	}
	if (P->fs && in != P->fs && strcmp(in->name, "constants")) {
		P->p = start;
		perr(P, "'%s' is a %s name, not one of %s (the field's flags); write its number to use it anyway",
		     name, in->name, P->fs->name);
		free(name);
		return;
	}
	free(name);
	v->kind = VK_INT;
	v->bits = f->value;
	/* typed as its #define would be: a hex constant's C type, negative ones int */
	if (in->kind == FS_ENUM && (int64_t)f->value < 0 && (int64_t)f->value >= INT32_MIN)
		v->width = 32, v->is_signed = true;
	else if (f->value <= 0x7fffffff)
		v->width = 32, v->is_signed = true;
	else if (f->value <= 0xffffffff)
		v->width = 32, v->is_signed = false;
	else
		v->width = 64, v->is_signed = (int64_t)f->value >= 0;
}

static void or_expr(struct parser *P, struct value *v);

static void unary_inner(struct parser *P, struct value *v);

static void unary(struct parser *P, struct value *v)
{
	if (++P->depth > 200)
		perr(P, "the value is nested too deeply");
	else
		unary_inner(P, v);
	P->depth--;
}

static void unary_inner(struct parser *P, struct value *v)
{
	skip(P);
	char c = *P->p;
	if (c == '-' || c == '~' || c == '+') {
		P->p++;
		unary(P, v);
		if (failed(P))
			return;
		if (v->width < 32)
			v->width = 32, v->is_signed = true; /* integer promotion */
		if (c == '-')
			v->bits = -v->bits;
		else if (c == '~')
			v->bits = ~v->bits;
		fit(v);
		return;
	}
	if (c == '(') {
		int t = try_cast(P);
		if (t >= 0) {
			unary(P, v);
			if (failed(P))
				return;
			v->width = ctypes[t].width;
			v->is_signed = ctypes[t].is_signed;
			fit(v);
			return;
		}
		P->p++;
		or_expr(P, v);
		skip(P);
		if (failed(P))
			return;
		if (*P->p != ')') {
			perr(P, "expected ')'");
			return;
		}
		P->p++;
		return;
	}
	if (isdigit((unsigned char)c)) {
		number(P, v);
		return;
	}
	if (isalpha((unsigned char)c) || c == '_') {
		name_value(P, v);
		return;
	}
	if (!c)
		perr(P, "a value is missing");
	else if (c == '"' || c == '&')
		perr(P, "a string or &BUFFER must be the whole value");
	else
		perr(P, "unexpected '%c'", c);
}

/* The usual arithmetic conversions, for two promoted operands. */
static void common_type(struct value *a, const struct value *b)
{
	unsigned wa = a->width < 32 ? 32 : a->width, wb = b->width < 32 ? 32 : b->width;
	bool sa = a->width < 32 ? true : a->is_signed, sb = b->width < 32 ? true : b->is_signed;
	if (wa == wb) {
		a->width = wa;
		a->is_signed = sa && sb;
	} else if (wa > wb) {
		a->width = wa;
		a->is_signed = sa;
	} else {
		a->width = wb;
		a->is_signed = sb;
	}
}

typedef void (*level_fn)(struct parser *, struct value *);

static void binary(struct parser *P, struct value *v, level_fn next, const char *const *ops)
{
	next(P, v);
	for (;;) {
		skip(P);
		if (failed(P))
			return;
		const char *op = NULL;
		for (const char *const *o = ops; *o; o++)
			if (!strncmp(P->p, *o, strlen(*o)) &&
			    !(strlen(*o) == 1 && (P->p[1] == '<' || P->p[1] == '>') && P->p[0] == P->p[1]) &&
			    !(**o == '&' && P->p[1] == '&') && !(**o == '|' && P->p[1] == '|')) {
				op = *o;
				break;
			}
		if (!op)
			return;
		P->p += strlen(op);
		struct value r = { 0 };
		next(P, &r);
		if (failed(P))
			return;
		if (!strcmp(op, "<<") || !strcmp(op, ">>")) {
			if (r.bits >= 64) {
				perr(P, "shift count %llu is too large", (unsigned long long)r.bits);
				return;
			}
			if (v->width < 32)
				v->width = 32, v->is_signed = true;
			if (op[0] == '<') {
				uint64_t res = v->bits << r.bits;
				bool fits = (v->is_signed && v->width == 32) ? res <= 0x7fffffff :
					    v->width == 32 ? res <= 0xffffffff : (res >> r.bits) == v->bits;
				v->bits = res;
				if (!fits)
					v->width = 64, v->is_signed = false; /* widen instead of overflow */
			} else {
				v->bits = v->is_signed ? (uint64_t)((int64_t)v->bits >> r.bits) : v->bits >> r.bits;
			}
			fit(v);
			continue;
		}
		common_type(v, &r);
		if (op[0] == '+' || op[0] == '-') {
			/* exact arithmetic: a result the type cannot hold widens (as shifts do), or
			 * is an error past 64 bits, instead of wrapping */
			__int128 a = v->is_signed ? (__int128)(int64_t)v->bits : (__int128)v->bits;
			__int128 b = r.is_signed ? (__int128)(int64_t)r.bits : (__int128)r.bits;
			__int128 x = op[0] == '+' ? a + b : a - b;
			if (x < -((__int128)1 << 63) || x > (__int128)UINT64_MAX) {
				perr(P, "the result does not fit in 64 bits");
				return;
			}
			__int128 lo = v->is_signed ? -((__int128)1 << (v->width - 1)) : 0;
			__int128 hi = v->is_signed ? ((__int128)1 << (v->width - 1)) - 1 : ((__int128)1 << v->width) - 1;
			v->bits = (uint64_t)x;
			if (x < lo || x > hi) {
				v->width = 64;
				v->is_signed = x < 0 || x <= INT64_MAX;
			}
			fit(v);
			continue;
		}
		switch (op[0]) {
		case '|': v->bits |= r.bits; break;
		case '&': v->bits &= r.bits; break;
		case '^': v->bits ^= r.bits; break;
		}
		fit(v);
	}
}

static const char *const add_ops[] = { "+", "-", NULL };
static const char *const shift_ops[] = { "<<", ">>", NULL };
static const char *const and_ops[] = { "&", NULL };
static const char *const xor_ops[] = { "^", NULL };
static const char *const or_ops[] = { "|", NULL };
static void add_expr(struct parser *P, struct value *v) { binary(P, v, unary, add_ops); }
static void shift_expr(struct parser *P, struct value *v) { binary(P, v, add_expr, shift_ops); }
static void and_expr(struct parser *P, struct value *v) { binary(P, v, shift_expr, and_ops); }
static void xor_expr(struct parser *P, struct value *v) { binary(P, v, and_expr, xor_ops); }
static void or_expr(struct parser *P, struct value *v) { binary(P, v, xor_expr, or_ops); }

static void string_lit(struct parser *P, struct value *v)
{
	struct sbuf sb = SBUF_INIT;
	P->p++;
	while (*P->p && *P->p != '"') {
		char c = *P->p++;
		if (c != '\\') {
			sbuf_addch(&sb, c);
			continue;
		}
		c = *P->p++;
		switch (c) {
		case 'n': sbuf_addch(&sb, '\n'); break;
		case 't': sbuf_addch(&sb, '\t'); break;
		case 'r': sbuf_addch(&sb, '\r'); break;
		case '0': sbuf_addch(&sb, '\0'); break;
		case '\\': case '"': case '\'': sbuf_addch(&sb, c); break;
		case 'x': {
			int n = 0, d = 0;
			while (n < 2 && isxdigit((unsigned char)*P->p)) {
				char h = *P->p++;
				d = d * 16 + (isdigit((unsigned char)h) ? h - '0' : (h | 0x20) - 'a' + 10);
				n++;
			}
			if (!n) {
				perr(P, "\\x needs hex digits");
				goto fail;
			}
			sbuf_addch(&sb, d);
			break;
		}
		default:
			P->p--;
			perr(P, "unknown escape '\\%c'", c ? c : ' ');
			goto fail;
		}
	}
	if (*P->p != '"') {
		perr(P, "unterminated string");
		goto fail;
	}
	P->p++;
	v->kind = VK_STRING;
	v->text_len = sb.len;
	v->text = sbuf_detach(&sb);
	return;
fail:
	sbuf_release(&sb);
}

int value_parse(const struct catalog *c, const struct flagset *fs, const char *text, struct value *out)
{
	struct sbuf why = SBUF_INIT;
	int r = value_parse_why(c, fs, text, out, &why);
	if (r < 0)
		err("%s", why.buf);
	sbuf_release(&why);
	return r;
}

int value_parse_why(const struct catalog *c, const struct flagset *fs, const char *text, struct value *out,
		    struct sbuf *why)
{
	struct parser P = { .cat = c, .fs = fs, .text = text, .p = text, .msg = SBUF_INIT };
	memset(out, 0, sizeof(*out));
	skip(&P);
	if (*P.p == '"') {
		string_lit(&P, out);
	} else if (*P.p == '&') {
		const char *s = ++P.p;
		while (isalnum((unsigned char)*P.p) || *P.p == '_' || *P.p == '-')
			P.p++;
		if (P.p == s)
			perr(&P, "'&' needs a buffer name");
		else {
			out->kind = VK_BUFREF;
			out->text_len = (size_t)(P.p - s);
			out->text = xstrndup(s, out->text_len);
		}
	} else {
		or_expr(&P, out);
	}
	skip(&P);
	if (!failed(&P) && *P.p)
		perr(&P, "unexpected '%c' after the value", *P.p);
	if (failed(&P)) {
		if (why)
			sbuf_addf(why, "bad value '%s': column %zu: %s", text, P.errcol, P.msg.buf);
		sbuf_release(&P.msg);
		value_release(out);
		return -1;
	}
	return 0;
}

void value_release(struct value *v)
{
	FREE_AND_NULL(v->text);
	v->kind = VK_INT;
}

int value_convert(const struct value *v, unsigned bits, bool is_signed, uint64_t *out,
		  bool *sign_extended, struct sbuf *why)
{
	int64_t sv = (int64_t)v->bits;
	bool negative = v->is_signed && sv < 0;
	uint64_t m = mask_of(bits);
	*sign_extended = false;
	if (negative) {
		int64_t lo = bits >= 64 ? INT64_MIN : -(int64_t)(1ULL << (bits - 1));
		if (sv < lo) {
			sbuf_addf(why, "%lld is below the %s range", (long long)sv, is_signed ? "field's" : "field's signed");
			return -1;
		}
		*out = v->bits & m;
		*sign_extended = bits > v->width;
		return 0;
	}
	uint64_t hi = is_signed ? m >> 1 : m;
	if (v->bits > hi) {
		sbuf_addf(why, "%#llx is above the field's maximum %#llx", (unsigned long long)v->bits,
			  (unsigned long long)hi);
		return -1;
	}
	*out = v->bits;
	return 0;
}
