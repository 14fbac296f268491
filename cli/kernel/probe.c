#include "kernel/probe.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "base/diag.h"
#include "base/sig.h"
#include "base/sbuf.h"
#include "kernel/btf.h"
#include "kernel/invoke.h"
#include "base/landlock.h"
#include "kernel/sandbox.h"
#include "model/expr.h"
#include "model/kver.h"
#include "model/structbuf.h"
#include "model/value.h"
#include "model/xlat.h"
#include "base/banned.h"

#define PAGE 4096
#define MAX_COMP 4
#define MAX_CAND 128
#define MAX_Q 4
#define SCRATCH_LEN 4096
/* In place of a descriptor the prober cannot make (a user namespace's, an io_uring's, a
 * cgroup's): the largest descriptor number, never open, within every INT_MAX bound. */
#define STANDIN_FD 0x7fffffff

/* One flag-bit probe: the parent fills the recipe, the child the result. */
struct fprobe {
	const char *holder, *name;
	const struct flagset *fs; /* the parent's: the child never dereferences it */
	uint32_t since;         /* the flag's kernel, 0 for a bit the catalogue does not know */
	int field_off;          /* the bit lives in a struct field at this offset … */
	unsigned width;         /* … of this many bytes, */
	int arg;                /* or in this argument (field_off < 0) */
	uint64_t bit;
	struct { int off, arg; unsigned width; uint64_t value; } comp[MAX_COMP];
	int ncomp;
	const char *inconclusive;
	bool standin;           /* a companion is a descriptor the prober cannot make: STANDIN_FD */
	int32_t unknown_err;    /* the errno of an unknown flag, when the checks tell it apart (0: not) */
	bool fs_dependent;      /* a check about the file system holds for this call */
	int32_t err;            /* result: 0 success, an errno, -1 not run */
};

/* One of the interface's own questions (the catalogue's "queries"), resolved by the parent
 * into offsets and values: the child cannot read the catalogue (it is not mapped into
 * children). */
enum rq_how {
	RQ_RETURN,    /* the call's return value */
	RQ_FIELD,     /* a field of the call's struct */
	RQ_ARG_PTR,   /* a field of the struct an argument points at */
	RQ_FIELD_PTR, /* a field of the struct a field of the call's struct points at */
	RQ_COUNT,     /* the entries after the call's struct with a flag set */
	RQ_AUXV,      /* the auxiliary vector's entry (the parent answers, no call) */
};
#define MAX_QSET 4
struct rquery {
	const char *name;
	bool call;             /* a call of its own (else what the baseline call wrote) */
	bool same_call;        /* the previous query's call answers it too */
	struct { int off, arg; unsigned width; uint64_t value; } set[MAX_QSET];
	int nset;
	uint64_t size;         /* the declared size of its call */
	enum rq_how how;
	unsigned off, width;   /* the field read (RQ_COUNT: how many entries) */
	uint64_t auxv;         /* RQ_AUXV: the entry's type */
	int arg;               /* RQ_ARG_PTR: the argument holding the address */
	unsigned ptr_off, ptr_width; /* RQ_FIELD_PTR: the field holding it */
	unsigned ent_start, ent_size, ent_off, ent_width; /* RQ_COUNT: the entries and their flag's field */
	uint64_t ent_flag;
};

/* One syscall's probe: recipe and results. Lives in memory shared with the child. */
struct sprobe {
	const struct syscall *sc; /* the parent's: the child never dereferences it */
	struct rquery rq[MAX_Q];
	int nrq;
	struct call_plan plan;
	const char *skip;
	int size_arg;
	int size_field_off;       /* the size inside the struct: offset (-1: none) and width */
	unsigned size_field_width;
	uint64_t newest;        /* the declared size for the baseline and the flags */
	uint64_t bisect_size;   /* the declared size while bisecting, 0: no bisection */
	unsigned cand[MAX_CAND];
	int ncand;
	bool writeback;
	unsigned char *pristine;
	size_t pristine_len;
	struct fprobe *fp;
	size_t nfp;
	/* results */
	int32_t base_err, ksize_bisect, ksize_wb;
	uint32_t calls;
	uint64_t us;
	int64_t q[MAX_Q];
	bool qok[MAX_Q];
	const char *qname[MAX_Q];
	int nq;
	bool done;
	int ns_errno;           /* the namespaces could not be set up: why */
	const char *ns_step;
};

/* ---- shared memory for the results ---- */

struct shared {
	unsigned char *base;
	size_t used, cap;
};

static void *shared_alloc(struct shared *sh, size_t n)
{
	n = (n + 15) & ~(size_t)15;
	if (n > sh->cap - sh->used)
		die("probe: shared area too small");
	void *p = sh->base + sh->used;
	sh->used += n;
	return p;
}

/* ---- the parent: recipes ---- */

bool probe_supported(const struct syscall *sc, const char **why)
{
	if (sc->kind == SK_LEGACY) {
		*why = "a legacy call with nothing to probe";
		return false;
	}
	if (!sc->nfeatures) {
		*why = "the catalogue defines no feature bits for it";
		return false;
	}
	return invoke_supported(sc, why);
}

#ifndef STATX_MNT_ID_UNIQUE
#define STATX_MNT_ID_UNIQUE 0x4000U /* linux/stat.h, 6.8 */
#endif

/* The prober's own question, for the MNT_ID token: the unique id of the mount path is on. */
static uint64_t mnt_id_of(const char *path)
{
	struct statx stx;
	memset(&stx, 0, sizeof(stx));
	if (syscall(SYS_statx, AT_FDCWD, path, 0, STATX_MNT_ID_UNIQUE, &stx) < 0)
		return 0;
	return stx.stx_mnt_id;
}

struct specials {
	uint64_t scratch, mnt_id;
	struct shared *sh; /* for strings the child must see */
	uint32_t kv;       /* the running kernel, for the checks' order */
};

/* A value of the recipe language: the catalogue's, or a token the prober resolves.
 * Returns 0, -1 (bad value, reported), 1 (a resource xsc cannot make: inconclusive), or 2
 * (a descriptor xsc cannot make: *out is STANDIN_FD, and the checks' order may still tell). */
static int recipe_value(const struct catalog *cat, const struct flagset *fs, const char *text,
			const struct specials *sp, uint64_t *out)
{
	if (!strcmp(text, "SCRATCH")) {
		*out = sp->scratch;
		return 0;
	}
	if (!strcmp(text, "MNT_ID")) {
		*out = sp->mnt_id;
		return sp->mnt_id ? 0 : 1;
	}
	if (!strcmp(text, "USERNS_FD") || !strcmp(text, "IO_URING_FD") || !strcmp(text, "CGROUP_FD")) {
		*out = STANDIN_FD;
		return 2;
	}
	struct value v;
	if (value_parse(cat, fs, text, &v) < 0)
		return -1;
	*out = v.bits;
	if (v.kind == VK_STRING) { /* a path: a copy in memory the child shares */
		char *copy = shared_alloc(sp->sh, v.text_len + 1);
		memcpy(copy, v.text, v.text_len);
		copy[v.text_len] = '\0';
		*out = (uint64_t)(uintptr_t)copy;
	}
	value_release(&v);
	return 0;
}

static int arg_index(const struct syscall *sc, const char *name, size_t n)
{
	for (size_t i = 0; i < sc->nargs; i++)
		if (strlen(sc->args[i].name) == n && !strncmp(sc->args[i].name, name, n))
			return (int)i;
	return -1;
}

/* Resolves one companion ("attr_clr=MOUNT_ATTR__ATIME", "CLONE_VM", "attr=0") into fp. */
static void add_companion(const struct catalog *cat, const struct syscall *sc, struct fprobe *fp,
			  const struct flagset *own, const char *c, const struct specials *sp)
{
	if (fp->ncomp == MAX_COMP) {
		fp->inconclusive = "too many companions";
		return;
	}
	const char *eq = strchr(c, '=');
	int *off = &fp->comp[fp->ncomp].off, *arg = &fp->comp[fp->ncomp].arg;
	unsigned *width = &fp->comp[fp->ncomp].width;
	uint64_t *value = &fp->comp[fp->ncomp].value;
	*off = *arg = -1;
	if (!eq) {
		/* another flag of the same word */
		if (recipe_value(cat, own, c, sp, value)) {
			fp->inconclusive = "a companion flag is unknown";
			return;
		}
		*off = fp->field_off;
		*arg = fp->arg;
		*width = fp->width;
		*value |= fp->bit; /* OR-ed with the flag itself */
		fp->ncomp++;
		return;
	}
	size_t n = (size_t)(eq - c);
	const struct field *f = NULL;
	for (size_t i = 0; sc->st && i < sc->st->nfields; i++)
		if (strlen(sc->st->fields[i].name) == n && !strncmp(sc->st->fields[i].name, c, n))
			f = &sc->st->fields[i];
	const struct flagset *fs = f ? f->flagset : NULL;
	if (f) {
		*off = (int)f->offset;
		*width = f->elem_size;
	} else if ((*arg = arg_index(sc, c, n)) >= 0) {
		fs = sc->args[*arg].flagset;
		*width = 8;
	} else {
		fp->inconclusive = "a companion names no field or argument";
		return;
	}
	int r = recipe_value(cat, fs, eq + 1, sp, value);
	if (r == 2) {
		fp->standin = true;
		fp->ncomp++;
		return;
	}
	if (r) {
		fp->inconclusive = r > 0 ? "it needs a resource the prober cannot make (a user-namespace, io_uring or cgroup descriptor)"
				      : "a companion value is bad";
		return;
	}
	fp->ncomp++;
}

static size_t count_flag_probes(const struct syscall *sc, uint64_t declared)
{
	size_t n = 0;
	for (size_t i = 0; sc->st && i < sc->st->nfields; i++) {
		const struct field *f = &sc->st->fields[i];
		if (f->flagset && f->flagset->kind == FS_BITS && !f->count && !f->reserved && f->offset + f->size <= declared)
			n += f->elem_size * 8;
	}
	for (size_t i = 0; i < sc->nargs; i++)
		if (sc->args[i].role == AR_FLAGS && sc->args[i].flagset && sc->args[i].flagset->kind == FS_BITS)
			n += 64;
	return n;
}

bool probe_ignores_unknown(const struct syscall *sc, const char *holder)
{
	for (size_t i = 0; sc->has_rules && i < sc->rules.nignore_unknown; i++)
		if (!strcmp(sc->rules.ignore_unknown[i], holder))
			return true;
	return false;
}

/* The probes of one flags word: every flag the catalogue names, then every other bit. */
static void add_word(const struct catalog *cat, const struct syscall *sc, struct sprobe *p, const char *holder,
		     const struct flagset *fs, int field_off, unsigned width, int arg, const struct specials *sp)
{
	uint64_t known = 0;
	for (size_t k = 0; k < fs->nflags; k++)
		known |= fs->flags[k].value; /* combinations too: their bits are known, not drift */
	for (size_t k = 0; k < fs->nflags; k++) {
		const struct flag *fl = &fs->flags[k];
		if (fl->mask || !fl->value)
			continue;
		struct fprobe *fp = &p->fp[p->nfp++];
		memset(fp, 0, sizeof(*fp));
		*fp = (struct fprobe){ .holder = holder, .name = fl->name, .fs = fs, .since = fl->since, .field_off = field_off,
				       .width = width, .arg = arg, .bit = fl->value, .err = -1 };
		for (size_t c = 0; c < fl->ncompanions && !fp->inconclusive; c++)
			add_companion(cat, sc, fp, fs, fl->companions[c], sp);
	}
	/* a request mask (statx's mask, statmount's param): the kernel ignores the bits it does
	 * not know by design, so accepting one says nothing and they are not probed */
	for (unsigned b = 0; b < width * 8 && !probe_ignores_unknown(sc, holder); b++) {
		uint64_t bit = 1ULL << b;
		if (known & bit)
			continue;
		struct fprobe *fp = &p->fp[p->nfp++];
		*fp = (struct fprobe){ .holder = holder, .name = NULL, .fs = fs, .field_off = field_off, .width = width,
				       .arg = arg, .bit = bit, .err = -1 };
	}
}

static void add_candidates(struct sprobe *p, const struct cstruct *st)
{
	unsigned ver0 = st->nversions ? st->versions[0].size : st->size;
	if (p->sc->has_rules && p->sc->rules.min)
		ver0 = p->sc->rules.min;
	/* every place a kernel's struct could end: field ends at or past VER0, then the
	 * catalogue's end, then 8-byte steps a newer kernel might have added */
	for (size_t i = 0; i < st->nfields && p->ncand < MAX_CAND; i++) {
		unsigned end = st->fields[i].offset + st->fields[i].size;
		if (end >= ver0 && (!p->ncand || end > p->cand[p->ncand - 1]))
			p->cand[p->ncand++] = end;
	}
	unsigned last = p->ncand ? p->cand[p->ncand - 1] : st->size;
	for (unsigned o = (last + 8) & ~7u; o + 8 <= p->bisect_size && p->ncand < MAX_CAND; o += o < 512 ? 8 : 64)
		p->cand[p->ncand++] = o;
}

/* Fields the call does not read (their direction is out or ignored) are not probed as
 * inputs, nor those the recipe's skip_fields names (a request mask the kernel ignores by
 * design). */
static bool arg_skipped(const struct syscall *sc, const char *name)
{
	for (size_t i = 0; i < sc->nprobe_skip_args; i++)
		if (!strcmp(sc->probe_skip_args[i], name))
			return true;
	return false;
}

static bool skipped(const struct syscall *sc, const struct cstruct *st, const struct field *f)
{
	if (!field_is_input(sc, st, f))
		return true;
	for (size_t i = 0; i < sc->nprobe_skip; i++)
		if (!strcmp(sc->probe_skip[i], "*") || !strcmp(sc->probe_skip[i], f->name))
			return true;
	return false;
}

static void order_of(const struct catalog *cat, const struct sprobe *p, struct fprobe *fp, const struct flagset *fs,
		     uint32_t kv);

/* ---- the interface's own questions, resolved by name ---- */

/* One "NAME=VALUE" of a query's args (as_arg) or set into r; -1 when it names nothing. */
static int query_setting(const struct catalog *cat, struct sprobe *p, struct rquery *r, const char *text, bool as_arg,
			 const struct specials *spv)
{
	const struct syscall *sc = p->sc;
	const char *eq = strchr(text, '=');
	if (!eq || r->nset == MAX_QSET)
		return -1;
	size_t n = (size_t)(eq - text);
	int arg = as_arg ? arg_index(sc, text, n) : -1;
	const struct field *f = NULL;
	for (size_t i = 0; !as_arg && sc->st && i < sc->st->nfields; i++)
		if (strlen(sc->st->fields[i].name) == n && !strncmp(sc->st->fields[i].name, text, n))
			f = &sc->st->fields[i];
	uint64_t v;
	if ((as_arg ? arg < 0 : !f) || recipe_value(cat, f ? f->flagset : sc->args[arg].flagset, eq + 1, spv, &v))
		return -1;
	if (arg >= 0 && arg == p->size_arg) {
		r->size = v; /* do_call declares it */
		return 0;
	}
	r->set[r->nset].arg = arg;
	r->set[r->nset].off = f ? (int)f->offset : -1;
	r->set[r->nset].width = f ? f->elem_size : 8;
	r->set[r->nset++].value = v;
	return 0;
}

static bool same_strings(const char **a, size_t na, const char **b, size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (strcmp(a[i], b[i]))
			return false;
	return true;
}

/* Where query q's answer is, in r; -1 when a name does not resolve. */
static int query_read(const struct catalog *cat, struct sprobe *p, const struct probe_query *q, struct rquery *r,
		      const struct specials *spv)
{
	const struct syscall *sc = p->sc;
	if (q->auxv) {
		r->how = RQ_AUXV;
		return recipe_value(cat, NULL, q->auxv, spv, &r->auxv) ? -1 : 0;
	}
	if (!strcmp(q->read, "return")) {
		r->how = RQ_RETURN;
		return 0;
	}
	const struct field *f = cstruct_find_field(q->count ? sc->st : q->st, q->read);
	if (!f)
		return -1;
	r->off = f->offset;
	r->width = f->elem_size;
	if (q->count) {
		char name[64];
		const char *colon = strchr(q->count, ':');
		snprintf(name, sizeof(name), "%.*s", (int)(colon - q->count), q->count);
		const struct field *ef = cstruct_find_field(q->st, name);
		r->how = RQ_COUNT;
		r->ent_start = (unsigned)p->newest;
		r->ent_size = cstruct_newest_size(q->st);
		r->ent_off = ef->offset;
		r->ent_width = ef->elem_size;
		return recipe_value(cat, ef->flagset, colon + 1, spv, &r->ent_flag) ? -1 : 0;
	}
	r->how = RQ_FIELD;
	if (!q->in)
		return 0;
	r->arg = arg_index(sc, q->in, strlen(q->in));
	const struct field *pf = r->arg < 0 && sc->st ? cstruct_find_field(sc->st, q->in) : NULL;
	r->how = r->arg >= 0 ? RQ_ARG_PTR : RQ_FIELD_PTR;
	if (pf) {
		r->ptr_off = pf->offset;
		r->ptr_width = pf->elem_size;
	}
	return r->arg >= 0 || pf ? 0 : -1;
}

static int plan_queries(const struct catalog *cat, struct sprobe *p, const struct specials *spv)
{
	const struct syscall *sc = p->sc;
	const struct probe_query *prev = NULL;
	for (size_t i = 0; i < sc->nqueries && p->nrq < MAX_Q; i++) {
		const struct probe_query *q = &sc->queries[i];
		struct rquery *r = &p->rq[p->nrq++];
		memset(r, 0, sizeof(*r));
		r->name = q->name;
		r->size = p->newest;
		r->call = q->nargs || q->nset;
		r->same_call = r->call && prev && same_strings(q->args, q->nargs, prev->args, prev->nargs) &&
			       same_strings(q->set, q->nset, prev->set, prev->nset);
		for (size_t k = 0; k < q->nargs; k++)
			if (query_setting(cat, p, r, q->args[k], true, spv) < 0)
				return -1;
		for (size_t k = 0; k < q->nset; k++)
			if (query_setting(cat, p, r, q->set[k], false, spv) < 0)
				return -1;
		if (query_read(cat, p, q, r, spv) < 0)
			return -1;
		prev = q->auxv ? prev : q;
	}
	return 0;
}


/* The struct's part of the plan: its sizes to bisect, the size written back, and the fields
 * the probe recipe sets (NULL, or why the recipe cannot be applied). */
static const char *plan_struct(const struct catalog *cat, struct sprobe *p, struct structbuf *sb,
			       const struct specials *spv)
{
	const struct syscall *sc = p->sc;
	const struct cstruct *st = sc->st;
	p->newest = cstruct_newest_size(st);
	bool bisect = sc->has_rules && (sc->rules.tail == TAIL_E2BIG || sc->rules.tail == TAIL_UNSAID) &&
		      (sc->size_where == SW_ARG || sc->size_where == SW_FIELD);
	p->bisect_size = bisect ? (sc->rules.cap && sc->rules.cap < PAGE ? sc->rules.cap : PAGE) : 0;
	p->writeback = sc->has_rules && sc->rules.writeback == WB_SIZE_ON_E2BIG && sc->size_where == SW_FIELD;
	structbuf_set_size(sb, PAGE); /* memory for bisection */
	for (size_t i = 0; i < sc->nprobe_set; i++) {
		const char *eq = strchr(sc->probe_set[i], '=');
		char *name = eq ? xstrndup(sc->probe_set[i], (size_t)(eq - sc->probe_set[i])) : NULL;
		const struct field *f = name ? cstruct_find_field(st, name) : NULL;
		free(name);
		uint64_t v;
		if (!f || recipe_value(cat, f->flagset, eq + 1, spv, &v))
			return "its probe recipe cannot be applied here";
		struct value val = { .kind = VK_INT, .bits = v, .width = 64, .is_signed = false };
		if (f->elem_size < 8)
			val.bits &= (1ULL << (f->elem_size * 8)) - 1;
		structbuf_set_field(sb, f, &val);
	}
	return NULL;
}

/* The flag probes: every bit of every flags field and flags argument, each with the order of
 * checks that tells its answer. */
static void plan_flags(const struct catalog *cat, struct sprobe *p, struct shared *sh, const struct specials *spv)
{
	const struct syscall *sc = p->sc;
	const struct cstruct *st = sc->st;
	p->fp = shared_alloc(sh, sizeof(*p->fp) * (count_flag_probes(sc, p->newest) + 1));
	for (size_t i = 0; st && i < st->nfields; i++) {
		const struct field *f = &st->fields[i];
		if (f->flagset && f->flagset->kind == FS_BITS && !f->count && !f->reserved && f->offset + f->size <= p->newest &&
		    !skipped(sc, st, f))
			add_word(cat, sc, p, f->name, f->flagset, (int)f->offset, f->elem_size, -1, spv);
	}
	for (size_t i = 0; i < sc->nargs; i++) {
		const struct sarg *a = &sc->args[i];
		if (a->role == AR_FLAGS && a->flagset && a->flagset->kind == FS_BITS && !arg_skipped(sc, a->name))
			add_word(cat, sc, p, a->name, a->flagset, -1, a->width, (int)i, spv);
	}
	for (size_t i = 0; i < p->nfp; i++) {
		struct fprobe *fp = &p->fp[i];
		if (fp->inconclusive)
			continue;
		order_of(cat, p, fp, fp->fs, spv->kv);
		if (fp->standin && !fp->unknown_err)
			fp->inconclusive = "it needs a descriptor the prober cannot make (a user namespace's, an io_uring's or a cgroup's), "
					   "and the catalogue's checks give no errno that tells a known flag from an unknown one";
	}
}

static const char *plan_probe(const struct catalog *cat, struct sprobe *p, struct shared *sh,
			      const struct specials *spv, unsigned timeout_ms, unsigned *needs)
{
	const struct syscall *sc = p->sc;
	const char *why;
	if (!probe_supported(sc, &why))
		return why;
	struct structbuf *sb = NULL;
	const struct cstruct *st = sc->st;
	if (st) {
		sb = structbuf_new(st->name, st, sc);
		if ((why = plan_struct(cat, p, sb, spv))) {
			structbuf_free(sb);
			return why;
		}
	}
	int planned = invoke_plan(cat, sc, sb, NULL, (int)sc->nprobe_args, (char **)sc->probe_args, PLAN_PROBE, timeout_ms, &p->plan);
	structbuf_free(sb);
	if (planned < 0)
		return "xsc cannot plan a harmless call";
	for (int i = 0; i < 6; i++)
		*needs |= sandbox_needs(p->plan.req.strings[i]);
	if (p->plan.ns)
		*needs |= SB_MNT;
	p->size_arg = -1;
	for (size_t i = 0; i < sc->nargs; i++)
		if (sc->args[i].role == AR_SIZE && sc->size_where == SW_ARG)
			p->size_arg = (int)i;
	p->size_field_off = st && sc->size_where == SW_FIELD && st->size_field ? (int)st->size_field->offset : -1;
	p->size_field_width = p->size_field_off >= 0 ? st->size_field->elem_size : 0;
	if (plan_queries(cat, p, spv) < 0)
		return "its probe queries cannot be applied here";
	if (st) {
		p->pristine_len = p->plan.req.buflen;
		p->pristine = xmalloc(p->pristine_len);
		memcpy(p->pristine, p->plan.req.buf, p->pristine_len);
		if (p->bisect_size)
			add_candidates(p, st);
	}
	plan_flags(cat, p, sh, spv);
	p->base_err = p->ksize_bisect = p->ksize_wb = -1;
	return NULL;
}

/* Sets up fp's call: its bit and its companions in buf (the struct) and a (the arguments);
 * returns the size to declare. Memory only: the child runs it, and the parent, to walk the
 * checks over the same call. */
static uint64_t apply_fprobe(const struct sprobe *p, const struct fprobe *fp, unsigned char *buf, uint64_t a[6],
			     uint64_t declared)
{
	if (fp->field_off >= 0) {
		uint64_t v = le_load(buf + fp->field_off, fp->width);
		le_store(buf + fp->field_off, fp->width, v | fp->bit);
	} else {
		a[fp->arg] = fp->bit; /* an argument's flag alone, without its default */
	}
	for (int c = 0; c < fp->ncomp; c++) {
		if (fp->comp[c].off >= 0) {
			uint64_t v = fp->comp[c].off == fp->field_off ? le_load(buf + fp->comp[c].off, fp->comp[c].width) : 0;
			le_store(buf + fp->comp[c].off, fp->comp[c].width, v | fp->comp[c].value);
		} else if (fp->comp[c].arg >= 0) {
			a[fp->comp[c].arg] = fp->comp[c].arg == fp->arg ? a[fp->arg] | fp->comp[c].value : fp->comp[c].value;
		}
	}
	/* an argument companion may set the size itself (attr=0 size=0) */
	uint64_t size = declared;
	for (int c = 0; c < fp->ncomp; c++)
		if (fp->comp[c].arg >= 0 && fp->comp[c].arg == p->size_arg)
			size = fp->comp[c].value;
	return size;
}

/* ---- the parent: what the checks say of a flag probe ---- */

/* Where a walk down the call's checks ends: the first check decided by the arguments alone
 * that holds (its errno, or 0 when none does), and the errnos of the world-dependent checks
 * that hold before it (the world may give any of them instead). */
struct check_walk {
	int decided;
	unsigned env;      /* the env kinds of those world-dependent checks */
	int possible[16];
	unsigned npossible;
};

static void walk_checks(const struct syscall *sc, const struct expr_env *env, struct check_walk *w)
{
	memset(w, 0, sizeof(*w));
	for (size_t i = 0; i < sc->nchecks; i++) {
		const struct check *ck = &sc->checks[i];
		if (!check_in_force(ck, env->kv) || !expr_eval(ck->code, ck->ncode, env))
			continue;
		if (!ck->env) {
			w->decided = ck->err;
			return;
		}
		w->env |= ck->env;
		for (size_t k = 0; k < ck->nerrnos && w->npossible < ARRAY_SIZE(w->possible); k++)
			w->possible[w->npossible++] = errno_from_name(ck->errnos[k]);
	}
}

static bool walk_may_give(const struct check_walk *w, int e)
{
	if (w->decided == e)
		return true;
	for (unsigned i = 0; i < w->npossible; i++)
		if (w->possible[i] == e)
			return true;
	return false;
}

/* Walks the catalogue's checks over fp's call as the running kernel with the flag and as
 * one without it. When the kernel without it certainly answers E and the one with it cannot
 * answer E, the live errno tells the two apart: fp->unknown_err = E. Why the order matters:
 * clone3 refuses an unknown flag (EINVAL, kernel/fork.c clone3_args_valid) before it looks
 * at the cgroup descriptor CLONE_INTO_CGROUP names (EBADF for one that is not open), so the
 * flag is probed without a cgroup. Also marks calls whose answer depends on the file system. */
static void order_of(const struct catalog *cat, const struct sprobe *p, struct fprobe *fp, const struct flagset *fs,
		     uint32_t kv)
{
	const struct syscall *sc = p->sc;
	if (!sc->nchecks)
		return;
	size_t len = p->pristine_len;
	unsigned char *buf = xcalloc(1, len ? len : 1);
	if (len)
		memcpy(buf, p->pristine, len);
	uint64_t a[6];
	memcpy(a, p->plan.req.args, sizeof(a));
	uint64_t size = apply_fprobe(p, fp, buf, a, p->newest);
	if (p->size_arg >= 0)
		a[p->size_arg] = size;
	if (p->size_field_off >= 0 && (size_t)p->size_field_off + p->size_field_width <= len)
		le_store(buf + p->size_field_off, p->size_field_width, size);
	uint64_t ksize = sc->st ? cstruct_size_at(sc->st, kv) : 0, seen = size < ksize ? size : ksize;
	struct expr_env env = { cat, sc, sc->st, buf, seen < len ? (size_t)seen : len, a, size, kv, fs, 0, 0 };
	struct check_walk with, without;
	env.assume_known = fp->bit;
	walk_checks(sc, &env, &with);
	env.assume_known = 0;
	env.assume_unknown = fp->bit;
	walk_checks(sc, &env, &without);
	free(buf);
	fp->fs_dependent = with.env & (1u << ENV_FILESYSTEM);
	if (without.decided && !without.npossible && !walk_may_give(&with, without.decided))
		fp->unknown_err = without.decided;
}

/* ---- the child: async-signal-safe from fork to _exit ---- */

static uint64_t mono_us(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000 + (uint64_t)t.tv_nsec / 1000;
}

static int fd_base;

/* The struct buffer back as the plan built it. pristine is copied from it, so a probe with
 * one has the other; both are checked so that a probe without a buffer never copies. */
static void restore_buf(struct sprobe *p)
{
	if (p->pristine && p->plan.req.buf)
		memcpy(p->plan.req.buf, p->pristine, p->pristine_len);
}

/* One call with args a and the declared size; restores the buffer afterwards unless keep.
 * Returns 0 on success, else the errno; *ret gets the return value. */
static int do_call(struct sprobe *p, uint64_t a[6], uint64_t size, bool keep, long *ret)
{
	int e = 0;
	long r;
	if (p->size_arg >= 0)
		a[p->size_arg] = size;
	if (p->size_field_off >= 0)
		le_store(p->plan.req.buf + p->size_field_off, p->size_field_width, size);
	if (p->plan.prep != PREP_NONE) {
		long fd = invoke_prep(p->plan.prep, &e);
		if (fd < 0)
			return e ? e : EBADF;
		if (p->plan.prep_arg >= 0)
			a[p->plan.prep_arg] = (uint64_t)fd;
	}
	r = invoke_raw(&p->plan, a, &e);
	p->calls++;
	if (ret)
		*ret = r;
	syscall(SYS_close_range, fd_base, ~0U, 0); /* what the call (or its prep) opened */
	if (!keep)
		restore_buf(p);
	return r == -1 ? e : 0;
}

static void query(struct sprobe *p, const char *name, int64_t v, bool ok)
{
	if (p->nq < MAX_Q) {
		p->qname[p->nq] = name;
		p->q[p->nq] = v;
		p->qok[p->nq] = ok;
		p->nq++;
	}
}

/* Is a nonzero byte at off refused with E2BIG? */
static bool e2big_at(struct sprobe *p, unsigned off)
{
	uint64_t a[6];
	memcpy(a, p->plan.req.args, sizeof(a));
	p->plan.req.buf[off] = 1;
	int e = do_call(p, a, p->bisect_size, false, NULL);
	return e == E2BIG;
}

static void probe_size(struct sprobe *p)
{
	if (p->writeback) {
		/* sched_setattr, perf_event_open: a size below VER0 makes the kernel write its own */
		uint64_t a[6];
		memcpy(a, p->plan.req.args, sizeof(a));
		if (do_call(p, a, 1, true, NULL) == E2BIG)
			p->ksize_wb = (int32_t)le_load(p->plan.req.buf + p->size_field_off, p->size_field_width);
		restore_buf(p);
	}
	if (!p->bisect_size || !p->ncand)
		return;
	/* bisection over the candidate ends: the first at which a nonzero byte is E2BIG */
	int lo = 0, hi = p->ncand - 1;
	if (!e2big_at(p, p->cand[hi])) {
		p->ksize_bisect = -1; /* the kernel knows more than this page: give up */
		return;
	}
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (e2big_at(p, p->cand[mid]))
			hi = mid;
		else
			lo = mid + 1;
	}
	p->ksize_bisect = (int32_t)p->cand[lo];
}

static void probe_flags(struct sprobe *p)
{
	uint64_t declared = p->newest;
	if (p->ksize_bisect > 0 && (uint64_t)p->ksize_bisect < declared)
		declared = (uint64_t)p->ksize_bisect; /* an older kernel: stay within its struct */
	for (size_t i = 0; i < p->nfp; i++) {
		struct fprobe *fp = &p->fp[i];
		if (fp->inconclusive)
			continue;
		/* a field past the kernel's struct is not passed at the declared size: the call
		 * would answer for the struct without it. Not run; the report says why. */
		if (fp->field_off >= 0 && (uint64_t)fp->field_off + fp->width > declared)
			continue;
		uint64_t a[6];
		memcpy(a, p->plan.req.args, sizeof(a));
		uint64_t size = apply_fprobe(p, fp, p->plan.req.buf, a, declared);
		fp->err = do_call(p, a, size, false, NULL);
	}
}

/* The answer of r after a call with args a that returned ret; false when its address is NULL
 * or its bytes lie past the buffer. */
static bool rq_value(const struct sprobe *p, const struct rquery *r, const uint64_t a[6], long ret, int64_t *v)
{
	const unsigned char *buf = p->plan.req.buf, *at;
	size_t len = p->plan.req.buflen;
	switch (r->how) {
	case RQ_RETURN:
		*v = ret;
		return true;
	case RQ_FIELD:
		if (!buf || r->off + r->width > len)
			return false;
		*v = (int64_t)le_load(buf + r->off, r->width);
		return true;
	case RQ_ARG_PTR:
	case RQ_FIELD_PTR:
		if (r->how == RQ_FIELD_PTR && (!buf || r->ptr_off + r->ptr_width > len))
			return false;
		at = (const unsigned char *)(uintptr_t)(r->how == RQ_ARG_PTR ? a[r->arg] : le_load(buf + r->ptr_off, r->ptr_width));
		if (!at)
			return false;
		*v = (int64_t)le_load(at + r->off, r->width);
		return true;
	case RQ_COUNT: {
		if (!buf || r->off + r->width > len)
			return false;
		uint64_t n = le_load(buf + r->off, r->width), count = 0;
		for (uint64_t i = 0; i < n && r->ent_start + (i + 1) * r->ent_size <= len; i++)
			count += (le_load(buf + r->ent_start + i * r->ent_size + r->ent_off, r->ent_width) & r->ent_flag) != 0;
		*v = (int64_t)count;
		return true;
	}
	default:
		return false;
	}
}

/* What the baseline call (args a) wrote answers the queries that make no call of their own. */
static void baseline_queries(struct sprobe *p, const uint64_t a[6], long ret)
{
	int64_t v;
	for (int i = 0; i < p->nrq; i++)
		if (!p->rq[i].call && p->rq[i].how != RQ_AUXV && rq_value(p, &p->rq[i], a, ret, &v))
			query(p, p->rq[i].name, v, true);
}

/* The queries that make a call of their own: one call for each run of them asking alike. */
static void probe_queries(struct sprobe *p)
{
	for (int i = 0, j; i < p->nrq; i = j) {
		const struct rquery *r = &p->rq[i];
		for (j = i + 1; j < p->nrq && p->rq[j].same_call; j++)
			;
		if (!r->call)
			continue;
		uint64_t a[6];
		long ret = -1;
		memcpy(a, p->plan.req.args, sizeof(a));
		for (int k = 0; k < r->nset; k++) {
			if (r->set[k].arg >= 0)
				a[r->set[k].arg] = r->set[k].value;
			else if (p->plan.req.buf && r->set[k].off + r->set[k].width <= p->plan.req.buflen)
				le_store(p->plan.req.buf + r->set[k].off, r->set[k].width, r->set[k].value);
		}
		bool unread = false; /* an answer to be read through NULL (no buffer of xsc's): no call */
		for (int k = i; k < j; k++)
			unread |= p->rq[k].how == RQ_ARG_PTR && !a[p->rq[k].arg];
		int e = unread ? 0 : do_call(p, a, r->size, true, &ret);
		for (int k = i; k < j && !unread; k++) {
			int64_t v = 0;
			bool ok = rq_value(p, &p->rq[k], a, ret, &v);
			query(p, p->rq[k].name, v, ok && !e);
		}
		restore_buf(p);
	}
}

static void run_one(struct sprobe *p)
{
	uint64_t t0 = mono_us(), a[6];
	long ret;
	memcpy(a, p->plan.req.args, sizeof(a));
	p->base_err = do_call(p, a, p->newest, true, &ret);
	/* what the baseline call wrote back answers some questions by itself */
	if (!p->base_err)
		baseline_queries(p, a, ret);
	restore_buf(p);
	if (p->base_err != ENOSYS) {
		probe_size(p);
		probe_flags(p);
		probe_queries(p);
	}
	p->us = mono_us() - t0;
	p->done = true;
}

/* One stage of the prober: the mount calls (ns: in private user and mount namespaces; bpf
 * and perf need the initial ones) or all the others. Landlock comes after the mounts. */
static void NORETURN probe_stage(struct sprobe *ps, size_t n, struct sandbox *box, int landlock_abi,
				 unsigned timeout_s, bool ns)
{
	const char *step = NULL;
	int e = ns ? sandbox_enter(box, true, timeout_s, &step) : 0;
	if (!e)
		e = sandbox_landlock(box, landlock_abi, &step);
	if (e && !ns)
		_exit(2);
	int fd = open("/", O_RDONLY | O_CLOEXEC);
	fd_base = fd >= 0 ? fd : 3;
	if (fd >= 0)
		close(fd);
	for (size_t i = 0; i < n; i++)
		if (!ps[i].skip && ps[i].plan.ns == ns && ps[i].plan.rseq_unregister)
			invoke_rseq_release();
	for (size_t i = 0; i < n; i++) {
		if (ps[i].skip || ps[i].plan.ns != ns)
			continue;
		if (e) {
			ps[i].ns_errno = e;
			ps[i].ns_step = step;
		} else {
			run_one(&ps[i]);
		}
	}
	_exit(0);
}

/* The prober: this process enters the sandbox, confines itself (sandbox_confine) and is the
 * subreaper of everything below it, so processes that clone3 makes with CLONE_PARENT are
 * reaped here and never reach the host; its children run the stages, the mount calls first. */
static void NORETURN prober(struct sprobe *ps, size_t n, struct sandbox *box, int landlock_abi, unsigned timeout_s)
{
	const char *step;
	if (sandbox_enter(box, false, timeout_s, &step) || sandbox_confine(box, NULL, &step) ||
	    prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		_exit(2);
	alarm(timeout_s);
	bool any = false;
	for (size_t i = 0; i < n; i++)
		any |= !ps[i].skip && ps[i].plan.ns;
	pid_t self = getpid();
	for (int stage = any ? 0 : 1; stage < 2; stage++) {
		pid_t c = fork();
		if (c == 0) {
			if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != self)
				_exit(2);
			alarm(timeout_s);
			probe_stage(ps, n, box, landlock_abi, timeout_s, stage == 0);
		}
		for (pid_t w = 0; c > 0 && w != c;) /* the stage, and whatever of its it outlived */
			if ((w = waitpid(-1, NULL, __WALL)) < 0 && errno != EINTR)
				break;
	}
	while (waitpid(-1, NULL, __WALL) > 0 || errno == EINTR)
		;
	_exit(0);
}

/* ---- the parent: run and report ---- */

static enum answer flag_answer(int err, const char **reason)
{
	*reason = NULL;
	if (err == 0)
		return ANS_YES;
	if (err == EINVAL)
		return ANS_NO;
	if (err == EPERM || err == EACCES) {
		*reason = "needs privilege";
		return ANS_INCONCLUSIVE;
	}
	if (err == ENOSYS || err == E2BIG || err < 0) {
		*reason = err < 0 ? "not run" : "the call itself failed";
		return ANS_INCONCLUSIVE;
	}
	if (err == EOPNOTSUPP)
		*reason = "known, but not available in this build or on this file system";
	return ANS_YES; /* accepted: the call failed later, for another reason */
}

/* A flag probed with STANDIN_FD for its descriptor: the errno an unknown flag gets means
 * unknown; any other answer came from a check after the flag's (order_of). */
static enum answer standin_answer(const struct fprobe *fp, const char **reason)
{
	*reason = NULL;
	if (fp->err == ENOSYS || fp->err == E2BIG || fp->err < 0) {
		*reason = fp->err < 0 ? "not run" : "the call itself failed";
		return ANS_INCONCLUSIVE;
	}
	if (fp->err == fp->unknown_err)
		return ANS_NO;
	*reason = "known: probed with a descriptor that is not open, the kernel answered past its unknown-flag check";
	return ANS_YES;
}

/* The catalogue says this call refuses the flag (clone3 and CLONE_DETACHED). */
static bool refused_by_design(const struct syscall *sc, const struct fprobe *fp)
{
	size_t hl = strlen(fp->holder);
	for (size_t i = 0; i < sc->nprobe_refuses; i++) {
		const char *f = sc->probe_refuses[i];
		if (!strncmp(f, fp->holder, hl) && f[hl] == ':' && !strcmp(f + hl + 1, fp->name))
			return true;
	}
	return false;
}

/* Whether the call is there: the base call's errno, or why the probe could not tell. */
static void report_available(const struct sprobe *p, struct probe_report *r)
{
	if (p->skip) {
		r->available = ANS_INCONCLUSIVE;
		r->why = p->skip;
	} else if (p->ns_errno) {
		r->available = ANS_INCONCLUSIVE;
		r->why = "private user and mount namespaces could not be set up (unprivileged user namespaces off?)";
	} else if (!p->done) {
		r->available = ANS_INCONCLUSIVE;
		r->why = "the prober did not get to it (timeout or crash)";
	} else if (p->base_err == ENOSYS) {
		r->available = ANS_NO;
		r->why = "ENOSYS";
	} else if (p->base_err == EPERM) {
		r->available = ANS_INCONCLUSIVE;
		r->why = "inconclusive: filtered (EPERM, as a seccomp filter answers) or needs privilege";
	} else {
		r->available = ANS_YES;
	}
}

/* The kernel's struct size, by bisection, by write-back and from BTF: the first measured, and
 * whether the others disagree. Measured even when the call itself was refused (EPERM): the
 * size checks come first. */
static void report_ksize(const struct sprobe *p, struct probe_report *r)
{
	r->ksize_bisect = p->ksize_bisect;
	r->ksize_writeback = p->ksize_wb;
	if (!p->sc->st || r->available == ANS_NO)
		return;
	unsigned b = btf_struct_size(p->sc->st->name, NULL);
	r->ksize_btf = b ? (int)b : -1;
	int sizes[3] = { r->ksize_bisect, r->ksize_writeback, r->ksize_btf };
	for (int i = 0; i < 3; i++) {
		if (sizes[i] < 0)
			continue;
		if (r->ksize < 0)
			r->ksize = sizes[i];
		else if (r->ksize != sizes[i])
			r->disagree = true;
	}
}

/* One flag's answer from its probe. */
static void report_flag(const struct sprobe *p, const struct fprobe *fp, const struct probe_report *r,
			struct flag_answer *fa, uint32_t kv)
{
	fa->holder = fp->holder;
	fa->name = fp->name;
	fa->bit = fp->bit;
	fa->err = fp->err;
	fa->unknown_err = fp->standin ? fp->unknown_err : 0; /* the order decided only these */
	fa->fs_dependent = fp->fs_dependent;
	if (r->available != ANS_YES) {
		fa->answer = ANS_INCONCLUSIVE;
		fa->reason = "the call is not available";
	} else if (probe_past_struct(r, fp->field_off, fp->width)) {
		/* the kernel cannot read the field: a nonzero byte in it is E2BIG (the size the
		 * bisection measured), whatever the bit */
		fa->answer = ANS_NO;
		fa->reason = "its field lies past the running kernel's struct: a nonzero byte there is E2BIG";
	} else if (fp->inconclusive) {
		fa->answer = ANS_INCONCLUSIVE;
		fa->reason = fp->inconclusive;
	} else if (fp->standin) {
		fa->answer = standin_answer(fp, &fa->reason);
	} else {
		fa->answer = flag_answer(fp->err, &fa->reason);
		if (fa->answer == ANS_NO && fp->since && fp->since <= kv && !refused_by_design(p->sc, fp)) {
			/* the catalogue dates it from this kernel or before: most likely it needs a
			 * companion the catalogue does not give, so say so rather than "no" */
			fa->answer = ANS_INCONCLUSIVE;
			fa->reason = "refused although the catalogue dates it from this kernel or before: a companion may be missing";
		}
	}
}

static void report_one(const struct sprobe *p, struct probe_report *r, uint32_t kv)
{
	memset(r, 0, sizeof(*r));
	r->sc = p->sc;
	r->ksize_bisect = r->ksize_writeback = r->ksize_btf = r->ksize = -1;
	r->calls = p->calls;
	r->us = p->us;
	report_available(p, r);
	r->base_err = p->base_err;
	report_ksize(p, r);
	r->flags = xcalloc(p->nfp + 1, sizeof(*r->flags));
	for (size_t i = 0; i < p->nfp; i++)
		report_flag(p, &p->fp[i], r, &r->flags[r->nflags++], kv);
	for (int i = 0; i < p->nq; i++)
		r->queries[r->nqueries++] = (struct query_answer){ p->qname[i], p->q[i], p->qok[i] };
	for (int i = 0; i < p->nrq && r->nqueries < ARRAY_SIZE(r->queries); i++)
		if (p->rq[i].how == RQ_AUXV) {
			unsigned long v = getauxval((unsigned long)p->rq[i].auxv);
			r->queries[r->nqueries++] = (struct query_answer){ p->rq[i].name, (int64_t)v, v != 0 };
		}
	probe_fill_bitmap(r);
}

bool probe_past_struct(const struct probe_report *r, int field_off, unsigned width)
{
	return field_off >= 0 && r->ksize >= 0 && (uint64_t)field_off + width > (uint64_t)r->ksize;
}

void probe_fill_bitmap(struct probe_report *r)
{
	free(r->bitmap);
	r->nbits = r->sc->nfeatures;
	r->bitmap = xcalloc((r->nbits + 31) / 32 + 1, sizeof(uint32_t));
	for (size_t b = 0; b < r->nbits; b++) {
		bool known;
		if (probe_feature(r, b, &known))
			r->bitmap[b / 32] |= 1u << (b % 32);
	}
}

bool probe_feature(const struct probe_report *r, size_t bit, bool *known)
{
	const char *f = r->sc->features[bit];
	*known = r->available != ANS_INCONCLUSIVE;
	if (!strcmp(f, "available"))
		return r->available == ANS_YES;
	if (r->available != ANS_YES)
		return false;
	if (!strncmp(f, "size:", 5)) {
		int n = atoi(f + 5);
		*known = r->ksize >= 0;
		return r->ksize >= n;
	}
	const char *colon = strchr(f, ':');
	for (size_t i = 0; colon && i < r->nflags; i++) {
		const struct flag_answer *fa = &r->flags[i];
		if (fa->name && !strcmp(fa->name, colon + 1) && strlen(fa->holder) == (size_t)(colon - f) &&
		    !strncmp(fa->holder, f, (size_t)(colon - f))) {
			*known = fa->answer != ANS_INCONCLUSIVE;
			return fa->answer == ANS_YES;
		}
	}
	*known = false;
	return false;
}

static uint64_t now_us(void) { return mono_us(); }

/* The syscalls to probe: those named (each must exist), else every one the prober supports.
 * NULL (reported) for an unknown name. */
static const struct syscall **probe_list(const struct catalog *cat, const char *const *names, size_t n, size_t *cnt)
{
	const struct syscall **list = xcalloc(cat->nsyscalls + 1, sizeof(*list));
	*cnt = 0;
	for (size_t i = 0; i < n; i++) {
		const struct syscall *sc = catalog_find_syscall(cat, names[i]);
		if (!sc) {
			free(list);
			err("probe: no syscall named '%s'", names[i]);
			return NULL;
		}
		list[(*cnt)++] = sc;
	}
	for (size_t i = 0; !n && i < cat->nsyscalls; i++) {
		const char *why;
		if (probe_supported(&cat->syscalls[i], &why))
			list[(*cnt)++] = &cat->syscalls[i];
	}
	return list;
}

/* The entries the plans name (SB_FILE, SB_A, SB_DIR, SB_MNT's bits), made in the one sandbox. */
static void make_entries(const struct sandbox *box, unsigned needs)
{
	const char *const entries[] = { "file", "a", "dir", "mnt" };
	for (unsigned b = 0; b < 4; b++) {
		if (!(needs & (1u << b)))
			continue;
		struct sbuf path = SBUF_INIT;
		sbuf_addf(&path, "%s/%s", box->dir, entries[b]);
		if (b >= 2)
			mkdir(path.buf, 0755);
		else {
			int fd = open(path.buf, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
			if (fd >= 0 && write(fd, "xsc\n", 4) == 4)
				close(fd);
			else if (fd >= 0)
				close(fd);
		}
		sbuf_release(&path);
	}
}

/* Runs the prober child over the planned probes and waits for it (^C kills it). The child's
 * pid, or -1 when it could not fork. */
static pid_t run_prober(struct sprobe *ps, size_t cnt, struct sandbox *box, unsigned timeout_ms)
{
	unsigned timeout_s = (timeout_ms * 10 + 999) / 1000 + 5;
	int landlock_abi = landlock_usable_abi();
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0)
		prober(ps, cnt, box, landlock_abi, timeout_s);
	int status = 0;
	if (pid > 0) /* only our own child: the host's are not ours to reap */
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			if (sig_interrupted()) /* ^C: the rest of the probe is not wanted */
				kill(pid, SIGKILL);
	return pid;
}

int probe_run(const struct catalog *cat, const char *const *names, size_t n, unsigned timeout_ms,
	      struct probe_run *run)
{
	memset(run, 0, sizeof(*run));
	struct utsname u;
	if (uname(&u) == 0)
		snprintf(run->kernel, sizeof(run->kernel), "%s", u.release);
	size_t cnt;
	const struct syscall **list = probe_list(cat, names, n, &cnt);
	if (!list)
		return -1;
	/* shared memory: the probes and their flag probes */
	size_t need = sizeof(struct sprobe) * (cnt + 1) + SCRATCH_LEN + 64 * 1024 /* strings */;
	for (size_t i = 0; i < cnt; i++)
		need += sizeof(struct fprobe) * (count_flag_probes(list[i], list[i]->st ? cstruct_newest_size(list[i]->st) : 0) + 1) + 32;
	struct shared sh = { NULL, 0, need + 4096 };
	sh.base = mmap(NULL, sh.cap, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh.base == MAP_FAILED) {
		free(list);
		return err("probe: cannot map shared memory: %s", strerror(errno));
	}
	struct sprobe *ps = shared_alloc(&sh, sizeof(*ps) * (cnt + 1));
	struct specials spv = { (uint64_t)(uintptr_t)shared_alloc(&sh, SCRATCH_LEN), 0, &sh };
	struct sandbox box = { NULL, -1 };
	unsigned needs = SB_FILE; /* companions may name it */
	uint64_t t0 = now_us();
	if (sandbox_create(&box, 0) < 0) {
		munmap(sh.base, sh.cap);
		free(list);
		return -1;
	}
	spv.mnt_id = mnt_id_of(box.dir);
	if (kver_parse(run->kernel, &spv.kv, 1) == 0)
		spv.kv = kver_release(spv.kv);
	for (size_t i = 0; i < cnt; i++) {
		ps[i].sc = list[i];
		ps[i].skip = plan_probe(cat, &ps[i], &sh, &spv, timeout_ms, &needs);
	}
	make_entries(&box, needs);
	pid_t pid = run_prober(ps, cnt, &box, timeout_ms);
	run->us = now_us() - t0;
	sandbox_destroy(&box);
	run->reports = xcalloc(cnt + 1, sizeof(*run->reports));
	for (size_t i = 0; i < cnt; i++) {
		report_one(&ps[i], &run->reports[run->nreports++], spv.kv);
		run->calls += ps[i].calls;
		invoke_plan_release(&ps[i].plan);
		free(ps[i].pristine);
	}
	munmap(sh.base, sh.cap);
	free(list);
	btf_release();
	if (pid < 0)
		return err("probe: cannot fork: %s", strerror(errno));
	if (sig_interrupted()) { /* half the answers: never shown, never cached */
		probe_run_release(run);
		return sig_interrupt_err();
	}
	return 0;
}

void probe_run_release(struct probe_run *run)
{
	for (size_t i = 0; i < run->nreports; i++) {
		free(run->reports[i].flags);
		free(run->reports[i].bitmap);
	}
	free(run->reports);
	arena_release(&run->strings);
	memset(run, 0, sizeof(*run));
}
