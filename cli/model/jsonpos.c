#include "model/jsonpos.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/diag.h"
#include "base/sbuf.h"
#include "model/kver.h"
#include "base/banned.h"

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

/* Past a value and the comma after it, to the next member or element; NULL when the value
 * is malformed or is the last one (the step looked for is not there). */
static const char *skip_member(const char *p, const char *end)
{
	if (!(p = skip_value(p, end, 0)))
		return NULL;
	p = skip_ws(p, end);
	if (p >= end || *p != ',')
		return NULL;
	return skip_ws(p + 1, end);
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
				if (!(p = skip_member(p, end)))
					return here;
			}
		} else {
			if (p >= end || *p != '[')
				return here;
			p = skip_ws(p + 1, end);
			for (size_t j = 0; j < path[i].idx; j++)
				if (!(p = skip_member(p, end)))
					return here;
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
void lerr(struct loader *L, const char *fmt, ...)
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

void push_key(struct loader *L, const char *key)
{
	if (L->depth >= (int)ARRAY_SIZE(L->path))
		BUG("catalogue path too deep");
	L->path[L->depth++] = (struct step){ key, 0 };
}

void push_idx(struct loader *L, size_t idx)
{
	if (L->depth >= (int)ARRAY_SIZE(L->path))
		BUG("catalogue path too deep");
	L->path[L->depth++] = (struct step){ NULL, idx };
}

void pop_step(struct loader *L) { L->depth--; }

/* ---- typed getters; each reports at the member it reads ---- */

const char *json_kind(const json_t *v)
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
bool check_object(struct loader *L, json_t *obj, const char *what, const char *const *allowed)
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
		pop_step(L);
		return false;
	}
	return true;
}

json_t *get_member(struct loader *L, json_t *obj, const char *key, bool required, const char *what)
{
	json_t *v = json_object_get(obj, key);
	if (!v && required)
		lerr(L, "%s has no '%s'", what, key);
	return v;
}

const char *get_str(struct loader *L, json_t *obj, const char *key, bool required, const char *what)
{
	json_t *v = get_member(L, obj, key, required, what);
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
	pop_step(L);
	return r;
}

bool get_bool(struct loader *L, json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	if (!v)
		return false;
	if (!json_is_boolean(v)) {
		push_key(L, key);
		lerr(L, "'%s' must be true or false, not %s", key, json_kind(v));
		pop_step(L);
		return false;
	}
	return json_is_true(v);
}

/* An unsigned integer in [lo, hi]; returns false (and reports) when absent-but-required or bad. */
bool get_uint(struct loader *L, json_t *obj, const char *key, bool required, const char *what,
		     uint64_t lo, uint64_t hi, uint64_t *out)
{
	json_t *v = get_member(L, obj, key, required, what);
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
	pop_step(L);
	return ok;
}

uint32_t get_kver(struct loader *L, json_t *obj, const char *key, bool required, const char *what)
{
	const char *s = get_str(L, obj, key, required, what);
	uint32_t v = 0;
	if (s && kver_parse(s, &v, 0) < 0) {
		push_key(L, key);
		lerr(L, "'%s' is not a kernel version like \"5.6\" or \"2.6.31\": \"%s\"", key, s);
		pop_step(L);
	}
	return v;
}

json_t *get_array(struct loader *L, json_t *obj, const char *key, bool required, const char *what)
{
	json_t *v = get_member(L, obj, key, required, what);
	if (!v || L->failed)
		return NULL;
	if (!json_is_array(v)) {
		push_key(L, key);
		lerr(L, "'%s' must be an array, not %s", key, json_kind(v));
		pop_step(L);
		return NULL;
	}
	return v;
}

int get_choice(struct loader *L, json_t *obj, const char *key, const char *what,
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
	pop_step(L);
	sbuf_release(&sb);
	return dflt < 0 ? 0 : dflt;
}

/* Array of strings into an arena array. */
const char **get_strings(struct loader *L, json_t *obj, const char *key, const char *what, size_t *n)
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
		pop_step(L);
	}
	pop_step(L);
	return r;
}

/* A C integer literal: 0x.., 0.., decimal; a leading '-' only when neg_ok. */
bool parse_c_int(const char *s, bool neg_ok, uint64_t *out)
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

/* jansson reports where it stopped, after the token; point at the token (or the bad
 * byte, or the end of the file) instead, and never echo raw bytes to the terminal. */
void report_json_error(const struct src *src, const json_error_t *je)
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
