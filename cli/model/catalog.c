#include "model/catalog.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/sbuf.h"
#include "model/expr.h"
#include "model/xlat.h"
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

const struct flagset *catalog_find_strace_table(const struct catalog *c, const char *name)
{
	FIND(c->strace_tables, c->nstrace_tables, name);
}

static const struct flag *find_in_set_own(const struct flagset *fs, const char *name)
{
	FIND(fs->flags, fs->nflags, name);
}

static const struct flag *find_in_strace_names(const struct flagset *fs, const char *name)
{
	FIND(fs->strace.extra, fs->strace.nextra, name);
}

/* A flag of the set, or a name its strace table has (statx's AT_REMOVEDIR): a pasted line
 * may hold it */
static const struct flag *find_in_set(const struct flagset *fs, const char *name)
{
	const struct flag *f = find_in_set_own(fs, name);
	return f ? f : find_in_strace_names(fs, name);
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
	for (size_t i = 0; i < c->nstrace_tables; i++)
		if ((f = find_in_set(&c->strace_tables[i], name))) {
			*in = &c->strace_tables[i];
			return f;
		}
	return NULL;
}

uint64_t flagset_known_bits(const struct flagset *fs, uint32_t kv)
{
	uint64_t k = 0;
	for (size_t i = 0; i < fs->nflags; i++)
		if (kver_has(kv, fs->flags[i].since, fs->flags[i].backported))
			k |= fs->flags[i].value;
	return k;
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

bool check_in_force(const struct check *ck, uint32_t kv)
{
	return kver_has(kv, ck->since, ck->backported) && !(ck->until && kver_has(kv, ck->until, ck->until_backported));
}

unsigned cstruct_newest_size(const struct cstruct *st)
{
	return st->nversions ? st->versions[st->nversions - 1].size : st->size;
}

unsigned cstruct_size_at(const struct cstruct *st, uint32_t kv)
{
	unsigned size = 0;
	for (size_t i = 0; i < st->nversions; i++)
		if (!kv || kver_has(kv, st->versions[i].since, st->versions[i].backported))
			size = st->versions[i].size;
	return st->nversions ? size : st->size;
}

const struct field *cstruct_version_last_field(const struct cstruct *st, size_t i)
{
	const struct sversion *v = &st->versions[i];
	const struct field *last = NULL;
	for (size_t k = 0; k < st->nfields; k++) {
		const struct field *f = &st->fields[k];
		if (f->since <= v->since && f->offset + f->size <= v->size && (!last || f->offset > last->offset))
			last = f;
	}
	return last;
}

size_t cstruct_field_version(const struct cstruct *st, const struct field *f, bool *inside)
{
	size_t cover = st->nversions;
	*inside = false;
	for (size_t i = 0; i < st->nversions; i++) {
		/* a later version of the field's own release brought it (rseq's slice_ctrl and the
		 * 33-byte feature size), wherever it lies */
		if (st->versions[i].since == f->since)
			return i;
		if (cover == st->nversions && f->offset + f->size <= st->versions[i].size)
			cover = i;
	}
	/* else it lies in the first version that covers it, from that version's release or
	 * later inside its bytes (rseq's node_id and mm_cid of 6.3 in the 4.18 struct) */
	if (cover < st->nversions)
		*inside = f->since > st->versions[cover].since;
	return cover;
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

const char *const fformat_names[] = {
	[FF_DEC] = "dec", [FF_HEX] = "hex", [FF_OCTAL] = "octal", [FF_PTR] = "ptr", [FF_SIGNAL] = "signal",
	[FF_FD] = "fd", [FF_MODE] = "mode", [FF_EPOCH] = "epoch", [FF_BIT_NUMBERS] = "bit_numbers", [FF_LAST + 1] = NULL,
};

const char *fformat_name(enum fformat f) { return (unsigned)f <= FF_LAST ? fformat_names[f] : NULL; }

bool ftype_signed(enum ftype t)
{
	return t == FT_S8 || t == FT_S16 || t == FT_S32 || t == FT_S64;
}

const char *size_answer_name(const struct size_answer *a)
{
	switch (a->kind) {
	case SA_OK: return "ok";
	case SA_VER0: return "ver0";
	case SA_ERRNO: return errno_name(a->err);
	default: return NULL;
	}
}

const char *size_tail_name(enum size_tail t)
{
	static const char *const names[] = { [TAIL_UNSAID] = NULL, [TAIL_E2BIG] = "E2BIG", [TAIL_ZEROED] = "zeroed",
					     [TAIL_UNTOUCHED] = "untouched", [TAIL_IGNORED] = "ignored" };
	return (unsigned)t <= TAIL_LAST ? names[t] : NULL;
}

const char *size_writeback_name(enum size_writeback w)
{
	static const char *const names[] = { [WB_NONE] = "none", [WB_SIZE_ON_E2BIG] = "size-on-e2big",
					     [WB_SIZE_ON_SUCCESS] = "size-on-success", [WB_REQUIRED_SIZE] = "required-size" };
	return (unsigned)w <= WB_LAST ? names[w] : NULL;
}

/* The kernel's C types of syscall arguments on a 64-bit architecture (LP64): pointers, long,
 * size_t and the 64-bit fixed types take a whole register; int, pid_t and the 32-bit ones the
 * low half. Unsigned: "unsigned …", size_t and the u/__u types (and pointers). */
void sarg_type(struct sarg *a)
{
	const char *t = a->type ? a->type : "int";
	a->is_ptr = strchr(t, '*') != NULL;
	bool wide = a->is_ptr || strstr(t, "long") || strstr(t, "64") || strstr(t, "size_t");
	a->width = wide ? 8 : 4;
	bool u = a->is_ptr || strstr(t, "unsigned") || (strstr(t, "size_t") && !strstr(t, "ssize_t")) ||
		 !strncmp(t, "u", 1) || !strncmp(t, "__u", 3);
	a->is_signed = !u;
}

uint64_t sarg_bits(const struct sarg *a, uint64_t reg)
{
	return a->width >= 8 ? reg : (uint32_t)reg;
}

const char *fdir_name(enum fdir d)
{
	static const char *const names[] = { [FD_DEFAULT] = "default", [FD_IN] = "in", [FD_OUT] = "out",
					     [FD_INOUT] = "inout", [FD_IGNORED] = "ignored" };
	return (unsigned)d <= FD_LAST ? names[d] : NULL;
}

enum fdir struct_direction(const struct syscall *sc, const struct cstruct *st)
{
	return sc && sc->direction != FD_DEFAULT && sc->st == st ? sc->direction : st->direction;
}

enum fdir field_direction(const struct syscall *sc, const struct cstruct *st, const struct field *f)
{
	enum fdir d = struct_direction(sc, st);
	if (f->direction == FD_IGNORED)
		return FD_IGNORED;
	if (d != FD_INOUT || f->direction == FD_DEFAULT)
		return d;
	return f->direction;
}

bool field_is_input(const struct syscall *sc, const struct cstruct *st, const struct field *f)
{
	enum fdir d = field_direction(sc, st, f);
	return d == FD_IN || d == FD_INOUT;
}

bool syscall_has_size_steps(const struct syscall *sc)
{
	return sc->st && sc->has_rules && sc->size_where != SW_NONE && sc->size_where != SW_POINTER;
}

const struct cstruct *syscall_tail_struct(const struct syscall *sc)
{
	return sc->rules.tail_struct ? sc->rules.tail_struct : sc->st;
}

unsigned syscall_ver0(const struct syscall *sc)
{
	if (sc->rules.min)
		return sc->rules.min;
	return sc->st && sc->st->nversions ? sc->st->versions[0].size : 0;
}

int syscall_struct_arg(const struct syscall *sc)
{
	for (size_t i = 0; i < sc->nargs && i < 6; i++)
		if (sc->args[i].role == AR_STRUCT && (!sc->args[i].st || sc->args[i].st == sc->st))
			return (int)i;
	return -1;
}

bool syscall_size_output(const struct syscall *sc)
{
	return sc->rules.tail != TAIL_UNSAID && sc->rules.tail != TAIL_E2BIG;
}

const char *check_step_name(enum check_step s)
{
	static const char *const names[] = {
		[CS_NULL] = "struct-null", [CS_ZERO] = "size-zero", [CS_CAP] = "size-cap",
		[CS_BELOW_VER0] = "size-below-ver0", [CS_COPY_IN] = "copy-in", [CS_COPY_OUT] = "copy-out",
	};
	return (unsigned)s <= CS_LAST ? names[s] : NULL;
}

bool check_step_applies(const struct syscall *sc, enum check_step s)
{
	const struct size_rules *r = &sc->rules;
	switch (s) {
	case CS_NULL: return r->null_errno != 0;
	case CS_ZERO: return r->zero.kind == SA_ERRNO || r->zero.kind == SA_VER0;
	case CS_CAP: return r->cap;
	case CS_BELOW_VER0: return r->below_ver0.kind == SA_ERRNO && syscall_ver0(sc); /* no first size, nothing below it */
	case CS_COPY_IN: return true;
	case CS_COPY_OUT: return syscall_size_output(sc) && sc->direction != FD_IN; /* an input call writes nothing back */
	default: return false;
	}
}

static const char *const step_rules[] = { [CS_NULL] = "null", [CS_ZERO] = "zero", [CS_CAP] = "cap",
	[CS_BELOW_VER0] = "below_ver0", [CS_COPY_IN] = "tail", [CS_COPY_OUT] = "tail" };

void check_describe_step(struct arena *a, const struct syscall *sc, struct check *ck, const char *source)
{
	const struct size_rules *r = &sc->rules;
	int sa = syscall_struct_arg(sc);
	char text[96], why[160];
	const char *e = NULL;
	ck->since = sc->since;
	switch (ck->step) {
	case CS_NULL:
		snprintf(text, sizeof(text), "%s == NULL", sa >= 0 ? sc->args[sa].name : "the struct");
		snprintf(why, sizeof(why), "the struct pointer is NULL");
		e = errno_name(r->null_errno);
		break;
	case CS_ZERO:
		snprintf(text, sizeof(text), "size == 0");
		if (r->zero.kind == SA_VER0)
			snprintf(why, sizeof(why), "size 0 is read as the first version, %u bytes (an old-ABI quirk)", syscall_ver0(sc));
		else
			snprintf(why, sizeof(why), "size 0 is refused"), e = errno_name(r->zero.err);
		break;
	case CS_CAP:
		snprintf(text, sizeof(text), "size > %llu", (unsigned long long)r->cap);
		snprintf(why, sizeof(why), "the size is above the %llu-byte cap", (unsigned long long)r->cap);
		e = errno_name(r->cap_errno);
		ck->since = r->cap_since > sc->since ? r->cap_since : sc->since;
		memcpy(ck->backported, r->cap_backported, sizeof(ck->backported));
		break;
	case CS_BELOW_VER0:
		snprintf(text, sizeof(text), "size < %u", syscall_ver0(sc));
		snprintf(why, sizeof(why), "the size is below the first version, %u bytes", syscall_ver0(sc));
		e = errno_name(r->below_ver0.err);
		break;
	case CS_COPY_IN:
		if (syscall_size_output(sc)) {
			snprintf(text, sizeof(text), "the struct is read");
			snprintf(why, sizeof(why), "the kernel reads the struct (an output call: its tail is %s)", size_tail_name(r->tail));
		} else {
			snprintf(text, sizeof(text), "a nonzero byte past the kernel's struct");
			snprintf(why, sizeof(why), "bytes past the kernel's struct must be zero; a short struct is zero-filled");
			e = "E2BIG";
		}
		break;
	default: /* CS_COPY_OUT */
		snprintf(text, sizeof(text), "the struct is written back");
		snprintf(why, sizeof(why), "the kernel writes the struct back (tail %s, write-back %s)", size_tail_name(r->tail),
			 size_writeback_name(r->writeback));
		break;
	}
	char src[96];
	snprintf(src, sizeof(src), "the catalogue's size rules (rules.%s; no kernel source recorded)", step_rules[ck->step]);
	ck->text = arena_strdup(a, text);
	ck->why = arena_strdup(a, why);
	ck->errno_name = e ? arena_strdup(a, e) : NULL;
	ck->err = e ? errno_from_name(e) : 0;
	if (ck->errno_name) {
		ck->errnos = arena_alloc(a, sizeof(*ck->errnos));
		ck->errnos[0] = ck->errno_name;
		ck->nerrnos = 1;
	}
	ck->source = source ? source : arena_strdup(a, src);
}

/* The default order of the steps that check the size and copy the struct in. */
static const enum check_step size_block[] = { CS_ZERO, CS_CAP, CS_BELOW_VER0, CS_NULL, CS_COPY_IN };

size_t checks_find_step(const struct check *list, size_t n, enum check_step s)
{
	for (size_t i = 0; i < n; i++)
		if (list[i].step == s)
			return i;
	return n;
}

/* Where size_block[k] goes when other steps of the block are in the list: after the last
 * (in the list) of those before it in the default order, else before the first of those
 * after it. */
static size_t default_place(const struct check *list, size_t n, size_t k)
{
	size_t after = n, before = n;
	for (size_t j = 0; j < ARRAY_SIZE(size_block); j++) {
		size_t at = checks_find_step(list, n, size_block[j]);
		if (at == n)
			continue;
		if (j < k && (after == n || at > after))
			after = at;
		if (j > k && at < before)
			before = at;
	}
	return after < n ? after + 1 : before < n ? before : 0;
}

/* Inserts at list[at], moving the rest (and their JSON indices) up. */
static void insert_step(struct arena *a, const struct syscall *sc, struct check *list, long *pos, size_t *n,
			size_t at, enum check_step s)
{
	memmove(list + at + 1, list + at, sizeof(*list) * (*n - at));
	memset(&list[at], 0, sizeof(*list));
	list[at].step = s;
	if (pos) {
		memmove(pos + at + 1, pos + at, sizeof(*pos) * (*n - at));
		pos[at] = -1;
	}
	++*n;
	check_describe_step(a, sc, &list[at], NULL);
}

void checks_insert_steps(struct arena *a, const struct syscall *sc, struct check *list, long *pos, size_t *n)
{
	size_t nblock = ARRAY_SIZE(size_block), front = 0;
	bool any = false;
	for (size_t k = 0; k < nblock; k++)
		any |= checks_find_step(list, *n, size_block[k]) < *n;
	for (size_t k = 0; k < nblock; k++) {
		enum check_step s = size_block[k];
		if (check_step_applies(sc, s) && checks_find_step(list, *n, s) == *n)
			insert_step(a, sc, list, pos, n, any ? default_place(list, *n, k) : front++, s);
	}
	if (check_step_applies(sc, CS_COPY_OUT) && checks_find_step(list, *n, CS_COPY_OUT) == *n)
		insert_step(a, sc, list, pos, n, *n, CS_COPY_OUT);
}

bool check_before_copy_in(const struct syscall *sc, const struct check *ck)
{
	if (!syscall_has_size_steps(sc) || ck < sc->checks || ck >= sc->checks + sc->nchecks)
		return false;
	return (size_t)(ck - sc->checks) < checks_find_step(sc->checks, sc->nchecks, CS_COPY_IN);
}

const char *sc_kind_name(enum sc_kind k)
{
	static const char *const names[] = {
		[SK_EXTENSIBLE] = "extensible", [SK_FLAGS_ONLY] = "flags-only", [SK_MULTIPLEXER] = "multiplexer",
		[SK_FIXED_PADDED] = "fixed-padded", [SK_LEGACY] = "legacy",
	};
	return names[k];
}

const char *safety_name(enum safety s)
{
	static const char *const names[] = {
		[SAFE_PURE] = "pure", [SAFE_SANDBOX] = "sandbox", [SAFE_NAMESPACE] = "namespace",
		[SAFE_PRIVILEGED] = "privileged",
	};
	return names[s];
}

const char *ioctl_dir_name(enum ioctl_dir d)
{
	static const char *const names[] = { [IOD_NONE] = "none", [IOD_W] = "w", [IOD_R] = "r", [IOD_RW] = "rw" };
	return names[d];
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

static const char *const env_kind_names[ENV_NKINDS] = {
	[ENV_PATH] = "path", [ENV_FD] = "fd", [ENV_POINTER] = "pointer", [ENV_PRIVILEGE] = "privilege",
	[ENV_HARDWARE] = "hardware", [ENV_LSM] = "lsm", [ENV_FILESYSTEM] = "filesystem",
	[ENV_OBJECT] = "object", [ENV_PID] = "pid", [ENV_MEMORY] = "memory",
	[ENV_CONFIG] = "config", [ENV_SIGNAL] = "signal",
};

const char *env_kind_name(enum env_kind k) { return env_kind_names[k]; }

int env_kind_from_name(const char *name)
{
	for (int k = 0; k < ENV_NKINDS; k++)
		if (!strcmp(env_kind_names[k], name))
			return k;
	return -1;
}

void check_errnos_env(const struct check *ck, struct sbuf *en, struct sbuf *env)
{
	for (size_t i = 0; i < ck->nerrnos; i++)
		sbuf_addf(en, "%s%s", i ? "/" : "", ck->errnos[i]);
	if (!ck->nerrnos)
		sbuf_adds(en, ck->errno_name);
	for (int k = 0, n = 0; k < ENV_NKINDS; k++)
		if (ck->env & 1u << k)
			sbuf_addf(env, "%s%s", n++ ? ", " : "", env_kind_names[k]);
}

/* Moves every pointer of c by delta and checks, before anything reads through it, that it
 * points where a pointer of its kind may: an array of n elements wholly inside [lo, hi) and
 * aligned for its type, a string whose NUL is inside, a reference to an element of the
 * catalogue's own arrays. Enumerations and booleans must hold one of their values. A cache
 * is data from a file: nothing in it is believed before it is checked. */
struct reloc_ctx {
	ptrdiff_t delta;
	const unsigned char *lo, *hi;
	bool bad;
};

static const void *mv(struct reloc_ctx *r, const void *p)
{
	if (!p || r->bad)
		return NULL;
	uintptr_t q = (uintptr_t)p + (uintptr_t)r->delta; /* unsigned: wraps instead of overflowing */
	if (q < (uintptr_t)r->lo || q >= (uintptr_t)r->hi) {
		r->bad = true;
		return NULL;
	}
	return (const void *)q;
}

/* An array of n elements of size elem and alignment al; NULL only when n is 0. */
static void *mv_arr(struct reloc_ctx *r, const void *p, size_t n, size_t elem, size_t al)
{
	const unsigned char *q = mv(r, p);
	if (!q) {
		r->bad |= n > 0;
		return NULL;
	}
	if ((uintptr_t)q % al || n > (size_t)(r->hi - q) / elem)
		r->bad = true;
	return r->bad ? NULL : (void *)q;
}

static const char *mv_str(struct reloc_ctx *r, const char *p)
{
	const char *q = mv(r, p);
	if (q && !memchr(q, 0, (size_t)(r->hi - (const unsigned char *)q)))
		r->bad = true;
	return r->bad ? NULL : q;
}

/* A reference to an element of arr[0..n) (elements of size elem), or NULL. */
static const void *mv_ref(struct reloc_ctx *r, const void *p, const void *arr, size_t n, size_t elem)
{
	const unsigned char *q = mv(r, p), *a = arr;
	if (q && (!a || q < a || (size_t)(q - a) % elem || (size_t)(q - a) / elem >= n))
		r->bad = true;
	return r->bad ? NULL : q;
}

static void check_bool(struct reloc_ctx *r, const bool *b)
{
	unsigned char v;
	memcpy(&v, b, 1);
	r->bad |= v > 1;
}

#define MV_ARR(r, p, n) ((p) = mv_arr((r), (p), (n), sizeof(*(p)), _Alignof(__typeof__(*(p)))))
#define MV_STR(r, p) ((p) = mv_str((r), (p)))
#define MV_REF(r, p, arr, n) ((p) = mv_ref((r), (p), (arr), (n), sizeof(*(arr))))
#define MV_STRS(r, arr, n)                                         \
	do {                                                       \
		MV_ARR(r, arr, n);                                 \
		for (size_t k_ = 0; (arr) && k_ < (n); k_++) {     \
			MV_STR(r, (arr)[k_]);                      \
			(r)->bad |= !(arr)[k_];                    \
		}                                                  \
	} while (0)
#define ENUM_OK(r, v, last) ((r)->bad |= (unsigned)(v) > (unsigned)(last))

static void reloc_flagset(struct reloc_ctx *r, struct flagset *fs)
{
	MV_STR(r, fs->name), MV_STR(r, fs->prefix), MV_STR(r, fs->header), MV_STR(r, fs->doc), MV_STR(r, fs->file);
	ENUM_OK(r, fs->kind, FS_ENUM);
	MV_ARR(r, fs->flags, fs->nflags);
	for (size_t k = 0; fs->flags && k < fs->nflags && !r->bad; k++) {
		struct flag *f = &fs->flags[k];
		MV_STR(r, f->name), MV_STR(r, f->doc), MV_STR(r, f->prov.source);
		check_bool(r, &f->mask), check_bool(r, &f->negative), check_bool(r, &f->prov.unverified);
		MV_STRS(r, f->companions, f->ncompanions);
	}
	struct strace_xlat *x = &fs->strace;
	MV_STR(r, x->source), MV_STR(r, x->unknown), check_bool(r, &x->first_by_value);
	MV_ARR(r, x->first, x->nfirst), MV_ARR(r, x->order, x->norder), MV_ARR(r, x->extra, x->nextra);
	for (size_t k = 0; x->extra && k < x->nextra && !r->bad; k++)
		MV_STR(r, x->extra[k].name), MV_STR(r, x->extra[k].doc), MV_STR(r, x->extra[k].prov.source),
			check_bool(r, &x->extra[k].mask), r->bad |= !x->extra[k].name || x->extra[k].ncompanions;
	for (size_t k = 0; x->first && k < x->nfirst; k++)
		r->bad |= x->first[k] >= fs->nflags + x->nextra;
	for (size_t k = 0; x->order && k < x->norder; k++)
		r->bad |= x->order[k] >= fs->nflags + x->nextra;
}

/* strace's view of a struct: its items' fields are the struct's own, their tables the
 * catalogue's; printers and conditions are held to their tables by catalog_check */
static void reloc_view(struct reloc_ctx *r, const struct catalog *c, struct cstruct *st)
{
	MV_ARR(r, st->view, st->nview);
	for (size_t k = 0; st->view && k < st->nview && !r->bad; k++) {
		struct strace_item *it = &st->view[k];
		MV_STR(r, it->name), MV_STR(r, it->unknown), MV_STR(r, it->comment), MV_STR(r, it->newer);
		MV_STRS(r, it->comments, it->ncomments);
		MV_REF(r, it->field, st->fields, st->nfields);
		MV_STR(r, it->cond.text), MV_ARR(r, it->cond.code, it->cond.ncode);
		const struct flagset *t = it->table;
		it->table = NULL;
		if (t && !r->bad) /* a flag set or a strace table */
			it->table = (const struct flagset *)mv(r, t);
		r->bad |= t && !it->table;
		if (it->table) {
			const struct flagset *fs = it->table;
			bool in_sets = fs >= c->flagsets && fs < c->flagsets + c->nflagsets;
			bool in_tables = fs >= c->strace_tables && fs < c->strace_tables + c->nstrace_tables;
			const struct flagset *base = in_sets ? c->flagsets : c->strace_tables;
			r->bad |= (!in_sets && !in_tables) ||
				  ((const unsigned char *)fs - (const unsigned char *)base) % sizeof(*fs);
		}
		r->bad |= !it->name || !it->field;
		ENUM_OK(r, it->format, FF_LAST);
		check_bool(r, &it->version_name), check_bool(r, &it->as_comment), check_bool(r, &it->nonzero);
		check_bool(r, &it->abbrev_nonzero), check_bool(r, &it->verbose_only), check_bool(r, &it->changed);
	}
}

static void reloc_struct(struct reloc_ctx *r, const struct catalog *c, struct cstruct *st)
{
	MV_STR(r, st->name), MV_STR(r, st->header), MV_STR(r, st->doc), MV_STR(r, st->file);
	ENUM_OK(r, st->direction, FD_LAST);
	check_bool(r, &st->packed), check_bool(r, &st->align_stated);
	MV_ARR(r, st->fields, st->nfields), MV_ARR(r, st->versions, st->nversions);
	MV_REF(r, st->size_field, st->fields, st->nfields);
	MV_STR(r, st->strace_source), check_bool(r, &st->tail_more), check_bool(r, &st->strace_by_version);
	for (size_t k = 0; st->fields && k < st->nfields && !r->bad; k++) {
		struct field *f = &st->fields[k];
		MV_STR(r, f->name), MV_STR(r, f->doc), MV_STR(r, f->zero), MV_STR(r, f->type_text);
		MV_STR(r, f->prov.source), check_bool(r, &f->prov.unverified);
		MV_STR(r, f->shown_if.text), MV_ARR(r, f->shown_if.code, f->shown_if.ncode);
		MV_STR(r, f->written_if.text), MV_ARR(r, f->written_if.code, f->written_if.ncode);
		MV_REF(r, f->flagset, c->flagsets, c->nflagsets);
		MV_STRS(r, f->aliases, f->naliases);
		ENUM_OK(r, f->type, FT_CHAR), ENUM_OK(r, f->format, FF_LAST), ENUM_OK(r, f->direction, FD_LAST);
		check_bool(r, &f->reserved), check_bool(r, &f->string), check_bool(r, &f->verbose_only), check_bool(r, &f->strace_extra);
		MV_REF(r, f->high, st->fields, st->nfields), check_bool(r, &f->is_high), check_bool(r, &f->format_stated);
	}
	MV_ARR(r, st->strace_entry, st->nstrace_entry), MV_ARR(r, st->strace_exit, st->nstrace_exit);
	check_bool(r, &st->strace_entry_if_set), MV_REF(r, st->strace_count, st->fields, st->nfields);
	check_bool(r, &st->strace_partial);
	for (size_t k = 0; st->strace_entry && k < st->nstrace_entry; k++)
		r->bad |= st->strace_entry[k] >= st->nfields;
	for (size_t k = 0; st->strace_exit && k < st->nstrace_exit; k++)
		r->bad |= st->strace_exit[k] >= st->nfields;
	for (size_t k = 0; st->versions && k < st->nversions; k++) {
		struct sversion *v = &st->versions[k];
		MV_STR(r, v->name), MV_STR(r, v->internal), MV_STR(r, v->prov.source);
		check_bool(r, &v->prov.unverified);
	}
	reloc_view(r, c, st);
}

static void reloc_syscall_lists(struct reloc_ctx *r, const struct catalog *c, struct syscall *sc)
{
	MV_ARR(r, sc->args, sc->nargs), MV_ARR(r, sc->errors, sc->nerrors), MV_ARR(r, sc->lineage, sc->nlineage);
	for (size_t k = 0; sc->args && k < sc->nargs && !r->bad; k++) {
		struct sarg *a = &sc->args[k];
		MV_STR(r, a->name), MV_STR(r, a->type), MV_STR(r, a->def), MV_STR(r, a->doc);
		MV_REF(r, a->st, c->structs, c->nstructs), MV_REF(r, a->flagset, c->flagsets, c->nflagsets);
		ENUM_OK(r, a->role, AR_CMD), check_bool(r, &a->is_signed), check_bool(r, &a->is_ptr);
		ENUM_OK(r, a->direction, FD_LAST), MV_STR(r, a->strace_source), check_bool(r, &a->strace_numeric);
		ENUM_OK(r, a->strace_format, FF_LAST), MV_STR(r, a->signal_name), MV_STR(r, a->signal_means);
	}
	for (size_t k = 0; sc->errors && k < sc->nerrors; k++)
		MV_STR(r, sc->errors[k].errno_name), MV_STR(r, sc->errors[k].meaning);
	MV_ARR(r, sc->checks, sc->nchecks);
	for (size_t k = 0; sc->checks && k < sc->nchecks && !r->bad; k++) {
		struct check *ck = &sc->checks[k];
		MV_STR(r, ck->text), MV_STR(r, ck->errno_name), MV_STR(r, ck->source), MV_STR(r, ck->why);
		MV_STRS(r, ck->errnos, ck->nerrnos);
		r->bad |= ck->env >> ENV_NKINDS != 0;
		check_bool(r, &ck->lookup_parent);
		MV_ARR(r, ck->code, ck->ncode); /* its indices are held to expr_valid by catalog_check */
		ENUM_OK(r, ck->step, CS_LAST), check_bool(r, &ck->placed);
	}
	MV_STRS(r, sc->probe_skip_args, sc->nprobe_skip_args);
	MV_ARR(r, sc->queries, sc->nqueries);
	for (size_t k = 0; sc->queries && k < sc->nqueries && !r->bad; k++) {
		struct probe_query *q = &sc->queries[k];
		MV_STR(r, q->name), MV_STR(r, q->read), MV_STR(r, q->in), MV_STR(r, q->count), MV_STR(r, q->auxv);
		MV_STRS(r, q->args, q->nargs);
		MV_STRS(r, q->set, q->nset);
		MV_REF(r, q->st, c->structs, c->nstructs);
	}
	MV_ARR(r, sc->results, sc->nresults);
	for (size_t k = 0; sc->results && k < sc->nresults && !r->bad; k++) {
		struct result_rule *rr = &sc->results[k];
		MV_STR(r, rr->text), MV_STR(r, rr->source);
		MV_ARR(r, rr->code, rr->ncode); /* its indices are held to expr_valid by catalog_check */
	}
	MV_ARR(r, sc->effects, sc->neffects);
	for (size_t k = 0; sc->effects && k < sc->neffects && !r->bad; k++) {
		struct effect_rule *er = &sc->effects[k];
		MV_STR(r, er->text), MV_STR(r, er->signal_text), MV_STR(r, er->source), MV_STR(r, er->why);
		MV_ARR(r, er->code, er->ncode), MV_ARR(r, er->signal_code, er->nsignal_code); /* held to expr_valid */
	}
	MV_ARR(r, sc->fills, sc->nfills);
	for (size_t k = 0; sc->fills && k < sc->nfills && !r->bad; k++) {
		struct fill_rule *fr = &sc->fills[k];
		MV_STR(r, fr->text), MV_STR(r, fr->value_text), MV_STR(r, fr->source);
		MV_ARR(r, fr->code, fr->ncode), MV_ARR(r, fr->value_code, fr->nvalue_code); /* held to expr_valid */
		check_bool(r, &fr->entry); /* in_arg and field: held to the struct by catalog_check */
	}
	MV_STR(r, sc->entries.name), MV_REF(r, sc->entries.st, c->structs, c->nstructs);
	for (size_t k = 0; sc->lineage && k < sc->nlineage; k++)
		MV_STR(r, sc->lineage[k].name), MV_STR(r, sc->lineage[k].why);
	MV_STRS(r, sc->notes, sc->nnotes);
	MV_STRS(r, sc->links, sc->nlinks);
	MV_STRS(r, sc->features, sc->nfeatures);
	MV_STRS(r, sc->probe_set, sc->nprobe_set);
	MV_STRS(r, sc->probe_args, sc->nprobe_args);
	MV_STRS(r, sc->probe_skip, sc->nprobe_skip);
	MV_STRS(r, sc->probe_refuses, sc->nprobe_refuses);
}

static void reloc_syscall(struct reloc_ctx *r, const struct catalog *c, struct syscall *sc)
{
	MV_STR(r, sc->name), MV_STR(r, sc->header), MV_STR(r, sc->prototype), MV_STR(r, sc->summary), MV_STR(r, sc->file);
	MV_STR(r, sc->ioctl_fd), MV_STR(r, sc->size_name);
	ENUM_OK(r, sc->kind, SK_LEGACY), ENUM_OK(r, sc->safety, SAFE_PRIVILEGED), ENUM_OK(r, sc->ioctl_dir, IOD_RW);
	MV_REF(r, sc->st, c->structs, c->nstructs);
	ENUM_OK(r, sc->rules.zero.kind, SA_ERRNO), ENUM_OK(r, sc->rules.below_ver0.kind, SA_ERRNO);
	ENUM_OK(r, sc->rules.tail, TAIL_LAST), ENUM_OK(r, sc->rules.writeback, WB_LAST);
	MV_STR(r, sc->rules.check_order);
	MV_STRS(r, sc->rules.ignore_unknown, sc->rules.nignore_unknown);
	MV_REF(r, sc->rules.tail_struct, c->structs, c->nstructs);
	MV_STR(r, sc->probe_note), MV_STR(r, sc->simulation_only);
	ENUM_OK(r, sc->size_where, SW_NONE), ENUM_OK(r, sc->direction, FD_LAST);
	check_bool(r, &sc->is_ioctl), check_bool(r, &sc->has_rules), check_bool(r, &sc->designed);
	check_bool(r, &sc->check_fields);
	ENUM_OK(r, sc->returns, RET_PID);
	reloc_syscall_lists(r, c, sc);
}

int catalog_relocate(struct catalog *c, ptrdiff_t delta, const void *lo, size_t len)
{
	struct reloc_ctx r = { delta, lo, (const unsigned char *)lo + len, false };
	MV_ARR(&r, c->flagsets, c->nflagsets);
	MV_ARR(&r, c->strace_tables, c->nstrace_tables);
	MV_ARR(&r, c->structs, c->nstructs);
	MV_ARR(&r, c->syscalls, c->nsyscalls);
	for (size_t i = 0; i < c->nflagsets && !r.bad; i++)
		reloc_flagset(&r, &c->flagsets[i]);
	for (size_t i = 0; i < c->nstrace_tables && !r.bad; i++)
		reloc_flagset(&r, &c->strace_tables[i]);
	for (size_t i = 0; i < c->nstructs && !r.bad; i++)
		reloc_struct(&r, c, &c->structs[i]);
	for (size_t i = 0; i < c->nsyscalls && !r.bad; i++)
		reloc_syscall(&r, c, &c->syscalls[i]);
	return r.bad ? -1 : 0;
}

static void widen(uint32_t v, uint32_t *lo, uint32_t *hi)
{
	if (v && (!*lo || v < *lo))
		*lo = v;
	if (v > *hi)
		*hi = v;
}

void catalog_widen_span(const struct catalog *c, uint32_t *lo, uint32_t *hi)
{
	for (size_t i = 0; i < c->nsyscalls; i++) {
		const struct syscall *sc = &c->syscalls[i];
		widen(sc->since, lo, hi);
		/* a check or a measured result dated at a release speaks for it too (landlock's ABI
		 * 11 measured on 7.3) */
		for (size_t k = 0; k < sc->nchecks; k++)
			if (sc->checks[k].since)
				widen(sc->checks[k].since, lo, hi);
		for (size_t k = 0; k < sc->nresults; k++)
			widen(sc->results[k].since, lo, hi);
	}
	for (size_t i = 0; i < c->nstructs; i++) {
		for (size_t k = 0; k < c->structs[i].nversions; k++)
			widen(c->structs[i].versions[k].since, lo, hi);
		for (size_t k = 0; k < c->structs[i].nfields; k++)
			widen(c->structs[i].fields[k].since, lo, hi);
	}
	for (size_t i = 0; i < c->nflagsets; i++)
		for (size_t k = 0; k < c->flagsets[i].nflags; k++)
			widen(c->flagsets[i].flags[k].since, lo, hi);
}
