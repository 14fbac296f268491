#include "model/checkwhy.h"
#include <string.h>
#include "model/kver.h"
#include "model/xlat.h"
#include "base/banned.h"

static unsigned popcount64(uint64_t v)
{
	unsigned n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

/* "bit 33", "bits 31..63" when they run together, else "bits 3, 9 and 40" (at most six). */
static void bit_list(struct sbuf *sb, uint64_t bits)
{
	unsigned lo = (unsigned)__builtin_ctzll(bits), hi = 63 - (unsigned)__builtin_clzll(bits), n = popcount64(bits);
	if (n == 1) {
		sbuf_addf(sb, "bit %u", lo);
		return;
	}
	if (n == hi - lo + 1) {
		sbuf_addf(sb, "bits %u..%u", lo, hi);
		return;
	}
	sbuf_adds(sb, "bits");
	unsigned shown = 0;
	for (unsigned b = lo; b <= hi && shown < 6; b++)
		if (bits >> b & 1)
			sbuf_addf(sb, "%s%u", !shown++ ? " " : shown == n || shown == 6 ? " and " : ", ", b);
	if (n > 6)
		sbuf_addf(sb, " (and %u more)", n - 6);
}

/* The unknown bits of one unknown(X) operand, when there are any. */
static void unknown_words(struct sbuf *sb, const struct expr_insn *x, const struct expr_env *env)
{
	uint64_t unknown = expr_eval(x, 1, env);
	if (!unknown)
		return;
	const struct flagset *fs = &env->cat->flagsets[x->val];
	const struct field *f = x->op == XO_UNKNOWN_FIELD ? &env->st->fields[x->idx] : NULL;
	const char *name = f ? f->name : env->sc->args[x->idx].name;
	struct expr_insn value = { x->op == XO_UNKNOWN_FIELD ? XO_FIELD : XO_ARG, x->idx, 0 };
	uint64_t v = expr_eval(&value, 1, env);
	unsigned n = popcount64(unknown);
	char kv[16], since[16];
	if (fs->kind == FS_ENUM) {
		const struct flag *later = NULL;
		for (size_t i = 0; i < fs->nflags; i++)
			if (fs->flags[i].value == v)
				later = &fs->flags[i];
		sbuf_addf(sb, "%s%s = %lld is not a value a %s kernel knows in %s", f ? "" : "the argument ", name,
			  (long long)v, kver_str(env->kv, kv), fs->name);
		if (later)
			sbuf_addf(sb, " (%s came in %s)", later->name, kver_str(later->since, since));
		sbuf_adds(sb, "\n");
		return;
	}
	if (n == 1)
		sbuf_addf(sb, "%s%s = %#llx holds a bit unknown to a %s kernel (", f ? "" : "the argument ", name,
			  (unsigned long long)v, kver_str(env->kv, kv));
	else
		sbuf_addf(sb, "%s%s = %#llx holds %u bits unknown to a %s kernel (", f ? "" : "the argument ", name,
			  (unsigned long long)v, n, kver_str(env->kv, kv));
	bit_list(sb, unknown);
	sbuf_addf(sb, "; its flag set is %s)", fs->name);
	if (f && f->elem_size == 8 && (v >> 31) == 0x1ffffffffULL)
		sbuf_addf(sb, ": it is the int %d sign-extended to 64 bits, so bits 32..63 copy bit 31",
			  (int)(int32_t)(uint32_t)v);
	sbuf_adds(sb, "\n");
	for (size_t i = 0; i < fs->nflags; i++) {
		const struct flag *fl = &fs->flags[i];
		if (!fl->mask && fl->value && !(fl->value & (fl->value - 1)) && (unknown & fl->value) && fl->since > env->kv)
			sbuf_addf(sb, "%s (bit %u) came in %s\n", fl->name, (unsigned)__builtin_ctzll(fl->value),
				  kver_str(fl->since, since));
	}
}

void check_why(struct sbuf *sb, const struct check *ck, const struct expr_env *env)
{
	for (size_t i = 0; i < ck->ncode; i++)
		if (ck->code[i].op == XO_UNKNOWN_FIELD || ck->code[i].op == XO_UNKNOWN_ARG)
			unknown_words(sb, &ck->code[i], env);
	sbuf_addf(sb, "%s; source: %s\n", ck->why, ck->source);
	if (strcmp(ck->text, "1")) /* "1": a check of the world, reached whatever the arguments */
		sbuf_addf(sb, "the check: if %s%s\n", ck->text,
			  env->sc && check_before_copy_in(env->sc, ck) ? " (before the struct is copied)" : "");
}
