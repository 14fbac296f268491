/* The loader: accepts the bundled catalogue, refuses bad input whole and says where. */
#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tap.h"
#include "model/catwrite.h"
#include "model/dataload.h"
#include "model/expr.h"
#include "model/kver.h"
#include "base/sbuf.h"

static struct catalog *load1(const char *text)
{
	const char *names[] = { "t.json" };
	const char *texts[] = { text };
	size_t lens[] = { strlen(text) };
	return catalog_load_buffers(names, texts, lens, 1);
}

#define STRUCT(fields, versions) \
	"{\"structs\": [{\"name\": \"s\", \"header\": \"h\", \"doc\": \"d\", \"fields\": [" fields "], \"versions\": [" versions "]}]}"
#define F(name, type, off, since) "{\"name\": \"" name "\", \"type\": \"" type "\", \"offset\": " #off ", \"since\": \"" since "\", \"zero\": \"z\"}"

/* ---- the cache: what comes back is what went in, and nothing else comes back ---- */

static bool same_str(const char *a, const char *b) { return a == b || (a && b && !strcmp(a, b)); }
static const char *name_of(const char *const *p) { return p ? *p : NULL; } /* a reference's name */
#define REFNAME(p) name_of((p) ? &(p)->name : NULL)

static bool same_strs(const char **a, size_t na, const char **b, size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (!same_str(a[i], b[i]))
			return false;
	return true;
}

static bool same_flagset(const struct flagset *a, const struct flagset *b)
{
	bool same = same_str(a->name, b->name) && same_str(a->prefix, b->prefix) && same_str(a->header, b->header) &&
		    same_str(a->doc, b->doc) && same_str(a->file, b->file) && a->kind == b->kind && a->nflags == b->nflags;
	for (size_t i = 0; same && i < a->nflags; i++) {
		const struct flag *f = &a->flags[i], *g = &b->flags[i];
		same = same_str(f->name, g->name) && same_str(f->doc, g->doc) && f->value == g->value &&
		       f->since == g->since && f->mask == g->mask && f->negative == g->negative &&
		       same_strs(f->companions, f->ncompanions, g->companions, g->ncompanions);
	}
	return same;
}

static bool same_field(const struct field *f, const struct field *g)
{
	return same_str(f->name, g->name) && same_str(f->doc, g->doc) && same_str(f->zero, g->zero) &&
	       same_str(f->type_text, g->type_text) && f->type == g->type && f->format == g->format &&
	       f->elem_size == g->elem_size && f->count == g->count && f->offset == g->offset && f->size == g->size &&
	       f->since == g->since && same_str(REFNAME(f->flagset), REFNAME(g->flagset)) &&
	       same_strs(f->aliases, f->naliases, g->aliases, g->naliases) && f->reserved == g->reserved &&
	       f->string == g->string && f->direction == g->direction && f->format_stated == g->format_stated &&
	       f->verbose_only == g->verbose_only && f->strace_extra == g->strace_extra;
}

static bool same_struct(const struct cstruct *a, const struct cstruct *b)
{
	bool same = same_str(a->name, b->name) && same_str(a->header, b->header) && same_str(a->doc, b->doc) &&
		    same_str(a->file, b->file) && a->direction == b->direction && a->packed == b->packed &&
		    a->align == b->align && a->align_stated == b->align_stated && a->size == b->size && a->nfields == b->nfields &&
		    a->nversions == b->nversions && same_str(REFNAME(a->size_field), REFNAME(b->size_field));
	for (size_t i = 0; same && i < a->nfields; i++)
		same = same_field(&a->fields[i], &b->fields[i]);
	for (size_t i = 0; same && i < a->nversions; i++)
		same = same_str(a->versions[i].name, b->versions[i].name) && a->versions[i].size == b->versions[i].size &&
		       a->versions[i].since == b->versions[i].since;
	return same;
}

static bool same_rules(const struct size_rules *a, const struct size_rules *b)
{
	return a->zero.kind == b->zero.kind && a->zero.err == b->zero.err && a->below_ver0.kind == b->below_ver0.kind &&
	       a->below_ver0.err == b->below_ver0.err && a->tail == b->tail && a->writeback == b->writeback &&
	       same_str(a->check_order, b->check_order) && a->cap_errno == b->cap_errno && a->null_errno == b->null_errno &&
	       same_strs(a->ignore_unknown, a->nignore_unknown, b->ignore_unknown, b->nignore_unknown) &&
	       a->min == b->min && a->cap == b->cap && a->cap_since == b->cap_since;
}

static bool same_syscall(const struct syscall *a, const struct syscall *b)
{
	bool same = same_str(a->name, b->name) && same_str(a->header, b->header) &&
		    same_str(a->prototype, b->prototype) && same_str(a->summary, b->summary) &&
		    a->safety == b->safety && a->kind == b->kind && same_str(a->file, b->file) && a->nr_x86_64 == b->nr_x86_64 &&
		    a->nr_aarch64 == b->nr_aarch64 && a->is_ioctl == b->is_ioctl && same_str(a->ioctl_fd, b->ioctl_fd) &&
		    a->ioctl_dir == b->ioctl_dir && a->ioctl_type == b->ioctl_type && a->ioctl_nr == b->ioctl_nr &&
		    a->since == b->since && same_str(REFNAME(a->st), REFNAME(b->st)) && a->direction == b->direction && a->size_where == b->size_where &&
		    same_str(a->size_name, b->size_name) && a->size_bits == b->size_bits && a->has_rules == b->has_rules &&
		    same_rules(&a->rules, &b->rules) && a->nargs == b->nargs && a->nerrors == b->nerrors &&
		    a->nlineage == b->nlineage && same_strs(a->notes, a->nnotes, b->notes, b->nnotes) &&
		    same_strs(a->links, a->nlinks, b->links, b->nlinks) &&
		    same_strs(a->features, a->nfeatures, b->features, b->nfeatures) &&
		    same_strs(a->probe_set, a->nprobe_set, b->probe_set, b->nprobe_set) &&
		    same_strs(a->probe_args, a->nprobe_args, b->probe_args, b->nprobe_args) &&
		    same_strs(a->probe_skip, a->nprobe_skip, b->probe_skip, b->nprobe_skip) &&
		    same_strs(a->probe_refuses, a->nprobe_refuses, b->probe_refuses, b->nprobe_refuses) &&
		    same_str(a->probe_note, b->probe_note) && a->designed == b->designed;
	for (size_t i = 0; same && i < a->nargs; i++) {
		const struct sarg *x = &a->args[i], *y = &b->args[i];
		same = same_str(x->name, y->name) && same_str(x->type, y->type) && same_str(x->def, y->def) &&
		       same_str(x->doc, y->doc) && x->role == y->role && same_str(REFNAME(x->st), REFNAME(y->st)) &&
		       same_str(REFNAME(x->flagset), REFNAME(y->flagset)) && same_str(x->signal_name, y->signal_name) &&
		       same_str(x->signal_means, y->signal_means) && x->signal_mask == y->signal_mask;
	}
	for (size_t i = 0; same && i < a->nerrors; i++)
		same = same_str(a->errors[i].errno_name, b->errors[i].errno_name) &&
		       same_str(a->errors[i].meaning, b->errors[i].meaning);
	same = same && a->nchecks == b->nchecks;
	for (size_t i = 0; same && i < a->nchecks; i++) {
		const struct check *x = &a->checks[i], *y = &b->checks[i];
		same = same_str(x->text, y->text) && same_str(x->errno_name, y->errno_name) &&
		       same_str(x->source, y->source) && same_str(x->why, y->why) && x->since == y->since &&
		       x->until == y->until && x->step == y->step && x->placed == y->placed && x->ncode == y->ncode &&
		       same_strs(x->errnos, x->nerrnos, y->errnos, y->nerrnos) && x->env == y->env &&
		       (!x->ncode || !memcmp(x->code, y->code, x->ncode * sizeof(*x->code)));
	}
	for (size_t i = 0; same && i < a->nlineage; i++)
		same = same_str(a->lineage[i].name, b->lineage[i].name) && same_str(a->lineage[i].why, b->lineage[i].why) &&
		       a->lineage[i].since == b->lineage[i].since;
	return same;
}

/* Every syscall, struct, field and flag of a catalogue mapped back from its cache equals the
 * fresh load's: the relocation list in catalog_relocate is kept by hand, and this holds it. */
static void cache_round_trip(const struct catalog *c)
{
	void *buf;
	size_t len;
	struct sbuf why = SBUF_INIT;
	catalog_to_cache(c, 42, &buf, &len);
	struct catalog *d = catalog_from_cache(buf, len, 42, &why);
	ok(d != NULL, "the cache maps back (%s)", why.buf);
	if (d) {
		size_t bad = 0;
		ok(d->nsyscalls == c->nsyscalls && d->nstructs == c->nstructs && d->nflagsets == c->nflagsets,
		   "as many syscalls, structs and flag sets");
		for (size_t i = 0; i < c->nflagsets && d->nflagsets == c->nflagsets; i++)
			bad += !same_flagset(&c->flagsets[i], &d->flagsets[i]);
		for (size_t i = 0; i < c->nstructs && d->nstructs == c->nstructs; i++)
			bad += !same_struct(&c->structs[i], &d->structs[i]);
		for (size_t i = 0; i < c->nsyscalls && d->nsyscalls == c->nsyscalls; i++)
			bad += !same_syscall(&c->syscalls[i], &d->syscalls[i]);
		ok(bad == 0, "every syscall, struct, field and flag is the same (%zu differ)", bad);
		catalog_free(d);
	}
	sbuf_reset(&why);
	ok(!catalog_from_cache(buf, len, 43, &why) && !why.len, "another key: stale, silently");
	free(buf);
	sbuf_release(&why);
}

/* The cache bytes of c after edit(c, i) (undone afterwards): refused, and said why. */
static bool refused(struct catalog *c, void (*edit)(struct catalog *, size_t, int), size_t i)
{
	void *buf;
	size_t len;
	struct sbuf why = SBUF_INIT;
	edit(c, i, 1);
	catalog_to_cache(c, 42, &buf, &len);
	edit(c, i, -1);
	struct catalog *d = catalog_from_cache(buf, len, 42, &why);
	bool r = !d && why.len;
	if (!r)
		printf("# edit %zu was not refused\n", i);
	catalog_free(d);
	free(buf);
	sbuf_release(&why);
	return r;
}

/* Edits a forger might make, each given i (which entry) and d (+1 to make, -1 to undo). */
static void e_nsyscalls(struct catalog *c, size_t i, int d) { (void)i; c->nsyscalls += (size_t)d; }
static void e_nstructs(struct catalog *c, size_t i, int d) { (void)i; c->nstructs += (size_t)d; }
static void e_nflagsets(struct catalog *c, size_t i, int d) { (void)i; c->nflagsets += (size_t)d; }
static void e_nfields(struct catalog *c, size_t i, int d) { c->structs[i].nfields += (size_t)d; }
static void e_nversions(struct catalog *c, size_t i, int d) { c->structs[i].nversions += (size_t)d; }
static void e_nflags(struct catalog *c, size_t i, int d) { c->flagsets[i].nflags += (size_t)d; }
static void e_nargs(struct catalog *c, size_t i, int d) { c->syscalls[i].nargs += (size_t)d; }
static void e_nerrors(struct catalog *c, size_t i, int d) { c->syscalls[i].nerrors += (size_t)d; }
static void e_nfeatures(struct catalog *c, size_t i, int d) { c->syscalls[i].nfeatures += (size_t)d; }
static void e_huge(struct catalog *c, size_t i, int d) { c->syscalls[i].nnotes += (size_t)d << 40; }
static void e_offset(struct catalog *c, size_t i, int d) { c->structs[i].fields[c->structs[i].nfields - 1].offset += (unsigned)d; }
static void e_size(struct catalog *c, size_t i, int d) { c->structs[i].size += (unsigned)d * 8; }
static void e_type(struct catalog *c, size_t i, int d) { c->structs[i].fields[0].type += (unsigned)d * 40; }
static void e_nr(struct catalog *c, size_t i, int d) { c->syscalls[i].nr_x86_64 += d * 5000; }
static void e_name(struct catalog *c, size_t i, int d) { c->syscalls[i].name += d * (1 << 30); }
static void e_kind(struct catalog *c, size_t i, int d) { c->syscalls[i].kind += (unsigned)d * 40; }
/* enums typed at load and named through tables (safety_name, ioctl_dir_name, arg_role_name) */
static void e_safety(struct catalog *c, size_t i, int d) { c->syscalls[i].safety += (unsigned)d * 40; }
static void e_ioctl_dir(struct catalog *c, size_t i, int d) { c->syscalls[i].ioctl_dir += (unsigned)d * 40; }
static void e_role(struct catalog *c, size_t i, int d) { c->syscalls[i].args[0].role += (unsigned)d * 40; }
static void e_returns(struct catalog *c, size_t i, int d) { c->syscalls[i].returns += (unsigned)d * 40; }
static void e_dup(struct catalog *c, size_t i, int d)
{
	static const char *saved;
	if (d > 0)
		saved = c->syscalls[i].name, c->syscalls[i].name = c->syscalls[i ? i - 1 : 1].name;
	else
		c->syscalls[i].name = saved;
}
static struct check *first_cond(struct catalog *c, size_t i)
{
	for (size_t k = 0; k < c->syscalls[i].nchecks; k++)
		if (c->syscalls[i].checks[k].step == CS_COND)
			return &c->syscalls[i].checks[k];
	return NULL;
}
static void e_ncode(struct catalog *c, size_t i, int d) { first_cond(c, i)->ncode += (size_t)d; }
static void e_code(struct catalog *c, size_t i, int d) { first_cond(c, i)->code[0].op += (uint32_t)d * 200; }
static void e_env(struct catalog *c, size_t i, int d) { first_cond(c, i)->env += (unsigned)d << ENV_NKINDS; }
static void e_nerrnos(struct catalog *c, size_t i, int d)
{
	static size_t saved;
	struct check *ck = first_cond(c, i);
	if (d > 0)
		saved = ck->nerrnos, ck->nerrnos = 0;
	else
		ck->nerrnos = saved;
}
/* copy-in swapped with the last check, a condition that reads the struct */
static void e_copy_last(struct catalog *c, size_t i, int d)
{
	static size_t at;
	struct syscall *sc = &c->syscalls[i];
	for (size_t k = 0; d > 0 && k < sc->nchecks; k++)
		if (sc->checks[k].step == CS_COPY_IN)
			at = k;
	struct check t = sc->checks[at];
	sc->checks[at] = sc->checks[sc->nchecks - 1];
	sc->checks[sc->nchecks - 1] = t;
}
/* copy-in swapped with the first step before it (the size bounded after the copy) */
static void e_copy_first(struct catalog *c, size_t i, int d)
{
	static size_t at;
	struct syscall *sc = &c->syscalls[i];
	for (size_t k = 0; d > 0 && k < sc->nchecks; k++)
		if (sc->checks[k].step == CS_COPY_IN)
			at = k;
	size_t first = 0;
	while (sc->checks[first].step == CS_COND)
		first++;
	struct check t = sc->checks[at];
	sc->checks[at] = sc->checks[first];
	sc->checks[first] = t;
}
/* a field of a one-way struct given a way of its own */
static void e_fdir(struct catalog *c, size_t i, int d)
{
	static enum fdir saved;
	struct field *f = &c->structs[i].fields[0];
	if (d > 0)
		saved = f->direction, f->direction = c->structs[i].direction == FD_OUT ? FD_IN : FD_OUT;
	else
		f->direction = saved;
}
/* a call narrowing a struct that is not inout */
static void e_call_dir(struct catalog *c, size_t i, int d)
{
	static enum fdir saved;
	if (d > 0)
		saved = c->syscalls[i].direction, c->syscalls[i].direction = FD_INOUT;
	else
		c->syscalls[i].direction = saved;
}
/* below the first version "read as VER0", which only size 0 can be */
static void e_below_ver0(struct catalog *c, size_t i, int d)
{
	static struct size_answer saved;
	if (d > 0)
		saved = c->syscalls[i].rules.below_ver0, c->syscalls[i].rules.below_ver0 = (struct size_answer){ SA_VER0, 0 };
	else
		c->syscalls[i].rules.below_ver0 = saved;
}
/* a size rule's errno that is no errno */
static void e_zero_errno(struct catalog *c, size_t i, int d)
{
	static struct size_answer saved;
	if (d > 0)
		saved = c->syscalls[i].rules.zero, c->syscalls[i].rules.zero = (struct size_answer){ SA_ERRNO, 100000 };
	else
		c->syscalls[i].rules.zero = saved;
}
/* a step turned into another that is already in the list */
static void e_step_twice(struct catalog *c, size_t i, int d)
{
	static enum check_step saved;
	struct check *ck = &c->syscalls[i].checks[0];
	if (d > 0)
		saved = ck->step, ck->step = ck->step == CS_COPY_IN ? CS_ZERO : CS_COPY_IN;
	else
		ck->step = saved;
}
/* whether sc's last check is a condition that reads a struct field */
static bool last_reads_field(const struct syscall *sc)
{
	const struct check *ck = sc->nchecks ? &sc->checks[sc->nchecks - 1] : NULL;
	for (size_t k = 0; ck && ck->step == CS_COND && k < ck->ncode; k++)
		if (ck->code[k].op == XO_FIELD || ck->code[k].op == XO_UNKNOWN_FIELD)
			return true;
	return false;
}
/* whether sc's copy-in step comes after another size step */
static bool copy_after_step(const struct syscall *sc)
{
	bool step = false;
	for (size_t k = 0; k < sc->nchecks; k++) {
		if (sc->checks[k].step == CS_COPY_IN)
			return step;
		step |= sc->checks[k].step != CS_COND;
	}
	return false;
}
static void e_st(struct catalog *c, size_t i, int d)
{
	c->syscalls[i].st = (const struct cstruct *)((const char *)c->syscalls[i].st + d * 8);
}

static void cache_forgeries(struct catalog *c)
{
	static const struct { void (*edit)(struct catalog *, size_t, int); const char *what; int each; } edits[] = {
		{ e_nsyscalls, "the syscall count + 1", 0 }, { e_nstructs, "the struct count + 1", 0 },
		{ e_nflagsets, "the flag set count + 1", 0 }, { e_nfields, "a struct's field count + 1", 1 },
		{ e_nversions, "a struct's version count + 1", 1 }, { e_nflags, "a flag set's flag count + 1", 2 },
		{ e_nargs, "a syscall's argument count + 1", 3 }, { e_nerrors, "a syscall's error count + 1", 3 },
		{ e_nfeatures, "a syscall's feature count + 1", 3 }, { e_huge, "a count of 2^40", 3 },
		{ e_offset, "a field moved by a byte", 1 }, { e_size, "a struct 8 bytes larger", 1 },
		{ e_type, "a field type out of range", 1 }, { e_nr, "a syscall number past 4095", 3 },
		{ e_name, "a name pointing a GiB away", 3 }, { e_kind, "a kind that is not one", 3 },
		{ e_dup, "two syscalls of one name", 3 }, { e_st, "a struct reference between elements", 4 },
		{ e_ncode, "a check's code one instruction longer", 5 }, { e_code, "an opcode out of range in a check", 5 },
		{ e_copy_last, "copy-in after a check that reads the struct", 6 },
		{ e_step_twice, "a size step twice", 7 }, { e_copy_first, "copy-in before a size step", 10 },
		{ e_below_ver0, "a size below VER0 read as VER0", 3 }, { e_zero_errno, "a size rule's errno out of range", 3 },
		{ e_fdir, "a field's own way in a one-way struct", 8 }, { e_call_dir, "a call direction of inout", 4 },
		{ e_env, "an env kind that is not one", 5 }, { e_nerrnos, "a check without errnos", 5 },
		{ e_safety, "a safety that is not one", 3 }, { e_ioctl_dir, "an ioctl direction that is not one", 3 },
		{ e_role, "an argument role that is not one", 9 }, { e_returns, "a 'returns' that is not one", 3 },
	};
	for (size_t k = 0; k < ARRAY_SIZE(edits); k++) {
		size_t n = edits[k].each == 1 || edits[k].each == 8 ? c->nstructs : edits[k].each == 2 ? c->nflagsets : edits[k].each >= 3 ? c->nsyscalls : 1;
		size_t tried = 0, ok_n = 0;
		for (size_t i = 0; i < n; i++) {
			if ((edits[k].each == 4 && !c->syscalls[i].st) || (edits[k].each == 5 && !c->syscalls[i].nconds) ||
			    (edits[k].each == 6 && (!syscall_has_size_steps(&c->syscalls[i]) || !last_reads_field(&c->syscalls[i]))) ||
			    (edits[k].each == 7 && (!c->syscalls[i].nchecks || c->syscalls[i].checks[0].step == CS_COND)) ||
			    (edits[k].each == 8 && c->structs[i].direction == FD_INOUT) ||
			    (edits[k].each == 9 && !c->syscalls[i].nargs) || (edits[k].each == 10 && !copy_after_step(&c->syscalls[i])))
				continue;
			tried++;
			ok_n += refused(c, edits[k].edit, i);
		}
		ok(tried && ok_n == tried, "a cache with %s (checksum recomputed) is refused: %zu of %zu", edits[k].what, ok_n, tried);
	}
}

/* Truncations and random bytes, checksum recomputed: refused or a valid catalogue, never a crash. */
static void cache_damage(const struct catalog *c)
{
	void *buf;
	size_t len, refusals = 0, cuts[] = { 0, 8, 64, 119, 120, 121, 4096 };
	struct sbuf why = SBUF_INIT;
	catalog_to_cache(c, 42, &buf, &len);
	for (size_t i = 0; i < ARRAY_SIZE(cuts) + 2; i++) {
		size_t n = i < ARRAY_SIZE(cuts) ? cuts[i] : i == ARRAY_SIZE(cuts) ? len / 2 : len - 1;
		struct catalog *d = catalog_from_cache(buf, n, 42, &why);
		refusals += !d;
		catalog_free(d);
	}
	ok(refusals == ARRAY_SIZE(cuts) + 2, "truncated caches are refused (%zu of %zu)", refusals, ARRAY_SIZE(cuts) + 2);
	unsigned seed = 12345, survived = 0;
	for (int round = 0; round < 300; round++) {
		unsigned char *copy = xmalloc(len);
		memcpy(copy, buf, len);
		for (int k = 0; k < 1 + round % 4; k++) {
			seed = seed * 1103515245u + 12345u;
			copy[(seed >> 8) % len] ^= (unsigned char)(1u << ((seed >> 4) % 8));
		}
		catalog_cache_reseal(copy, len);
		struct catalog *d = catalog_from_cache(copy, len, 42, &why);
		survived += d != NULL;
		catalog_free(d);
		free(copy);
	}
	ok(1, "300 caches with random bits flipped: no crash (%u mapped back as valid catalogues)", survived);
	free(buf);
	sbuf_release(&why);
}

/* The same through files: a load writes the cache (0600, in a 0700 directory), the next load
 * maps it back equal, and a cache another could write is not used. */
static void cache_files(const char *dir, const struct catalog *fresh)
{
	char tmp[] = "/tmp/xsc-test-cache-XXXXXX", path[512] = "", xdir[64];
	if (!mkdtemp(tmp))
		return;
	const char *saved = getenv("XDG_CACHE_HOME");
	char *keep = saved ? strdup(saved) : NULL;
	setenv("XDG_CACHE_HOME", tmp, 1);
	unsetenv("XSC_NO_CACHE");
	catalog_free(catalog_load(dir));
	snprintf(xdir, sizeof(xdir), "%s/xsc", tmp);
	DIR *d = opendir(xdir);
	struct dirent *de;
	struct stat st, dst;
	while (d && (de = readdir(d)))
		if (!strncmp(de->d_name, "catalog-", 8))
			snprintf(path, sizeof(path), "%s/%s", xdir, de->d_name);
	if (d)
		closedir(d);
	ok(path[0] && stat(path, &st) == 0 && (st.st_mode & 0777) == 0600 && stat(xdir, &dst) == 0 &&
		   (dst.st_mode & 0777) == 0700,
	   "a load writes its cache, mode 0600 in a directory of mode 0700");
	struct catalog *again = catalog_load(dir);
	size_t bad = !again || again->nsyscalls != fresh->nsyscalls || again->nstructs != fresh->nstructs;
	for (size_t i = 0; !bad && i < fresh->nsyscalls; i++)
		bad += !same_syscall(&fresh->syscalls[i], &again->syscalls[i]);
	for (size_t i = 0; !bad && i < fresh->nstructs; i++)
		bad += !same_struct(&fresh->structs[i], &again->structs[i]);
	ok(!bad, "the next load, from the cache file, is the same catalogue");
	catalog_free(again);
	if (path[0]) {
		chmod(path, 0666); /* anyone's now: ignored with a warning, and the load still works */
		again = catalog_load(dir);
		ok(again && again->nsyscalls == fresh->nsyscalls, "a world-writable cache is ignored, the catalogue loads");
		catalog_free(again);
		unlink(path);
	}
	rmdir(xdir);
	rmdir(tmp);
	if (keep)
		setenv("XDG_CACHE_HOME", keep, 1);
	else
		unsetenv("XDG_CACHE_HOME");
	free(keep);
}

/* The catalogue writer (model/catwrite.h) and the loader agree: every flag set and struct of
 * c, written file by file and loaded back, is the same (a struct's size_field comes from a
 * call, which is not written here). */
static void writer_round_trip(const struct catalog *c)
{
	const char **names = xcalloc(c->nflagsets + c->nstructs + 1, sizeof(*names));
	char **texts = xcalloc(c->nflagsets + c->nstructs + 1, sizeof(*texts));
	size_t *lens = xcalloc(c->nflagsets + c->nstructs + 1, sizeof(*lens)), n = 0;
	for (size_t i = 0; i < c->nflagsets + c->nstructs; i++) {
		const char *file = i < c->nflagsets ? c->flagsets[i].file : c->structs[i - c->nflagsets].file;
		bool seen = false;
		for (size_t k = 0; k < n; k++)
			seen |= !strcmp(names[k], file);
		if (seen)
			continue;
		struct sbuf o = SBUF_INIT;
		struct catwrite w;
		catwrite_begin(&w, &o);
		catwrite_section(&w, "structs");
		for (size_t k = 0; k < c->nstructs; k++)
			if (!strcmp(c->structs[k].file, file))
				catwrite_struct(&w, &c->structs[k]);
		catwrite_section(&w, "flagsets");
		for (size_t k = 0; k < c->nflagsets; k++)
			if (!strcmp(c->flagsets[k].file, file))
				catwrite_flagset(&w, &c->flagsets[k]);
		catwrite_end(&w);
		names[n] = file;
		lens[n] = o.len;
		texts[n++] = sbuf_detach(&o);
	}
	struct catalog *d = catalog_load_buffers(names, (const char *const *)texts, lens, n);
	ok(d != NULL, "the catalogue's %zu flag sets and %zu structs, written by catwrite, load", c->nflagsets, c->nstructs);
	size_t bad = 0;
	for (size_t i = 0; d && i < c->nflagsets; i++) {
		const struct flagset *g = catalog_find_flagset(d, c->flagsets[i].name);
		bad += !g || !same_flagset(&c->flagsets[i], g);
	}
	for (size_t i = 0; d && i < c->nstructs; i++) {
		struct cstruct a = c->structs[i];
		const struct cstruct *g = catalog_find_struct(d, a.name);
		a.size_field = NULL;
		bad += !g || !same_struct(&a, g);
	}
	ok(d && !bad, "and come back the same (%zu differ)", bad);
	catalog_free(d);
	for (size_t i = 0; i < n; i++)
		free(texts[i]);
	free(texts), free(names), free(lens);
}

int main(void)
{
	struct catalog *cat = catalog_load(getenv("XSC_TEST_DATA") ? getenv("XSC_TEST_DATA") : "data");
	ok(cat != NULL, "the bundled catalogue loads");
	if (cat) {
		const struct syscall *o2 = catalog_find_syscall(cat, "openat2");
		ok(o2 && o2->nr_x86_64 == 437 && o2->nr_aarch64 == 437, "openat2 is 437 on both");
		ok(o2 && o2->st && o2->st->size == 24 && o2->st->nversions == 1, "open_how is 24 bytes, one version");
		const struct cstruct *ca = catalog_find_struct(cat, "clone_args");
		ok(ca && ca->nversions == 3 && ca->versions[2].size == 88 && ca->versions[1].since == KVER(5, 5, 0),
		   "clone_args: 64/80/88, VER1 in 5.5");
		ok(catalog_find_struct(cat, "struct open_how") != NULL, "'struct NAME' finds the struct");
		const struct flagset *in;
		const struct flag *f = catalog_find_flag(cat, NULL, "RESOLVE_CACHED", &in);
		ok(f && f->value == 0x20 && f->since == KVER(5, 12, 0), "RESOLVE_CACHED = 0x20 since 5.12");
		struct sbuf why = SBUF_INIT;
		ok(catalog_check(cat, &why) == 0, "a fresh load passes the checks a cache must pass (%s)", why.buf);
		sbuf_release(&why);
		cache_round_trip(cat);
		writer_round_trip(cat);
		cache_forgeries(cat);
		cache_damage(cat);
		cache_files(getenv("XSC_TEST_DATA") ? getenv("XSC_TEST_DATA") : "data", cat);
		catalog_free(cat);
	}
	struct catalog *good = load1(STRUCT(F("a", "u64", 0, "5.6") "," F("b", "u32", 8, "5.6") "," F("c", "u32", 12, "5.6"), "{\"size\": 16, \"since\": \"5.6\"}"));
	ok(good != NULL, "a good struct loads");
	struct sbuf why = SBUF_INIT;
	ok(good && catalog_check(good, &why) == 0, "and passes the cache's checks (%s)", why.buf);
	catalog_free(good);
	/* every catalogue the suite loads passes them too, or its cache would never be used */
	struct catalog *hostile_docs = catalog_load("tests/fixtures/docs-hostile");
	sbuf_reset(&why);
	ok(hostile_docs && catalog_check(hostile_docs, &why) == 0, "the docs-hostile fixture passes the cache's checks (%s)",
	   why.buf);
	catalog_free(hostile_docs);
	sbuf_release(&why);
	ok(!load1(STRUCT(F("a", "u64", 0, "5.6") "," F("b", "u32", 4, "5.6"), "")), "overlap refused");
	ok(!load1(STRUCT(F("a", "u32", 0, "5.6") "," F("b", "u64", 8, "5.6"), "")), "hole refused");
	ok(!load1(STRUCT(F("a", "u32", 0, "5.6") "," F("b", "u64", 4, "5.6"), "")), "misaligned field refused");
	ok(!load1(STRUCT(F("a", "u64", 0, "5.6") "," F("b", "u32", 8, "5.6"), "")), "implicit tail padding refused");
	ok(!load1(STRUCT(F("a", "u64", 0, "5.6") "," F("b", "u64", 8, "5.6"), "{\"size\": 12, \"since\": \"5.6\"}")), "version inside a field refused");
	ok(!load1(STRUCT(F("a", "u64", 0, "5.6") "," F("b", "u64", 8, "5.6"), "{\"size\": 16, \"since\": \"5.6\"}, {\"size\": 8, \"since\": \"5.7\"}")),
	   "shrinking versions refused");
	ok(!load1(STRUCT(F("a", "u64", 0, "5.7") "," F("b", "u64", 8, "5.6"), "{\"size\": 8, \"since\": \"5.7\"}, {\"size\": 16, \"since\": \"5.8\"}")),
	   "a field older than its version refused");
	ok(!load1(STRUCT(F("a", "u65", 0, "5.6"), "")), "unknown type refused");
	ok(!load1("{\"structs\": [], \"extra\": 1}"), "unknown top-level key refused");
	ok(!load1("{\"structs\": [{\"name\": 5}]}"), "wrong type refused");
	ok(!load1("{\"flagsets\": [{\"name\": \"x\", \"kind\": \"bits\", \"header\": \"h\", \"doc\": \"d\", \"flags\": [{\"name\": \"A\", \"value\": \"0x1\", \"since\": \"5.6\"}, {\"name\": \"A\", \"value\": \"0x2\", \"since\": \"5.6\"}]}]}"),
	   "duplicate flag refused");
	ok(!load1("{\"flagsets\": [{\"name\": \"x\", \"kind\": \"bits\", \"header\": \"h\", \"doc\": \"d\", \"flags\": [{\"name\": \"A\", \"value\": \"0x1g\", \"since\": \"5.6\"}]}]}"),
	   "bad flag literal refused");
	ok(!load1("{\"syscalls\": [{\"name\": \"x\"}]}"), "incomplete syscall refused");
	{ /* an argument's "signal" must name a mask flag of its own flag set (clone's CSIGNAL) */
		const char *set = "{\"flagsets\": [{\"name\": \"fs\", \"kind\": \"bits\", \"header\": \"h\", \"doc\": \"d\", \"flags\": ["
				  "{\"name\": \"M\", \"value\": \"0xff\", \"since\": \"2.0\", \"mask\": true},"
				  "{\"name\": \"B\", \"value\": \"0x100\", \"since\": \"2.0\"}]}],"
				  " \"syscalls\": [{\"name\": \"c\", \"kind\": \"legacy\", \"since\": \"2.0\", \"header\": \"h\","
				  " \"nr\": {\"x86_64\": 56, \"aarch64\": 220}, \"safety\": \"sandbox\", \"errors\": [],"
				  " \"prototype\": \"long c(unsigned long f)\", \"summary\": \"s\", \"size\": {\"where\": \"none\"},"
				  " \"args\": [{\"name\": \"f\", \"type\": \"unsigned long\", \"role\": \"flags\", \"flagset\": \"fs\","
				  " \"signal\": {\"bits\": \"%s\", \"means\": \"m\"}}]}]}";
		char text[1024];
		snprintf(text, sizeof(text), set, "M");
		struct catalog *c = load1(text);
		ok(c && c->syscalls[0].args[0].signal_mask == 0xff, "an argument's signal mask is loaded");
		if (c)
			catalog_free(c);
		snprintf(text, sizeof(text), set, "B");
		ok(!load1(text), "an argument's signal that is not a mask flag refused");
		snprintf(text, sizeof(text), set, "NOPE");
		ok(!load1(text), "an argument's signal that is no flag refused");
	}
	ok(!load1("{\"structs\": [ "), "truncated JSON refused");
	ok(!load1("[1, 2]"), "a top-level array refused");
	return tap_done();
}
