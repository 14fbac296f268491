#include "model/catalog.h"
#include <stdlib.h>
#include <string.h>
#include "base/banned.h"

void catalog_free(struct catalog *c)
{
	if (!c)
		return;
	arena_release(&c->arena);
	free(c);
}

#define FIND(arr, n, key)                                    \
	for (size_t i_ = 0; i_ < (n); i_++)                  \
		if (!strcmp((arr)[i_].name, (key)))          \
			return &(arr)[i_];                   \
	return NULL

const struct syscall *catalog_find_syscall(const struct catalog *c, const char *name)
{
	FIND(c->syscalls, c->nsyscalls, name);
}

const struct cstruct *catalog_find_struct(const struct catalog *c, const char *name)
{
	if (!strncmp(name, "struct ", 7))
		name += 7;
	FIND(c->structs, c->nstructs, name);
}

const struct flagset *catalog_find_flagset(const struct catalog *c, const char *name)
{
	FIND(c->flagsets, c->nflagsets, name);
}

static const struct flag *find_in_set(const struct flagset *fs, const char *name)
{
	FIND(fs->flags, fs->nflags, name);
}

const struct flag *catalog_find_flag(const struct catalog *c, const struct flagset *fs,
				     const char *name, const struct flagset **in)
{
	const struct flag *f;
	if (fs && (f = find_in_set(fs, name))) {
		*in = fs;
		return f;
	}
	const struct flagset *k = catalog_find_flagset(c, "constants");
	if (k && (f = find_in_set(k, name))) {
		*in = k;
		return f;
	}
	for (size_t i = 0; i < c->nflagsets; i++)
		if ((f = find_in_set(&c->flagsets[i], name))) {
			*in = &c->flagsets[i];
			return f;
		}
	return NULL;
}

const struct field *cstruct_find_field(const struct cstruct *st, const char *name)
{
	for (size_t i = 0; i < st->nfields; i++) {
		const struct field *f = &st->fields[i];
		if (!strcmp(f->name, name))
			return f;
		for (size_t j = 0; j < f->naliases; j++)
			if (!strcmp(f->aliases[j], name))
				return f;
	}
	return NULL;
}

const struct field *cstruct_field_at(const struct cstruct *st, size_t off)
{
	for (size_t i = 0; i < st->nfields; i++)
		if (off >= st->fields[i].offset && off < st->fields[i].offset + st->fields[i].size)
			return &st->fields[i];
	return NULL;
}

size_t cstruct_flagsets(const struct cstruct *st, const struct flagset **sets, size_t n, size_t max)
{
	for (size_t i = 0; st && i < st->nfields; i++) {
		const struct flagset *fs = st->fields[i].flagset;
		bool seen = !fs;
		for (size_t k = 0; k < n && !seen; k++)
			seen = sets[k] == fs;
		if (!seen && n < max)
			sets[n++] = fs;
	}
	return n;
}

unsigned cstruct_newest_size(const struct cstruct *st)
{
	return st->nversions ? st->versions[st->nversions - 1].size : st->size;
}

unsigned cstruct_size_at(const struct cstruct *st, uint32_t kv)
{
	unsigned size = 0;
	for (size_t i = 0; i < st->nversions; i++)
		if (!kv || st->versions[i].since <= kv)
			size = st->versions[i].size;
	return st->nversions ? size : st->size;
}

const struct sversion *cstruct_find_version(const struct cstruct *st, const char *name)
{
	for (size_t i = 0; i < st->nversions; i++)
		if (st->versions[i].name && !strcmp(st->versions[i].name, name))
			return &st->versions[i];
	return NULL;
}

static const char *const ftype_names[] = {
	[FT_U8] = "u8", [FT_U16] = "u16", [FT_U32] = "u32", [FT_U64] = "u64",
	[FT_S8] = "s8", [FT_S16] = "s16", [FT_S32] = "s32", [FT_S64] = "s64",
	[FT_ALIGNED_U64] = "aligned_u64", [FT_PTR] = "ptr", [FT_CHAR] = "char",
};

const char *ftype_name(enum ftype t) { return ftype_names[t]; }

bool ftype_signed(enum ftype t)
{
	return t == FT_S8 || t == FT_S16 || t == FT_S32 || t == FT_S64;
}

const char *arg_role_name(enum arg_role r)
{
	static const char *const names[] = {
		[AR_FD] = "fd", [AR_PATH] = "path", [AR_STRUCT] = "struct", [AR_SIZE] = "size",
		[AR_FLAGS] = "flags", [AR_PID] = "pid", [AR_INT] = "int", [AR_PTR] = "ptr",
		[AR_CMD] = "cmd",
	};
	return names[r];
}

/* Moves every pointer of c by delta; each must land inside [lo, hi) (or be NULL). */
struct reloc_ctx {
	ptrdiff_t delta;
	const unsigned char *lo, *hi;
	bool bad;
};

static void *mv(struct reloc_ctx *r, const void *p)
{
	if (!p)
		return NULL;
	const unsigned char *q = (const unsigned char *)p + r->delta;
	if (q < r->lo || q >= r->hi) {
		r->bad = true;
		return NULL;
	}
	return (void *)q;
}

#define MV(r, p) ((p) = mv((r), (p)))
#define MV_STRS(r, arr, n)                          \
	do {                                        \
		MV(r, arr);                         \
		for (size_t k_ = 0; (arr) && k_ < (n); k_++) \
			MV(r, (arr)[k_]);           \
	} while (0)

int catalog_relocate(struct catalog *c, ptrdiff_t delta, const void *lo, size_t len)
{
	struct reloc_ctx r = { delta, lo, (const unsigned char *)lo + len, false };
	MV(&r, c->flagsets);
	MV(&r, c->structs);
	MV(&r, c->syscalls);
	if (r.bad)
		return -1;
	for (size_t i = 0; i < c->nflagsets && !r.bad; i++) {
		struct flagset *fs = &c->flagsets[i];
		MV(&r, fs->name), MV(&r, fs->prefix), MV(&r, fs->header), MV(&r, fs->doc), MV(&r, fs->file);
		MV(&r, fs->flags);
		for (size_t k = 0; fs->flags && k < fs->nflags && !r.bad; k++) {
			struct flag *f = &fs->flags[k];
			MV(&r, f->name), MV(&r, f->doc);
			MV_STRS(&r, f->companions, f->ncompanions);
		}
	}
	for (size_t i = 0; i < c->nstructs && !r.bad; i++) {
		struct cstruct *st = &c->structs[i];
		MV(&r, st->name), MV(&r, st->header), MV(&r, st->doc), MV(&r, st->file);
		MV(&r, st->fields), MV(&r, st->versions), MV(&r, st->size_field);
		MV(&r, st->direction);
		for (size_t k = 0; st->fields && k < st->nfields && !r.bad; k++) {
			struct field *f = &st->fields[k];
			MV(&r, f->name), MV(&r, f->doc), MV(&r, f->zero), MV(&r, f->type_text), MV(&r, f->flagset);
			MV_STRS(&r, f->aliases, f->naliases);
		}
		for (size_t k = 0; st->versions && k < st->nversions; k++)
			MV(&r, st->versions[k].name);
	}
	for (size_t i = 0; i < c->nsyscalls && !r.bad; i++) {
		struct syscall *sc = &c->syscalls[i];
		MV(&r, sc->name), MV(&r, sc->header), MV(&r, sc->prototype), MV(&r, sc->summary), MV(&r, sc->file);
		MV(&r, sc->ioctl_fd), MV(&r, sc->st), MV(&r, sc->size_name);
		MV(&r, sc->kind), MV(&r, sc->safety), MV(&r, sc->ioctl_dir);
		MV(&r, sc->rules.zero), MV(&r, sc->rules.below_ver0), MV(&r, sc->rules.tail);
		MV(&r, sc->rules.writeback), MV(&r, sc->rules.check_order), MV(&r, sc->rules.cap_errno);
		MV_STRS(&r, sc->rules.ignore_unknown, sc->rules.nignore_unknown);
		MV(&r, sc->args), MV(&r, sc->errors), MV(&r, sc->lineage);
		for (size_t k = 0; sc->args && k < sc->nargs; k++) {
			struct sarg *a = &sc->args[k];
			MV(&r, a->name), MV(&r, a->type), MV(&r, a->def), MV(&r, a->doc), MV(&r, a->st), MV(&r, a->flagset);
		}
		for (size_t k = 0; sc->errors && k < sc->nerrors; k++)
			MV(&r, sc->errors[k].errno_name), MV(&r, sc->errors[k].meaning);
		for (size_t k = 0; sc->lineage && k < sc->nlineage; k++)
			MV(&r, sc->lineage[k].name), MV(&r, sc->lineage[k].why);
		MV_STRS(&r, sc->notes, sc->nnotes);
		MV_STRS(&r, sc->links, sc->nlinks);
		MV_STRS(&r, sc->features, sc->nfeatures);
		MV_STRS(&r, sc->probe_set, sc->nprobe_set);
		MV_STRS(&r, sc->probe_args, sc->nprobe_args);
		MV_STRS(&r, sc->probe_skip, sc->nprobe_skip);
		MV_STRS(&r, sc->probe_refuses, sc->nprobe_refuses);
		MV(&r, sc->probe_note);
	}
	return r.bad ? -1 : 0;
}
