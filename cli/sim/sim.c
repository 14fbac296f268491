#include "sim/sim.h"
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "model/expr.h"
#include "model/kver.h"
#include "model/xlat.h"
#include "base/banned.h"

PRINTF_LIKE(2, 3)
static void say(struct sbuf *why, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sbuf_vaddf(why, fmt, ap);
	va_end(ap);
	sbuf_addch(why, '\n');
}

static int fail(struct outcome *o, int e)
{
	o->ret = -1;
	o->err = e;
	return 0;
}

static bool ignores_unknown(const struct syscall *sc, const char *holder)
{
	for (size_t i = 0; i < sc->rules.nignore_unknown; i++)
		if (!strcmp(sc->rules.ignore_unknown[i], holder))
			return true;
	return false;
}

static const char *bit_name(const struct flagset *fs, uint64_t bit)
{
	for (size_t i = 0; i < fs->nflags; i++)
		if (fs->flags[i].value == bit)
			return fs->flags[i].name;
	return NULL;
}

/* A flags word: refused when it holds a bit the kernel does not know yet. */
static bool check_word(const struct syscall *sc, const char *holder, const struct flagset *fs, uint64_t v,
		       uint32_t kv, struct sbuf *why)
{
	if (!fs || ignores_unknown(sc, holder))
		return true;
	char ks[16], since[16];
	if (fs->kind == FS_ENUM) {
		if (!v)
			return true; /* 0: the old behaviour, whatever it is named */
		for (size_t i = 0; i < fs->nflags; i++)
			if (fs->flags[i].value == v && fs->flags[i].since <= kv)
				return true;
		for (size_t i = 0; i < fs->nflags; i++)
			if (fs->flags[i].value == v) {
				say(why, "%s = %s came in %s; a %s kernel refuses it", holder, fs->flags[i].name,
				    kver_str(fs->flags[i].since, since), kver_str(kv, ks));
				return false;
			}
		say(why, "%s = %llu is no value a %s kernel knows", holder, (unsigned long long)v, kver_str(kv, ks));
		return false;
	}
	uint64_t unknown = v & ~flagset_known_bits(fs, kv);
	if (!unknown)
		return true;
	uint64_t bit = unknown & -unknown;
	unsigned n = 0;
	while (!(bit >> n & 1))
		n++;
	const char *name = bit_name(fs, bit);
	const struct flag *f = NULL;
	for (size_t i = 0; name && i < fs->nflags; i++)
		if (fs->flags[i].value == bit)
			f = &fs->flags[i];
	if (f)
		say(why, "bit %u of %s (%s) came in %s; a %s kernel refuses it", n, holder, name, kver_str(f->since, since),
		    kver_str(kv, ks));
	else
		say(why, "bit %u of %s is unknown to every kernel the catalogue knows", n, holder);
	return false;
}

/* The first of the call's checks that holds in env, or NULL; stage 1: only the before-size
 * ones, 2: only the others, 0: all. */
static const struct check *first_check(const struct syscall *sc, const struct expr_env *env, int stage)
{
	for (size_t i = 0; i < sc->nchecks; i++) {
		const struct check *ck = &sc->checks[i];
		if ((stage && ck->before_size != (stage == 1)) || ck->env)
			continue; /* a check on the world outside the arguments does not decide here */
		if (env->kv >= ck->since && (!ck->until || env->kv < ck->until) && expr_eval(ck->code, ck->ncode, env))
			return ck;
	}
	return NULL;
}

/* Names the check that fired and its place in the kernel; for unknown(X) alone, which bit. */
static void explain_check(const struct syscall *sc, const struct check *ck, const struct expr_env *env,
			  struct sbuf *why)
{
	const struct expr_insn *x = ck->code;
	if (ck->ncode == 1 && x->op == XO_UNKNOWN_FIELD) {
		const struct field *f = &sc->st->fields[x->idx];
		struct expr_insn value = { XO_FIELD, x->idx, 0 };
		check_word(sc, f->name, f->flagset, expr_eval(&value, 1, env), env->kv, why);
	} else if (ck->ncode == 1 && x->op == XO_UNKNOWN_ARG) {
		const struct sarg *a = &sc->args[x->idx];
		check_word(sc, a->name, a->flagset, env->args[x->idx], env->kv, why);
	}
	say(why, "%s (%s: %s)", ck->why, ck->source, ck->text);
}

int sim_call(const struct catalog *cat, const struct call_request *req, const struct sim_opts *opt,
	     struct outcome *o, struct sbuf *why)
{
	const struct syscall *sc = req->sc;
	const struct cstruct *st = req->buf_arg >= 0 ? sc->st : NULL;
	const struct size_rules *r = &sc->rules;
	char ks[16], since[16];
	outcome_init(o);
	o->stage = OS_CALLED;
	memcpy(o->args, req->args, sizeof(o->args));
	o->size = req->size;
	o->len = req->buflen;
	o->before = xmalloc(o->len ? o->len : 1);
	o->after = xmalloc(o->len ? o->len : 1);
	if (o->len) {
		memcpy(o->before, req->buf, o->len);
		memcpy(o->after, req->buf, o->len);
	}
	kver_str(opt->kv, ks);
	if (opt->kv < sc->since) {
		say(why, "%s came in %s; a %s kernel has no such system call", sc->name, kver_str(sc->since, since), ks);
		return fail(o, ENOSYS);
	}
	uint64_t usize = req->size;
	unsigned ksize = st ? cstruct_size_at(st, opt->kv) : 0;
	bool sized = st && sc->has_rules && sc->size_where != SW_NONE && sc->size_where != SW_POINTER;
	if (sized) {
		const struct field *sf = sc->size_where == SW_FIELD ? st->size_field : NULL;
		unsigned ver0 = r->min ? r->min : st->nversions ? st->versions[0].size : 0;
		bool check = false;
		if (sc->size_bits == 32 && usize >> 32) {
			say(why, "the size argument is 32 bits: %llu arrives as %llu", (unsigned long long)usize,
			    (unsigned long long)(uint32_t)usize);
			usize = (uint32_t)usize;
		}
		if (sc->nchecks) { /* the checks the kernel makes before it reads the struct: arguments only */
			struct expr_env env = { cat, sc, st, o->before, 0, req->args, usize, opt->kv };
			const struct check *ck = first_check(sc, &env, 1);
			if (ck) {
				explain_check(sc, ck, &env, why);
				o->check = ck;
				return fail(o, errno_from_name(ck->errno_name));
			}
		}
		if (opt->check_fields && sc->check_fields && (usize & CHECK_FIELDS_BIT)) {
			check = true;
			usize &= ~CHECK_FIELDS_BIT;
		}
		if (usize == 0 && r->zero && strcmp(r->zero, "ok")) {
			if (!strcmp(r->zero, "ver0")) {
				say(why, "size 0 is read as the first version, %u bytes (an old-ABI quirk)", ver0);
				usize = ver0;
			} else {
				say(why, "size 0 is refused");
				return fail(o, errno_from_name(r->zero));
			}
		}
		bool cap_applies = r->cap && (!r->cap_since || opt->kv >= r->cap_since);
		if (cap_applies && usize > r->cap) {
			say(why, "size %llu is above the %llu-byte cap%s%s", (unsigned long long)usize, (unsigned long long)r->cap,
			    r->cap_since ? " added in " : "", r->cap_since ? kver_str(r->cap_since, since) : "");
			if (r->writeback && !strcmp(r->writeback, "size-on-e2big") && sf && sf->offset + sf->size <= o->len)
				le_store(o->after + sf->offset, sf->elem_size, ksize);
			return fail(o, r->cap_errno ? errno_from_name(r->cap_errno) : E2BIG);
		}
		if (usize < ver0 && r->below_ver0 && strcmp(r->below_ver0, "ok")) {
			say(why, "size %llu is below the first version, %u bytes", (unsigned long long)usize, ver0);
			if (r->writeback && !strcmp(r->writeback, "size-on-e2big") && sf && sf->offset + sf->size <= o->len)
				le_store(o->after + sf->offset, sf->elem_size, ksize);
			return fail(o, errno_from_name(r->below_ver0));
		}
		bool input = !r->tail || !strcmp(r->tail, "E2BIG");
		if (input && usize > ksize) {
			if (usize > o->len) {
				if (!cap_applies) {
					say(why, "size %llu runs past the caller's memory: the kernel faults checking the tail", (unsigned long long)usize);
					return fail(o, EFAULT);
				}
			}
			size_t end = usize < o->len ? (size_t)usize : o->len, off = mem_nonzero(o->before, ksize, end);
			if (off < end) {
				const struct field *f = cstruct_field_at(st, off);
				if (f)
					say(why, "byte %zu is nonzero and a %s kernel's struct ends at %u: it is in %s, added in %s",
					    off, ks, ksize, f->name, kver_str(f->since, since));
				else
					say(why, "byte %zu is nonzero, past a %s kernel's struct (%u bytes)", off, ks, ksize);
				if (r->writeback && !strcmp(r->writeback, "size-on-e2big") && sf)
					le_store(o->after + sf->offset, sf->elem_size, ksize);
				return fail(o, E2BIG);
			}
			say(why, "the %llu bytes past a %s kernel's struct (%u) are zero: accepted", (unsigned long long)(usize - ksize), ks, ksize);
		} else if (input && usize < ksize) {
			say(why, "size %llu is smaller than a %s kernel's struct (%u): the rest is zero-filled, the old behaviour",
			    (unsigned long long)usize, ks, ksize);
		}
		/* the flags the kernel sees: fields within both sizes */
		uint64_t seen = usize < ksize ? usize : ksize;
		if (sc->nchecks && !opt->size_only) { /* an output call's checks are about its arguments */
			struct expr_env env = { cat, sc, st, o->before, seen < o->len ? (size_t)seen : o->len, req->args,
						usize, opt->kv };
			const struct check *ck = first_check(sc, &env, 2);
			if (ck) {
				explain_check(sc, ck, &env, why);
				o->check = ck;
				return fail(o, errno_from_name(ck->errno_name));
			}
		}
		for (size_t i = 0; input && !sc->nchecks && i < st->nfields; i++) {
			const struct field *f = &st->fields[i];
			if (f->offset + f->size > seen || f->count || f == sf)
				continue;
			if (f->reserved && le_load(o->before + f->offset, f->elem_size)) {
				say(why, "%s is reserved and must be zero", f->name);
				return fail(o, EINVAL);
			}
			if (f->flagset && !check_word(sc, f->name, f->flagset, le_load(o->before + f->offset, f->elem_size), opt->kv, why))
				return fail(o, EINVAL);
		}
		if (check) {
			/* CHECK_FIELDS: do nothing; fill the struct with what this kernel accepts */
			for (size_t i = 0; i < st->nfields; i++) {
				const struct field *f = &st->fields[i];
				if (f->offset + f->size > ksize || f->offset + f->size > o->len || f->count)
					continue;
				uint64_t v = f->flagset && f->flagset->kind == FS_BITS ? flagset_known_bits(f->flagset, opt->kv) :
					     f->flagset ? 0 : ~0ULL;
				le_store(o->after + f->offset, f->elem_size, v);
			}
			if (ksize < usize && ksize < o->len)
				memset(o->after + ksize, 0, (usize < o->len ? (size_t)usize : o->len) - ksize);
			say(why, "CHECK_FIELDS (bit 63 of the size): nothing was done; the struct now holds every flag bit a %s kernel accepts and all-ones in its other fields", ks);
			return fail(o, EEXTSYS_NOOP);
		}
		if (!input) {
			/* an output call: the simulator writes no values, only what the rules say */
			if (r->tail && !strcmp(r->tail, "zeroed"))
				if (ksize < usize && ksize < o->len)
					memset(o->after + ksize, 0, (usize < o->len ? (size_t)usize : o->len) - ksize);
			if (r->writeback && !strcmp(r->writeback, "size-on-success") && st->size_field)
				le_store(o->after + st->size_field->offset, st->size_field->elem_size, usize < ksize ? usize : ksize);
			say(why, "an output call: a %s kernel fills %u bytes (the simulator does not invent their values)", ks,
			    (unsigned)(usize < ksize ? usize : ksize));
		}
	} else if (sc->nchecks) {
		/* no size convention: the call's checks, in place of the generic tests below; a
		 * struct the caller did not pass (open_tree_attr's NULL attr) reads as zeros */
		struct expr_env env = { cat, sc, st ? st : sc->st, o->before, st ? o->len : 0, req->args, req->size, opt->kv };
		const struct check *ck = first_check(sc, &env, 0);
		if (ck) {
			explain_check(sc, ck, &env, why);
			o->check = ck;
			return fail(o, errno_from_name(ck->errno_name));
		}
	} else if (st) {
		/* fixed structs: only reserved fields and flags */
		for (size_t i = 0; i < st->nfields; i++) {
			const struct field *f = &st->fields[i];
			if (f->count || f->offset + f->size > o->len)
				continue;
			if (f->flagset && !check_word(sc, f->name, f->flagset, le_load(o->before + f->offset, f->elem_size), opt->kv, why))
				return fail(o, EINVAL);
		}
	}
	/* flags arguments, unless the call's checks say what the kernel tests */
	for (size_t i = 0; !sc->nchecks && i < sc->nargs && i < 6; i++) {
		const struct sarg *a = &sc->args[i];
		if (a->role != AR_FLAGS || !a->flagset)
			continue;
		uint64_t v = strstr(a->type, "long") || strstr(a->type, "64") ? req->args[i] : (uint32_t)req->args[i];
		if (!check_word(sc, a->name, a->flagset, v, opt->kv, why))
			return fail(o, EINVAL);
	}
	o->ret = 0;
	return 0;
}
