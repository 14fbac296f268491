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

/* One call while its checks list runs: the size as the kernel has it so far, and whether
 * the struct has been copied in. */
struct run {
	const struct catalog *cat;
	const struct call_request *req;
	const struct sim_opts *opt;
	const struct syscall *sc;
	const struct cstruct *st;
	struct outcome *o;
	struct sbuf *why;
	uint64_t usize;
	unsigned ksize;
	size_t len;      /* the caller's memory behind the struct pointer (0 for NULL) */
	bool null;       /* the struct pointer is NULL */
	bool capped;     /* a size-cap step in force ran: sizes up to the cap stay in the buffer's page */
	bool copied;     /* copy-in ran: the struct is read */
	bool sized;      /* the call has a size convention: the kernel reads min(size, its struct) */
	char ks[16];
};

/* The kernel's size written into the struct's size field, where the rules say it is on E2BIG. */
static void writeback_on_e2big(struct run *r)
{
	const struct field *sf = r->sc->size_where == SW_FIELD ? r->st->size_field : NULL;
	if (r->sc->rules.writeback && !strcmp(r->sc->rules.writeback, "size-on-e2big") && sf &&
	    sf->offset + sf->size <= r->len)
		le_store(r->o->after + sf->offset, sf->elem_size, r->ksize);
}

/* The generic tests of a call without checks of its own: reserved fields and flag words of
 * the struct the kernel saw. Returns 0 or EINVAL. */
static int generic_fields(struct run *r, uint64_t seen)
{
	const struct field *sf = r->sc->size_where == SW_FIELD ? r->st->size_field : NULL;
	for (size_t i = 0; i < r->st->nfields; i++) {
		const struct field *f = &r->st->fields[i];
		if (f->offset + f->size > seen || f->count || f == sf)
			continue;
		if (f->reserved && le_load(r->o->before + f->offset, f->elem_size)) {
			say(r->why, "%s is reserved and must be zero", f->name);
			return EINVAL;
		}
		if (f->flagset && !check_word(r->sc, f->name, f->flagset, le_load(r->o->before + f->offset, f->elem_size),
					      r->opt->kv, r->why))
			return EINVAL;
	}
	return 0;
}

/* copy_struct_from_user: a short struct zero-filled, a nonzero byte past the kernel's struct
 * E2BIG; a call without checks of its own then gets the generic field tests. */
static int step_copy_in(struct run *r)
{
	char since[16];
	r->copied = true;
	if (r->null) {
		say(r->why, "the struct pointer is NULL: the kernel faults copying it");
		return EFAULT;
	}
	if (syscall_size_output(r->sc))
		return 0;
	uint64_t usize = r->usize;
	unsigned ksize = r->ksize;
	if (usize > ksize) {
		if (usize > r->len && !r->capped) {
			say(r->why, "size %llu runs past the caller's memory: the kernel faults checking the tail", (unsigned long long)usize);
			return EFAULT;
		}
		size_t end = usize < r->len ? (size_t)usize : r->len, off = mem_nonzero(r->o->before, ksize, end);
		if (off < end) {
			const struct field *f = cstruct_field_at(r->st, off);
			if (f)
				say(r->why, "byte %zu is nonzero and a %s kernel's struct ends at %u: it is in %s, added in %s",
				    off, r->ks, ksize, f->name, kver_str(f->since, since));
			else
				say(r->why, "byte %zu is nonzero, past a %s kernel's struct (%u bytes)", off, r->ks, ksize);
			writeback_on_e2big(r);
			return E2BIG;
		}
		say(r->why, "the %llu bytes past a %s kernel's struct (%u) are zero: accepted", (unsigned long long)(usize - ksize),
		    r->ks, ksize);
	} else if (usize < ksize) {
		say(r->why, "size %llu is smaller than a %s kernel's struct (%u): the rest is zero-filled, the old behaviour",
		    (unsigned long long)usize, r->ks, ksize);
	}
	return r->sc->nconds ? 0 : generic_fields(r, usize < ksize ? usize : ksize);
}

/* copy_struct_to_user and the size write-back of an output call; never fails. */
static void step_copy_out(struct run *r)
{
	const struct size_rules *rl = &r->sc->rules;
	uint64_t usize = r->usize;
	unsigned ksize = r->ksize;
	size_t len = r->len;
	if (rl->tail && !strcmp(rl->tail, "zeroed") && ksize < usize && ksize < len)
		memset(r->o->after + ksize, 0, (usize < len ? (size_t)usize : len) - ksize);
	if (rl->writeback && !strcmp(rl->writeback, "size-on-success") && r->st->size_field &&
	    r->st->size_field->offset + r->st->size_field->size <= len)
		le_store(r->o->after + r->st->size_field->offset, r->st->size_field->elem_size, usize < ksize ? usize : ksize);
	say(r->why, "an output call: a %s kernel fills %u bytes (the simulator does not invent their values)", r->ks,
	    (unsigned)(usize < ksize ? usize : ksize));
}

/* A size step of the call's checks list. Returns 0 to go on, else the errno. */
static int run_step(struct run *r, const struct check *ck)
{
	const struct size_rules *rl = &r->sc->rules;
	unsigned ver0 = syscall_ver0(r->sc);
	char since[16];
	switch (ck->step) {
	case CS_NULL:
		if (!r->null)
			return 0;
		say(r->why, "%s (%s: %s)", ck->why, ck->source, ck->text);
		return ck->err;
	case CS_ZERO:
		if (r->usize)
			return 0;
		say(r->why, "%s", ck->why);
		if (!ck->errno_name)
			r->usize = ver0;
		return ck->err;
	case CS_CAP:
		r->capped = true;
		if (r->usize <= rl->cap)
			return 0;
		say(r->why, "size %llu is above the %llu-byte cap%s%s", (unsigned long long)r->usize, (unsigned long long)rl->cap,
		    rl->cap_since ? " added in " : "", rl->cap_since ? kver_str(rl->cap_since, since) : "");
		writeback_on_e2big(r);
		return ck->err;
	case CS_BELOW_VER0:
		if (r->usize >= ver0)
			return 0;
		say(r->why, "size %llu is below the first version, %u bytes", (unsigned long long)r->usize, ver0);
		writeback_on_e2big(r);
		return ck->err;
	case CS_COPY_IN:
		return step_copy_in(r);
	case CS_COPY_OUT:
		step_copy_out(r);
		return 0;
	default:
		return 0;
	}
}

/* The call's checks list, in order: size steps and conditions alike; the first that fails
 * is the answer. Returns 0 or the errno. */
static int run_checks(struct run *r)
{
	for (size_t i = 0; i < r->sc->nchecks; i++) {
		const struct check *ck = &r->sc->checks[i];
		if (r->opt->kv < ck->since || (ck->until && r->opt->kv >= ck->until))
			continue;
		if (ck->step != CS_COND) {
			if (!r->sized)
				continue; /* no struct passed (a NULL the rules say nothing of): no size steps */
			int e = run_step(r, ck);
			if (e)
				return e;
			continue;
		}
		if (ck->env || (r->opt->size_only && r->copied && r->sized))
			continue; /* a check on the world outside the arguments does not decide here; size_only: the size alone */
		size_t seen = r->copied ? r->len : 0;
		if (r->sized && seen > r->usize)
			seen = (size_t)r->usize;
		if (r->sized && seen > r->ksize)
			seen = r->ksize;
		struct expr_env env = { r->cat, r->sc, r->st, r->o->before, seen, r->req->args, r->usize, r->opt->kv };
		if (expr_eval(ck->code, ck->ncode, &env)) {
			explain_check(r->sc, ck, &env, r->why);
			r->o->check = ck;
			return ck->err;
		}
	}
	return 0;
}

int sim_call(const struct catalog *cat, const struct call_request *req, const struct sim_opts *opt,
	     struct outcome *o, struct sbuf *why)
{
	const struct syscall *sc = req->sc;
	const struct cstruct *st = req->buf_arg >= 0 ? sc->st : NULL;
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
	int sa = syscall_struct_arg(sc);
	bool null = req->buf_arg < 0 && sa >= 0 && !req->args[sa] && sc->rules.null;
	struct run r = { cat, req, opt, sc, st, o, why, req->size, 0, o->len, null, false, false, false, "" };
	memcpy(r.ks, ks, sizeof(r.ks));
	if (null) {
		r.st = st = sc->st;
		r.len = 0;
	}
	r.sized = st && syscall_has_size_steps(sc);
	if (r.sized) {
		bool check = false;
		r.ksize = cstruct_size_at(st, opt->kv);
		if (sc->size_bits == 32 && r.usize >> 32) {
			say(why, "the size argument is 32 bits: %llu arrives as %llu", (unsigned long long)r.usize,
			    (unsigned long long)(uint32_t)r.usize);
			r.usize = (uint32_t)r.usize;
		}
		if (opt->check_fields && sc->check_fields && (r.usize & CHECK_FIELDS_BIT)) {
			check = true;
			r.usize &= ~CHECK_FIELDS_BIT;
		}
		int e = run_checks(&r);
		if (e)
			return fail(o, e);
		if (check) {
			/* CHECK_FIELDS: do nothing; fill the struct with what this kernel accepts */
			unsigned ksize = r.ksize;
			uint64_t usize = r.usize;
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
	} else if (sc->nconds) {
		/* no size convention: the call's checks, in place of the generic tests below; a
		 * struct the caller did not pass (open_tree_attr's NULL attr) reads as zeros */
		r.st = st ? st : sc->st;
		r.len = st ? o->len : 0;
		r.usize = req->size;
		r.copied = true;
		int e = run_checks(&r);
		if (e)
			return fail(o, e);
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
	for (size_t i = 0; !sc->nconds && i < sc->nargs && i < 6; i++) {
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
