#include "kernel/explain.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include "model/checkwhy.h"
#include "model/decode.h"
#include "model/expr.h"
#include "model/kver.h"
#include "model/xlat.h"
#include "base/banned.h"

#define MAX_FOLLOWUPS 160

void explanation_init(struct explanation *e)
{
	sbuf_init(&e->text);
	e->followups = 0;
}

void explanation_release(struct explanation *e)
{
	sbuf_release(&e->text);
}

uint32_t running_kernel(void)
{
	static uint32_t cached, done;
	struct utsname u;
	uint32_t v;
	if (done)
		return cached;
	done = 1;
	if (uname(&u) < 0 || kver_parse(u.release, &v, 1) < 0)
		return 0;
	return cached = kver_release(v); /* 6.18.44 → 6.18: the catalogue dates releases */
}

unsigned kernel_struct_size(const struct cstruct *st, uint32_t kv)
{
	return cstruct_size_at(st, kv);
}

PRINTF_LIKE(2, 3)
static void say(struct explanation *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sbuf_vaddf(&e->text, fmt, ap);
	va_end(ap);
	sbuf_addch(&e->text, '\n');
}

static const char *meaning(const struct syscall *sc, const char *errname)
{
	for (size_t i = 0; i < sc->nerrors; i++)
		if (!strcmp(sc->errors[i].errno_name, errname))
			return sc->errors[i].meaning;
	return NULL;
}

static const struct sversion *version_of_size(const struct cstruct *st, uint64_t size)
{
	for (size_t i = 0; i < st->nversions; i++)
		if (st->versions[i].size == size)
			return &st->versions[i];
	return NULL;
}

/* Entry i of e (at buf + st_size + i * its size): the fields that changed, in one line. */
static void entry_changes(struct sbuf *sb, const struct catalog *cat, const struct call_entries *e, size_t i,
			  const unsigned char *before, const unsigned char *after)
{
	sbuf_addf(sb, "%s[%zu]:", e->name, i);
	bool first = true;
	for (size_t k = 0; k < e->st->nfields; k++) {
		const struct field *f = &e->st->fields[k];
		if (!memcmp(before + f->offset, after + f->offset, f->size))
			continue;
		struct sbuf a = SBUF_INIT, b = SBUF_INIT;
		decode_field(&a, cat, f, before);
		decode_field(&b, cat, f, after);
		sbuf_addf(sb, "%s %s %s -> %s", first ? "" : ",", f->name, a.buf, b.buf);
		first = false;
		sbuf_release(&a);
		sbuf_release(&b);
	}
	sbuf_adds(sb, "\n");
}

void explain_writeback(struct sbuf *sb, const struct catalog *cat, const struct cstruct *st,
		       const struct call_entries *e, const struct outcome *o)
{
	if (!o->after || !st)
		return;
	size_t n = e && e->st && o->len > st->size ? st->size : o->len;
	explain_changes(sb, cat, st, o->before, o->after, n);
	for (size_t i = 0; n < o->len && (i + 1) * e->st->size <= o->len - n; i++) {
		size_t at = n + i * e->st->size;
		if (memcmp(o->before + at, o->after + at, e->st->size))
			entry_changes(sb, cat, e, i, o->before + at, o->after + at);
	}
}

void explain_changes(struct sbuf *sb, const struct catalog *cat, const struct cstruct *st,
		     const unsigned char *before, const unsigned char *after, size_t n)
{
	for (size_t off = mem_diff(before, after, 0, n); off < n; off = mem_diff(before, after, off, n)) {
		const struct field *f = cstruct_field_at(st, off);
		if (f) {
			struct sbuf a = SBUF_INIT, b = SBUF_INIT;
			decode_field(&a, cat, f, before);
			decode_field(&b, cat, f, after);
			sbuf_addf(sb, "%s: %s -> %s\n", f->name, a.buf, b.buf);
			sbuf_release(&a);
			sbuf_release(&b);
			off = f->offset + f->size;
		} else {
			size_t end = off;
			while (end < n && before[end] != after[end])
				end++;
			sbuf_addf(sb, "bytes %zu..%zu (past the known struct): changed\n", off, end - 1);
			off = end;
		}
	}
}

/* Runs the plan again with one change; returns the errno (0 = success, -1 = did not run). */
static int followup(struct explanation *e, struct call_plan *plan)
{
	struct outcome o;
	if (e->followups >= MAX_FOLLOWUPS)
		return -1;
	e->followups++;
	if (invoke_run(plan, &o) < 0)
		return -1;
	int r = o.stage == OS_CALLED ? (o.ret == -1 ? o.err : 0) : -1;
	outcome_release(&o);
	return r;
}

static const char *flag_name(const struct flagset *fs, uint64_t bit)
{
	for (size_t i = 0; fs && i < fs->nflags; i++)
		if (fs->flags[i].value == bit && !fs->flags[i].mask)
			return fs->flags[i].name;
	return NULL;
}

/* EINVAL: clear one flag bit at a time, then one field at a time, and see what changes. */
static void bisect_einval(struct explanation *e, const struct catalog *cat, struct call_plan *plan)
{
	const struct syscall *sc = plan->req.sc;
	const struct cstruct *st = plan->req.buf_arg >= 0 ? sc->st : NULL;
	bool found = false;
	(void)cat;
	/* flag words inside the struct */
	for (size_t i = 0; st && i < st->nfields; i++) {
		const struct field *f = &st->fields[i];
		if (!f->flagset || f->flagset->kind != FS_BITS || f->count || f->offset + f->size > plan->req.buflen ||
		    f->offset + f->size > plan->req.size)
			continue;
		uint64_t v = le_load(plan->req.buf + f->offset, f->elem_size);
		for (unsigned b = 0; b < f->elem_size * 8; b++) {
			uint64_t bit = 1ULL << b;
			if (!(v & bit))
				continue;
			le_store(plan->req.buf + f->offset, f->elem_size, v & ~bit);
			int r = followup(e, plan);
			le_store(plan->req.buf + f->offset, f->elem_size, v);
			if (r >= 0 && r != EINVAL) {
				const char *n = flag_name(f->flagset, bit);
				say(e, "the kernel refuses bit %u of %s (%s): without it the call gives %s", b, f->name,
				    n ? n : "unknown to the catalogue", r ? errno_name(r) : "success");
				found = true;
			}
		}
	}
	/* flags arguments */
	for (size_t i = 0; i < sc->nargs && i < 6; i++) {
		const struct sarg *a = &sc->args[i];
		if (a->role != AR_FLAGS || !a->flagset || a->flagset->kind != FS_BITS)
			continue;
		uint64_t v = plan->req.args[i];
		for (unsigned b = 0; b < 64; b++) {
			uint64_t bit = 1ULL << b;
			if (!(v & bit))
				continue;
			plan->req.args[i] = v & ~bit;
			int r = followup(e, plan);
			plan->req.args[i] = v;
			if (r >= 0 && r != EINVAL) {
				const char *n = flag_name(a->flagset, bit);
				say(e, "the kernel refuses bit %u of the %s argument (%s): without it the call gives %s", b,
				    a->name, n ? n : "unknown to the catalogue", r ? errno_name(r) : "success");
				found = true;
			}
		}
	}
	if (found || !st)
		return;
	/* a field constraint: zero one nonzero field at a time */
	for (size_t i = 0; i < st->nfields; i++) {
		const struct field *f = &st->fields[i];
		if (f == st->size_field || f->offset + f->size > plan->req.buflen || f->offset + f->size > plan->req.size)
			continue;
		unsigned char saved[64];
		if (f->size > sizeof(saved))
			continue;
		memcpy(saved, plan->req.buf + f->offset, f->size);
		bool zero = true;
		for (unsigned k = 0; k < f->size; k++)
			zero &= !saved[k];
		if (zero)
			continue;
		memset(plan->req.buf + f->offset, 0, f->size);
		int r = followup(e, plan);
		memcpy(plan->req.buf + f->offset, saved, f->size);
		if (r >= 0 && r != EINVAL) {
			say(e, "the value of %s is refused here (with %s zero the call gives %s): a constraint between fields",
			    f->name, f->name, r ? errno_name(r) : "success");
			found = true;
		}
	}
	if (!found)
		say(e, "no single flag bit or field explains it: the combination, or an argument, is refused");
}

/* The call as a check at kernel kv sees it: the bytes of the struct the kernel read (none
 * before copy-in; the size and the struct that kernel knows bound them after). A struct the
 * call did not pass (NULL, an address typed in) reads as zeros, as in the simulator; its
 * fields are still the call's, so a check naming one evaluates. */
static struct expr_env check_env(const struct catalog *cat, const struct call_plan *plan, const struct check *ck,
				 uint32_t kv)
{
	const struct call_request *q = &plan->req;
	const struct syscall *sc = q->sc;
	const struct cstruct *st = sc->st;
	bool passed = q->buf_arg >= 0;
	bool sized = passed && st && sc->has_rules && sc->size_where != SW_NONE && sc->size_where != SW_POINTER;
	uint64_t size = sc->size_bits == 32 ? (uint32_t)q->size : q->size;
	size_t seen = passed ? q->buflen : 0;
	if (sized && check_before_copy_in(sc, ck))
		seen = 0;
	else if (sized) {
		unsigned ksize = kernel_struct_size(syscall_tail_struct(sc), kv); /* bpf's: the whole union */
		seen = size < ksize ? (size_t)size : ksize;
		seen = seen < q->buflen ? seen : q->buflen;
	}
	struct expr_env env = { cat, sc, st, passed ? q->buf : NULL, seen, q->args, size, kv };
	return env;
}

static void say_lines(struct explanation *e, const char *prefix, const char *lines)
{
	for (const char *p = lines; p && *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] ? 1 : 0))
		say(e, "%s%.*s", prefix, (int)strcspn(p, "\n"), p);
}

/* The check that gave the answer, in words, with its condition (check_why). */
static void say_check(struct explanation *e, const struct catalog *cat, const struct call_plan *plan,
		      const struct check *ck, uint32_t kv)
{
	struct sbuf sb = SBUF_INIT;
	struct expr_env env = check_env(cat, plan, ck, kv);
	check_why(&sb, ck, &env);
	say_lines(e, "", sb.buf);
	sbuf_release(&sb);
}

/* An error the arguments do not decide: the call's check of the world that lists it and
 * holds here, or NULL. */
static const struct check *env_check_of(const struct catalog *cat, const struct call_plan *plan, const char *en,
					uint32_t kv)
{
	const struct syscall *sc = plan->req.sc;
	for (size_t i = 0; en && i < sc->nchecks; i++) {
		const struct check *ck = &sc->checks[i];
		bool lists = false;
		for (size_t k = 0; k < ck->nerrnos; k++)
			lists |= !strcmp(ck->errnos[k], en);
		if (!ck->env || !lists || !check_in_force(ck, kv))
			continue;
		struct expr_env env = check_env(cat, plan, ck, kv);
		if (expr_eval(ck->code, ck->ncode, &env))
			return ck;
	}
	return NULL;
}

/* What the simulator's check walk says of this answer. Returns true when that explains it
 * (a check gave the same errno, or the line cannot have come from kernel kv). */
static bool explain_by_checks(struct explanation *e, const struct catalog *cat, const struct call_plan *plan,
			      int err, uint32_t kv, const struct sim_verdict *sim)
{
	char kvs[16];
	const char *en = err ? errno_name(err) : NULL;
	int serr = sim->o->ret == -1 ? sim->o->err : 0;
	const struct check *env_ck = serr != err ? env_check_of(cat, plan, en, kv) : NULL;
	if (err && serr == err && sim->o->check) {
		say_check(e, cat, plan, sim->o->check, kv);
		return true;
	}
	if (env_ck) {
		struct sbuf dep = SBUF_INIT, en_list = SBUF_INIT;
		check_errnos_env(env_ck, &en_list, &dep);
		say(e, "%s depends on the world (%s), not on the arguments alone:", en, dep.buf);
		say_check(e, cat, plan, env_ck, kv);
		sbuf_release(&dep);
		sbuf_release(&en_list);
		return true;
	}
	if (serr == err)
		return false;
	kver_str(kv, kvs);
	if (plan->live) {
		say(e, "the catalogue's checks give %s on a %s kernel here, not %s%s", serr ? errno_name(serr) : "success", kvs,
		    en ? en : "success", err == EINVAL ? "; follow-up calls look for the cause" : ": the catalogue lacks a check");
		say_lines(e, "  ", sim->why);
		return false;
	}
	say(e, "a %s kernel answers %s here, not %s (so the line came from another kernel, or the catalogue lacks a check):",
	    kvs, serr ? errno_name(serr) : "success", en ? en : "success");
	say_lines(e, "  ", sim->why);
	return true;
}

/* The fields of st (at a and b, n bytes: what the kernel wrote and what the catalogue's fills
 * give) whose known bytes differ, said one a line with both values; name prefixes each field
 * ("ops[3]."); foreign: a is a strace line's. Returns how many differ; *seen counts the fields
 * compared. */
static unsigned fill_differences(struct explanation *e, const struct catalog *cat, const struct cstruct *st,
				 const char *name, const unsigned char *a, const unsigned char *b, const unsigned char *known,
				 size_t n, bool foreign, unsigned *seen)
{
	unsigned differ = 0;
	for (size_t k = 0; k < st->nfields; k++) {
		const struct field *f = &st->fields[k];
		if (f->count || f->offset + f->size > n || !memchr(known + f->offset, 1, f->size))
			continue;
		(*seen)++;
		if (!memcmp(a + f->offset, b + f->offset, f->size))
			continue;
		struct sbuf x = SBUF_INIT, y = SBUF_INIT;
		decode_field(&x, cat, f, a);
		decode_field(&y, cat, f, b);
		if (foreign) /* a strace line: its process is not xsc's sandbox, which the catalogue may have measured */
			say(e, "%s%s: the line shows %s where the catalogue says %s for a call of xsc's", name, f->name, x.buf, y.buf);
		else
			say(e, "%s%s: the kernel wrote %s where the catalogue says %s", name, f->name, x.buf, y.buf);
		sbuf_release(&x);
		sbuf_release(&y);
		differ++;
	}
	return differ;
}

/* A success's output fields the catalogue knows at this kernel (the simulator's fills): the
 * simulator's lines naming them and their sources, then each field where the kernel wrote
 * something else, or that it wrote what the catalogue knows. */
static void explain_fills(struct explanation *e, const struct catalog *cat, const struct call_plan *plan,
			  const struct outcome *o, const struct sim_verdict *sim)
{
	const struct outcome *so = sim ? sim->o : NULL;
	const struct syscall *sc = plan->req.sc;
	if (!so || so->stage != OS_CALLED || so->ret == -1 || (!so->known && !so->extra_known))
		return;
	for (const char *p = sim->why; p && *p;) {
		size_t n = strcspn(p, "\n");
		if (!strncmp(p, "the catalogue knows what it writes", 34))
			say(e, "%.*s", (int)n, p);
		p += n + (p[n] == '\n');
	}
	unsigned differ = 0, seen = 0;
	size_t n = o->len < so->len ? o->len : so->len;
	const struct call_entries *en = &sc->entries;
	if (so->known && o->after && sc->st) {
		size_t head = en->st && n > sc->st->size ? sc->st->size : n;
		differ += fill_differences(e, cat, sc->st, "", o->after, so->after, so->known, head, plan->req.foreign, &seen);
		for (size_t i = 0; en->st && head + (i + 1) * en->st->size <= n; i++) {
			char name[64];
			size_t at = head + i * en->st->size;
			snprintf(name, sizeof(name), "%s[%zu].", en->name, i);
			differ += fill_differences(e, cat, en->st, name, o->after + at, so->after + at, so->known + at,
						   en->st->size, plan->req.foreign, &seen);
		}
	}
	bool extra = so->extra_known && so->extra_arg >= 0 && sc->args[so->extra_arg].st;
	if (extra && o->extra && o->extra_arg == so->extra_arg) {
		char name[64];
		snprintf(name, sizeof(name), "%s: ", sc->args[so->extra_arg].name);
		differ += fill_differences(e, cat, sc->args[so->extra_arg].st, name, o->extra, so->extra, so->extra_known,
					   o->extra_len < so->extra_len ? o->extra_len : so->extra_len, plan->req.foreign, &seen);
	} else if (extra) {
		say(e, "what the kernel wrote into %s is not known here, so it is not compared", sc->args[so->extra_arg].name);
	}
	if (seen && !differ)
		say(e, "the %s what the catalogue knows (%u field%s compared)", plan->req.foreign ? "line shows" : "kernel wrote",
		    seen, seen == 1 ? "" : "s");
}

/* A call that did not come back with an answer: why. False when it did (OS_CALLED). */
static bool explain_no_answer(struct explanation *e, const struct call_plan *plan, const struct outcome *o)
{
	switch (o->stage) {
	case OS_NOT_RUN:
		say(e, "the call did not run");
		return true;
	case OS_SETUP:
		say(e, "the sandbox could not be set up (%s); nothing was called", o->setup_error.buf);
		return true;
	case OS_TIMEOUT:
		say(e, "the call did not return within %u ms; its child was killed", plan->timeout_ms);
		return true;
	case OS_SIGNALED:
		say(e, "the sandboxed child died of signal %d (%s)%s%s", o->signal, strsignal(o->signal),
		    o->setup_error.len ? ": " : "", o->setup_error.buf);
		return true;
	case OS_CALLED:
		break;
	}
	return false;
}

/* The struct's sizes at the kernel explained: its own (ksize), the first it accepts (ver0),
 * and the size passed. */
struct sizes_at {
	const struct cstruct *st; /* NULL: the call passed no struct */
	unsigned ksize, ver0;
	unsigned long long size;
};

/* A success: what the kernel made of the size passed, then what it returned and wrote. */
static void explain_success(struct explanation *e, const struct catalog *cat, const struct call_plan *plan,
			    const struct outcome *o, const struct sizes_at *z, const struct sim_verdict *sim)
{
	const struct syscall *sc = plan->req.sc;
	const struct size_rules *r = &sc->rules;
	bool output = r->tail == TAIL_ZEROED || r->tail == TAIL_UNTOUCHED;
	unsigned long long size = z->size;
	unsigned ksize = z->ksize;
	if (z->st && sc->size_where != SW_NONE && sc->size_where != SW_POINTER) {
		const struct sversion *v = version_of_size(z->st, size);
		if (size == 0 && r->zero.kind == SA_VER0)
			say(e, "size 0 is taken as the first version (%u bytes), an old-ABI quirk of %s", z->ver0, sc->name);
		else if (output && size < ksize)
			say(e, "an output call: the kernel wrote only the first %llu of its %u bytes", size, ksize);
		else if (output && size > ksize)
			say(e, "an output call: the kernel wrote its %u bytes and %s the %llu past them", ksize,
			    r->tail == TAIL_ZEROED ? "zeroed" : "left alone", size - ksize);
		else if (size < ksize)
			say(e, "size %llu is smaller than this kernel's struct (%u): the kernel zero-filled bytes %llu..%u, so those fields mean the old behaviour",
			    size, ksize, size, ksize - 1);
		else if (size > ksize)
			say(e, "size %llu is larger than this kernel's struct (%u): the %llu bytes past it are zero, so the kernel accepted them",
			    size, ksize, size - ksize);
		else
			say(e, "size %llu is exactly this kernel's struct%s%s%s", size,
			    v && v->name ? " (" : "", v && v->name ? v->name : "", v && v->name ? ")" : "");
	}
	if (o->ret > 2 && sc->returns == RET_FD && plan->live) /* a call of xsc's, not a strace line */
		say(e, "%ld is a file descriptor; it was closed when the sandboxed child exited", o->ret);
	explain_fills(e, cat, plan, o, sim);
}

/* E2BIG with a struct: the cap, a size below the first version, or the first nonzero byte
 * past the kernel's struct. */
static void explain_e2big(struct explanation *e, const struct call_plan *plan, const struct outcome *o,
			  const struct sizes_at *z)
{
	const struct syscall *sc = plan->req.sc;
	const struct size_rules *r = &sc->rules;
	unsigned long long size = z->size;
	char since[16];
	if (r->cap && size > r->cap) {
		say(e, "size %llu is above the %llu-byte cap %s puts on its struct%s%s", size, (unsigned long long)r->cap,
		    sc->name, r->cap_since ? ", added in " : "", r->cap_since ? kver_str(r->cap_since, since) : "");
		return;
	}
	if (size < z->ver0 && r->below_ver0.kind == SA_ERRNO && r->below_ver0.err == E2BIG) {
		say(e, "size %llu is below the first version (%u): %s answers E2BIG rather than EINVAL", size, z->ver0, sc->name);
		return;
	}
	uint64_t end = size < plan->req.buflen ? size : plan->req.buflen;
	uint64_t off = z->ksize;
	while (off < end && !o->before[off])
		off++;
	if (off < end) {
		const struct field *f = cstruct_field_at(z->st, off);
		if (f)
			say(e, "byte %llu is nonzero (0x%02x) and this kernel's struct ends at %u: it is in field %s, added in %s",
			    (unsigned long long)off, o->before[off], z->ksize, f->name, kver_str(f->since, since));
		else
			say(e, "byte %llu is nonzero (0x%02x), past this kernel's struct (%u) and past every field the catalogue knows",
			    (unsigned long long)off, o->before[off], z->ksize);
	} else if (size > plan->req.buflen) {
		say(e, "size %llu is past the memory xsc holds; the kernel refused it without a fault", size);
	} else {
		say(e, "no byte past this kernel's struct (%u) is nonzero: E2BIG came from a check inside the struct", z->ksize);
	}
}

/* EINVAL for a size below the first published one (unless the rules answer size 0 otherwise). */
static bool below_first_size(const struct syscall *sc, const struct sizes_at *z)
{
	const struct size_rules *r = &sc->rules;
	const struct cstruct *st = z->st;
	return st && (st->nversions || r->min) && sc->size_where != SW_NONE && sc->size_where != SW_POINTER &&
	       z->size < z->ver0 &&
	       !(z->size == 0 && r->zero.kind != SA_UNSAID && !(r->zero.kind == SA_ERRNO && r->zero.err == EINVAL));
}

/* A failure no check explained: the size's part in it, follow-up calls for EINVAL, then the
 * catalogue's prose. */
static void explain_failure(struct explanation *e, const struct catalog *cat, struct call_plan *plan,
			    const struct outcome *o, uint32_t kv, const struct sizes_at *z, const struct sim_verdict *sim)
{
	const struct syscall *sc = plan->req.sc;
	const struct cstruct *st = z->st;
	int err = o->err;
	const char *en = errno_name(err);
	char kvs[16];
	/* the prose is what no check covers yet: it may help only where the checks do not answer */
	bool checks_agree = sim && sim->o && (sim->o->ret == -1 ? sim->o->err : 0) == err;
	const char *m = checks_agree ? NULL : meaning(sc, en ? en : "");
	if (err == E2BIG && st && (z->size >> 63) && sc->check_fields)
		say(e, "bit 63 of the size is CHECK_FIELDS, proposed in 2024 and never merged: this kernel sees a huge size (try 'target sim %s --check-fields')",
		    kver_str(kv, kvs));
	if (err == E2BIG && st) {
		explain_e2big(e, plan, o, z);
	} else if (err == EINVAL && below_first_size(sc, z)) {
		const char *v0 = st && st->nversions ? st->versions[0].name : NULL;
		say(e, "size %llu is below the first published size, %u%s%s%s", z->size, z->ver0, v0 ? " (" : "",
		    v0 ? v0 : "", v0 ? ")" : "");
	} else if (err == EINVAL && plan->live) {
		bisect_einval(e, cat, plan);
	} else if (err == EINVAL) {
		say(e, "which flag bit or field was refused takes follow-up calls: run it with 'call' to find out");
	} else if (checks_agree) {
		say_lines(e, "", sim->why); /* a size step's answer (a NULL struct's EFAULT), no check's */
	}
	if (m)
		say(e, "%s for %s (the catalogue's prose, not yet a check): %s", en, sc->name, m);
}

void explain_outcome(struct explanation *e, const struct catalog *cat, struct call_plan *plan,
		     const struct outcome *o, uint32_t kv, const struct sim_verdict *sim)
{
	const struct syscall *sc = plan->req.sc;
	const struct cstruct *st = plan->req.buf_arg >= 0 ? sc->st : NULL;
	char kvs[16], since[16];
	if (plan->notes.len)
		say(e, "%s", plan->notes.buf);
	if (explain_no_answer(e, plan, o))
		return;
	if (o->has_size_cell && o->size_cell_before != o->size_cell_after)
		say(e, "the kernel wrote %u through the size pointer (it was %u)%s", o->size_cell_after, o->size_cell_before,
		    o->ret == -1 && o->err == E2BIG ? ": the size it needs" : "");
	struct sizes_at z = { st, st ? kernel_struct_size(st, kv) : 0, 0, o->size };
	z.ver0 = st && st->nversions ? st->versions[0].size : z.ksize;
	if (sc->has_rules && sc->rules.min)
		z.ver0 = sc->rules.min;
	int err = o->ret == -1 ? o->err : 0;
	if (err == ENOSYS) {
		say(e, "this kernel (%s) has no %s; it was added in %s", kver_str(kv, kvs), sc->name,
		    kver_str(sc->since, since));
		return;
	}
	if (sim && sim->o && explain_by_checks(e, cat, plan, err, kv, sim))
		return;
	if (!err)
		explain_success(e, cat, plan, o, &z, sim);
	else
		explain_failure(e, cat, plan, o, kv, &z, sim);
}
