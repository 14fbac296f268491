/* The loaders of flag sets, strace's tables and structs (model/loaders.h). */
#include "model/loaders.h"
#include "model/loadrules.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/sbuf.h"
#include "model/decode.h"
#include "model/kver.h"
#include "base/banned.h"

/* ---- provenance ---- */

/* "backported" (or key): the stable releases that have a change before its since, each with
 * its patch level ("6.1.192"), of a release before since, at most KVER_NBACKPORTS; into bp,
 * zero-terminated (model/kver.h kver_has). */
void load_backports(struct loader *L, json_t *o, const char *key, uint32_t since, uint32_t bp[KVER_NBACKPORTS],
			   const char *what)
{
	size_t n;
	char a[16];
	const char **v = get_strings(L, o, key, what, &n);
	memset(bp, 0, sizeof(uint32_t) * KVER_NBACKPORTS);
	push_key(L, key);
	if (n > KVER_NBACKPORTS)
		lerr(L, "'%s' names %zu releases; at most %d", key, n, KVER_NBACKPORTS);
	for (size_t i = 0; i < n && !L->failed; i++) {
		push_idx(L, i);
		if (kver_parse(v[i], &bp[i], 0) < 0 || !(bp[i] & 0xff))
			lerr(L, "'%s' takes stable releases with their patch level, like \"6.1.192\", not \"%s\"", key, v[i]);
		else if (since && kver_release(bp[i]) >= kver_release(since))
			lerr(L, "%s is not before the release it is dated at (%s)", v[i], kver_str(since, a));
		pop_step(L);
	}
	pop_step(L);
}

/* A field's shown_if and written_if: over the struct's fields and flag names, compiled once
 * every field is known. */
static void load_field_conds(struct loader *L, json_t *arr, struct cstruct *st)
{
	struct expr_scope scope = { L->cat, NULL, st };
	push_key(L, "fields");
	for (size_t i = 0; i < st->nfields && !L->failed; i++) {
		json_t *fo = json_array_get(arr, i);
		struct field *f = &st->fields[i];
		push_idx(L, i);
		if ((f->shown_if.text = get_str(L, fo, "shown_if", false, "a field")) && !L->failed)
			compile_condition(L, &scope, "shown_if", f->shown_if.text, &f->shown_if.code, &f->shown_if.ncode);
		if ((f->written_if.text = get_str(L, fo, "written_if", false, "a field")) && !L->failed)
			compile_condition(L, &scope, "written_if", f->written_if.text, &f->written_if.code,
					  &f->written_if.ncode);
		pop_step(L);
	}
	pop_step(L);
}

/* A flag's, field's or size version's "source" (where its value and "since" come from: a
 * header at a version, a commit, a kernel file and function), "unverified" (true: no
 * source confirms its "since") and "backported" (stable releases that have it before
 * "since": "6.1.192", into bp; NULL: checked and dropped). The layout test
 * (tests/layout/compare.py) reads and counts source and unverified; show, the reference and
 * the census page print them. */
void load_provenance(struct loader *L, json_t *o, const char *what, uint32_t since, uint32_t *bp,
			    struct provenance *pv)
{
	uint32_t none[KVER_NBACKPORTS];
	pv->source = get_str(L, o, "source", false, what);
	pv->unverified = get_bool(L, o, "unverified");
	load_backports(L, o, "backported", since, bp ? bp : none, what);
}

/* A condition in the expression language (model/expr.h), compiled into the arena. A fault
 * is reported at its column (counted in the JSON text, so an escape sequence before it
 * shifts the column). */
void compile_condition(struct loader *L, const struct expr_scope *scope, const char *key, const char *text,
			      struct expr_insn **code_out, size_t *ncode)
{
	struct expr_insn code[EXPR_MAX_CODE];
	struct sbuf why = SBUF_INIT;
	size_t pos = 0;
	int n = expr_parse(scope, text, code, &pos, &why);
	if (n < 0) {
		push_key(L, key);
		L->shift = 1 + pos; /* past the opening quote */
		lerr(L, "%s", why.buf);
		L->shift = 0;
		pop_step(L);
	} else {
		*ncode = (size_t)n;
		*code_out = arena_alloc(L->a, sizeof(**code_out) * (size_t)n);
		memcpy(*code_out, code, sizeof(**code_out) * (size_t)n);
	}
	sbuf_release(&why);
}

/* ---- flagsets ---- */

static const char *const flag_keys[] = { "name", "value", "since", "doc", "mask", "companions", "source",
					 "unverified", "backported", NULL };
static const char *const flagset_keys[] = { "name", "kind", "prefix", "header", "doc", "flags", "value_bits", "strace",
					    NULL };
static const char *const strace_keys[] = { "source", "unknown", "first", "first_mask", "first_lookup", "order", "names",
					   NULL };
static const char *const strace_lookups[] = { "bits", "value", NULL };
static const char *const flagset_kinds[] = { "bits", "enum", NULL };

/* "value_bits" names a mask flag of a bit set whose bits hold one value (open's access mode). */
static void load_value_bits(struct loader *L, json_t *o, struct flagset *fs)
{
	const char *vb = get_str(L, o, "value_bits", false, "a flag set");
	if (!vb || L->failed)
		return;
	push_key(L, "value_bits");
	for (size_t i = 0; i < fs->nflags; i++)
		if (!strcmp(fs->flags[i].name, vb) && fs->flags[i].mask)
			fs->value_mask = fs->flags[i].value;
	if (fs->kind != FS_BITS || !fs->value_mask)
		lerr(L, "'%s' is not a mask flag of this bit set", vb);
	pop_step(L);
}

/* A list of the set's flag names in strace's table order, as indices into fs->flags. */
static unsigned *load_strace_names(struct loader *L, json_t *o, const char *key, const struct flagset *fs, size_t *n)
{
	const char **names = get_strings(L, o, key, "strace's table", n);
	if (!names || L->failed)
		return NULL;
	unsigned *idx = arena_alloc(L->a, sizeof(*idx) * (*n + 1));
	push_key(L, key);
	const struct strace_xlat *x = &fs->strace;
	for (size_t i = 0; i < *n && !L->failed; i++) {
		size_t k = 0;
		while (k < fs->nflags && strcmp(fs->flags[k].name, names[i]))
			k++;
		for (size_t e = 0; k == fs->nflags + e && e < x->nextra; e++)
			k += !!strcmp(x->extra[e].name, names[i]);
		if (k == fs->nflags + x->nextra)
			lerr(L, "'%s' is not a flag of '%s' nor one of its strace table's \"names\"", names[i], fs->name);
		for (size_t j = 0; j < i && !L->failed; j++)
			if (idx[j] == k)
				lerr(L, "'%s' is listed twice", names[i]);
		idx[i] = (unsigned)k;
	}
	pop_step(L);
	return idx;
}

/* "names": the entries of strace's table that the set does not hold (flags the call
 * refuses, which strace names all the same: statx's AT_REMOVEDIR), name to value. */
static void load_strace_extra(struct loader *L, json_t *so, struct flagset *fs)
{
	json_t *no = get_member(L, so, "names", false, "strace's table");
	struct strace_xlat *x = &fs->strace;
	if (!no || L->failed)
		return;
	push_key(L, "names");
	if (!json_is_object(no) || fs->kind != FS_BITS)
		lerr(L, "\"names\" is an object of flag names and values, in a bit set's table");
	x->extra = arena_alloc(L->a, sizeof(*x->extra) * (json_object_size(no) + 1));
	const char *name;
	json_t *v;
	json_object_foreach(no, name, v) {
		if (L->failed)
			break;
		struct flag *f = &x->extra[x->nextra];
		f->name = arena_strdup(L->a, name);
		if (!json_is_string(v) || !parse_c_int(json_string_value(v), false, &f->value) || !f->value)
			lerr(L, "'%s': the value must be a nonzero C integer literal such as \"0x200\"", name);
		for (size_t i = 0; i < fs->nflags && !L->failed; i++)
			if (!strcmp(fs->flags[i].name, name))
				lerr(L, "'%s' is a flag of '%s': list it in \"order\" alone", name, fs->name);
		x->nextra++;
	}
	pop_step(L);
}

/* "strace": the order and tables strace prints the set with, and where they come from. */
static void load_strace_xlat(struct loader *L, json_t *o, struct flagset *fs)
{
	json_t *so = get_member(L, o, "strace", false, "a flag set");
	struct strace_xlat *x = &fs->strace;
	if (!so || L->failed)
		return;
	push_key(L, "strace");
	if (check_object(L, so, "strace's table", strace_keys)) {
		x->source = get_str(L, so, "source", true, "strace's table");
		x->unknown = get_str(L, so, "unknown", false, "strace's table");
		load_strace_extra(L, so, fs);
		x->order = load_strace_names(L, so, "order", fs, &x->norder);
		x->first = load_strace_names(L, so, "first", fs, &x->nfirst);
		x->first_by_value = get_choice(L, so, "first_lookup", "strace's table", strace_lookups, 0) == 1;
		const char *m = get_str(L, so, "first_mask", false, "strace's table");
		for (size_t i = 0; m && i < fs->nflags; i++)
			if (!strcmp(fs->flags[i].name, m) && fs->flags[i].mask)
				x->first_mask = fs->flags[i].value;
		if (!L->failed && fs->kind == FS_ENUM && x->nfirst)
			lerr(L, "an enum's strace table is looked up by value: its \"order\" lists the names it has, no \"first\"");
		else if (!L->failed && fs->kind == FS_BITS && (!x->norder || !m != !x->nfirst || (m && !x->first_mask)))
			lerr(L, "strace's table needs an \"order\", and \"first\" with \"first_mask\" (a mask flag) or neither");
	}
	pop_step(L);
}

void load_flagset(struct loader *L, json_t *o, struct flagset *fs)
{
	if (!check_object(L, o, "a flag set", flagset_keys))
		return;
	fs->file = arena_strdup(L->a, L->src->name);
	fs->name = get_str(L, o, "name", true, "a flag set");
	fs->kind = (enum flagset_kind)get_choice(L, o, "kind", "a flag set", flagset_kinds, -1);
	fs->prefix = get_str(L, o, "prefix", false, "a flag set");
	fs->header = get_str(L, o, "header", true, "a flag set");
	fs->doc = get_str(L, o, "doc", true, "a flag set");
	json_t *arr = get_array(L, o, "flags", true, "a flag set");
	if (L->failed)
		return;
	fs->flags = arena_alloc(L->a, sizeof(*fs->flags) * (json_array_size(arr) + 1));
	push_key(L, "flags");
	for (size_t i = 0; i < json_array_size(arr) && !L->failed; i++) {
		json_t *fo = json_array_get(arr, i);
		struct flag *f = &fs->flags[i];
		push_idx(L, i);
		if (check_object(L, fo, "a flag", flag_keys)) {
			f->name = get_str(L, fo, "name", true, "a flag");
			f->doc = get_str(L, fo, "doc", false, "a flag");
			f->since = get_kver(L, fo, "since", true, "a flag");
			f->mask = get_bool(L, fo, "mask");
			f->companions = get_strings(L, fo, "companions", "a flag", &f->ncompanions);
			load_provenance(L, fo, "a flag", f->since, f->backported, &f->prov);
			json_t *v = get_member(L, fo, "value", true, "a flag");
			if (v && !L->failed) {
				push_key(L, "value");
				if (json_is_integer(v) && json_integer_value(v) >= 0)
					f->value = (uint64_t)json_integer_value(v);
				else if (json_is_integer(v) && fs->kind == FS_ENUM)
					f->value = (uint64_t)json_integer_value(v);
				else if (!json_is_string(v) ||
					 !parse_c_int(json_string_value(v), fs->kind == FS_ENUM, &f->value)) {
					if (json_is_string(v) && errno == ERANGE)
						lerr(L, "'value' %s does not fit in 64 bits", json_string_value(v));
					else
						lerr(L, "'value' must be a C integer literal such as \"0x20\"%s",
						     fs->kind == FS_ENUM ? " or \"-100\"" : "");
				}
				f->negative = fs->kind == FS_ENUM && (json_is_integer(v) ? json_integer_value(v) < 0
											: json_is_string(v) && json_string_value(v)[0] == '-');
				pop_step(L);
			}
			if (!L->failed && fs->kind == FS_BITS && !f->value && !f->mask)
				lerr(L, "flag '%s' is 0 in a bit set; mark it \"mask\": true if it names the absence of bits", f->name);
			for (size_t j = 0; j < i && !L->failed; j++)
				if (!strcmp(fs->flags[j].name, f->name))
					lerr(L, "duplicate flag '%s' in set '%s'", f->name, fs->name);
		}
		pop_step(L);
		fs->nflags = i + 1;
	}
	pop_step(L);
	load_value_bits(L, o, fs);
	load_strace_xlat(L, o, fs);
}

/* ---- strace's tables ---- */

static const char *const strace_table_keys[] = { "name", "source", "kind", "unknown", "entries", NULL };
static const char *const strace_entry_keys[] = { "name", "value", NULL };

/* One of strace's xlat tables that is no flag set of the catalogue (perf's PERF_COUNT_HW_*):
 * a flag set of its entries, in its order, with the table as its source. */
void load_strace_table(struct loader *L, json_t *o, struct flagset *fs)
{
	if (!check_object(L, o, "a strace table", strace_table_keys))
		return;
	fs->file = arena_strdup(L->a, L->src->name);
	fs->name = get_str(L, o, "name", true, "a strace table");
	fs->strace.source = fs->header = fs->doc = get_str(L, o, "source", true, "a strace table");
	fs->kind = (enum flagset_kind)get_choice(L, o, "kind", "a strace table", flagset_kinds, -1);
	fs->strace.unknown = get_str(L, o, "unknown", true, "a strace table");
	json_t *arr = get_array(L, o, "entries", true, "a strace table");
	if (L->failed)
		return;
	size_t n = json_array_size(arr);
	fs->flags = arena_alloc(L->a, sizeof(*fs->flags) * (n + 1));
	fs->strace.order = arena_alloc(L->a, sizeof(*fs->strace.order) * (n + 1));
	push_key(L, "entries");
	for (size_t i = 0; i < n && !L->failed; i++) {
		json_t *eo = json_array_get(arr, i);
		struct flag *f = &fs->flags[i];
		push_idx(L, i);
		if (check_object(L, eo, "a strace table's entry", strace_entry_keys)) {
			f->name = get_str(L, eo, "name", true, "a strace table's entry");
			const char *v = get_str(L, eo, "value", true, "a strace table's entry");
			if (v && !parse_c_int(v, false, &f->value))
				lerr(L, "'value' must be a C integer literal such as \"0x20\"");
			else if (!L->failed && fs->kind == FS_BITS && !f->value)
				lerr(L, "entry '%s' is 0 in a bit table", f->name);
			for (size_t j = 0; j < i && !L->failed; j++)
				if (!strcmp(fs->flags[j].name, f->name))
					lerr(L, "'%s' is listed twice", f->name);
		}
		fs->strace.order[i] = (unsigned)i;
		fs->nflags = fs->strace.norder = i + 1;
		pop_step(L);
	}
	pop_step(L);
	if (!L->failed && !n)
		lerr(L, "strace table '%s' has no entries", fs->name);
}

/* ---- structs ---- */

static const char *const field_keys[] = { "name", "type", "offset", "since", "zero", "doc", "flagset",
					  "aliases", "reserved", "string", "format", "shown_if", "written_if", "direction",
					  "source", "unverified", "backported", "verbose_only", "strace_extra", "high", NULL };
static const char *const struct_keys[] = { "name", "header", "doc", "direction", "packed", "align",
					   "fields", "versions", "strace", NULL };
static const char *const struct_strace_keys[] = { "source", "tail", "size", "by_version", "entry", "exit", "view",
						  "entry_if_set", "count", "partial", NULL };
static const char *const view_keys[] = { "name", "field", "bits", "if", "table", "format", "printer", "version",
					 "unknown", "comment", "comments", "newer", "as", "nonzero", "abbrev",
					 "verbose_only", "changed", NULL };
static const char *const view_as[] = { "value", "comment", NULL };
static const char *const view_abbrevs[] = { "always", "nonzero", NULL };
static const char *const struct_tails[] = { "bytes", "more", NULL };
static const char *const version_keys[] = { "name", "size", "since", "internal", "source", "unverified", "backported",
					     NULL };
const char *const ld_directions[] = { "in", "out", "inout", NULL }; /* enum fdir from FD_IN */
static const char *const field_directions[] = { "in", "out", "inout", "ignored", NULL }; /* from FD_IN */

static const struct { const char *name; enum ftype t; unsigned size; } ftypes[] = {
	{ "u8", FT_U8, 1 }, { "u16", FT_U16, 2 }, { "u32", FT_U32, 4 }, { "u64", FT_U64, 8 },
	{ "s8", FT_S8, 1 }, { "s16", FT_S16, 2 }, { "s32", FT_S32, 4 }, { "s64", FT_S64, 8 },
	{ "aligned_u64", FT_ALIGNED_U64, 8 }, { "ptr", FT_PTR, 8 }, { "char", FT_CHAR, 1 },
};

bool ld_parse_ftype(const char *s, struct field *f)
{
	size_t n = strcspn(s, "[");
	for (size_t i = 0; i < ARRAY_SIZE(ftypes); i++) {
		if (strlen(ftypes[i].name) != n || strncmp(ftypes[i].name, s, n))
			continue;
		f->type = ftypes[i].t;
		f->elem_size = ftypes[i].size;
		f->count = 0;
		if (s[n]) {
			char *end;
			if (s[n + 1] < '1' || s[n + 1] > '9')
				return false;
			errno = 0;
			unsigned long c = strtoul(s + n + 1, &end, 10);
			if (errno || c > 65536 || strcmp(end, "]"))
				return false;
			f->count = (unsigned)c;
		}
		f->size = f->elem_size * (f->count ? f->count : 1);
		return true;
	}
	return false;
}

const struct flagset *resolve_flagset(struct loader *L, json_t *o, const char *key)
{
	const char *name = get_str(L, o, key, false, "");
	if (!name || L->failed)
		return NULL;
	const struct flagset *fs = catalog_find_flagset(L->cat, name);
	if (!fs) {
		push_key(L, key);
		lerr(L, "unknown flag set '%s'", name);
		pop_step(L);
	}
	return fs;
}

/* A field's own direction: ignored anywhere; in, out or inout only in a struct that goes both
 * ways (in a one-way struct every field goes the struct's way). */
static void load_field_direction(struct loader *L, json_t *fo, struct cstruct *st, struct field *f)
{
	if (!json_object_get(fo, "direction") || L->failed)
		return;
	f->direction = (enum fdir)(get_choice(L, fo, "direction", "a field", field_directions, 0) + FD_IN);
	if (!L->failed && f->direction != FD_IGNORED && st->direction != FD_INOUT) {
		push_key(L, "direction");
		lerr(L, "field '%s' says \"%s\" in a struct whose direction is \"%s\": a field has a direction of its own only in an inout struct (or \"ignored\")",
		     f->name ? f->name : "?", fdir_name(f->direction), fdir_name(st->direction));
		pop_step(L);
	}
}

/* One field's keys: its name, type, offset, dates, words, flag set and format. */
static void load_field_keys(struct loader *L, json_t *fo, struct cstruct *st, struct field *f)
{
	uint64_t off = 0;
	f->name = get_str(L, fo, "name", true, "a field");
	f->type_text = get_str(L, fo, "type", true, "a field");
	if (f->type_text && !ld_parse_ftype(f->type_text, f)) {
		push_key(L, "type");
		lerr(L, "unknown type \"%s\" (u8 u16 u32 u64 s8 s16 s32 s64 aligned_u64 ptr char, or T[N])", f->type_text);
		pop_step(L);
	}
	get_uint(L, fo, "offset", true, "a field", 0, 1u << 20, &off);
	f->offset = (unsigned)off;
	f->since = get_kver(L, fo, "since", true, "a field");
	f->zero = get_str(L, fo, "zero", false, "a field");
	f->doc = get_str(L, fo, "doc", false, "a field");
	f->flagset = resolve_flagset(L, fo, "flagset");
	f->aliases = get_strings(L, fo, "aliases", "a field", &f->naliases);
	f->reserved = get_bool(L, fo, "reserved");
	load_provenance(L, fo, "a field", 0, NULL, &f->prov);
	f->string = get_bool(L, fo, "string");
	f->verbose_only = get_bool(L, fo, "verbose_only");
	f->strace_extra = get_bool(L, fo, "strace_extra");
	f->format = (enum fformat)get_choice(L, fo, "format", "a field", fformat_names, FF_DEC);
	f->format_stated = json_object_get(fo, "format") != NULL;
	if (f->format == FF_BIT_NUMBERS && (!f->flagset || f->flagset->kind != FS_ENUM))
		lerr(L, "field '%s' has format \"bit_numbers\": it needs an enum \"flagset\" naming the bit numbers", f->name);
	load_field_direction(L, fo, st, f);
	if (f->string)
		f->format = FF_PTR;
}

/* Field i's name and aliases are none of the earlier fields' names and aliases. */
static void check_field_unique(struct loader *L, const struct cstruct *st, size_t i)
{
	const struct field *f = &st->fields[i];
	for (size_t j = 0; j < i && !L->failed; j++) {
		const struct field *g = &st->fields[j];
		bool dup = !strcmp(g->name, f->name);
		for (size_t k = 0; k < g->naliases; k++)
			dup |= !strcmp(g->aliases[k], f->name);
		for (size_t k = 0; k < f->naliases; k++)
			dup |= !strcmp(g->name, f->aliases[k]);
		if (dup)
			lerr(L, "duplicate field '%s' in struct '%s'", f->name, st->name);
	}
}

/* A bits flag set's values fit the field that holds them. */
static void check_flags_fit(struct loader *L, const struct field *f)
{
	if (!f->flagset || f->flagset->kind != FS_BITS || f->size > 8)
		return;
	unsigned bits = f->elem_size * 8;
	for (size_t k = 0; k < f->flagset->nflags && !L->failed; k++)
		if (bits < 64 && f->flagset->flags[k].value >> bits)
			lerr(L, "flag %s = %#llx of set '%s' does not fit field '%s' (%s)",
			     f->flagset->flags[k].name, (unsigned long long)f->flagset->flags[k].value,
			     f->flagset->name, f->name, f->type_text);
}

static void load_fields(struct loader *L, json_t *arr, struct cstruct *st, unsigned *natural)
{
	st->fields = arena_alloc(L->a, sizeof(*st->fields) * (json_array_size(arr) + 1));
	unsigned end = 0;
	*natural = 1;
	push_key(L, "fields");
	for (size_t i = 0; i < json_array_size(arr) && !L->failed; i++) {
		json_t *fo = json_array_get(arr, i);
		struct field *f = &st->fields[i];
		push_idx(L, i);
		if (!check_object(L, fo, "a field", field_keys))
			goto next;
		load_field_keys(L, fo, st, f);
		if (L->failed)
			goto next;
		check_field_unique(L, st, i);
		if (L->failed)
			goto next;
		push_key(L, "offset");
		unsigned align = st->packed ? 1 : f->elem_size;
		if (f->offset < end)
			lerr(L, "field '%s' at offset %u overlaps '%s' (bytes %u..%u)", f->name, f->offset,
			     st->fields[i - 1].name, st->fields[i - 1].offset, end - 1);
		else if (f->offset > end)
			lerr(L, "a hole of %u bytes (offsets %u..%u) before field '%s'; write the padding as an explicit reserved field",
			     f->offset - end, end, f->offset - 1, f->name);
		else if (f->offset % align)
			lerr(L, "field '%s' (%s) at offset %u is not aligned to %u bytes", f->name, f->type_text, f->offset, align);
		pop_step(L);
		if (align > *natural)
			*natural = align;
		end = f->offset + f->size;
		check_flags_fit(L, f);
	next:
		pop_step(L);
		st->nfields = i + 1;
	}
	pop_step(L);
	st->size = end;
}

static void load_versions(struct loader *L, json_t *arr, struct cstruct *st)
{
	st->versions = arena_alloc(L->a, sizeof(*st->versions) * (json_array_size(arr) + 1));
	push_key(L, "versions");
	for (size_t i = 0; i < json_array_size(arr) && !L->failed; i++) {
		json_t *vo = json_array_get(arr, i);
		struct sversion *v = &st->versions[i];
		uint64_t size = 0;
		push_idx(L, i);
		if (check_object(L, vo, "a size version", version_keys)) {
			v->name = get_str(L, vo, "name", false, "a size version");
			get_uint(L, vo, "size", true, "a size version", 1, 1u << 20, &size);
			v->size = (unsigned)size;
			v->since = get_kver(L, vo, "since", true, "a size version");
			/* the kernel-internal header that defines a name uapi lacks (layout test) */
			v->internal = get_str(L, vo, "internal", false, "a size version");
			load_provenance(L, vo, "a size version", v->since, v->backported, &v->prov);
		}
		if (!L->failed) {
			push_key(L, "size");
			bool boundary = v->size == st->size;
			for (size_t k = 0; k < st->nfields; k++)
				if (st->fields[k].offset + st->fields[k].size == v->size)
					boundary = true;
			if (i && v->size <= st->versions[i - 1].size)
				lerr(L, "size %u is not larger than the previous version's %u", v->size, st->versions[i - 1].size);
			else if (i && v->since < st->versions[i - 1].since) {
				pop_step(L);
				push_key(L, "since");
				lerr(L, "version of size %u is older than the previous version", v->size);
			}
			else if (v->size > st->size)
				lerr(L, "size %u is larger than the struct (%u bytes)", v->size, st->size);
			else if (!boundary)
				lerr(L, "size %u does not end on a field boundary", v->size);
			pop_step(L);
		}
		pop_step(L);
		st->nversions = i + 1;
	}
	pop_step(L);
}

/* "strace": how strace's own decoder sees the struct. */
static void load_struct_strace(struct loader *L, json_t *o, struct cstruct *st)
{
	json_t *so = get_member(L, o, "strace", false, "a struct");
	if (!so || L->failed)
		return;
	push_key(L, "strace");
	if (check_object(L, so, "strace's view of a struct", struct_strace_keys)) {
		st->strace_source = get_str(L, so, "source", true, "strace's view of a struct");
		st->tail_more = get_choice(L, so, "tail", "strace's view of a struct", struct_tails, 0) == 1;
		st->strace_by_version = get_bool(L, so, "by_version");
		/* "size": where that strace's struct ends, when before the catalogue's; xsc's
		 * lines show the fields past it (its tests tell such lines apart), and strace's
		 * "..." for bytes past it that no field shows */
		uint64_t ss = 0;
		(void)get_uint(L, so, "size", false, "strace's view of a struct", 1, 1u << 20, &ss);
		st->strace_size = (unsigned)ss;
	}
	pop_step(L);
}

/* "bits" of a view item: a flag of its field's set (perf's "disabled", "precise_ip") or a C
 * mask ("0xffffffc000000000"); the item shows them shifted down. */
static void load_item_bits(struct loader *L, json_t *io, struct strace_item *it)
{
	const char *b = get_str(L, io, "bits", false, "a view item");
	if (!b || L->failed)
		return;
	const struct flagset *fs = it->field->flagset;
	for (size_t i = 0; fs && i < fs->nflags; i++)
		if (!strcmp(fs->flags[i].name, b))
			it->mask = fs->flags[i].value;
	if (!it->mask && !parse_c_int(b, false, &it->mask)) {
		push_key(L, "bits");
		lerr(L, "'%s' is neither a flag of field '%s' nor a C mask", b, it->field->name);
		pop_step(L);
	}
}

/* How a view item names its value: a table (a strace table, else a flag set), a printer of
 * decode.c, the struct's version names, or a format. */
static void load_item_names(struct loader *L, json_t *io, const struct cstruct *st, struct strace_item *it)
{
	const char *t = get_str(L, io, "table", false, "a view item");
	const char *p = get_str(L, io, "printer", false, "a view item");
	it->version_name = get_bool(L, io, "version");
	it->unknown = get_str(L, io, "unknown", false, "a view item");
	it->format = (enum fformat)get_choice(L, io, "format", "a view item", fformat_names, 0);
	if (L->failed)
		return;
	if (t && !(it->table = catalog_find_strace_table(L->cat, t)) && !(it->table = catalog_find_flagset(L->cat, t)))
		lerr(L, "no strace table or flag set named '%s'", t);
	else if (p && !(it->printer = decode_printer_find(p)))
		lerr(L, "no printer named '%s' (model/decode.c strace_printers)", p);
	else if (!!t + !!p + it->version_name > 1)
		lerr(L, "a view item takes one of \"table\", \"printer\" and \"version\"");
	else if (it->version_name && (!it->unknown || !st->nversions))
		lerr(L, "\"version\" names a size by the struct's versions, with strace's \"unknown\" comment");
}

static void load_view_item(struct loader *L, json_t *io, const struct cstruct *st, struct strace_item *it)
{
	if (!check_object(L, io, "a view item", view_keys))
		return;
	it->name = get_str(L, io, "name", true, "a view item");
	const char *fname = get_str(L, io, "field", false, "a view item");
	if (L->failed)
		return;
	if (!(it->field = cstruct_find_field(st, fname ? fname : it->name)) || it->field->count) {
		lerr(L, "'%s' is not a scalar field of struct '%s'", fname ? fname : it->name, st->name);
		return;
	}
	load_item_bits(L, io, it);
	load_item_names(L, io, st, it);
	it->comment = get_str(L, io, "comment", false, "a view item");
	it->comments = get_strings(L, io, "comments", "a view item", &it->ncomments);
	it->newer = get_str(L, io, "newer", false, "a view item");
	it->as_comment = get_choice(L, io, "as", "a view item", view_as, 0) == 1;
	it->abbrev_nonzero = get_choice(L, io, "abbrev", "a view item", view_abbrevs, 0) == 1;
	it->nonzero = get_bool(L, io, "nonzero");
	it->verbose_only = get_bool(L, io, "verbose_only");
	it->changed = get_bool(L, io, "changed");
	struct expr_scope scope = { L->cat, NULL, st };
	if ((it->cond.text = get_str(L, io, "if", false, "a view item")) && !L->failed)
		compile_condition(L, &scope, "if", it->cond.text, &it->cond.code, &it->cond.ncode);
}

/* "view": strace's own view of the struct, item by item (perf_event_attr), read once the
 * fields are known. */
static void load_struct_view(struct loader *L, json_t *o, struct cstruct *st)
{
	json_t *so = json_object_get(o, "strace");
	json_t *arr = so ? get_array(L, so, "view", false, "strace's view of a struct") : NULL;
	if (!arr || L->failed)
		return;
	push_key(L, "strace");
	push_key(L, "view");
	st->view = arena_alloc(L->a, sizeof(*st->view) * (json_array_size(arr) + 1));
	for (size_t i = 0; i < json_array_size(arr) && !L->failed; i++) {
		push_idx(L, i);
		load_view_item(L, json_array_get(arr, i), st, &st->view[i]);
		st->nview = i + 1;
		pop_step(L);
	}
	if (!L->failed && !st->nview)
		lerr(L, "an empty view");
	pop_step(L);
	pop_step(L);
}

/* The struct's alignment (given, or its fields' natural one) and its size rounded to it:
 * tail padding the alignment implies must be an explicit field. False on an error. */
static bool struct_align(struct loader *L, struct cstruct *st, bool has_align, uint64_t align, unsigned natural)
{
	st->align = has_align ? (unsigned)align : natural;
	st->align_stated = has_align;
	if (st->align < natural) {
		push_key(L, "align");
		lerr(L, "'align' %u is smaller than the struct's natural alignment %u", st->align, natural);
		pop_step(L);
		return false;
	}
	unsigned rounded = (st->size + st->align - 1) / st->align * st->align;
	if (rounded != st->size && !has_align && (L->flags & CATALOG_DRAFT))
		return true; /* a struct being designed may end mid-alignment until it is exported */
	if (rounded != st->size && !has_align) {
		push_key(L, "fields");
		push_idx(L, st->nfields - 1);
		lerr(L, "struct '%s' ends at %u but its alignment makes it %u bytes: %u bytes of implicit tail padding; add an explicit field",
		     st->name, st->size, rounded, rounded - st->size);
		pop_step(L);
		pop_step(L);
		return false;
	}
	st->size = rounded;
	return true;
}

/* Every field exists no earlier than the version that first covers it. */
static void check_fields_dated(struct loader *L, const struct cstruct *st)
{
	push_key(L, "fields");
	for (size_t i = 0; i < st->nfields && !L->failed; i++) {
		const struct field *f = &st->fields[i];
		push_idx(L, i);
		const struct sversion *cover = NULL;
		for (size_t k = 0; k < st->nversions && !cover; k++)
			if (st->versions[k].size >= f->offset + f->size)
				cover = &st->versions[k];
		char a[16], b[16];
		if (!cover && !f->reserved && !(L->flags & CATALOG_DRAFT))
			lerr(L, "field '%s' lies past the newest size version (%u bytes)", f->name,
			     st->versions[st->nversions - 1].size);
		else if (cover && f->since < cover->since)
			lerr(L, "field '%s' is dated %s but the first size that holds it is from %s", f->name,
			     kver_str(f->since, a), kver_str(cover->since, b));
		else if (!f->zero)
			lerr(L, "field '%s' of a versioned struct has no 'zero' (what the value 0 means)", f->name);
		pop_step(L);
	}
	pop_step(L);
}

/* strace's "entry" or "exit" list: field names, or a group "a" standing for every "a.b"
 * field in order (io_uring_params' sq_off), as indices into st->fields. */
static unsigned *load_strace_fields(struct loader *L, json_t *so, const char *key, const struct cstruct *st, size_t *n)
{
	size_t nnames = 0;
	const char **names = get_strings(L, so, key, "strace's view of a struct", &nnames);
	*n = 0;
	if (!names || L->failed)
		return NULL;
	unsigned *idx = arena_alloc(L->a, sizeof(*idx) * (st->nfields + 1));
	push_key(L, key);
	for (size_t i = 0; i < nnames && !L->failed; i++) {
		size_t len = strlen(names[i]), before = *n;
		for (size_t k = 0; k < st->nfields; k++) {
			const char *fn = st->fields[k].name;
			if (strcmp(fn, names[i]) && (strncmp(fn, names[i], len) || fn[len] != '.'))
				continue;
			for (size_t j = 0; j < *n; j++)
				if (idx[j] == k)
					lerr(L, "field '%s' is listed twice", fn);
			if (*n < st->nfields)
				idx[(*n)++] = (unsigned)k;
		}
		if (*n == before)
			lerr(L, "'%s' is no field (nor group of fields) of '%s'", names[i], st->name);
	}
	pop_step(L);
	return idx;
}

/* A field's "high": the u32 field holding its value's upper half, strace joining the two. */
static void load_field_highs(struct loader *L, json_t *arr, struct cstruct *st)
{
	push_key(L, "fields");
	for (size_t i = 0; i < st->nfields && !L->failed; i++) {
		struct field *f = &st->fields[i];
		const char *h = get_str(L, json_array_get(arr, i), "high", false, "a field");
		if (!h)
			continue;
		push_idx(L, i);
		push_key(L, "high");
		for (size_t k = 0; k < st->nfields; k++)
			if (k != i && !strcmp(st->fields[k].name, h))
				f->high = &st->fields[k];
		if (!f->high)
			lerr(L, "'%s' is no field of '%s'", h, st->name);
		else if (f->high->is_high || f->high->high || f->elem_size != 4 || f->count || f->high->elem_size != 4 || f->high->count)
			lerr(L, "'%s' and its high half '%s' must be two u32 fields, each in one pair", f->name, h);
		else
			((struct field *)f->high)->is_high = true;
		pop_step(L);
		pop_step(L);
	}
	pop_step(L);
}

void load_struct(struct loader *L, json_t *o, struct cstruct *st)
{
	if (!check_object(L, o, "a struct", struct_keys))
		return;
	st->file = arena_strdup(L->a, L->src->name);
	st->name = get_str(L, o, "name", true, "a struct");
	st->header = get_str(L, o, "header", true, "a struct");
	st->doc = get_str(L, o, "doc", true, "a struct");
	st->direction = (enum fdir)(get_choice(L, o, "direction", "a struct", ld_directions, 0) + FD_IN);
	st->packed = get_bool(L, o, "packed");
	load_struct_strace(L, o, st);
	uint64_t align = 0;
	bool has_align = get_uint(L, o, "align", false, "a struct", 1, 4096, &align);
	json_t *fields = get_array(L, o, "fields", true, "a struct");
	json_t *versions = get_array(L, o, "versions", true, "a struct");
	if (L->failed)
		return;
	if (has_align && (align & (align - 1))) {
		push_key(L, "align");
		lerr(L, "'align' must be a power of two");
		pop_step(L);
		return;
	}
	if (!json_array_size(fields) && !(L->flags & CATALOG_DRAFT)) {
		push_key(L, "fields");
		lerr(L, "struct '%s' has no fields", st->name);
		pop_step(L);
		return;
	}
	unsigned natural;
	load_fields(L, fields, st, &natural);
	if (!L->failed)
		load_field_conds(L, fields, st);
	if (!L->failed)
		load_field_highs(L, fields, st);
	json_t *so = json_object_get(o, "strace"); /* checked by load_struct_strace */
	if (!L->failed && so) {
		push_key(L, "strace");
		st->strace_entry = load_strace_fields(L, so, "entry", st, &st->nstrace_entry);
		st->strace_exit = load_strace_fields(L, so, "exit", st, &st->nstrace_exit);
		st->strace_entry_if_set = get_bool(L, so, "entry_if_set");
		st->strace_partial = get_bool(L, so, "partial");
		const char *cn = get_str(L, so, "count", false, "strace's view of a struct");
		for (size_t k = 0; cn && k < st->nfields; k++)
			if (!strcmp(st->fields[k].name, cn) && !st->fields[k].count)
				st->strace_count = &st->fields[k];
		if (cn && !st->strace_count) {
			push_key(L, "count");
			lerr(L, "'%s' is no scalar field of '%s'", cn, st->name);
			pop_step(L);
		}
		pop_step(L);
	}
	if (L->failed || !struct_align(L, st, has_align, align, natural))
		return;
	load_versions(L, versions, st);
	if (!L->failed)
		load_struct_view(L, o, st);
	if (L->failed || !st->nversions)
		return;
	check_fields_dated(L, st);
}
