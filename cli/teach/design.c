#include "teach/design.h"
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "base/diag.h"
#include "base/out.h"
#include "model/dataload.h"
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

static bool c_ident(const char *n)
{
	if (!*n || strlen(n) > 48 || !(isalpha((unsigned char)*n) || *n == '_'))
		return false;
	for (const char *p = n; *p; p++)
		if (!(isalnum((unsigned char)*p) || *p == '_'))
			return false;
	return true;
}

static int check_new_name(const struct design *d, const struct catalog *cat, const char *what, const char *name)
{
	if (!c_ident(name))
		return err("bad %s name '%s': a C identifier of at most 48 characters", what, name);
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

static unsigned dstruct_align(const struct dstruct *s)
{
	unsigned a = 1;
	for (size_t i = 0; i < s->nfields; i++)
		if (s->fields[i].elem > a)
			a = s->fields[i].elem;
	return a;
}

/* ---- building the catalogue the session uses ---- */

static const struct flagset *built_set(const struct catalog *c, const char *name)
{
	return name ? catalog_find_flagset(c, name) : NULL;
}

/* The design's flag sets as catalogue flag sets: bits named PREFIX_FLAG. */
static void build_flagsets(struct catalog *c, const struct design *d)
{
	struct arena *a = &c->arena;
	c->flagsets = arena_alloc(a, sizeof(*c->flagsets) * (d->nsets + 1));
	c->nflagsets = d->nsets;
	for (size_t i = 0; i < d->nsets; i++) {
		const struct dflagset *ds = &d->sets[i];
		struct flagset *fs = &c->flagsets[i];
		struct sbuf pre = SBUF_INIT;
		upper(&pre, ds->name);
		sbuf_addch(&pre, '_');
		fs->name = arena_strdup(a, ds->name);
		fs->prefix = arena_strdup(a, pre.buf);
		fs->header = "designed";
		fs->doc = "a designed flag set";
		fs->file = "(designed)";
		fs->kind = FS_BITS;
		fs->flags = arena_alloc(a, sizeof(*fs->flags) * (ds->nflags + 1));
		fs->nflags = ds->nflags;
		for (size_t k = 0; k < ds->nflags; k++) {
			fs->flags[k].name = arena_strdup(a, ds->flags[k].name);
			fs->flags[k].value = ds->flags[k].value;
			fs->flags[k].since = ds->flags[k].since;
			fs->flags[k].doc = "";
		}
		sbuf_release(&pre);
	}
}

/* One designed struct: its fields (a field without a date is as new as the last version)
 * and its size versions NAME_SIZE_VERn. */
static void build_struct(struct catalog *c, const struct dstruct *ds, struct cstruct *st)
{
	struct arena *a = &c->arena;
	st->name = arena_strdup(a, ds->name);
	st->header = "designed";
	st->doc = "a designed struct";
	st->file = "(designed)";
	st->direction = FD_IN;
	st->align = dstruct_align(ds);
	st->size = dstruct_end(ds);
	st->fields = arena_alloc(a, sizeof(*st->fields) * (ds->nfields + 1));
	st->nfields = ds->nfields;
	uint32_t last = ds->nvers ? ds->vers[ds->nvers - 1].since : ds->since;
	for (size_t k = 0; k < ds->nfields; k++) {
		const struct dfield *df = &ds->fields[k];
		struct field *f = &st->fields[k];
		f->name = arena_strdup(a, df->name);
		f->type_text = arena_strdup(a, df->type);
		f->zero = arena_strdup(a, df->zero);
		f->doc = "";
		f->type = df->t;
		f->elem_size = df->elem;
		f->count = df->count;
		f->offset = df->offset;
		f->size = df->size;
		f->since = df->since ? df->since : last;
		f->flagset = built_set(c, df->flagset);
		f->format = f->flagset ? FF_HEX : FF_DEC;
		f->string = df->t == FT_CHAR;
	}
	st->versions = arena_alloc(a, sizeof(*st->versions) * (ds->nvers + 1));
	st->nversions = ds->nvers;
	for (size_t k = 0; k < ds->nvers; k++) {
		struct sbuf vn = SBUF_INIT;
		upper(&vn, ds->name);
		sbuf_addf(&vn, "_SIZE_VER%zu", k);
		st->versions[k].name = arena_strdup(a, vn.buf);
		st->versions[k].size = ds->vers[k].size;
		st->versions[k].since = ds->vers[k].since;
		sbuf_release(&vn);
	}
}

/* One designed call: long NAME(struct S *uargs, size_t usize[, unsigned int flags]) with
 * the extensible-struct convention's size rules and checks. */
static void build_syscall(struct catalog *c, const struct dsyscall *dc, struct syscall *sc)
{
	struct arena *a = &c->arena;
	struct sbuf proto = SBUF_INIT;
	sc->name = arena_strdup(a, dc->name);
	sc->kind = SK_EXTENSIBLE;
	sc->header = "designed";
	sc->file = "(designed)";
	sc->safety = SAFE_PURE;
	sc->designed = true;
	sc->nr_x86_64 = sc->nr_aarch64 = -1;
	sc->since = dc->since;
	sc->st = catalog_find_struct(c, dc->st);
	sbuf_addf(&proto, "long %s(struct %s *uargs, size_t usize%s)", dc->name, dc->st,
		  dc->flags ? ", unsigned int flags" : "");
	sc->prototype = arena_strdup(a, proto.buf);
	sbuf_reset(&proto);
	sbuf_addf(&proto, "a designed extensible syscall taking struct %s", dc->st);
	sc->summary = arena_strdup(a, proto.buf);
	sbuf_release(&proto);
	sc->nargs = dc->flags ? 3 : 2;
	sc->args = arena_alloc(a, sizeof(*sc->args) * 3);
	sc->args[0] = (struct sarg){ .name = "uargs", .type = "struct *", .role = AR_STRUCT, .st = sc->st };
	sc->args[1] = (struct sarg){ .name = "usize", .type = "size_t", .role = AR_SIZE };
	if (dc->flags)
		sc->args[2] = (struct sarg){ .name = "flags", .type = "unsigned int", .role = AR_FLAGS,
					     .def = "0", .flagset = built_set(c, dc->flags) };
	for (size_t i = 0; i < sc->nargs; i++)
		sarg_type(&sc->args[i]);
	sc->size_where = SW_ARG;
	sc->size_name = "usize";
	sc->size_bits = 64;
	sc->has_rules = true;
	sc->rules = (struct size_rules){ .zero = { SA_ERRNO, EINVAL }, .below_ver0 = { SA_ERRNO, EINVAL },
					 .tail = TAIL_E2BIG, .writeback = WB_NONE, .cap = 4096, .cap_errno = E2BIG };
	sc->checks = arena_alloc(a, sizeof(*sc->checks) * (CS_LAST + 1));
	checks_insert_steps(a, sc, sc->checks, NULL, &sc->nchecks); /* the size convention's steps, in its default order */
	sc->errors = arena_alloc(a, sizeof(*sc->errors) * 2);
	sc->nerrors = 2;
	sc->errors[0] = (struct serror){ "EINVAL", "usize below the first version, or an unknown flag bit" };
	sc->errors[1] = (struct serror){ "E2BIG", "usize above a page, or a nonzero byte past the kernel's struct" };
}

static void rebuild(struct design *d)
{
	struct catalog *c = xcalloc(1, sizeof(*c));
	struct arena *a = &c->arena;
	c->dir = "(designed)";
	build_flagsets(c, d);
	c->structs = arena_alloc(a, sizeof(*c->structs) * (d->nstructs + 1));
	c->nstructs = d->nstructs;
	for (size_t i = 0; i < d->nstructs; i++)
		build_struct(c, &d->structs[i], &c->structs[i]);
	c->syscalls = arena_alloc(a, sizeof(*c->syscalls) * (d->ncalls + 1));
	c->nsyscalls = d->ncalls;
	for (size_t i = 0; i < d->ncalls; i++)
		build_syscall(c, &d->calls[i], &c->syscalls[i]);
	ALLOC_GROW(d->builds, d->nbuilds + 1, d->balloc);
	d->builds[d->nbuilds++] = c;
}

/* ---- the commands' engines ---- */

int design_struct_new(struct design *d, const struct catalog *cat, const char *name, uint32_t since)
{
	if (check_new_name(d, cat, "struct", name) < 0)
		return -1;
	ALLOC_GROW(d->structs, d->nstructs + 1, d->salloc);
	struct dstruct *s = &d->structs[d->nstructs];
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	s->since = since ? since : DESIGN_DEFAULT_SINCE;
	d->cur_st_i = d->nstructs++;
	d->have_st = true;
	rebuild(d);
	return 0;
}

/* "u64" → FT_U64, elem 8; "char[16]" → FT_CHAR, count 16. */
static int parse_type(const char *t, enum ftype *ft, unsigned *elem, unsigned *count)
{
	static const struct { const char *n; enum ftype t; unsigned size; } types[] = {
		{ "u8", FT_U8, 1 }, { "u16", FT_U16, 2 }, { "u32", FT_U32, 4 }, { "u64", FT_U64, 8 },
		{ "s8", FT_S8, 1 }, { "s16", FT_S16, 2 }, { "s32", FT_S32, 4 }, { "s64", FT_S64, 8 },
		{ "aligned_u64", FT_ALIGNED_U64, 8 },
	};
	*count = 0;
	for (size_t i = 0; i < ARRAY_SIZE(types); i++)
		if (!strcmp(t, types[i].n)) {
			*ft = types[i].t;
			*elem = types[i].size;
			return 0;
		}
	if (!strncmp(t, "char[", 5)) {
		char *end;
		unsigned long n = strtoul(t + 5, &end, 10);
		if (n >= 1 && n <= 4096 && !strcmp(end, "]")) {
			*ft = FT_CHAR;
			*elem = 1;
			*count = (unsigned)n;
			return 0;
		}
	}
	return -1;
}

int design_field_add(struct design *d, const char *type, const char *name, uint32_t since, const char *zero,
		     const char *flagset, long at)
{
	if (!d->have_st)
		return err("no struct is being designed; start one with 'struct new NAME'");
	struct dstruct *s = &d->structs[d->cur_st_i];
	enum ftype ft;
	unsigned elem, count;
	if (parse_type(type, &ft, &elem, &count) < 0)
		return err("unknown type \"%s\" (u8 u16 u32 u64 s8 s16 s32 s64 aligned_u64, or char[N])", type);
	if (!c_ident(name))
		return err("bad field name '%s': a C identifier of at most 48 characters", name);
	for (size_t i = 0; i < s->nfields; i++)
		if (!strcmp(s->fields[i].name, name))
			return err("duplicate field '%s' in struct '%s'", name, s->name);
	const struct dflagset *fs = NULL;
	if (flagset) {
		fs = find_dset(d, flagset);
		if (!fs)
			return err("no designed flag set named '%s'; make one with 'flagset new %s'", flagset, flagset);
		if (ft == FT_S8 || ft == FT_S16 || ft == FT_S32 || ft == FT_S64)
			return err("flags are unsigned: field '%s' is %s; use u%s (a negative int stored in it sign-extends)",
				   name, type, type + 1);
		if (count)
			return err("a flag set needs an integer field, not %s", type);
		for (size_t k = 0; k < fs->nflags; k++)
			if (elem < 8 && fs->flags[k].value >> (elem * 8))
				return err("flag %s = %#llx of set '%s' does not fit field '%s' (%s)", fs->flags[k].name,
					   (unsigned long long)fs->flags[k].value, fs->name, name, type);
	}
	unsigned end = dstruct_end(s), size = count ? count : elem;
	unsigned off = at >= 0 ? (unsigned)at : (end + elem - 1) / elem * elem;
	/* the loader's rules, with the loader's words */
	if (at >= 0 && at > 1 << 20)
		return err("offset %ld is too large", at);
	if (off < end && s->nfields)
		return err("field '%s' at offset %u overlaps '%s' (bytes %u..%u)", name, off, s->fields[s->nfields - 1].name,
			   s->fields[s->nfields - 1].offset, end - 1);
	if (off > end)
		return err("a hole of %u bytes (offsets %u..%u) before field '%s'; write the padding as an explicit reserved field",
			   off - end, end, off - 1, name);
	if (off % elem)
		return err("field '%s' (%s) at offset %u is not aligned to %u bytes", name, type, off, elem);
	if (since) {
		for (size_t k = 0; k < s->nvers; k++)
			if (s->vers[k].size >= off + size && since < s->vers[k].since) {
				char a[16], b[16];
				return err("field '%s' is dated %s but the first size that holds it is from %s", name,
					   kver_str(since, a), kver_str(s->vers[k].since, b));
			}
	}
	ALLOC_GROW(s->fields, s->nfields + 1, s->falloc);
	struct dfield *f = &s->fields[s->nfields++];
	f->name = xstrdup(name);
	f->type = xstrdup(type);
	f->zero = xstrdup(zero ? zero : "the old behaviour");
	f->flagset = flagset ? xstrdup(flagset) : NULL;
	f->t = ft;
	f->offset = off;
	f->size = size;
	f->elem = elem;
	f->count = count;
	f->since = since;
	/* a field inside an already published size takes that version's date */
	for (size_t k = 0; !f->since && k < s->nvers; k++)
		if (s->vers[k].size >= off + size)
			f->since = s->vers[k].since;
	rebuild(d);
	return 0;
}

int design_flagset_new(struct design *d, const struct catalog *cat, const char *name)
{
	if (check_new_name(d, cat, "flag set", name) < 0)
		return -1;
	ALLOC_GROW(d->sets, d->nsets + 1, d->setalloc);
	struct dflagset *fs = &d->sets[d->nsets];
	memset(fs, 0, sizeof(*fs));
	fs->name = xstrdup(name);
	d->cur_fs_i = d->nsets++;
	d->have_fs = true;
	rebuild(d);
	return 0;
}

int design_flag_add(struct design *d, const char *name, uint64_t value, uint32_t since)
{
	if (!d->have_fs)
		return err("no flag set is being designed; start one with 'flagset new NAME'");
	struct dflagset *fs = &d->sets[d->cur_fs_i];
	if (!c_ident(name))
		return err("bad flag name '%s': a C identifier of at most 48 characters", name);
	if (!value)
		return err("flag %s: 0 is the default (no flag), not a flag", name);
	uint64_t all = 0;
	for (size_t k = 0; k < fs->nflags; k++) {
		if (!strcmp(fs->flags[k].name, name))
			return err("duplicate flag '%s' in set '%s'", name, fs->name);
		all |= fs->flags[k].value;
	}
	if (value & all)
		return err("flag %s = %#llx reuses bits of another flag in '%s' (%#llx taken)", name,
			   (unsigned long long)value, fs->name, (unsigned long long)all);
	/* every field already using the set must hold the new flag */
	for (size_t i = 0; i < d->nstructs; i++)
		for (size_t k = 0; k < d->structs[i].nfields; k++) {
			const struct dfield *f = &d->structs[i].fields[k];
			if (f->flagset && !strcmp(f->flagset, fs->name) && f->elem < 8 && value >> (f->elem * 8))
				return err("flag %s = %#llx of set '%s' does not fit field '%s' (%s)", name,
					   (unsigned long long)value, fs->name, f->name, f->type);
		}
	ALLOC_GROW(fs->flags, fs->nflags + 1, fs->alloc);
	fs->flags[fs->nflags++] = (struct dflag){ xstrdup(name), value, since ? since : DESIGN_DEFAULT_SINCE };
	rebuild(d);
	return 0;
}

int design_version_add(struct design *d, unsigned size, uint32_t since)
{
	if (!d->have_st)
		return err("no struct is being designed; start one with 'struct new NAME'");
	struct dstruct *s = &d->structs[d->cur_st_i];
	char a[16], b[16];
	bool boundary = false;
	for (size_t k = 0; k < s->nfields; k++)
		if (s->fields[k].offset + s->fields[k].size == size)
			boundary = true;
	if (s->nvers && size <= s->vers[s->nvers - 1].size)
		return err("size %u is not larger than the previous version's %u", size, s->vers[s->nvers - 1].size);
	if (s->nvers && since < s->vers[s->nvers - 1].since)
		return err("version of size %u is older than the previous version", size);
	if (size > dstruct_end(s))
		return err("size %u is larger than the struct (%u bytes)", size, dstruct_end(s));
	if (!boundary)
		return err("size %u does not end on a field boundary", size);
	unsigned prev = s->nvers ? s->vers[s->nvers - 1].size : 0;
	for (size_t k = 0; k < s->nfields; k++) {
		const struct dfield *f = &s->fields[k];
		if (f->offset >= prev && f->offset + f->size <= size && f->since && f->since < since)
			return err("field '%s' is dated %s but the first size that holds it is from %s", f->name,
				   kver_str(f->since, a), kver_str(since, b));
	}
	for (size_t k = 0; k < s->nfields; k++) {
		struct dfield *f = &s->fields[k];
		if (f->offset >= prev && f->offset + f->size <= size && !f->since)
			f->since = since;
	}
	ALLOC_GROW(s->vers, s->nvers + 1, s->valloc);
	s->vers[s->nvers++] = (struct dversion){ size, since };
	rebuild(d);
	return 0;
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
	rebuild(d);
	return 0;
}

/* ---- export ---- */

static void jstr(struct sbuf *sb, const char *key, const char *v, bool comma)
{
	sbuf_addf(sb, "\"%s\": ", key);
	json_quote_into(sb, v);
	if (comma)
		sbuf_adds(sb, ", ");
}

static void json_flagset(struct sbuf *j, const struct dflagset *fs)
{
	char kv[16];
	struct sbuf pre = SBUF_INIT;
	upper(&pre, fs->name);
	sbuf_addch(&pre, '_');
	sbuf_adds(j, "    {\n      ");
	jstr(j, "name", fs->name, true);
	sbuf_adds(j, "\"kind\": \"bits\", ");
	jstr(j, "prefix", pre.buf, true);
	sbuf_adds(j, "\"header\": \"designed\", \"doc\": \"a designed flag set\",\n      \"flags\": [");
	for (size_t k = 0; k < fs->nflags; k++) {
		sbuf_addf(j, "%s\n        { ", k ? "," : "");
		jstr(j, "name", fs->flags[k].name, true);
		sbuf_addf(j, "\"value\": \"%#llx\", ", (unsigned long long)fs->flags[k].value);
		jstr(j, "since", kver_str(fs->flags[k].since, kv), false);
		sbuf_adds(j, " }");
	}
	sbuf_adds(j, "\n      ]\n    }");
	sbuf_release(&pre);
}

static void json_struct(struct sbuf *j, const struct dstruct *s)
{
	char kv[16];
	uint32_t last = s->nvers ? s->vers[s->nvers - 1].since : s->since;
	sbuf_adds(j, "    {\n      ");
	jstr(j, "name", s->name, true);
	sbuf_adds(j, "\"header\": \"designed\", \"doc\": \"a designed struct\", \"direction\": \"in\",\n      \"fields\": [");
	for (size_t k = 0; k < s->nfields; k++) {
		const struct dfield *f = &s->fields[k];
		sbuf_addf(j, "%s\n        { ", k ? "," : "");
		jstr(j, "name", f->name, true);
		jstr(j, "type", f->type, true);
		sbuf_addf(j, "\"offset\": %u, ", f->offset);
		jstr(j, "since", kver_str(f->since ? f->since : last, kv), true);
		if (f->flagset)
			jstr(j, "flagset", f->flagset, true);
		jstr(j, "zero", f->zero, false);
		sbuf_adds(j, " }");
	}
	sbuf_adds(j, "\n      ],\n      \"versions\": [");
	for (size_t k = 0; k < s->nvers; k++) {
		struct sbuf vn = SBUF_INIT;
		upper(&vn, s->name);
		sbuf_addf(&vn, "_SIZE_VER%zu", k);
		sbuf_addf(j, "%s\n        { ", k ? "," : "");
		jstr(j, "name", vn.buf, true);
		sbuf_addf(j, "\"size\": %u, ", s->vers[k].size);
		jstr(j, "since", kver_str(s->vers[k].since, kv), false);
		sbuf_adds(j, " }");
		sbuf_release(&vn);
	}
	sbuf_adds(j, "\n      ]\n    }");
}

static void json_syscall(struct sbuf *j, const struct dsyscall *c)
{
	char kv[16];
	struct sbuf t = SBUF_INIT;
	sbuf_adds(j, "    {\n      ");
	jstr(j, "name", c->name, true);
	sbuf_adds(j, "\"kind\": \"extensible\", \"nr\": { \"x86_64\": null, \"aarch64\": null },\n      ");
	jstr(j, "since", kver_str(c->since, kv), true);
	sbuf_adds(j, "\"header\": \"designed\",\n      ");
	sbuf_addf(&t, "long %s(struct %s *uargs, size_t usize%s)", c->name, c->st, c->flags ? ", unsigned int flags" : "");
	jstr(j, "prototype", t.buf, true);
	sbuf_reset(&t);
	sbuf_addf(&t, "a designed extensible syscall taking struct %s", c->st);
	sbuf_adds(j, "\n      ");
	jstr(j, "summary", t.buf, true);
	sbuf_adds(j, "\n      \"args\": [\n        { \"name\": \"uargs\", \"type\": \"struct ");
	sbuf_addf(j, "%s *\", \"role\": \"struct\", ", c->st);
	jstr(j, "struct", c->st, false);
	sbuf_adds(j, " },\n        { \"name\": \"usize\", \"type\": \"size_t\", \"role\": \"size\" }");
	if (c->flags) {
		sbuf_adds(j, ",\n        { \"name\": \"flags\", \"type\": \"unsigned int\", \"role\": \"flags\", \"default\": \"0\", ");
		jstr(j, "flagset", c->flags, false);
		sbuf_adds(j, " }");
	}
	sbuf_adds(j, "\n      ],\n      ");
	jstr(j, "struct", c->st, true);
	sbuf_adds(j, "\"size\": { \"where\": \"arg\", \"name\": \"usize\", \"bits\": 64 },\n"
		     "      \"rules\": { \"zero\": \"EINVAL\", \"below_ver0\": \"EINVAL\", \"cap\": 4096, \"tail\": \"E2BIG\", \"writeback\": \"none\" },\n"
		     "      \"errors\": [\n"
		     "        { \"errno\": \"EINVAL\", \"meaning\": \"usize below the first version, or an unknown flag bit\" },\n"
		     "        { \"errno\": \"E2BIG\", \"meaning\": \"usize above a page, or a nonzero byte past the kernel's struct\" }\n"
		     "      ],\n      \"safety\": \"pure\"\n    }");
	sbuf_release(&t);
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
	const struct dflagset *sets[64];
	size_t nsets = used_sets(d, s, c, sets, ARRAY_SIZE(sets));
	sbuf_adds(json, "{\n");
	if (c) {
		sbuf_adds(json, "  \"syscalls\": [\n");
		json_syscall(json, c);
		sbuf_adds(json, "\n  ],\n");
	}
	sbuf_adds(json, "  \"structs\": [\n");
	json_struct(json, s);
	sbuf_adds(json, "\n  ]");
	if (nsets) {
		sbuf_adds(json, ",\n  \"flagsets\": [\n");
		for (size_t i = 0; i < nsets; i++) {
			json_flagset(json, sets[i]);
			sbuf_adds(json, i + 1 < nsets ? ",\n" : "\n");
		}
		sbuf_adds(json, "  ]");
	}
	sbuf_adds(json, "\n}\n");
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
