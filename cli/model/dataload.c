#include "model/dataload.h"
#include "model/loadrules.h"
#include "model/catcache.h"
#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <stddef.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/diag.h"
#include "base/embed.h"
#include "base/sbuf.h"
#include "model/expr.h"
#include "model/decode.h"
#include "model/kver.h"
#include "model/xlat.h"
#include "base/banned.h"

/* One source file while it is being loaded. */
struct src {
	const char *name;
	const char *text;
	size_t len;
	json_t *root;
};

/* A step of the path from a file's root to the value being checked. */
struct step {
	const char *key; /* NULL: an array index */
	size_t idx;
};

struct loader {
	struct catalog *cat;
	struct arena *a;
	const struct src *src;
	const struct src *srcs; /* every file, for a check list that takes another call's checks */
	size_t nsrcs;
	struct step path[16];
	int depth;
	bool failed;
	bool at_key; /* the next error points at the key, not the value */
	size_t shift; /* the next error points this many bytes into the value (an expression's fault) */
	unsigned flags; /* CATALOG_DRAFT */
	struct catalog_fault *fault; /* NULL: errors go to err() */
};

/* ---- error positions: walk the raw text along the path ---- */

static const char *skip_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

static const char *skip_string(const char *p, const char *end)
{
	for (p++; p < end; p++) {
		if (*p == '\\')
			p++;
		else if (*p == '"')
			return p + 1;
	}
	return NULL;
}

static const char *skip_value(const char *p, const char *end, int depth)
{
	p = skip_ws(p, end);
	if (p >= end || depth > 4096)
		return NULL;
	if (*p == '"')
		return skip_string(p, end);
	if (*p == '{' || *p == '[') {
		char close = *p == '{' ? '}' : ']';
		p = skip_ws(p + 1, end);
		if (p < end && *p == close)
			return p + 1;
		for (;;) {
			if (close == '}') {
				if (!(p = skip_string(skip_ws(p, end), end)))
					return NULL;
				p = skip_ws(p, end);
				if (p >= end || *p++ != ':')
					return NULL;
			}
			if (!(p = skip_value(p, end, depth + 1)))
				return NULL;
			p = skip_ws(p, end);
			if (p < end && *p == ',') {
				p++;
				continue;
			}
			return p < end && *p == close ? p + 1 : NULL;
		}
	}
	while (p < end && !strchr(",]} \t\r\n", *p))
		p++;
	return p;
}

/* Position of the value at path in text (best effort: the deepest step found); with
 * at_key, of the last step's key instead of its value. */
static const char *locate(const char *text, size_t len, const struct step *path, int depth, bool at_key)
{
	const char *end = text + len, *p = skip_ws(text, end);
	for (int i = 0; i < depth && p; i++) {
		const char *here = p;
		if (path[i].key) {
			if (p >= end || *p != '{')
				return here;
			p = skip_ws(p + 1, end);
			size_t klen = strlen(path[i].key);
			for (;;) {
				const char *k = p, *ke;
				if (p >= end || *p != '"' || !(ke = skip_string(p, end)))
					return here;
				p = skip_ws(ke, end);
				if (p >= end || *p != ':')
					return here;
				p = skip_ws(p + 1, end);
				if ((size_t)(ke - k - 2) == klen && !memcmp(k + 1, path[i].key, klen)) {
					if (at_key && i == depth - 1)
						return k;
					break;
				}
				if (!(p = skip_value(p, end, 0)))
					return here;
				p = skip_ws(p, end);
				if (p >= end || *p != ',')
					return here;
				p = skip_ws(p + 1, end);
			}
		} else {
			if (p >= end || *p != '[')
				return here;
			p = skip_ws(p + 1, end);
			for (size_t j = 0; j < path[i].idx; j++) {
				if (!(p = skip_value(p, end, 0)))
					return here;
				p = skip_ws(p, end);
				if (p >= end || *p != ',')
					return here;
				p = skip_ws(p + 1, end);
			}
		}
	}
	return p ? p : text;
}

static void line_col(const char *text, const char *pos, unsigned long *line, unsigned long *col)
{
	*line = *col = 1;
	for (const char *q = text; q < pos; q++) {
		if (*q == '\n') {
			++*line;
			*col = 1;
		} else if ((*q & 0xc0) != 0x80) {
			++*col;
		}
	}
}

/* Where the first fault is, for a caller that words it itself. */
static void fault_fill(struct loader *L, unsigned long line, unsigned long col)
{
	struct catalog_fault *f = L->fault;
	f->line = line;
	f->col = col;
	f->entry = f->item = -1;
	f->section[0] = f->member[0] = '\0';
	if (L->depth > 0 && L->path[0].key)
		snprintf(f->section, sizeof(f->section), "%s", L->path[0].key);
	if (L->depth > 1 && !L->path[1].key)
		f->entry = (long)L->path[1].idx;
	if (L->depth > 2 && L->path[2].key)
		snprintf(f->member, sizeof(f->member), "%s", L->path[2].key);
	if (L->depth > 3 && !L->path[3].key)
		f->item = (long)L->path[3].idx;
}

PRINTF_LIKE(2, 3)
static void lerr(struct loader *L, const char *fmt, ...)
{
	if (L->failed)
		return;
	L->failed = true;
	const char *pos = locate(L->src->text, L->src->len, L->path, L->depth, L->at_key);
	if (L->shift <= (size_t)(L->src->text + L->src->len - pos))
		pos += L->shift;
	unsigned long line, col;
	line_col(L->src->text, pos, &line, &col);
	struct sbuf sb = SBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (L->fault) {
		fault_fill(L, line, col);
		sbuf_adds(&L->fault->msg, sb.buf);
	} else {
		err("%s:%lu:%lu: %s", L->src->name, line, col, sb.buf);
	}
	sbuf_release(&sb);
}

static void push_key(struct loader *L, const char *key)
{
	if (L->depth >= (int)ARRAY_SIZE(L->path))
		BUG("catalogue path too deep");
	L->path[L->depth++] = (struct step){ key, 0 };
}

static void push_idx(struct loader *L, size_t idx)
{
	if (L->depth >= (int)ARRAY_SIZE(L->path))
		BUG("catalogue path too deep");
	L->path[L->depth++] = (struct step){ NULL, idx };
}

static void pop(struct loader *L) { L->depth--; }

/* ---- typed getters; each reports at the member it reads ---- */

static const char *json_kind(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER: return "an integer";
	case JSON_REAL: return "a number with a fraction";
	case JSON_TRUE: case JSON_FALSE: return "a boolean";
	default: return "null";
	}
}

/* Checks that obj is an object whose keys are all in allowed (NULL-terminated). */
static bool check_object(struct loader *L, json_t *obj, const char *what, const char *const *allowed)
{
	if (!json_is_object(obj)) {
		lerr(L, "%s must be an object, not %s", what, json_kind(obj));
		return false;
	}
	const char *key;
	json_t *v;
	json_object_foreach(obj, key, v) {
		const char *const *a = allowed;
		while (*a && strcmp(*a, key))
			a++;
		if (*a)
			continue;
		struct suggest sg = SUGGEST_INIT(key, 2);
		for (a = allowed; *a; a++)
			suggest_add(&sg, *a);
		const char *best = suggest_best(&sg);
		push_key(L, key);
		L->at_key = true;
		if (best)
			lerr(L, "unknown key '%s' in %s (did you mean '%s'?)", key, what, best);
		else
			lerr(L, "unknown key '%s' in %s", key, what);
		pop(L);
		return false;
	}
	return true;
}

static json_t *member(struct loader *L, json_t *obj, const char *key, bool required, const char *what)
{
	json_t *v = json_object_get(obj, key);
	if (!v && required)
		lerr(L, "%s has no '%s'", what, key);
	return v;
}

static const char *get_str(struct loader *L, json_t *obj, const char *key, bool required, const char *what)
{
	json_t *v = member(L, obj, key, required, what);
	if (!v || L->failed)
		return NULL;
	push_key(L, key);
	const char *r = NULL;
	if (!json_is_string(v))
		lerr(L, "'%s' must be a string, not %s", key, json_kind(v));
	else if (required && !json_string_length(v))
		lerr(L, "'%s' must not be empty", key);
	else
		r = arena_strdup(L->a, json_string_value(v));
	pop(L);
	return r;
}

static bool get_bool(struct loader *L, json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	if (!v)
		return false;
	if (!json_is_boolean(v)) {
		push_key(L, key);
		lerr(L, "'%s' must be true or false, not %s", key, json_kind(v));
		pop(L);
		return false;
	}
	return json_is_true(v);
}

/* An unsigned integer in [lo, hi]; returns false (and reports) when absent-but-required or bad. */
static bool get_uint(struct loader *L, json_t *obj, const char *key, bool required, const char *what,
		     uint64_t lo, uint64_t hi, uint64_t *out)
{
	json_t *v = member(L, obj, key, required, what);
	if (!v || L->failed)
		return false;
	push_key(L, key);
	bool ok = false;
	if (!json_is_integer(v))
		lerr(L, "'%s' must be an integer, not %s", key, json_kind(v));
	else if (json_integer_value(v) < 0 || (uint64_t)json_integer_value(v) < lo ||
		 (uint64_t)json_integer_value(v) > hi)
		lerr(L, "'%s' is %lld, out of range %llu..%llu", key, (long long)json_integer_value(v),
		     (unsigned long long)lo, (unsigned long long)hi);
	else {
		*out = (uint64_t)json_integer_value(v);
		ok = true;
	}
	pop(L);
	return ok;
}

static uint32_t get_kver(struct loader *L, json_t *obj, const char *key, bool required, const char *what)
{
	const char *s = get_str(L, obj, key, required, what);
	uint32_t v = 0;
	if (s && kver_parse(s, &v, 0) < 0) {
		push_key(L, key);
		lerr(L, "'%s' is not a kernel version like \"5.6\" or \"2.6.31\": \"%s\"", key, s);
		pop(L);
	}
	return v;
}

static json_t *get_array(struct loader *L, json_t *obj, const char *key, bool required, const char *what)
{
	json_t *v = member(L, obj, key, required, what);
	if (!v || L->failed)
		return NULL;
	if (!json_is_array(v)) {
		push_key(L, key);
		lerr(L, "'%s' must be an array, not %s", key, json_kind(v));
		pop(L);
		return NULL;
	}
	return v;
}

static int pick(struct loader *L, json_t *obj, const char *key, const char *what,
		const char *const *choices, int dflt)
{
	const char *s = get_str(L, obj, key, dflt < 0, what);
	if (!s)
		return dflt < 0 ? 0 : dflt; /* absent: reported if required, the caller sees a valid index */
	for (int i = 0; choices[i]; i++)
		if (!strcmp(choices[i], s))
			return i;
	struct sbuf sb = SBUF_INIT;
	for (int i = 0; choices[i]; i++)
		sbuf_addf(&sb, "%s%s", i ? ", " : "", choices[i]);
	push_key(L, key);
	lerr(L, "'%s' is \"%s\"; expected one of %s", key, s, sb.buf);
	pop(L);
	sbuf_release(&sb);
	return dflt < 0 ? 0 : dflt;
}

/* Array of strings into an arena array. */
static const char **get_strings(struct loader *L, json_t *obj, const char *key, const char *what, size_t *n)
{
	json_t *arr = get_array(L, obj, key, false, what);
	*n = 0;
	if (!arr)
		return NULL;
	const char **r = arena_alloc(L->a, sizeof(*r) * (json_array_size(arr) + 1));
	push_key(L, key);
	for (size_t i = 0; i < json_array_size(arr) && !L->failed; i++) {
		json_t *v = json_array_get(arr, i);
		push_idx(L, i);
		if (!json_is_string(v))
			lerr(L, "'%s' entries must be strings, not %s", key, json_kind(v));
		else
			r[(*n)++] = arena_strdup(L->a, json_string_value(v));
		pop(L);
	}
	pop(L);
	return r;
}

/* A C integer literal: 0x.., 0.., decimal; a leading '-' only when neg_ok. */
static bool parse_c_int(const char *s, bool neg_ok, uint64_t *out)
{
	bool neg = false;
	if (*s == '-' && neg_ok) {
		neg = true;
		s++;
	}
	errno = 0;
	if (*s < '0' || *s > '9')
		return false;
	char *end;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || *end)
		return false;
	if (neg) {
		if (v > (1ULL << 63)) {
			errno = ERANGE;
			return false;
		}
		v = -v;
	}
	*out = v;
	return true;
}

/* ---- provenance ---- */

/* "backported" (or key): the stable releases that have a change before its since, each with
 * its patch level ("6.1.192"), of a release before since, at most KVER_NBACKPORTS; into bp,
 * zero-terminated (model/kver.h kver_has). */
static void load_backports(struct loader *L, json_t *o, const char *key, uint32_t since, uint32_t bp[KVER_NBACKPORTS],
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
		pop(L);
	}
	pop(L);
}

/* A flag's, field's or size version's "source" (where its value and "since" come from: a
 * header at a version, a commit, a kernel file and function), "unverified" (true: no
 * source confirms its "since") and "backported" (stable releases that have it before
 * "since": "6.1.192", into bp; NULL: checked and dropped). The layout test
 * (tests/layout/compare.py) reads and counts source and unverified; show, the reference and
 * the census page print them. */
static void load_provenance(struct loader *L, json_t *o, const char *what, uint32_t since, uint32_t *bp,
			    struct provenance *pv)
{
	uint32_t none[KVER_NBACKPORTS];
	pv->source = get_str(L, o, "source", false, what);
	pv->unverified = get_bool(L, o, "unverified");
	load_backports(L, o, "backported", since, bp ? bp : none, what);
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
	pop(L);
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
	pop(L);
	return idx;
}

/* "names": the entries of strace's table that the set does not hold (flags the call
 * refuses, which strace names all the same: statx's AT_REMOVEDIR), name to value. */
static void load_strace_extra(struct loader *L, json_t *so, struct flagset *fs)
{
	json_t *no = member(L, so, "names", false, "strace's table");
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
	pop(L);
}

/* "strace": the order and tables strace prints the set with, and where they come from. */
static void load_strace_xlat(struct loader *L, json_t *o, struct flagset *fs)
{
	json_t *so = member(L, o, "strace", false, "a flag set");
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
		x->first_by_value = pick(L, so, "first_lookup", "strace's table", strace_lookups, 0) == 1;
		const char *m = get_str(L, so, "first_mask", false, "strace's table");
		for (size_t i = 0; m && i < fs->nflags; i++)
			if (!strcmp(fs->flags[i].name, m) && fs->flags[i].mask)
				x->first_mask = fs->flags[i].value;
		if (!L->failed && fs->kind == FS_ENUM && x->nfirst)
			lerr(L, "an enum's strace table is looked up by value: its \"order\" lists the names it has, no \"first\"");
		else if (!L->failed && fs->kind == FS_BITS && (!x->norder || !m != !x->nfirst || (m && !x->first_mask)))
			lerr(L, "strace's table needs an \"order\", and \"first\" with \"first_mask\" (a mask flag) or neither");
	}
	pop(L);
}

static void load_flagset(struct loader *L, json_t *o, struct flagset *fs)
{
	if (!check_object(L, o, "a flag set", flagset_keys))
		return;
	fs->file = arena_strdup(L->a, L->src->name);
	fs->name = get_str(L, o, "name", true, "a flag set");
	fs->kind = (enum flagset_kind)pick(L, o, "kind", "a flag set", flagset_kinds, -1);
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
			json_t *v = member(L, fo, "value", true, "a flag");
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
				pop(L);
			}
			if (!L->failed && fs->kind == FS_BITS && !f->value && !f->mask)
				lerr(L, "flag '%s' is 0 in a bit set; mark it \"mask\": true if it names the absence of bits", f->name);
			for (size_t j = 0; j < i && !L->failed; j++)
				if (!strcmp(fs->flags[j].name, f->name))
					lerr(L, "duplicate flag '%s' in set '%s'", f->name, fs->name);
		}
		pop(L);
		fs->nflags = i + 1;
	}
	pop(L);
	load_value_bits(L, o, fs);
	load_strace_xlat(L, o, fs);
}

/* ---- strace's tables ---- */

static const char *const strace_table_keys[] = { "name", "source", "kind", "unknown", "entries", NULL };
static const char *const strace_entry_keys[] = { "name", "value", NULL };

/* One of strace's xlat tables that is no flag set of the catalogue (perf's PERF_COUNT_HW_*):
 * a flag set of its entries, in its order, with the table as its source. */
static void load_strace_table(struct loader *L, json_t *o, struct flagset *fs)
{
	if (!check_object(L, o, "a strace table", strace_table_keys))
		return;
	fs->file = arena_strdup(L->a, L->src->name);
	fs->name = get_str(L, o, "name", true, "a strace table");
	fs->strace.source = fs->header = fs->doc = get_str(L, o, "source", true, "a strace table");
	fs->kind = (enum flagset_kind)pick(L, o, "kind", "a strace table", flagset_kinds, -1);
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
		pop(L);
	}
	pop(L);
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
static const char *const directions[] = { "in", "out", "inout", NULL };            /* enum fdir from FD_IN */
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

static const struct flagset *resolve_flagset(struct loader *L, json_t *o, const char *key)
{
	const char *name = get_str(L, o, key, false, "");
	if (!name || L->failed)
		return NULL;
	const struct flagset *fs = catalog_find_flagset(L->cat, name);
	if (!fs) {
		push_key(L, key);
		lerr(L, "unknown flag set '%s'", name);
		pop(L);
	}
	return fs;
}

/* A field's own direction: ignored anywhere; in, out or inout only in a struct that goes both
 * ways (in a one-way struct every field goes the struct's way). */
static void load_field_direction(struct loader *L, json_t *fo, struct cstruct *st, struct field *f)
{
	if (!json_object_get(fo, "direction") || L->failed)
		return;
	f->direction = (enum fdir)(pick(L, fo, "direction", "a field", field_directions, 0) + FD_IN);
	if (!L->failed && f->direction != FD_IGNORED && st->direction != FD_INOUT) {
		push_key(L, "direction");
		lerr(L, "field '%s' says \"%s\" in a struct whose direction is \"%s\": a field has a direction of its own only in an inout struct (or \"ignored\")",
		     f->name ? f->name : "?", fdir_name(f->direction), fdir_name(st->direction));
		pop(L);
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
		pop(L);
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
	f->format = (enum fformat)pick(L, fo, "format", "a field", fformat_names, FF_DEC);
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
		pop(L);
		if (align > *natural)
			*natural = align;
		end = f->offset + f->size;
		check_flags_fit(L, f);
	next:
		pop(L);
		st->nfields = i + 1;
	}
	pop(L);
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
				pop(L);
				push_key(L, "since");
				lerr(L, "version of size %u is older than the previous version", v->size);
			}
			else if (v->size > st->size)
				lerr(L, "size %u is larger than the struct (%u bytes)", v->size, st->size);
			else if (!boundary)
				lerr(L, "size %u does not end on a field boundary", v->size);
			pop(L);
		}
		pop(L);
		st->nversions = i + 1;
	}
	pop(L);
}

static void load_field_conds(struct loader *L, json_t *arr, struct cstruct *st);

/* "strace": how strace's own decoder sees the struct. */
static void load_struct_strace(struct loader *L, json_t *o, struct cstruct *st)
{
	json_t *so = member(L, o, "strace", false, "a struct");
	if (!so || L->failed)
		return;
	push_key(L, "strace");
	if (check_object(L, so, "strace's view of a struct", struct_strace_keys)) {
		st->strace_source = get_str(L, so, "source", true, "strace's view of a struct");
		st->tail_more = pick(L, so, "tail", "strace's view of a struct", struct_tails, 0) == 1;
		st->strace_by_version = get_bool(L, so, "by_version");
		/* "size": where that strace's struct ends, when before the catalogue's; xsc's
		 * lines show the fields past it (its tests tell such lines apart), and strace's
		 * "..." for bytes past it that no field shows */
		uint64_t ss = 0;
		(void)get_uint(L, so, "size", false, "strace's view of a struct", 1, 1u << 20, &ss);
		st->strace_size = (unsigned)ss;
	}
	pop(L);
}

static void compile_condition(struct loader *L, const struct expr_scope *scope, const char *key, const char *text,
			      struct expr_insn **code_out, size_t *ncode);

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
		pop(L);
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
	it->format = (enum fformat)pick(L, io, "format", "a view item", fformat_names, 0);
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
	it->as_comment = pick(L, io, "as", "a view item", view_as, 0) == 1;
	it->abbrev_nonzero = pick(L, io, "abbrev", "a view item", view_abbrevs, 0) == 1;
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
		pop(L);
	}
	if (!L->failed && !st->nview)
		lerr(L, "an empty view");
	pop(L);
	pop(L);
}

/* The struct's alignment (given, or its fields' natural one) and its size rounded to it:
 * tail padding the alignment implies must be an explicit field. False on an error. */
static bool struct_align(struct loader *L, struct cstruct *st, bool has_align, uint64_t align, unsigned natural)
{
	st->align = has_align ? (unsigned)align : natural;
	if (st->align < natural) {
		push_key(L, "align");
		lerr(L, "'align' %u is smaller than the struct's natural alignment %u", st->align, natural);
		pop(L);
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
		pop(L);
		pop(L);
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
		pop(L);
	}
	pop(L);
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
	pop(L);
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
		pop(L);
		pop(L);
	}
	pop(L);
}

static void load_struct(struct loader *L, json_t *o, struct cstruct *st)
{
	if (!check_object(L, o, "a struct", struct_keys))
		return;
	st->file = arena_strdup(L->a, L->src->name);
	st->name = get_str(L, o, "name", true, "a struct");
	st->header = get_str(L, o, "header", true, "a struct");
	st->doc = get_str(L, o, "doc", true, "a struct");
	st->direction = (enum fdir)(pick(L, o, "direction", "a struct", directions, 0) + FD_IN);
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
		pop(L);
		return;
	}
	if (!json_array_size(fields) && !(L->flags & CATALOG_DRAFT)) {
		push_key(L, "fields");
		lerr(L, "struct '%s' has no fields", st->name);
		pop(L);
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
			pop(L);
		}
		pop(L);
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

/* ---- syscalls ---- */

static const char *const syscall_keys[] = { "name", "kind", "nr", "ioctl", "since", "header", "prototype",
	"summary", "args", "struct", "size", "rules", "errors", "lineage", "safety", "notes", "links",
	"features", "probe", "checks", "check_fields", "returns", "results", "effects", "fills", "entries", "direction",
	"simulation_only", NULL };
static const char *const returns[] = { "fd", "pid", NULL }; /* enum sc_returns, from RET_FD */
static const char *const kinds[] = { "extensible", "flags-only", "multiplexer", "fixed-padded", "legacy", NULL };
static const char *const safeties[] = { "pure", "sandbox", "namespace", "privileged", NULL };
static const char *const roles[] = { "fd", "path", "struct", "size", "flags", "pid", "int", "ptr", "cmd", NULL };
static const char *const arg_keys[] = { "name", "type", "role", "struct", "flagset", "default", "doc", "direction",
					"strace", "signal", NULL };
static const char *const arg_strace_keys[] = { "source", "format", NULL };
static const char *const arg_strace_formats[] = { "dec", "hex", NULL }; /* enum fformat from FF_DEC */

/* An argument's "strace": how strace prints it when not as the catalogue's flag set does. */
static void load_arg_strace(struct loader *L, json_t *ao, struct sarg *a)
{
	json_t *so = member(L, ao, "strace", false, "an argument");
	if (!so || L->failed)
		return;
	push_key(L, "strace");
	if (check_object(L, so, "strace's view of an argument", arg_strace_keys)) {
		a->strace_source = get_str(L, so, "source", true, "strace's view of an argument");
		a->strace_format = (enum fformat)pick(L, so, "format", "strace's view of an argument", arg_strace_formats, -1);
		a->strace_numeric = !L->failed;
	}
	pop(L);
}
static const char *const arg_signal_keys[] = { "bits", "means", NULL };

/* An argument's "signal": the mask flag of its flag set whose bits are a signal number. */
static void load_arg_signal(struct loader *L, json_t *ao, struct sarg *a)
{
	json_t *so = member(L, ao, "signal", false, "an argument");
	if (!so || L->failed)
		return;
	push_key(L, "signal");
	if (check_object(L, so, "an argument's signal bits", arg_signal_keys)) {
		const char *bits = get_str(L, so, "bits", true, "an argument's signal bits");
		a->signal_means = get_str(L, so, "means", true, "an argument's signal bits");
		const struct flagset *in = NULL;
		const struct flag *f = bits && a->flagset ? catalog_find_flag(L->cat, a->flagset, bits, &in) : NULL;
		if (!L->failed && (!f || in != a->flagset || !f->mask || !f->value))
			lerr(L, "'%s' is not a mask flag of the argument's flag set", bits);
		else if (!L->failed)
			a->signal_name = f->name, a->signal_mask = f->value;
	}
	pop(L);
}
static const char *const size_keys[] = { "where", "name", "bits", NULL };
static const char *const wheres[] = { "arg", "field", "ioctl", "pointer", "none", NULL };
static const char *const rule_keys[] = { "zero", "below_ver0", "min", "cap", "cap_since", "cap_backported", "cap_errno", "tail",
					 "writeback", "null", "check_order", "ignore_unknown", NULL };
static const char *const tails[] = { "E2BIG", "zeroed", "untouched", "ignored", NULL };               /* from TAIL_E2BIG */
static const char *const writebacks[] = { "none", "size-on-e2big", "size-on-success", "required-size", NULL }; /* from WB_NONE */
static const char *const ioctl_keys[] = { "fd", "dir", "type", "nr", NULL };
static const char *const ioctl_dirs[] = { "none", "w", "r", "rw", NULL }; /* enum ioctl_dir */

static void check_errno_value(struct loader *L, json_t *o, const char *key, const char *what, bool allow_ok,
			      const char **out)
{
	const char *s = get_str(L, o, key, false, what);
	*out = s;
	if (!s || L->failed)
		return;
	if ((allow_ok && (!strcmp(s, "ok") || !strcmp(s, "ver0"))) || errno_from_name(s) > 0)
		return;
	push_key(L, key);
	lerr(L, "'%s' must be an errno name%s, not \"%s\"", key, allow_ok ? ", \"ok\" or \"ver0\"" : "", s);
	pop(L);
}

/* A condition in the expression language (model/expr.h), compiled into the arena. A fault
 * is reported at its column (counted in the JSON text, so an escape sequence before it
 * shifts the column). */
static void compile_condition(struct loader *L, const struct expr_scope *scope, const char *key, const char *text,
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
		pop(L);
	} else {
		*ncode = (size_t)n;
		*code_out = arena_alloc(L->a, sizeof(**code_out) * (size_t)n);
		memcpy(*code_out, code, sizeof(**code_out) * (size_t)n);
	}
	sbuf_release(&why);
}

/* A check's condition: over the call's arguments, its struct's fields, size and flags. */
/* The first field code reads (its value or unknown bits) that call sc does not read, or NULL. */
const struct field *ld_output_field_read(const struct syscall *sc, const struct expr_insn *code, size_t n)
{
	for (size_t i = 0; sc->st && i < n; i++)
		if ((code[i].op == XO_FIELD || code[i].op == XO_UNKNOWN_FIELD) && code[i].idx < sc->st->nfields &&
		    !field_is_input(sc, sc->st, &sc->st->fields[code[i].idx]))
			return &sc->st->fields[code[i].idx];
	return NULL;
}

static void load_condition(struct loader *L, json_t *co, struct syscall *sc, struct check *ck)
{
	if (!(ck->text = get_str(L, co, "if", true, "a check")) || L->failed)
		return;
	struct expr_scope scope = { L->cat, sc, sc->st };
	compile_condition(L, &scope, "if", ck->text, &ck->code, &ck->ncode);
	const struct field *f = L->failed ? NULL : ld_output_field_read(sc, ck->code, ck->ncode);
	if (f) {
		push_key(L, "if");
		lerr(L, "the condition reads '%s', which %s does not read (its direction there is %s): only input fields are checked",
		     f->name, sc->name, fdir_name(field_direction(sc, sc->st, f)));
		pop(L);
	}
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
		pop(L);
	}
	pop(L);
}

/* Whether a check's code reads the struct: a field, unknown(FIELD), nonzero(), or size when
 * the size is a field of the struct. */
bool ld_reads_struct(const struct expr_insn *code, size_t n, const struct syscall *sc)
{
	for (size_t i = 0; i < n; i++)
		if (code[i].op == XO_FIELD || code[i].op == XO_UNKNOWN_FIELD || code[i].op == XO_NONZERO ||
		    (code[i].op == XO_SIZE && sc->size_where != SW_ARG && sc->size_where != SW_IOCTL)) /* an ioctl's is in its number */
			return true;
	return false;
}

/* "env": the kinds of state outside the arguments a check depends on, each named once. */
static void load_check_env(struct loader *L, json_t *co, struct check *ck)
{
	size_t n;
	const char **kinds = get_strings(L, co, "env", "a check", &n);
	if (!kinds || L->failed)
		return;
	push_key(L, "env");
	if (!n)
		lerr(L, "'env' is empty; leave it out for a check the arguments alone decide");
	for (size_t i = 0; i < n && !L->failed; i++) {
		int k = env_kind_from_name(kinds[i]);
		push_idx(L, i);
		if (k < 0)
			lerr(L, "'env' entries are path, fd, pointer, privilege, hardware, lsm, filesystem, object, pid or memory, not \"%s\"", kinds[i]);
		else if (ck->env & 1u << k)
			lerr(L, "'env' names \"%s\" twice", kinds[i]);
		ck->env |= k < 0 ? 0 : 1u << k;
		pop(L);
	}
	pop(L);
}

/* "errno": one name, or, for a check with "env", a list of the errnos the world may give
 * (each once); errnos[0] is the one named where a single errno is shown. */
static void load_check_errnos(struct loader *L, json_t *co, struct check *ck)
{
	json_t *v = member(L, co, "errno", true, "a check");
	if (!v || L->failed)
		return;
	if (!json_is_array(v)) {
		check_errno_value(L, co, "errno", "a check", false, &ck->errno_name);
		if (!ck->errno_name && !L->failed)
			lerr(L, "a check has no 'errno'");
		ck->errnos = arena_alloc(L->a, sizeof(*ck->errnos));
		ck->errnos[0] = ck->errno_name;
		ck->nerrnos = 1;
		ck->err = ck->errno_name ? errno_from_name(ck->errno_name) : 0;
		return;
	}
	push_key(L, "errno");
	if (!ck->env)
		lerr(L, "a list of errnos needs 'env' (what the answer depends on); a check the arguments decide has one errno");
	else if (!json_array_size(v))
		lerr(L, "'errno' is an empty list");
	pop(L);
	ck->errnos = L->failed ? NULL : get_strings(L, co, "errno", "a check", &ck->nerrnos);
	push_key(L, "errno");
	for (size_t i = 0; ck->errnos && i < ck->nerrnos && !L->failed; i++) {
		push_idx(L, i);
		if (errno_from_name(ck->errnos[i]) <= 0)
			lerr(L, "'errno' entries must be errno names, not \"%s\"", ck->errnos[i]);
		for (size_t j = 0; j < i && !L->failed; j++)
			if (!strcmp(ck->errnos[j], ck->errnos[i]))
				lerr(L, "'errno' names %s twice", ck->errnos[i]);
		pop(L);
	}
	pop(L);
	ck->errno_name = ck->errnos && ck->nerrnos ? ck->errnos[0] : NULL;
	ck->err = ck->errno_name ? errno_from_name(ck->errno_name) : 0;
}

static const char *const step_keys[] = { "step", "source", NULL };
static const char *const check_keys[] = { "if", "errno", "env", "lookup", "since", "until", "backported", "until_backported", "source", "why",
					  NULL };

/* {"step": NAME}: a size step placed where the kernel takes it. */
static void load_step(struct loader *L, json_t *co, struct syscall *sc, struct check *ck, const unsigned char *seen)
{
	if (!check_object(L, co, "a size step", step_keys))
		return;
	const char *name = get_str(L, co, "step", true, "a size step");
	if (!name || L->failed)
		return;
	push_key(L, "step");
	for (enum check_step s = CS_NULL; s <= CS_LAST; s++)
		if (!strcmp(name, check_step_name(s)))
			ck->step = s;
	if (ck->step == CS_COND) {
		struct suggest sg = SUGGEST_INIT(name, 3);
		for (enum check_step s = CS_NULL; s <= CS_LAST; s++)
			suggest_add(&sg, check_step_name(s));
		const char *best = suggest_best(&sg);
		lerr(L, "unknown step '%s'%s%s%s", name, best ? " (did you mean '" : "", best ? best : "", best ? "'?)" : "");
	} else if (!syscall_has_size_steps(sc)) {
		lerr(L, "a size step on a call without a size convention (its checks run in the order written)");
	} else if (seen[ck->step]) {
		lerr(L, "the step '%s' is named twice", name);
	} else if (seen[CS_COPY_IN] && ck->step != CS_COPY_OUT) {
		lerr(L, "the step '%s' comes after copy-in: the kernel takes the size and the pointer before it copies", name);
	} else if (ck->step == CS_COPY_IN && seen[CS_COPY_OUT]) {
		lerr(L, "the step 'copy-in' comes after copy-out");
	} else if (!check_step_applies(sc, ck->step)) {
		lerr(L, "the step '%s' has no rule to apply ('rules' %s)", name,
		     ck->step == CS_COPY_OUT ? "says the struct is input: its tail is E2BIG" : "does not state it, or says \"ok\"");
	}
	pop(L);
	ck->placed = true;
	if (!L->failed)
		check_describe_step(L->a, sc, ck, get_str(L, co, "source", false, "a size step"));
}

static void load_check(struct loader *L, json_t *co, struct syscall *sc, struct check *ck)
{
	char a[16], b[16];
	if (json_is_object(co) && json_object_get(co, "stage")) {
		push_key(L, "stage");
		L->at_key = true;
		lerr(L, "'stage' is gone: place a size step ({\"step\": \"size-zero\"}, …) in the list where the kernel takes it");
		L->at_key = false;
		pop(L);
		return;
	}
	if (!check_object(L, co, "a check", check_keys))
		return;
	load_condition(L, co, sc, ck);
	load_check_env(L, co, ck);
	load_check_errnos(L, co, ck);
	const char *lookup = get_str(L, co, "lookup", false, "a check");
	if (lookup && !L->failed) {
		push_key(L, "lookup");
		if (strcmp(lookup, "parent"))
			lerr(L, "'lookup' is \"%s\"; the only one is \"parent\" (the directory a created name goes into)", lookup);
		else if (!(ck->env & 1u << ENV_PATH))
			lerr(L, "'lookup' belongs to a check whose env holds \"path\"");
		ck->lookup_parent = true;
		pop(L);
	}
	ck->since = get_kver(L, co, "since", true, "a check");
	ck->until = get_kver(L, co, "until", false, "a check");
	load_backports(L, co, "backported", ck->since, ck->backported, "a check");
	load_backports(L, co, "until_backported", ck->until, ck->until_backported, "a check");
	if (!L->failed && ck->until_backported[0] && !ck->until) {
		push_key(L, "until_backported");
		lerr(L, "'until_backported' belongs to a check with an 'until'");
		pop(L);
	}
	ck->source = get_str(L, co, "source", true, "a check");
	ck->why = get_str(L, co, "why", true, "a check");
	if (!L->failed && ck->until && ck->until <= ck->since) {
		push_key(L, "until");
		lerr(L, "'until' %s is not after 'since' %s", kver_str(ck->until, a), kver_str(ck->since, b));
		pop(L);
	}
}

/* A condition before copy-in may not read the struct: the kernel has not copied it yet. */
static void check_struct_reads(struct loader *L, const struct syscall *sc, const struct check *list, const long *json_idx,
			       size_t n)
{
	size_t copy = checks_find_step(list, n, CS_COPY_IN);
	for (size_t i = 0; i < copy && i < n && !L->failed; i++) {
		if (list[i].step != CS_COND || !ld_reads_struct(list[i].code, list[i].ncode, sc))
			continue;
		push_idx(L, (size_t)json_idx[i]);
		push_key(L, "if");
		lerr(L, "a check before copy-in reads the struct, which the kernel has not copied yet: only arguments, size as an argument and constants");
		pop(L);
		pop(L);
	}
}

/* {"checks_of": NAME, "in": FUNCTION}: the conditions of another call that runs the same kernel
 * code on the same struct (IORING_OP_OPENAT2 and openat2 share build_open_flags), found in
 * whichever file holds it and compiled here, against this call's arguments and struct; with
 * "in", only those whose source names that kernel function (PERF_EVENT_IOC_MODIFY_ATTRIBUTES
 * runs perf_event_open's perf_copy_attr and nothing else of it). Its size steps are its own,
 * so they are left out; a list that takes another's checks is not taken in turn. */
static json_t *checks_of(struct loader *L, json_t *co, const struct src **in, size_t *at)
{
	static const char *const keys[] = { "checks_of", "in", "source", NULL };
	if (!check_object(L, co, "a check list's checks_of", keys))
		return NULL;
	const char *name = get_str(L, co, "checks_of", true, "a checks_of entry");
	for (size_t f = 0; name && f < L->nsrcs; f++) {
		json_t *a = json_object_get(L->srcs[f].root, "syscalls");
		for (size_t i = 0; a && i < json_array_size(a); i++) {
			json_t *o = json_array_get(a, i), *n = json_object_get(o, "name");
			if (!json_is_string(n) || strcmp(json_string_value(n), name))
				continue;
			json_t *cks = json_object_get(o, "checks");
			push_key(L, "checks_of");
			if (!json_is_array(cks))
				lerr(L, "'%s' has no checks to take", name);
			for (size_t k = 0; json_is_array(cks) && k < json_array_size(cks) && !L->failed; k++)
				if (json_object_get(json_array_get(cks, k), "checks_of"))
					lerr(L, "'%s' takes another call's checks itself: name that call", name);
			pop(L);
			*in = &L->srcs[f];
			*at = i;
			return L->failed ? NULL : cks;
		}
	}
	if (name && !L->failed) {
		push_key(L, "checks_of");
		lerr(L, "no syscall named '%s' to take checks from", name);
		pop(L);
	}
	return NULL;
}

/* Loads the conditions of another call's list at the place of its checks_of entry; errors
 * point into the file that holds them. */
static size_t load_checks_of(struct loader *L, json_t *cks, const char *fn, const struct src *in, size_t at,
			     struct syscall *sc, struct check *list)
{
	const struct src *here = L->src;
	struct step saved[ARRAY_SIZE(L->path)];
	int depth = L->depth;
	size_t n = 0;
	memcpy(saved, L->path, sizeof(saved));
	L->src = in;
	L->depth = 0;
	push_key(L, "syscalls"), push_idx(L, at), push_key(L, "checks");
	for (size_t k = 0; k < json_array_size(cks) && !L->failed; k++) {
		json_t *co = json_array_get(cks, k), *src = json_object_get(co, "source");
		if (json_object_get(co, "step") || (fn && !(json_is_string(src) && strstr(json_string_value(src), fn))))
			continue;
		push_idx(L, k);
		load_check(L, co, sc, &list[n++]);
		pop(L);
	}
	L->src = here;
	L->depth = depth;
	memcpy(L->path, saved, sizeof(saved));
	if (L->failed) { /* the fault is in the other file: say which call took it */
		L->failed = false;
		push_key(L, "checks_of");
		lerr(L, "%s cannot take these checks: the one above reads what %s does not have", sc->name, sc->name);
		pop(L);
	}
	return n;
}

static size_t count_checks(struct loader *L, json_t *cks)
{
	size_t n = 0;
	for (size_t i = 0; cks && i < json_array_size(cks); i++) {
		json_t *co = json_array_get(cks, i), *name = json_object_get(co, "checks_of");
		n++;
		for (size_t f = 0; json_is_string(name) && f < L->nsrcs; f++) {
			json_t *a = json_object_get(L->srcs[f].root, "syscalls");
			for (size_t j = 0; a && j < json_array_size(a); j++) {
				json_t *n2 = json_object_get(json_array_get(a, j), "name");
				if (json_is_string(n2) && !strcmp(json_string_value(n2), json_string_value(name)))
					n += json_array_size(json_object_get(json_array_get(a, j), "checks"));
			}
		}
	}
	return n;
}

static void load_checks(struct loader *L, json_t *o, struct syscall *sc)
{
	json_t *cks = get_array(L, o, "checks", false, "a syscall");
	size_t n = 0, cap = count_checks(L, cks) + CS_LAST;
	if (L->failed || (!cks && !syscall_has_size_steps(sc)))
		return;
	struct check *list = arena_alloc(L->a, sizeof(*list) * cap);
	long *json_idx = xcalloc(cap, sizeof(*json_idx));
	unsigned char seen[CS_LAST + 1] = { 0 };
	push_key(L, "checks");
	for (size_t i = 0; cks && i < json_array_size(cks) && !L->failed; i++) {
		json_t *co = json_array_get(cks, i), *other;
		const struct src *in = NULL;
		size_t at = 0;
		push_idx(L, i);
		if (json_is_object(co) && json_object_get(co, "checks_of")) {
			const char *fn = get_str(L, co, "in", false, "a checks_of entry");
			size_t k = 0;
			if ((other = checks_of(L, co, &in, &at)) && !(k = load_checks_of(L, other, fn, in, at, sc, &list[n])) && fn) {
				push_key(L, "in");
				lerr(L, "no check of '%s' names %s in its source", json_string_value(json_object_get(co, "checks_of")), fn);
				pop(L);
			}
			for (; k; k--)
				json_idx[n++] = (long)i;
			pop(L);
			continue;
		}
		if (json_is_object(co) && json_object_get(co, "step"))
			load_step(L, co, sc, &list[n], seen);
		else
			load_check(L, co, sc, &list[n]);
		seen[list[n].step] = 1;
		json_idx[n++] = (long)i;
		pop(L);
	}
	if (!L->failed && syscall_has_size_steps(sc)) {
		checks_insert_steps(L->a, sc, list, json_idx, &n);
		check_struct_reads(L, sc, list, json_idx, n);
	}
	pop(L);
	sc->checks = list;
	sc->nchecks = n;
	for (size_t i = 0; i < n; i++)
		sc->nconds += list[i].step == CS_COND;
	free(json_idx);
}

/* "results": [{"if", "value", "since", "source"}]: what a successful call returns where the
 * value depends on the kernel (landlock's ABI version), measured or read from the source. */
static void load_results(struct loader *L, json_t *o, struct syscall *sc)
{
	static const char *const keys[] = { "if", "value", "since", "source", NULL };
	json_t *rs = get_array(L, o, "results", false, "a syscall");
	if (!rs || L->failed)
		return;
	struct expr_scope scope = { L->cat, sc, sc->st };
	sc->results = arena_alloc(L->a, sizeof(*sc->results) * (json_array_size(rs) + 1));
	push_key(L, "results");
	for (size_t i = 0; i < json_array_size(rs) && !L->failed; i++) {
		json_t *ro = json_array_get(rs, i);
		struct result_rule *r = &sc->results[i];
		push_idx(L, i);
		if (check_object(L, ro, "a result", keys)) {
			if ((r->text = get_str(L, ro, "if", true, "a result")) && !L->failed)
				compile_condition(L, &scope, "if", r->text, &r->code, &r->ncode);
			json_t *v = member(L, ro, "value", true, "a result");
			if (v && !L->failed && !(json_is_integer(v) && json_integer_value(v) >= 0)) {
				push_key(L, "value");
				lerr(L, "'value' must be a number of 0 or more");
				pop(L);
			}
			r->value = v && json_is_integer(v) ? (uint64_t)json_integer_value(v) : 0;
			r->since = get_kver(L, ro, "since", true, "a result");
			r->source = get_str(L, ro, "source", true, "a result");
		}
		pop(L);
		sc->nresults = i + 1;
	}
	pop(L);
}

/* "effects": [{"if", "signal", "since", "source", "why"}]: what a successful call may do to
 * its caller besides returning (clone3's exit_signal, sent when the new process exits). */
static void load_effects(struct loader *L, json_t *o, struct syscall *sc)
{
	static const char *const keys[] = { "if", "signal", "since", "source", "why", NULL };
	json_t *es = get_array(L, o, "effects", false, "a syscall");
	if (!es || L->failed)
		return;
	struct expr_scope scope = { L->cat, sc, sc->st };
	sc->effects = arena_alloc(L->a, sizeof(*sc->effects) * (json_array_size(es) + 1));
	push_key(L, "effects");
	for (size_t i = 0; i < json_array_size(es) && !L->failed; i++) {
		json_t *eo = json_array_get(es, i);
		struct effect_rule *e = &sc->effects[i];
		push_idx(L, i);
		if (check_object(L, eo, "an effect", keys)) {
			if ((e->text = get_str(L, eo, "if", true, "an effect")) && !L->failed)
				compile_condition(L, &scope, "if", e->text, &e->code, &e->ncode);
			if ((e->signal_text = get_str(L, eo, "signal", true, "an effect")) && !L->failed)
				compile_condition(L, &scope, "signal", e->signal_text, &e->signal_code, &e->nsignal_code);
			e->since = get_kver(L, eo, "since", true, "an effect");
			e->source = get_str(L, eo, "source", true, "an effect");
			e->why = get_str(L, eo, "why", true, "an effect");
		}
		pop(L);
		sc->neffects = i + 1;
	}
	pop(L);
}

/* "entries": {"name", "struct", "count", "max"}: entries of a struct after the call's struct
 * in the same buffer, as many as the argument "count" says (io_uring_probe's ops[]). */
static void load_entries(struct loader *L, json_t *o, struct syscall *sc)
{
	static const char *const keys[] = { "name", "struct", "count", "max", NULL };
	json_t *eo = json_object_get(o, "entries");
	if (!eo || L->failed)
		return;
	push_key(L, "entries");
	if (check_object(L, eo, "'entries'", keys)) {
		struct call_entries *e = &sc->entries;
		const char *stn = get_str(L, eo, "struct", true, "'entries'");
		const char *count = get_str(L, eo, "count", true, "'entries'");
		uint64_t max = 0;
		e->name = get_str(L, eo, "name", true, "'entries'");
		get_uint(L, eo, "max", true, "'entries'", 1, 4096, &max);
		e->max = (unsigned)max;
		e->count_arg = -1;
		for (size_t i = 0; count && i < sc->nargs && i < 6; i++)
			if (!strcmp(sc->args[i].name, count) && sc->args[i].role == AR_INT)
				e->count_arg = (int)i;
		if (!L->failed && (!sc->st || sc->size_where != SW_NONE))
			lerr(L, "'entries' follow a struct whose call has no size ('size': none)");
		else if (!L->failed && !(e->st = catalog_find_struct(L->cat, stn)))
			lerr(L, "unknown struct '%s'", stn);
		else if (!L->failed && e->count_arg < 0)
			lerr(L, "'count' %s is no integer argument of %s", count, sc->name);
	}
	pop(L);
}

/* The struct a fill's field is in, and the field: its "in" argument's struct, an entry's
 * struct for "NAME[].FIELD" (the call's entries), else the call's; NULL with an error. */
static const struct field *fill_field(struct loader *L, json_t *fo, const struct syscall *sc, struct fill_rule *f,
				      const struct cstruct **stp)
{
	const char *name = get_str(L, fo, "field", true, "a fill");
	const char *in = get_str(L, fo, "in", false, "a fill");
	const struct cstruct *st = sc->st;
	size_t nl = sc->entries.name ? strlen(sc->entries.name) : 0;
	f->in_arg = -1;
	if (!name || L->failed)
		return NULL;
	if (in) {
		for (size_t i = 0; i < sc->nargs && i < 6; i++)
			if (!strcmp(sc->args[i].name, in) && sc->args[i].st && sc->args[i].st != sc->st &&
			    (sc->args[i].role == AR_PTR || sc->args[i].role == AR_STRUCT))
				f->in_arg = (int)i;
		if (f->in_arg < 0) {
			push_key(L, "in");
			lerr(L, "'in' %s is no pointer argument of %s to a struct of its own", in, sc->name);
			pop(L);
			return NULL;
		}
		st = sc->args[f->in_arg].st;
	} else if (nl && !strncmp(name, sc->entries.name, nl) && !strncmp(name + nl, "[].", 3)) {
		f->entry = true;
		st = sc->entries.st;
		name += nl + 3;
	}
	const struct field *fd = st ? cstruct_find_field(st, name) : NULL;
	enum fdir d = fd ? field_direction(sc, st, fd) : FD_IN;
	if (!fd || d == FD_IN || d == FD_IGNORED || fd->count) {
		push_key(L, "field");
		lerr(L, "'%s' is no field of %s that the call writes (out or inout, not an array)", name, st ? st->name : "(none)");
		pop(L);
		return NULL;
	}
	*stp = st;
	return fd;
}

/* "fills": [{"field", "in", "if", "value", "since", "source"}]: what a successful call writes
 * into an output field of its struct (or of the struct another argument points at, or of each
 * of its entries), where the catalogue knows it at that kernel. */
static void load_fills(struct loader *L, json_t *o, struct syscall *sc)
{
	static const char *const keys[] = { "field", "in", "if", "value", "since", "source", NULL };
	json_t *fs = get_array(L, o, "fills", false, "a syscall");
	if (!fs || L->failed)
		return;
	if (!sc->st) {
		lerr(L, "'fills' needs a struct to fill");
		return;
	}
	sc->fills = arena_alloc(L->a, sizeof(*sc->fills) * (json_array_size(fs) + 1));
	push_key(L, "fills");
	for (size_t i = 0; i < json_array_size(fs) && !L->failed; i++) {
		json_t *fo = json_array_get(fs, i);
		struct fill_rule *f = &sc->fills[i];
		const struct cstruct *st = NULL;
		push_idx(L, i);
		if (check_object(L, fo, "a fill", keys)) {
			const struct field *fd = fill_field(L, fo, sc, f, &st);
			struct expr_scope scope = { L->cat, sc, sc->st, f->entry };
			f->field = fd ? (unsigned)(fd - st->fields) : 0;
			/* in the arena, as every string the cache relocates */
			f->text = json_object_get(fo, "if") ? get_str(L, fo, "if", true, "a fill") : arena_strdup(L->a, "1");
			if (f->text && !L->failed)
				compile_condition(L, &scope, "if", f->text, &f->code, &f->ncode);
			if ((f->value_text = get_str(L, fo, "value", true, "a fill")) && !L->failed)
				compile_condition(L, &scope, "value", f->value_text, &f->value_code, &f->nvalue_code);
			f->since = get_kver(L, fo, "since", true, "a fill");
			f->source = get_str(L, fo, "source", true, "a fill");
		}
		pop(L);
		sc->nfills = i + 1;
	}
	pop(L);
}

/* How the call uses its struct, where the struct goes both ways (sched_attr: in for
 * sched_setattr, out for sched_getattr). */
static void load_call_direction(struct loader *L, json_t *o, struct syscall *sc)
{
	if (!json_object_get(o, "direction") || L->failed)
		return;
	sc->direction = (enum fdir)(pick(L, o, "direction", "a syscall", directions, 0) + FD_IN);
	if (!L->failed && (!sc->st || sc->st->direction != FD_INOUT || sc->direction == FD_INOUT)) {
		push_key(L, "direction");
		lerr(L, "a call's 'direction' narrows an inout struct to \"in\" or \"out\"; %s%s%s", sc->st ? "struct '" : "",
		     sc->st ? sc->st->name : "this call has no struct", sc->st ? "' is not inout, or the call says inout" : "");
		pop(L);
	}
}

static void load_nr(struct loader *L, json_t *o, struct syscall *sc)
{
	static const char *const arch_keys[] = { "x86_64", "aarch64", NULL };
	json_t *nr = member(L, o, "nr", true, "a syscall");
	if (!nr || L->failed)
		return;
	push_key(L, "nr");
	if (check_object(L, nr, "'nr'", arch_keys)) {
		long *dst[] = { &sc->nr_x86_64, &sc->nr_aarch64 };
		for (int i = 0; i < 2 && !L->failed; i++) {
			json_t *v = member(L, nr, arch_keys[i], true, "'nr'");
			if (!v || L->failed)
				break;
			push_key(L, arch_keys[i]);
			if (json_is_null(v))
				*dst[i] = -1;
			else if (json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) < 4096)
				*dst[i] = (long)json_integer_value(v);
			else
				lerr(L, "a syscall number must be an integer 0..4095 or null");
			pop(L);
		}
	}
	pop(L);
}

static void load_args(struct loader *L, json_t *arr, struct syscall *sc)
{
	sc->args = arena_alloc(L->a, sizeof(*sc->args) * (json_array_size(arr) + 1));
	push_key(L, "args");
	for (size_t i = 0; i < json_array_size(arr) && !L->failed; i++) {
		json_t *ao = json_array_get(arr, i);
		struct sarg *a = &sc->args[i];
		push_idx(L, i);
		if (check_object(L, ao, "an argument", arg_keys)) {
			a->name = get_str(L, ao, "name", true, "an argument");
			a->type = get_str(L, ao, "type", true, "an argument");
			sarg_type(a);
			a->role = (enum arg_role)pick(L, ao, "role", "an argument", roles, -1);
			a->def = get_str(L, ao, "default", false, "an argument");
			a->doc = get_str(L, ao, "doc", false, "an argument");
			a->flagset = resolve_flagset(L, ao, "flagset");
			if (json_object_get(ao, "direction"))
				a->direction = (enum fdir)(pick(L, ao, "direction", "an argument", directions, 0) + FD_IN);
			load_arg_strace(L, ao, a);
			load_arg_signal(L, ao, a);
			const char *stn = get_str(L, ao, "struct", false, "an argument");
			if (stn && !(a->st = catalog_find_struct(L->cat, stn))) {
				push_key(L, "struct");
				lerr(L, "unknown struct '%s'", stn);
				pop(L);
			}
			for (size_t j = 0; j < i && !L->failed; j++)
				if (!strcmp(sc->args[j].name, a->name))
					lerr(L, "duplicate argument '%s'", a->name);
		}
		pop(L);
		sc->nargs = i + 1;
	}
	pop(L);
}

static void load_size(struct loader *L, json_t *o, struct syscall *sc)
{
	json_t *so = member(L, o, "size", true, "a syscall");
	if (!so || L->failed)
		return;
	push_key(L, "size");
	if (check_object(L, so, "'size'", size_keys)) {
		sc->size_where = (enum size_where)pick(L, so, "where", "'size'", wheres, -1);
		bool named = sc->size_where == SW_ARG || sc->size_where == SW_FIELD || sc->size_where == SW_POINTER;
		sc->size_name = get_str(L, so, "name", named, "'size'");
		uint64_t bits = sc->size_where == SW_ARG ? 64 : 32;
		if (json_object_get(so, "bits") && get_uint(L, so, "bits", false, "'size'", 32, 64, &bits) &&
		    bits != 32 && bits != 64) {
			push_key(L, "bits");
			lerr(L, "'bits' must be 32 or 64");
			pop(L);
		}
		sc->size_bits = (unsigned)bits;
		if (!L->failed && sc->size_where == SW_FIELD) {
			const struct field *f = sc->st ? cstruct_find_field(sc->st, sc->size_name) : NULL;
			push_key(L, "name");
			if (!f)
				lerr(L, "the size field '%s' is not a field of struct '%s'", sc->size_name,
				     sc->st ? sc->st->name : "(none)");
			else
				((struct cstruct *)sc->st)->size_field = f;
			pop(L);
		} else if (!L->failed && (sc->size_where == SW_ARG || sc->size_where == SW_POINTER)) {
			bool found = false;
			for (size_t i = 0; i < sc->nargs; i++)
				found |= !strcmp(sc->args[i].name, sc->size_name);
			if (!found) {
				push_key(L, "name");
				lerr(L, "the size argument '%s' is not an argument of '%s'", sc->size_name, sc->name);
				pop(L);
			}
		}
	}
	pop(L);
}

/* A size rule's answer: an errno name, "ok", or for size 0 "ver0" (read as the first version). */
static void load_size_answer(struct loader *L, json_t *ro, const char *key, bool ver0_ok, struct size_answer *a)
{
	const char *s = get_str(L, ro, key, false, "'rules'");
	if (!s || L->failed)
		return;
	if (!strcmp(s, "ok"))
		a->kind = SA_OK;
	else if (ver0_ok && !strcmp(s, "ver0"))
		a->kind = SA_VER0;
	else if ((a->err = errno_from_name(s)) > 0)
		a->kind = SA_ERRNO;
	else {
		a->err = 0;
		push_key(L, key);
		lerr(L, "'%s' must be an errno name or \"ok\"%s, not \"%s\"", key, ver0_ok ? " or \"ver0\"" : "", s);
		pop(L);
	}
}

/* An errno rule as its number; dflt when the rules do not state it. */
static int load_rule_errno(struct loader *L, json_t *ro, const char *key, int dflt)
{
	const char *s = NULL;
	check_errno_value(L, ro, key, "'rules'", false, &s);
	return s && !L->failed ? errno_from_name(s) : dflt;
}

static void load_rules(struct loader *L, json_t *o, struct syscall *sc)
{
	json_t *ro = json_object_get(o, "rules");
	if (!ro)
		return;
	push_key(L, "rules");
	if (check_object(L, ro, "'rules'", rule_keys)) {
		struct size_rules *r = &sc->rules;
		uint64_t v = 0;
		sc->has_rules = true;
		load_size_answer(L, ro, "zero", true, &r->zero);
		load_size_answer(L, ro, "below_ver0", false, &r->below_ver0);
		if (get_uint(L, ro, "min", false, "'rules'", 0, 1u << 20, &v))
			r->min = (unsigned)v;
		json_t *cap = json_object_get(ro, "cap");
		if (cap && !json_is_null(cap) && get_uint(L, ro, "cap", false, "'rules'", 1, 1u << 30, &v))
			r->cap = v;
		r->cap_since = get_kver(L, ro, "cap_since", false, "'rules'");
		load_backports(L, ro, "cap_backported", r->cap_since, r->cap_backported, "'rules'");
		if (json_object_get(ro, "tail"))
			r->tail = (enum size_tail)(TAIL_E2BIG + pick(L, ro, "tail", "'rules'", tails, 0));
		r->writeback = (enum size_writeback)(WB_NONE + pick(L, ro, "writeback", "'rules'", writebacks, 0));
		r->check_order = get_str(L, ro, "check_order", false, "'rules'");
		r->cap_errno = load_rule_errno(L, ro, "cap_errno", E2BIG);
		r->null_errno = load_rule_errno(L, ro, "null", 0);
		r->ignore_unknown = get_strings(L, ro, "ignore_unknown", "'rules'", &r->nignore_unknown);
	}
	pop(L);
}

static bool set_has(const struct flagset *fs, const char *flag)
{
	for (size_t k = 0; fs && k < fs->nflags; k++)
		if (!strcmp(fs->flags[k].name, flag))
			return true;
	return false;
}

/* Is "HOLDER:FLAG" a flag of a struct field or of a flags argument called HOLDER? */
int ld_feature_known(const struct syscall *sc, const char *holder, size_t n, const char *flag)
{
	int named = 0;
	for (size_t i = 0; sc->st && i < sc->st->nfields; i++)
		if (strlen(sc->st->fields[i].name) == n && !strncmp(sc->st->fields[i].name, holder, n) && sc->st->fields[i].flagset) {
			named = 1;
			if (set_has(sc->st->fields[i].flagset, flag))
				return 2;
		}
	for (size_t i = 0; i < sc->nargs; i++)
		if (strlen(sc->args[i].name) == n && !strncmp(sc->args[i].name, holder, n) && sc->args[i].flagset) {
			named = 1;
			if (set_has(sc->args[i].flagset, flag))
				return 2;
		}
	return named;
}

static void load_features(struct loader *L, json_t *o, struct syscall *sc)
{
	sc->features = get_strings(L, o, "features", "a syscall", &sc->nfeatures);
	if (L->failed || !sc->features)
		return;
	push_key(L, "features");
	for (size_t i = 0; i < sc->nfeatures && !L->failed; i++) {
		const char *f = sc->features[i];
		const char *colon = strchr(f, ':');
		push_idx(L, i);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(sc->features[j], f))
				lerr(L, "duplicate feature '%s' (bit %zu already)", f, j);
		if (L->failed) {
		} else if (!strcmp(f, "available")) {
			if (i)
				lerr(L, "'available' must be bit 0");
		} else if (!colon) {
			lerr(L, "feature '%s' is not \"available\", \"size:N\", \"FIELD:FLAG\" or \"query:NAME\"", f);
		} else if (!strncmp(f, "size:", 5)) {
			bool ok = false;
			for (size_t k = 0; sc->st && k < sc->st->nversions; k++)
				ok |= (unsigned)atoi(f + 5) == sc->st->versions[k].size;
			if (!ok)
				lerr(L, "feature '%s': %s has no size version of that size", f, sc->st ? sc->st->name : sc->name);
		} else if (strncmp(f, "query:", 6)) {
			int k = ld_feature_known(sc, f, (size_t)(colon - f), colon + 1);
			if (!k)
				lerr(L, "feature '%s': '%.*s' is neither a field with a flag set nor a flags argument", f, (int)(colon - f), f);
			else if (k == 1)
				lerr(L, "feature '%s': %s is not a flag of '%.*s'", f, colon + 1, (int)(colon - f), f);
		}
		pop(L);
	}
	pop(L);
}

/* ---- probe queries ---- */

const struct sarg *ld_find_arg(const struct syscall *sc, const char *name)
{
	for (size_t i = 0; i < sc->nargs; i++)
		if (!strcmp(sc->args[i].name, name))
			return &sc->args[i];
	return NULL;
}

/* Where query q reads: the struct its "in" names (a pointer argument's, or "struct" for a
 * field holding an address), else the call's; NULL with an error reported. */
static const struct cstruct *query_struct(struct loader *L, json_t *qo, const struct syscall *sc, struct probe_query *q)
{
	const char *stn = get_str(L, qo, "struct", false, "a query");
	const struct cstruct *st = stn ? catalog_find_struct(L->cat, stn) : sc->st;
	if (stn && !st)
		lerr(L, "unknown struct '%s'", stn);
	if (!q->in || L->failed)
		return st;
	const struct sarg *a = ld_find_arg(sc, q->in);
	if (a && !stn)
		st = a->st;
	else if (!a && !(sc->st && cstruct_find_field(sc->st, q->in) && stn))
		lerr(L, "'in' must be a pointer argument of %s, or a field of its struct with a 'struct'", sc->name);
	if (!st && !L->failed)
		lerr(L, "'in' %s points at no struct the catalogue knows", q->in);
	return st;
}

static void load_query(struct loader *L, json_t *qo, const struct syscall *sc, struct probe_query *q)
{
	static const char *const qk[] = { "name", "args", "set", "read", "in", "struct", "count", "auxv", NULL };
	if (!check_object(L, qo, "a query", qk))
		return;
	q->name = get_str(L, qo, "name", true, "a query");
	q->args = get_strings(L, qo, "args", "a query", &q->nargs);
	q->set = get_strings(L, qo, "set", "a query", &q->nset);
	q->read = get_str(L, qo, "read", false, "a query");
	q->in = get_str(L, qo, "in", false, "a query");
	q->count = get_str(L, qo, "count", false, "a query");
	q->auxv = get_str(L, qo, "auxv", false, "a query");
	if (L->failed)
		return;
	if (!q->auxv == !q->read)
		lerr(L, "a query has either 'read' or 'auxv'");
	q->st = query_struct(L, qo, sc, q);
	if (L->failed || !q->read || !strcmp(q->read, "return"))
		return;
	const struct cstruct *in_st = q->count ? sc->st : q->st; /* count: read is the call's */
	if (!in_st || !cstruct_find_field(in_st, q->read))
		lerr(L, "'read' %s is not a field of %s", q->read, in_st ? in_st->name : "a struct");
	if (!q->count)
		return;
	char field[64];
	const char *colon = strchr(q->count, ':');
	int n = colon ? snprintf(field, sizeof(field), "%.*s", (int)(colon - q->count), q->count) : -1;
	if (n < 0 || (size_t)n >= sizeof(field) || !q->st || !cstruct_find_field(q->st, field) || !colon[1])
		lerr(L, "'count' %s is not FIELD:FLAG of an entry struct", q->count);
}

static void load_queries(struct loader *L, json_t *po, struct syscall *sc)
{
	json_t *arr = get_array(L, po, "queries", false, "'probe'");
	if (!arr || L->failed)
		return;
	sc->queries = arena_alloc(L->a, sizeof(*sc->queries) * (json_array_size(arr) + 1));
	push_key(L, "queries");
	for (size_t i = 0; i < json_array_size(arr) && !L->failed; i++) {
		push_idx(L, i);
		load_query(L, json_array_get(arr, i), sc, &sc->queries[i]);
		pop(L);
		sc->nqueries = i + 1;
	}
	pop(L);
}

/* An ioctl's fd, direction, type and number. */
static void load_ioctl(struct loader *L, json_t *o, struct syscall *sc)
{
	json_t *io = json_object_get(o, "ioctl");
	if (!io || L->failed)
		return;
	push_key(L, "ioctl");
	if (check_object(L, io, "'ioctl'", ioctl_keys)) {
		uint64_t nr = 0, type = 0;
		sc->is_ioctl = true;
		sc->ioctl_fd = get_str(L, io, "fd", true, "'ioctl'");
		sc->ioctl_dir = (enum ioctl_dir)pick(L, io, "dir", "'ioctl'", ioctl_dirs, -1);
		json_t *t = member(L, io, "type", true, "'ioctl'");
		if (t && !L->failed) {
			push_key(L, "type");
			if (json_is_integer(t) && json_integer_value(t) >= 0 && json_integer_value(t) < 256)
				type = (uint64_t)json_integer_value(t);
			else if (!json_is_string(t) || !parse_c_int(json_string_value(t), false, &type) || type > 255)
				lerr(L, "'type' must be 0..255");
			pop(L);
		}
		get_uint(L, io, "nr", true, "'ioctl'", 0, 255, &nr);
		sc->ioctl_type = (unsigned)type;
		sc->ioctl_nr = (unsigned)nr;
	}
	pop(L);
}

static void load_errors(struct loader *L, json_t *o, struct syscall *sc)
{
	json_t *errs = get_array(L, o, "errors", true, "a syscall");
	if (!errs || L->failed)
		return;
	static const char *const ek[] = { "errno", "meaning", NULL };
	sc->errors = arena_alloc(L->a, sizeof(*sc->errors) * (json_array_size(errs) + 1));
	push_key(L, "errors");
	for (size_t i = 0; i < json_array_size(errs) && !L->failed; i++) {
		json_t *eo = json_array_get(errs, i);
		push_idx(L, i);
		if (check_object(L, eo, "an error", ek)) {
			check_errno_value(L, eo, "errno", "an error", false, &sc->errors[i].errno_name);
			if (!sc->errors[i].errno_name && !L->failed)
				lerr(L, "an error has no 'errno'");
			sc->errors[i].meaning = get_str(L, eo, "meaning", true, "an error");
		}
		pop(L);
		sc->nerrors = i + 1;
	}
	pop(L);
}

static void load_lineage(struct loader *L, json_t *o, struct syscall *sc)
{
	json_t *lin = get_array(L, o, "lineage", false, "a syscall");
	if (!lin || L->failed)
		return;
	static const char *const lk[] = { "name", "since", "why", NULL };
	sc->lineage = arena_alloc(L->a, sizeof(*sc->lineage) * (json_array_size(lin) + 1));
	push_key(L, "lineage");
	for (size_t i = 0; i < json_array_size(lin) && !L->failed; i++) {
		json_t *lo = json_array_get(lin, i);
		push_idx(L, i);
		if (check_object(L, lo, "a lineage entry", lk)) {
			sc->lineage[i].name = get_str(L, lo, "name", true, "a lineage entry");
			sc->lineage[i].since = get_kver(L, lo, "since", true, "a lineage entry");
			sc->lineage[i].why = get_str(L, lo, "why", true, "a lineage entry");
		}
		pop(L);
		sc->nlineage = i + 1;
	}
	pop(L);
}

/* What the prober sets, skips and expects refused for this call. */
static void load_probe(struct loader *L, json_t *o, struct syscall *sc)
{
	json_t *po = json_object_get(o, "probe");
	if (!po || L->failed)
		return;
	static const char *const pk[] = { "set", "args", "note", "skip_fields", "skip_args", "refuses", "queries", NULL };
	push_key(L, "probe");
	if (check_object(L, po, "'probe'", pk)) {
		sc->probe_set = get_strings(L, po, "set", "'probe'", &sc->nprobe_set);
		sc->probe_args = get_strings(L, po, "args", "'probe'", &sc->nprobe_args);
		sc->probe_note = get_str(L, po, "note", false, "'probe'");
		sc->probe_skip = get_strings(L, po, "skip_fields", "'probe'", &sc->nprobe_skip);
		sc->probe_refuses = get_strings(L, po, "refuses", "'probe'", &sc->nprobe_refuses);
		sc->probe_skip_args = get_strings(L, po, "skip_args", "'probe'", &sc->nprobe_skip_args);
		for (size_t i = 0; i < sc->nprobe_skip_args && !L->failed; i++)
			if (!ld_find_arg(sc, sc->probe_skip_args[i]))
				lerr(L, "'skip_args': %s has no argument '%s'", sc->name, sc->probe_skip_args[i]);
		load_queries(L, po, sc);
		for (size_t i = 0; i < sc->nprobe_refuses && !L->failed; i++) {
			const char *f = sc->probe_refuses[i], *colon = strchr(f, ':');
			if (!colon || ld_feature_known(sc, f, (size_t)(colon - f), colon + 1) != 2) {
				push_key(L, "refuses");
				push_idx(L, i);
				lerr(L, "'%s' is not FIELD:FLAG of a flags field or argument of %s", f, sc->name);
				pop(L);
				pop(L);
			}
		}
	}
	pop(L);
}

static void load_syscall(struct loader *L, json_t *o, struct syscall *sc)
{
	if (!check_object(L, o, "a syscall", syscall_keys))
		return;
	sc->file = arena_strdup(L->a, L->src->name);
	sc->name = get_str(L, o, "name", true, "a syscall");
	sc->kind = (enum sc_kind)pick(L, o, "kind", "a syscall", kinds, -1);
	load_nr(L, o, sc);
	sc->since = get_kver(L, o, "since", true, "a syscall");
	sc->header = get_str(L, o, "header", true, "a syscall");
	sc->prototype = get_str(L, o, "prototype", true, "a syscall");
	sc->summary = get_str(L, o, "summary", true, "a syscall");
	sc->safety = (enum safety)pick(L, o, "safety", "a syscall", safeties, -1);
	sc->check_fields = get_bool(L, o, "check_fields");
	sc->simulation_only = get_str(L, o, "simulation_only", false, "a syscall");
	if (json_object_get(o, "returns"))
		sc->returns = (enum sc_returns)(RET_FD + pick(L, o, "returns", "a syscall", returns, 0));
	load_ioctl(L, o, sc);
	const char *stn = get_str(L, o, "struct", false, "a syscall");
	if (stn && !L->failed && !(sc->st = catalog_find_struct(L->cat, stn))) {
		push_key(L, "struct");
		lerr(L, "unknown struct '%s'", stn);
		pop(L);
	}
	if (!L->failed && !sc->st && (sc->kind == SK_EXTENSIBLE || sc->kind == SK_MULTIPLEXER))
		lerr(L, "syscall '%s' of kind %s needs a 'struct'", sc->name, sc_kind_name(sc->kind));
	load_call_direction(L, o, sc);
	json_t *args = get_array(L, o, "args", true, "a syscall");
	if (args && !L->failed)
		load_args(L, args, sc);
	load_size(L, o, sc);
	load_rules(L, o, sc);
	load_checks(L, o, sc);
	load_results(L, o, sc);
	load_effects(L, o, sc);
	load_entries(L, o, sc);
	load_fills(L, o, sc);

	load_errors(L, o, sc);
	load_lineage(L, o, sc);
	sc->notes = get_strings(L, o, "notes", "a syscall", &sc->nnotes);
	sc->links = get_strings(L, o, "links", "a syscall", &sc->nlinks);
	load_features(L, o, sc);
	load_probe(L, o, sc);
}

/* ---- driver ---- */

static const char *const top_keys[] = { "syscalls", "structs", "flagsets", "strace_tables", NULL };

static size_t section_size(struct loader *L, json_t *root, const char *key)
{
	json_t *arr = get_array(L, root, key, false, "the file");
	return arr ? json_array_size(arr) : 0;
}

/* Runs fn over every entry of section key of every file; checks names for duplicates. */
#define EACH_ENTRY(L, srcs, n, key, arr, count, fn)                                          \
	for (size_t f_ = 0; f_ < (n) && !(L)->failed; f_++) {                                  \
		(L)->src = &(srcs)[f_];                                                        \
		json_t *a_ = json_object_get((srcs)[f_].root, key);                            \
		push_key(L, key);                                                              \
		for (size_t i_ = 0; a_ && i_ < json_array_size(a_) && !(L)->failed; i_++) {    \
			push_idx(L, i_);                                                       \
			fn(L, json_array_get(a_, i_), &(arr)[(count)]);                        \
			if (!(L)->failed)                                                      \
				for (size_t j_ = 0; j_ < (count); j_++)                        \
					if (!strcmp((arr)[j_].name, (arr)[(count)].name)) {    \
						push_key(L, "name");                   \
						lerr(L, "duplicate name '%s' (first defined in %s)", \
						     (arr)[j_].name, (arr)[j_].file);          \
						pop(L);                                        \
					}                                                      \
			(count)++;                                                             \
			pop(L);                                                                \
		}                                                                              \
		pop(L);                                                                        \
	}

/* jansson reports where it stopped, after the token; point at the token (or the bad
 * byte, or the end of the file) instead, and never echo raw bytes to the terminal. */
static void report_json_error(const struct src *src, const json_error_t *je)
{
	const char *t = src->text;
	size_t len = src->len, p = je->position > 0 ? (size_t)je->position - 1 : 0;
	unsigned bad;
	if (p >= len)
		p = len ? len - 1 : 0;
	if (strstr(je->text, "end of file")) {
		p = len;
	} else if (sscanf(je->text, "unable to decode byte 0x%x", &bad) == 1 ||
		   sscanf(je->text, "control character 0x%x", &bad) == 1) {
		size_t q = p > 8 ? p - 8 : 0;
		while (q < len && (unsigned char)t[q] != bad)
			q++;
		if (q < len)
			p = q;
	} else if (len && ((t[p] >= '0' && t[p] <= '9') || t[p] == '.')) {
		while (p > 0 && strchr("0123456789+-.eE", t[p - 1]))
			p--;
	} else if (len && t[p] == '"') {
		while (p > 0 && !(t[p - 1] == '"' && (p < 2 || t[p - 2] != '\\')))
			p--;
		if (p > 0)
			p--;
	}
	unsigned long line, col;
	line_col(t, t + p, &line, &col);
	struct sbuf msg = SBUF_INIT;
	for (const unsigned char *c = (const unsigned char *)je->text; *c; c++)
		if (*c < 0x20 || *c >= 0x7f)
			sbuf_addf(&msg, "\\x%02x", *c);
		else
			sbuf_addch(&msg, *c);
	err("%s:%lu:%lu: %s", src->name, line, col, msg.buf);
	sbuf_release(&msg);
}

static struct catalog *load_sources(struct src *srcs, size_t n, unsigned flags, struct catalog_fault *fault)
{
	struct catalog *cat = xcalloc(1, sizeof(*cat));
	struct loader L = { .cat = cat, .a = &cat->arena, .srcs = srcs, .nsrcs = n, .flags = flags, .fault = fault };
	size_t nsys = 0, nst = 0, nfs = 0, ntab = 0;

	for (size_t i = 0; i < n && !L.failed; i++) {
		json_error_t je;
		L.src = &srcs[i];
		srcs[i].root = json_loadb(srcs[i].text, srcs[i].len, JSON_REJECT_DUPLICATES, &je);
		if (!srcs[i].root) {
			report_json_error(&srcs[i], &je);
			L.failed = true;
			break;
		}
		if (!check_object(&L, srcs[i].root, "the top level", top_keys))
			break;
		nsys += section_size(&L, srcs[i].root, "syscalls");
		nst += section_size(&L, srcs[i].root, "structs");
		nfs += section_size(&L, srcs[i].root, "flagsets");
		ntab += section_size(&L, srcs[i].root, "strace_tables");
	}
	if (!L.failed) {
		cat->flagsets = arena_alloc(L.a, sizeof(*cat->flagsets) * (nfs + 1));
		cat->structs = arena_alloc(L.a, sizeof(*cat->structs) * (nst + 1));
		cat->syscalls = arena_alloc(L.a, sizeof(*cat->syscalls) * (nsys + 1));
		/* flag sets and strace's tables, then structs (which name them), then syscalls (which
		 * name both) */
		cat->strace_tables = arena_alloc(L.a, sizeof(*cat->strace_tables) * (ntab + 1));
		EACH_ENTRY(&L, srcs, n, "flagsets", cat->flagsets, cat->nflagsets, load_flagset);
		EACH_ENTRY(&L, srcs, n, "strace_tables", cat->strace_tables, cat->nstrace_tables, load_strace_table);
		EACH_ENTRY(&L, srcs, n, "structs", cat->structs, cat->nstructs, load_struct);
		EACH_ENTRY(&L, srcs, n, "syscalls", cat->syscalls, cat->nsyscalls, load_syscall);
	}
	for (size_t i = 0; i < n; i++)
		json_decref(srcs[i].root);
	if (L.failed) {
		catalog_free(cat);
		return NULL;
	}
	return cat;
}

struct catalog *catalog_load_buffers(const char *const *names, const char *const *texts,
				     const size_t *lens, size_t n)
{
	struct src *srcs = xcalloc(n ? n : 1, sizeof(*srcs));
	for (size_t i = 0; i < n; i++)
		srcs[i] = (struct src){ names[i], texts[i], lens[i], NULL };
	struct catalog *c = load_sources(srcs, n, 0, NULL);
	free(srcs);
	return c;
}

struct catalog *catalog_load_text(const char *name, const char *text, size_t len, unsigned flags,
				  struct catalog_fault *fault)
{
	struct src src = { name, text, len, NULL };
	return load_sources(&src, 1, flags, fault);
}

static bool is_dir(const char *p)
{
	return access(p, R_OK | X_OK) == 0;
}

/* dir if it holds a catalogue, noting it in tried either way. */
static bool try_dir(char *found, const char *dir, struct sbuf *tried)
{
	sbuf_addf(tried, "%s'%s'", tried->len ? ", " : "", dir);
	if (!is_dir(dir) || strlen(dir) >= PATH_MAX)
		return false;
	snprintf(found, PATH_MAX, "%s", dir);
	return true;
}

/* The source tree's data/ when exe lies in its build directory (build/xsc, build/asan/xsc,
 * build/tests/...): T/data for the last T/build/ in exe's path, if T/data/schema.json is there. */
static bool build_tree_dir(char *found, const char *exe, struct sbuf *tried)
{
	const char *last = NULL;
	for (const char *p = strstr(exe, "/build/"); p; p = strstr(p + 1, "/build/"))
		last = p;
	if (!last)
		return false;
	struct sbuf d = SBUF_INIT, schema = SBUF_INIT;
	sbuf_addf(&d, "%.*s/data", (int)(last - exe), exe);
	sbuf_addf(&schema, "%s/schema.json", d.buf);
	bool ok = access(schema.buf, R_OK) == 0 && try_dir(found, d.buf, tried);
	if (!ok && !strstr(tried->buf, d.buf))
		sbuf_addf(tried, "%s'%s'", tried->len ? ", " : "", d.buf);
	sbuf_release(&schema);
	sbuf_release(&d);
	return ok;
}

/* Where the catalogue is when neither --data nor XSC_DATA says: installed beside the
 * binary, the source tree the binary was built in, or where 'make install' put it. Never
 * the current directory: a copied binary must not pick up whatever ./data it runs beside. */
const char *catalog_default_dir(void)
{
	static char found[PATH_MAX];
	if (found[0])
		return found;
	struct sbuf tried = SBUF_INIT, d = SBUF_INIT;
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	bool ok = false;
	/* a self-contained build's own catalogue first: it matches its code, an installed one
	 * may not */
	if (embed_root() && strlen(embed_root()) + 5 < PATH_MAX) {
		snprintf(found, PATH_MAX, "%s/data", embed_root());
		ok = true;
	}
	if (!ok && n > 0 && exe[0] == '/') {
		exe[n] = '\0';
		sbuf_addf(&d, "%.*s/../share/xsc/data", (int)(strrchr(exe, '/') - exe), exe);
		ok = try_dir(found, d.buf, &tried) || build_tree_dir(found, exe, &tried);
	}
#ifdef XSC_DATADIR
	ok = ok || try_dir(found, XSC_DATADIR, &tried);
#endif
	if (!ok)
		err("no catalogue found (looked in %s); give --data DIR or set XSC_DATA", tried.len ? tried.buf : "no place");
	sbuf_release(&d);
	sbuf_release(&tried);
	return ok ? found : NULL;
}

struct catalog *catalog_load(const char *dir)
{
	if (!dir)
		return NULL; /* catalog_default_dir() found none and said where it looked */
	DIR *d = opendir(dir);
	if (!d) {
		err("cannot read the catalogue directory '%s': %s", dir, strerror(errno));
		return NULL;
	}
	char **paths = NULL;
	size_t n = 0, alloc = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		if (de->d_name[0] == '.' || l < 6 || strcmp(de->d_name + l - 5, ".json") ||
		    !strcmp(de->d_name, "schema.json"))
			continue;
		struct sbuf sb = SBUF_INIT;
		sbuf_addf(&sb, "%s/%s", dir, de->d_name);
		ALLOC_GROW(paths, n + 1, alloc);
		paths[n++] = sbuf_detach(&sb);
	}
	closedir(d);
	if (n)
		qsort(paths, n, sizeof(*paths), cmp_strp);

	struct src *srcs = xcalloc(n ? n : 1, sizeof(*srcs));
	char *cpath = n ? catalog_cache_path(dir) : NULL;
	uint64_t key = cpath ? catalog_cache_key(paths, n) : 0;
	struct catalog *c = catalog_cache_load(cpath, key);
	size_t loaded = 0;
	if (c)
		goto done;
	for (; loaded < n; loaded++) {
		char *text;
		size_t len;
		if (read_file_max(paths[loaded], CATALOG_FILE_MAX, &text, &len) < 0) {
			if (errno == EFBIG)
				err("%s:1:1: file too large (limit %u bytes)", paths[loaded], CATALOG_FILE_MAX);
			else
				err("%s: %s", paths[loaded], strerror(errno));
			goto out;
		}
		srcs[loaded] = (struct src){ paths[loaded], text, len, NULL };
	}
	if (!n) {
		err("no catalogue files (*.json) in '%s'", dir);
		goto out;
	}
	c = load_sources(srcs, n, 0, NULL);
	if (c)
		catalog_cache_save(cpath, key, c);
done:
	if (c)
		c->dir = dir;
out:
	for (size_t i = 0; i < loaded; i++)
		free((char *)srcs[i].text);
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	free(srcs);
	free(cpath);
	return c;
}
