#include "teach/design.h"
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "base/diag.h"
#include "base/out.h"
#include "model/catwrite.h"
#include "model/dataload.h"
#include "model/loadrules.h"
#include "model/kver.h"
#include "base/outfile.h"
#include "base/banned.h"

struct dfield {
	char *name, *type, *zero, *flagset;
	enum ftype t;
	unsigned offset, size, elem, count;
	uint32_t since; /* 0: pending, dated by the next 'version add' */
};

struct dversion { unsigned size; uint32_t since; };

struct dstruct {
	char *name;
	uint32_t since;
	struct dfield *fields;
	size_t nfields, falloc;
	struct dversion *vers;
	size_t nvers, valloc;
};

struct dflag { char *name; uint64_t value; uint32_t since; };

struct dflagset {
	char *name;
	struct dflag *flags;
	size_t nflags, alloc;
};

struct dsyscall { char *name, *st, *flags; uint32_t since; };

struct design {
	struct dstruct *structs;
	size_t nstructs, salloc;
	struct dflagset *sets;
	size_t nsets, setalloc;
	struct dsyscall *calls;
	size_t ncalls, calloc_;
	struct dstruct *cur_st;
	size_t cur_st_i, cur_fs_i;
	bool have_st, have_fs;
	/* every build; the newest is current, older ones stay valid for buffers made from them */
	struct catalog **builds;
	size_t nbuilds, balloc;
};

struct design *design_new(void)
{
	return xcalloc(1, sizeof(struct design));
}

void design_free(struct design *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nstructs; i++) {
		struct dstruct *s = &d->structs[i];
		for (size_t k = 0; k < s->nfields; k++) {
			free(s->fields[k].name);
			free(s->fields[k].type);
			free(s->fields[k].zero);
			free(s->fields[k].flagset);
		}
		free(s->fields);
		free(s->vers);
		free(s->name);
	}
	for (size_t i = 0; i < d->nsets; i++) {
		for (size_t k = 0; k < d->sets[i].nflags; k++)
			free(d->sets[i].flags[k].name);
		free(d->sets[i].flags);
		free(d->sets[i].name);
	}
	for (size_t i = 0; i < d->ncalls; i++) {
		free(d->calls[i].name);
		free(d->calls[i].st);
		free(d->calls[i].flags);
	}
	for (size_t i = 0; i < d->nbuilds; i++)
		catalog_free(d->builds[i]);
	free(d->builds);
	free(d->structs);
	free(d->sets);
	free(d->calls);
	free(d);
}

const struct catalog *design_catalog(const struct design *d)
{
	return d && d->nbuilds ? d->builds[d->nbuilds - 1] : NULL;
}

const char *design_current_struct(const struct design *d)
{
	return d && d->have_st ? d->structs[d->cur_st_i].name : NULL;
}

const char *design_current_flagset(const struct design *d)
{
	return d && d->have_fs ? d->sets[d->cur_fs_i].name : NULL;
}

static struct dstruct *find_dstruct(const struct design *d, const char *name)
{
	for (size_t i = 0; i < d->nstructs; i++)
		if (!strcmp(d->structs[i].name, name))
			return &d->structs[i];
	return NULL;
}

static struct dflagset *find_dset(const struct design *d, const char *name)
{
	for (size_t i = 0; i < d->nsets; i++)
		if (!strcmp(d->sets[i].name, name))
			return &d->sets[i];
	return NULL;
}

static struct dsyscall *find_dcall(const struct design *d, const char *name)
{
	for (size_t i = 0; i < d->ncalls; i++)
		if (!strcmp(d->calls[i].name, name))
			return &d->calls[i];
	return NULL;
}

/* C11's keywords (6.4.1): export writes every designed name into C, where a keyword is not a name */
static const char *const c_keywords[] = {
	"auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
	"extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return",
	"short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void",
	"volatile", "while", "_Alignas", "_Alignof", "_Atomic", "_Bool", "_Complex", "_Generic",
	"_Imaginary", "_Noreturn", "_Static_assert", "_Thread_local",
};

static bool c_ident(const char *n)
{
	if (!*n || strlen(n) > 48 || !(isalpha((unsigned char)*n) || *n == '_'))
		return false;
	for (const char *p = n; *p; p++)
		if (!(isalnum((unsigned char)*p) || *p == '_'))
			return false;
	for (size_t i = 0; i < ARRAY_SIZE(c_keywords); i++)
		if (!strcmp(n, c_keywords[i]))
			return false;
	return true;
}

/* A field's zero meaning is written inside a C comment of the exported header: a '*' '/'
 * would end the comment and make the rest of the text code. */
static int check_zero_text(const char *name, const char *zero)
{
	if (strstr(zero, "*/"))
		return err("field %s: the zero meaning may not hold '*/' (export writes it inside a C comment)", name);
	for (const unsigned char *p = (const unsigned char *)zero; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return err("field %s: the zero meaning may not hold control character %#x", name, *p);
	return 0;
}

static int check_new_name(const struct design *d, const struct catalog *cat, const char *what, const char *name)
{
	if (!c_ident(name))
		return err("bad %s name '%s': a C identifier of at most 48 characters, not a keyword", what, name);
	if (cat && (catalog_find_syscall(cat, name) || catalog_find_struct(cat, name) || catalog_find_flagset(cat, name)))
		return err("'%s' is already in the catalogue; pick another name", name);
	if (find_dstruct(d, name) || find_dset(d, name) || find_dcall(d, name))
		return err("'%s' is already designed in this session", name);
	return 0;
}

static void upper(struct sbuf *sb, const char *s)
{
	for (; *s; s++)
		sbuf_addch(sb, toupper((unsigned char)*s));
}

static unsigned dstruct_end(const struct dstruct *s)
{
	return s->nfields ? s->fields[s->nfields - 1].offset + s->fields[s->nfields - 1].size : 0;
}

/* ---- the design in the model's terms, for the catalogue writer ---- */

static const struct flagset *model_set(const struct catalog *m, const char *name)
{
	return name ? catalog_find_flagset(m, name) : NULL;
}

/* The design's flag sets: bits named PREFIX_FLAG. */
static void model_flagsets(struct catalog *m, const struct design *d)
{
	struct arena *a = &m->arena;
	m->flagsets = arena_alloc(a, sizeof(*m->flagsets) * (d->nsets + 1));
	m->nflagsets = d->nsets;
	for (size_t i = 0; i < d->nsets; i++) {
		const struct dflagset *ds = &d->sets[i];
		struct flagset *fs = &m->flagsets[i];
		struct sbuf pre = SBUF_INIT;
		upper(&pre, ds->name);
		sbuf_addch(&pre, '_');
		*fs = (struct flagset){ .name = ds->name, .prefix = arena_strdup(a, pre.buf), .header = "designed",
					.doc = "a designed flag set", .kind = FS_BITS, .nflags = ds->nflags };
		fs->flags = arena_alloc(a, sizeof(*fs->flags) * (ds->nflags + 1));
		for (size_t k = 0; k < ds->nflags; k++)
			fs->flags[k] = (struct flag){ .name = ds->flags[k].name, .value = ds->flags[k].value,
						      .since = ds->flags[k].since };
		sbuf_release(&pre);
	}
}

/* One designed struct: its fields (a field without a date is as new as the last version)
 * and its size versions NAME_SIZE_VERn. */
static void model_struct(struct catalog *m, const struct dstruct *ds, struct cstruct *st)
{
	struct arena *a = &m->arena;
	*st = (struct cstruct){ .name = ds->name, .header = "designed", .doc = "a designed struct", .direction = FD_IN,
				.size = dstruct_end(ds), .nfields = ds->nfields, .nversions = ds->nvers };
	st->fields = arena_alloc(a, sizeof(*st->fields) * (ds->nfields + 1));
	uint32_t last = ds->nvers ? ds->vers[ds->nvers - 1].since : ds->since;
	for (size_t k = 0; k < ds->nfields; k++) {
		const struct dfield *df = &ds->fields[k];
		st->fields[k] = (struct field){ .name = df->name, .type_text = df->type, .zero = df->zero,
						.offset = df->offset, .size = df->size, .since = df->since ? df->since : last,
						.flagset = model_set(m, df->flagset) };
	}
	st->versions = arena_alloc(a, sizeof(*st->versions) * (ds->nvers + 1));
	for (size_t k = 0; k < ds->nvers; k++) {
		struct sbuf vn = SBUF_INIT;
		upper(&vn, ds->name);
		sbuf_addf(&vn, "_SIZE_VER%zu", k);
		st->versions[k] = (struct sversion){ .name = arena_strdup(a, vn.buf), .size = ds->vers[k].size,
						     .since = ds->vers[k].since };
		sbuf_release(&vn);
	}
}

/* One designed call: long NAME(struct S *uargs, size_t usize[, unsigned int flags]) with
 * the extensible-struct convention's size rules (the loader adds their steps). */
static void model_syscall(struct catalog *m, const struct dsyscall *dc, struct syscall *sc)
{
	struct arena *a = &m->arena;
	struct sbuf t = SBUF_INIT;
	*sc = (struct syscall){ .name = dc->name, .kind = SK_EXTENSIBLE, .header = "designed", .safety = SAFE_PURE,
				.nr_x86_64 = -1, .nr_aarch64 = -1, .since = dc->since, .st = catalog_find_struct(m, dc->st),
				.size_where = SW_ARG, .size_name = "usize", .size_bits = 64, .has_rules = true };
	sbuf_addf(&t, "long %s(struct %s *uargs, size_t usize%s)", dc->name, dc->st, dc->flags ? ", unsigned int flags" : "");
	sc->prototype = arena_strdup(a, t.buf);
	sbuf_reset(&t);
	sbuf_addf(&t, "a designed extensible syscall taking struct %s", dc->st);
	sc->summary = arena_strdup(a, t.buf);
	sbuf_reset(&t);
	sbuf_addf(&t, "struct %s *", dc->st);
	sc->nargs = dc->flags ? 3 : 2;
	sc->args = arena_alloc(a, sizeof(*sc->args) * 3);
	sc->args[0] = (struct sarg){ .name = "uargs", .type = arena_strdup(a, t.buf), .role = AR_STRUCT, .st = sc->st };
	sc->args[1] = (struct sarg){ .name = "usize", .type = "size_t", .role = AR_SIZE };
	if (dc->flags)
		sc->args[2] = (struct sarg){ .name = "flags", .type = "unsigned int", .role = AR_FLAGS, .def = "0",
					     .flagset = model_set(m, dc->flags) };
	sbuf_release(&t);
	sc->rules = (struct size_rules){ .zero = { SA_ERRNO, EINVAL }, .below_ver0 = { SA_ERRNO, EINVAL },
					 .tail = TAIL_E2BIG, .writeback = WB_NONE, .cap = 4096, .cap_errno = E2BIG };
	sc->errors = arena_alloc(a, sizeof(*sc->errors) * 2);
	sc->nerrors = 2;
	sc->errors[0] = (struct serror){ "EINVAL", "usize below the first version, or an unknown flag bit" };
	sc->errors[1] = (struct serror){ "E2BIG", "usize above a page, or a nonzero byte past the kernel's struct" };
}

/* The whole design in the model's terms (its strings are the design's): what the catalogue
 * writer writes. */
static struct catalog *model_of(const struct design *d)
{
	struct catalog *m = xcalloc(1, sizeof(*m));
	model_flagsets(m, d);
	m->structs = arena_alloc(&m->arena, sizeof(*m->structs) * (d->nstructs + 1));
	m->nstructs = d->nstructs;
	for (size_t i = 0; i < d->nstructs; i++)
		model_struct(m, &d->structs[i], &m->structs[i]);
	m->syscalls = arena_alloc(&m->arena, sizeof(*m->syscalls) * (d->ncalls + 1));
	m->nsyscalls = d->ncalls;
	for (size_t i = 0; i < d->ncalls; i++)
		model_syscall(m, &d->calls[i], &m->syscalls[i]);
	return m;
}

/* The loader's refusal in the design's words: its message, after the name of the field or
 * flag it is about when it does not say (the design has no file to point into). */
static int report_fault(const struct design *d, const struct catalog_fault *f)
{
	const char *what = NULL, *name = NULL;
	size_t e = (size_t)f->entry, k = (size_t)f->item;
	if (f->entry < 0 || f->item < 0)
		;
	else if (!strcmp(f->section, "structs") && !strcmp(f->member, "fields") && e < d->nstructs &&
		 k < d->structs[e].nfields)
		what = "field", name = d->structs[e].fields[k].name;
	else if (!strcmp(f->section, "flagsets") && !strcmp(f->member, "flags") && e < d->nsets && k < d->sets[e].nflags)
		what = "flag", name = d->sets[e].flags[k].name;
	struct sbuf quoted = SBUF_INIT;
	if (name)
		sbuf_addf(&quoted, "'%s'", name);
	int r = name && !strstr(f->msg.buf, quoted.buf) ? err("%s %s: %s", what, quoted.buf, f->msg.buf)
							 : err("%s", f->msg.buf);
	sbuf_release(&quoted);
	return r;
}

/* The design written as catalogue JSON and read back by the catalogue loader, as a draft
 * (fields not yet in a size version are allowed): the catalogue the session uses from now
 * on, or -1 with the loader's refusal (the caller undoes its change). */
/* Every change keeps a build for the buffers made from it, and each build holds the whole
 * design: a script of 2,000 'field add' lines took 18 s of CPU and 550 MB. A design is a
 * handful of structs (perf_event_attr, among the largest, has 70 fields). */
enum { DESIGN_MAX_ITEMS = 512 };

static size_t design_items(const struct design *d)
{
	size_t n = d->nstructs + d->nsets + d->ncalls;
	for (size_t i = 0; i < d->nstructs; i++)
		n += d->structs[i].nfields + d->structs[i].nvers;
	for (size_t i = 0; i < d->nsets; i++)
		n += d->sets[i].nflags;
	return n;
}

static int rebuild(struct design *d)
{
	if (design_items(d) > DESIGN_MAX_ITEMS)
		return err("a design holds at most %d structs, fields, size versions, flag sets, flags and syscalls",
			   DESIGN_MAX_ITEMS);
	struct catalog *m = model_of(d);
	struct sbuf json = SBUF_INIT;
	struct catwrite w;
	catwrite_begin(&w, &json);
	catwrite_section(&w, "syscalls");
	for (size_t i = 0; i < m->nsyscalls; i++)
		catwrite_syscall(&w, &m->syscalls[i]);
	catwrite_section(&w, "structs");
	for (size_t i = 0; i < m->nstructs; i++)
		catwrite_struct(&w, &m->structs[i]);
	catwrite_section(&w, "flagsets");
	for (size_t i = 0; i < m->nflagsets; i++)
		catwrite_flagset(&w, &m->flagsets[i]);
	catwrite_end(&w);
	catalog_free(m);
	struct catalog_fault fault = { .msg = SBUF_INIT };
	struct catalog *c = catalog_load_text("(designed)", json.buf, json.len, CATALOG_DRAFT, &fault);
	sbuf_release(&json);
	if (!c) {
		report_fault(d, &fault);
		sbuf_release(&fault.msg);
		return -1;
	}
	c->dir = "(designed)";
	for (size_t i = 0; i < c->nsyscalls; i++)
		c->syscalls[i].designed = true; /* no kernel has it: the invoker refuses it */
	ALLOC_GROW(d->builds, d->nbuilds + 1, d->balloc);
	d->builds[d->nbuilds++] = c;
	return 0;
}

/* ---- the commands' engines: each change is undone when the loader refuses it ---- */

int design_struct_new(struct design *d, const struct catalog *cat, const char *name, uint32_t since)
{
	if (check_new_name(d, cat, "struct", name) < 0)
		return -1;
	ALLOC_GROW(d->structs, d->nstructs + 1, d->salloc);
	struct dstruct *s = &d->structs[d->nstructs++];
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	s->since = since ? since : DESIGN_DEFAULT_SINCE;
	if (rebuild(d) < 0) {
		free(d->structs[--d->nstructs].name);
		return -1;
	}
	d->cur_st_i = d->nstructs - 1;
	d->have_st = true;
	return 0;
}

/* A type a design may use: the catalogue's integer types, or char[N] (N up to 4096). */
static int design_type(const char *type, struct field *f)
{
	if (!ld_parse_ftype(type, f) || f->type == FT_PTR || (f->count ? f->type != FT_CHAR || f->count > 4096
								      : f->type == FT_CHAR))
		return err("unknown type \"%s\" (u8 u16 u32 u64 s8 s16 s32 s64 aligned_u64, or char[N])", type);
	return 0;
}

/* What the loader does not judge: the set is the design's, and an unsigned integer. */
static int check_field_flagset(const struct design *d, const struct field *t, const char *type, const char *name,
			       const char *flagset)
{
	if (!find_dset(d, flagset))
		return err("no designed flag set named '%s'; make one with 'flagset new %s'", flagset, flagset);
	if (ftype_signed(t->type))
		return err("flags are unsigned: field '%s' is %s; use u%s (a negative int stored in it sign-extends)", name,
			   type, type + 1);
	if (t->count)
		return err("a flag set needs an integer field, not %s", type);
	return 0;
}

int design_field_add(struct design *d, const char *type, const char *name, uint32_t since, const char *zero,
		     const char *flagset, long at)
{
	if (!d->have_st)
		return err("no struct is being designed; start one with 'struct new NAME'");
	struct dstruct *s = &d->structs[d->cur_st_i];
	struct field t = { 0 };
	if (design_type(type, &t) < 0)
		return -1;
	if (!c_ident(name))
		return err("bad field name '%s': a C identifier of at most 48 characters, not a keyword", name);
	if (zero && check_zero_text(name, zero) < 0)
		return -1;
	if (flagset && check_field_flagset(d, &t, type, name, flagset) < 0)
		return -1;
	unsigned end = dstruct_end(s);
	ALLOC_GROW(s->fields, s->nfields + 1, s->falloc);
	struct dfield *f = &s->fields[s->nfields++];
	*f = (struct dfield){ .name = xstrdup(name), .type = xstrdup(type), .zero = xstrdup(zero ? zero : "the old behaviour"),
			      .flagset = flagset ? xstrdup(flagset) : NULL, .t = t.type, .size = t.size,
			      .elem = t.elem_size, .count = t.count, .since = since };
	f->offset = at >= 0 ? (unsigned)at : (end + t.elem_size - 1) / t.elem_size * t.elem_size;
	/* a field inside an already published size takes that version's date */
	for (size_t k = 0; !f->since && k < s->nvers; k++)
		if (s->vers[k].size >= f->offset + f->size)
			f->since = s->vers[k].since;
	if (rebuild(d) < 0) {
		f = &s->fields[--s->nfields];
		free(f->name), free(f->type), free(f->zero), free(f->flagset);
		return -1;
	}
	return 0;
}

int design_flagset_new(struct design *d, const struct catalog *cat, const char *name)
{
	if (check_new_name(d, cat, "flag set", name) < 0)
		return -1;
	ALLOC_GROW(d->sets, d->nsets + 1, d->setalloc);
	struct dflagset *fs = &d->sets[d->nsets++];
	memset(fs, 0, sizeof(*fs));
	fs->name = xstrdup(name);
	if (rebuild(d) < 0) {
		free(d->sets[--d->nsets].name);
		return -1;
	}
	d->cur_fs_i = d->nsets - 1;
	d->have_fs = true;
	return 0;
}

int design_flag_add(struct design *d, const char *name, uint64_t value, uint32_t since)
{
	if (!d->have_fs)
		return err("no flag set is being designed; start one with 'flagset new NAME'");
	struct dflagset *fs = &d->sets[d->cur_fs_i];
	if (!c_ident(name))
		return err("bad flag name '%s': a C identifier of at most 48 characters, not a keyword", name);
	if (!value)
		return err("flag %s: 0 is the default (no flag), not a flag", name);
	uint64_t all = 0;
	for (size_t k = 0; k < fs->nflags; k++)
		all |= fs->flags[k].value;
	if (value & all) /* a design's flags are single bits of their own, never masks */
		return err("flag %s = %#llx reuses bits of another flag in '%s' (%#llx taken)", name,
			   (unsigned long long)value, fs->name, (unsigned long long)all);
	ALLOC_GROW(fs->flags, fs->nflags + 1, fs->alloc);
	fs->flags[fs->nflags++] = (struct dflag){ xstrdup(name), value, since ? since : DESIGN_DEFAULT_SINCE };
	if (rebuild(d) < 0) {
		free(fs->flags[--fs->nflags].name);
		return -1;
	}
	return 0;
}

int design_version_add(struct design *d, unsigned size, uint32_t since)
{
	if (!d->have_st)
		return err("no struct is being designed; start one with 'struct new NAME'");
	struct dstruct *s = &d->structs[d->cur_st_i];
	unsigned prev = s->nvers ? s->vers[s->nvers - 1].size : 0;
	bool *dated = xcalloc(s->nfields + 1, sizeof(*dated));
	/* the fields it publishes that had no date of their own take its date */
	for (size_t k = 0; k < s->nfields; k++) {
		struct dfield *f = &s->fields[k];
		if (f->offset >= prev && f->offset + f->size <= size && !f->since)
			f->since = since, dated[k] = true;
	}
	ALLOC_GROW(s->vers, s->nvers + 1, s->valloc);
	s->vers[s->nvers++] = (struct dversion){ size, since };
	int r = rebuild(d);
	if (r < 0) {
		s->nvers--;
		for (size_t k = 0; k < s->nfields; k++)
			if (dated[k])
				s->fields[k].since = 0;
	}
	free(dated);
	return r;
}

int design_syscall_new(struct design *d, const struct catalog *cat, const char *name, const char *st,
		       const char *flags, uint32_t since)
{
	if (check_new_name(d, cat, "syscall", name) < 0)
		return -1;
	const struct dstruct *s = find_dstruct(d, st);
	if (!s)
		return err("no designed struct named '%s'; make one with 'struct new %s'", st, st);
	if (!s->nvers)
		return err("struct '%s' has no size version yet; publish one with 'version add SIZE SINCE'", st);
	if (flags && !find_dset(d, flags))
		return err("no designed flag set named '%s'", flags);
	ALLOC_GROW(d->calls, d->ncalls + 1, d->calloc_);
	d->calls[d->ncalls++] = (struct dsyscall){ xstrdup(name), xstrdup(st), flags ? xstrdup(flags) : NULL,
						   since ? since : s->vers[0].since };
	if (rebuild(d) < 0) {
		struct dsyscall *c = &d->calls[--d->ncalls];
		free(c->name), free(c->st), free(c->flags);
		return -1;
	}
	return 0;
}

/* ---- export ---- */

/* The export's catalogue JSON: the call (if it is one), its struct and the flag sets they use. */
static void export_json(const struct design *d, const struct dstruct *s, const struct dsyscall *c,
			const struct dflagset **sets, size_t nsets, struct sbuf *json)
{
	struct catalog *m = model_of(d);
	struct catwrite w;
	catwrite_begin(&w, json);
	if (c) {
		catwrite_section(&w, "syscalls");
		catwrite_syscall(&w, catalog_find_syscall(m, c->name));
	}
	catwrite_section(&w, "structs");
	catwrite_struct(&w, catalog_find_struct(m, s->name));
	if (nsets)
		catwrite_section(&w, "flagsets");
	for (size_t i = 0; i < nsets; i++)
		catwrite_flagset(&w, catalog_find_flagset(m, sets[i]->name));
	catwrite_end(&w);
	catalog_free(m);
}

/* The flag sets a design entry uses, in order, once each. */
static size_t used_sets(const struct design *d, const struct dstruct *s, const struct dsyscall *c,
			const struct dflagset **out, size_t max)
{
	size_t n = 0;
	for (size_t k = 0; k <= s->nfields; k++) {
		const char *name = k < s->nfields ? s->fields[k].flagset : c ? c->flags : NULL;
		const struct dflagset *fs = name ? find_dset(d, name) : NULL;
		bool seen = !fs;
		for (size_t i = 0; i < n && !seen; i++)
			seen = out[i] == fs;
		if (!seen && n < max)
			out[n++] = fs;
	}
	return n;
}

static const char *ctype(const struct dfield *f)
{
	switch (f->t) {
	case FT_U8: return "__u8";
	case FT_U16: return "__u16";
	case FT_U32: return "__u32";
	case FT_S8: return "__s8";
	case FT_S16: return "__s16";
	case FT_S32: return "__s32";
	case FT_S64: return "__s64";
	case FT_ALIGNED_U64: return "__aligned_u64";
	case FT_CHAR: return "char";
	default: return "__u64";
	}
}

static void render_header(struct sbuf *h, const struct design *d, const struct dstruct *s, const struct dsyscall *c,
			  const struct dflagset **sets, size_t nsets)
{
	char kv[16];
	struct sbuf guard = SBUF_INIT, up = SBUF_INIT;
	upper(&guard, c ? c->name : s->name);
	upper(&up, s->name);
	sbuf_addf(h, "/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */\n"
		     "/* Generated by xsc 'export' from a design: the uapi of %s. */\n"
		     "#ifndef _UAPI_LINUX_%s_H\n#define _UAPI_LINUX_%s_H\n\n#include <linux/types.h>\n\n",
		  c ? c->name : s->name, guard.buf, guard.buf);
	for (size_t i = 0; i < nsets; i++) {
		sbuf_addf(h, "/* %s */\n", sets[i]->name);
		for (size_t k = 0; k < sets[i]->nflags; k++)
			sbuf_addf(h, "#define %-32s 0x%llxULL /* since %s */\n", sets[i]->flags[k].name,
				  (unsigned long long)sets[i]->flags[k].value, kver_str(sets[i]->flags[k].since, kv));
		sbuf_addch(h, '\n');
	}
	sbuf_addf(h, "/*\n * Arguments for %s: extensible, the size passed separately.\n"
		     " * Every field's zero value means the behaviour before the field existed.\n */\n"
		     "struct %s {\n", c ? c->name : "the call", s->name);
	uint32_t last = s->nvers ? s->vers[s->nvers - 1].since : s->since;
	for (size_t k = 0; k < s->nfields; k++) {
		const struct dfield *f = &s->fields[k];
		struct sbuf decl = SBUF_INIT;
		if (f->count)
			sbuf_addf(&decl, "%s %s[%u];", ctype(f), f->name, f->count);
		else
			sbuf_addf(&decl, "%s %s;", ctype(f), f->name);
		sbuf_addf(h, "\t%-32s /* @%u, since %s; 0: %s */\n", decl.buf, f->offset,
			  kver_str(f->since ? f->since : last, kv), f->zero);
		sbuf_release(&decl);
	}
	sbuf_adds(h, "};\n\n");
	for (size_t k = 0; k < s->nvers; k++)
		sbuf_addf(h, "#define %s_SIZE_VER%zu %u /* since %s */\n", up.buf, k, s->vers[k].size,
			  kver_str(s->vers[k].since, kv));
	sbuf_addf(h, "\n#endif /* _UAPI_LINUX_%s_H */\n", guard.buf);
	(void)d;
	sbuf_release(&guard);
	sbuf_release(&up);
}

static void render_kernel(struct sbuf *k, const struct dstruct *s, const struct dsyscall *c, const struct dflagset **sets,
			  size_t nsets)
{
	struct sbuf up = SBUF_INIT;
	upper(&up, s->name);
	const char *name = c ? c->name : s->name;
	sbuf_addf(k, "// SPDX-License-Identifier: GPL-2.0\n"
		     "/* Generated by xsc 'export': the kernel side of %s, a skeleton. */\n"
		     "#include <linux/syscalls.h>\n#include <linux/uaccess.h>\n#include <uapi/linux/%s.h>\n\n",
		  name, name);
	for (size_t i = 0; i < nsets; i++) {
		struct sbuf mask = SBUF_INIT;
		for (size_t f = 0; f < sets[i]->nflags; f++)
			sbuf_addf(&mask, "%s%s", f ? " | " : "", sets[i]->flags[f].name);
		struct sbuf sn = SBUF_INIT;
		upper(&sn, sets[i]->name);
		sbuf_addf(k, "/* every %s bit this kernel knows: anything else is EINVAL, so user space can probe */\n"
			     "#define %s_VALID (%s)\n\n", sets[i]->name, sn.buf, mask.len ? mask.buf : "0");
		sbuf_release(&mask);
		sbuf_release(&sn);
	}
	sbuf_addf(k, "SYSCALL_DEFINE%d(%s, struct %s __user *, uargs, size_t, usize%s)\n{\n"
		     "\tstruct %s kargs;\n\tint err;\n\n"
		     "\tBUILD_BUG_ON(sizeof(struct %s) != %s_SIZE_VER%zu);\n",
		  c && c->flags ? 3 : 2, name, s->name, c && c->flags ? ", unsigned int, flags" : "", s->name, s->name,
		  up.buf, s->nvers ? s->nvers - 1 : 0);
	if (c && c->flags) {
		struct sbuf sn = SBUF_INIT;
		upper(&sn, c->flags);
		sbuf_addf(k, "\tif (flags & ~%s_VALID)\n\t\treturn -EINVAL;\n", sn.buf);
		sbuf_release(&sn);
	}
	sbuf_addf(k, "\t/* the size is the version: below the first one there is nothing to read */\n"
		     "\tif (unlikely(usize < %s_SIZE_VER0))\n\t\treturn -EINVAL;\n"
		     "\t/* a page is more than any version will need; refuse it before touching memory */\n"
		     "\tif (unlikely(usize > PAGE_SIZE))\n\t\treturn -E2BIG;\n"
		     "\t/* older callers: the tail is zero-filled; newer callers: their extra bytes must be zero (E2BIG) */\n"
		     "\terr = copy_struct_from_user(&kargs, sizeof(kargs), uargs, usize);\n"
		     "\tif (err)\n\t\treturn err;\n", up.buf);
	for (size_t f = 0; f < s->nfields; f++) {
		const struct dfield *df = &s->fields[f];
		if (!df->flagset)
			continue;
		struct sbuf sn = SBUF_INIT;
		upper(&sn, df->flagset);
		sbuf_addf(k, "\tif (kargs.%s & ~(__u64)%s_VALID)\n\t\treturn -EINVAL;\n", df->name, sn.buf);
		sbuf_release(&sn);
	}
	sbuf_adds(k, "\n\t/* TODO: the work; every field's zero value is the old behaviour */\n\treturn 0;\n}\n");
	sbuf_release(&up);
}

static void render_selftest(struct sbuf *t, const struct dstruct *s, const struct dsyscall *c)
{
	struct sbuf up = SBUF_INIT, nr = SBUF_INIT;
	upper(&up, s->name);
	const char *name = c ? c->name : s->name;
	sbuf_addf(&nr, "__NR_%s", name);
	unsigned ver0 = s->nvers ? s->vers[0].size : dstruct_end(s);
	unsigned newest = s->nvers ? s->vers[s->nvers - 1].size : dstruct_end(s);
	sbuf_addf(t, "// SPDX-License-Identifier: GPL-2.0\n"
		     "/* Generated by xsc 'export': the size cases every extensible syscall must pass. */\n"
		     "#define _GNU_SOURCE\n#include <errno.h>\n#include <string.h>\n#include <unistd.h>\n"
		     "#include <sys/syscall.h>\n#include <linux/%s.h>\n#include \"../kselftest_harness.h\"\n\n"
		     "#ifndef %s\n#define %s -1 /* no number allocated yet: every test sees ENOSYS */\n#endif\n\n"
		     "static long call(void *args, size_t size)\n{\n\treturn syscall(%s, args, size%s);\n}\n\n",
		  name, nr.buf, nr.buf, nr.buf, c && c->flags ? ", 0" : "");
	sbuf_addf(t, "struct big {\n\tstruct %s args;\n\tchar tail[8192];\n};\n\n", s->name);
	sbuf_addf(t, "TEST(size_ver0_is_accepted)\n{\n\tstruct big b;\n\tmemset(&b, 0, sizeof(b));\n"
		     "\tASSERT_EQ(0, call(&b, %s_SIZE_VER0));\n}\n\n", up.buf);
	sbuf_addf(t, "TEST(size_zero_is_einval)\n{\n\tstruct big b;\n\tmemset(&b, 0, sizeof(b));\n"
		     "\tASSERT_EQ(-1, call(&b, 0));\n\tASSERT_EQ(EINVAL, errno);\n}\n\n");
	if (ver0 > 1)
		sbuf_addf(t, "TEST(size_below_ver0_is_einval)\n{\n\tstruct big b;\n\tmemset(&b, 0, sizeof(b));\n"
			     "\tASSERT_EQ(-1, call(&b, %s_SIZE_VER0 - 1));\n\tASSERT_EQ(EINVAL, errno);\n}\n\n", up.buf);
	sbuf_addf(t, "TEST(zero_tail_is_accepted)\n{\n\tstruct big b;\n\tmemset(&b, 0, sizeof(b));\n"
		     "\tASSERT_EQ(0, call(&b, %u + 8));\n}\n\n", newest);
	sbuf_addf(t, "TEST(nonzero_tail_is_e2big)\n{\n\tstruct big b;\n\tmemset(&b, 0, sizeof(b));\n"
		     "\t((char *)&b)[%u] = 1;\n\tASSERT_EQ(-1, call(&b, %u + 8));\n\tASSERT_EQ(E2BIG, errno);\n}\n\n",
		  newest, newest);
	sbuf_addf(t, "TEST(above_a_page_is_e2big)\n{\n\tstruct big b;\n\tmemset(&b, 0, sizeof(b));\n"
		     "\tASSERT_EQ(-1, call(&b, getpagesize() + 1));\n\tASSERT_EQ(E2BIG, errno);\n}\n\n");
	for (size_t k = 0; k < s->nvers; k++)
		sbuf_addf(t, "TEST(size_ver%zu_is_accepted_%u)\n{\n\tstruct big b;\n\tmemset(&b, 0, sizeof(b));\n"
			     "\tASSERT_EQ(0, call(&b, %s_SIZE_VER%zu));\n}\n\n", k, s->vers[k].size, up.buf, k);
	sbuf_adds(t, "TEST_HARNESS_MAIN\n");
	sbuf_release(&up);
	sbuf_release(&nr);
}

int design_render(const struct design *d, const char *name, struct sbuf *json, struct sbuf *header,
		  struct sbuf *kernel, struct sbuf *selftest)
{
	const struct dsyscall *c = find_dcall(d, name);
	const struct dstruct *s = c ? find_dstruct(d, c->st) : find_dstruct(d, name);
	if (!s)
		return err("no designed syscall or struct named '%s'", name);
	const struct dflagset *sets[64] = { NULL };
	size_t nsets = used_sets(d, s, c, sets, ARRAY_SIZE(sets));
	export_json(d, s, c, sets, nsets, json);
	render_header(header, d, s, c, sets, nsets);
	render_kernel(kernel, s, c, sets, nsets);
	render_selftest(selftest, s, c);
	return 0;
}

/* The four files, each refused if it exists (unless OF_FORCE) before any is written, each
 * synced once and renamed into place: an export is the new files or the old ones. */
static int write_export(const char *dir, const char *name, const struct sbuf *t, unsigned flags, struct sbuf *written)
{
	static const char *const suffix[] = { ".json", ".h", "_kernel.c", "_test.c" };
	struct outfile f[4];
	struct sbuf path[4] = { SBUF_INIT, SBUF_INIT, SBUF_INIT, SBUF_INIT };
	int n = 0, r = 0;
	for (; !r && n < 4; n++) {
		sbuf_addf(&path[n], "%s/%s%s", dir, name, suffix[n]);
		r = outfile_begin_path(&f[n], path[n].buf, flags | OF_SYNC);
		if (r && errno == EEXIST)
			err("export: '%s' exists; --force replaces it", path[n].buf);
		else if (r)
			err("export: cannot write '%s': %s", path[n].buf, strerror(errno));
	}
	for (int i = 0; !r && i < 4; i++)
		if (outfile_write(&f[i], t[i].buf, t[i].len) < 0 || outfile_commit(&f[i]) < 0)
			r = err("export: cannot write '%s': %s", path[i].buf, strerror(errno));
		else
			sbuf_addf(written, "%s\n", path[i].buf);
	for (int i = 0; i < n; i++) { /* a failed begin leaves f[i] released already */
		outfile_release(&f[i]);
		sbuf_release(&path[i]);
	}
	return r;
}

int design_export(const struct design *d, const char *name, const char *dir, unsigned flags, struct sbuf *written)
{
	struct sbuf t[4] = { SBUF_INIT, SBUF_INIT, SBUF_INIT, SBUF_INIT };
	int r = -1;
	if (design_render(d, name, &t[0], &t[1], &t[2], &t[3]) < 0)
		goto out;
	/* what the loader refuses is not written */
	struct sbuf fname = SBUF_INIT;
	sbuf_addf(&fname, "%s.json", name);
	const char *names[] = { fname.buf }, *texts[] = { t[0].buf };
	size_t lens[] = { t[0].len };
	struct catalog *check = catalog_load_buffers(names, texts, lens, 1);
	sbuf_release(&fname);
	if (!check) {
		err("export: the catalogue loader refuses the design (see above); nothing was written");
		goto out;
	}
	catalog_free(check);
	if (mkdir(dir, 0777) < 0 && errno != EEXIST) {
		err("export: cannot create directory '%s': %s", dir, strerror(errno));
		goto out;
	}
	r = write_export(dir, name, t, flags, written);
out:
	for (int i = 0; i < 4; i++)
		sbuf_release(&t[i]);
	return r;
}
