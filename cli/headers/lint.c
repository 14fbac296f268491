/* lint: convention checks over a header's layouts and macros. See lint.h. */
#include "headers/lint.h"
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/sbuf.h"
#include "base/banned.h"

const struct lint_rule lint_rules[] = {
	{ "PADDING_HOLE", HD_ERROR, "implicit padding between two fields" },
	{ "TAIL_PADDING", HD_ERROR, "implicit padding after the last field" },
	{ "SIZE_NOT_MULTIPLE_OF_8", HD_WARNING, "the struct size is not a multiple of 8" },
	{ "SIGNED_FLAGS", HD_ERROR, "a flags or mask field has a signed type" },
	{ "SIGNED_FIELD", HD_WARNING, "a field has a signed type" },
	{ "NON_FIXED_WIDTH", HD_WARNING, "a field's type is not a fixed-width __u8..__u64/__s8..__s64" },
	{ "LONG_FIELD", HD_ERROR, "a field is long or unsigned long: 4 or 8 bytes by ABI" },
	{ "RAW_POINTER", HD_ERROR, "a field is a raw pointer; pass pointers as __aligned_u64" },
	{ "NO_VER0", HD_WARNING, "the struct is size-versioned but has no *_SIZE_VER0 macro" },
	{ "VER_NOT_ON_BOUNDARY", HD_ERROR, "a *_SIZE_VERn value falls inside a field" },
	{ "VER_MISMATCH", HD_ERROR, "size versions that disagree with the layout or with each other" },
	{ "FIELDS_PAST_LAST_VER", HD_WARNING, "fields after the newest *_SIZE_VERn: an undocumented extension" },
	{ "MULTIPLEXER_UNION", HD_WARNING, "a union of per-command structs selected by a command (the bpf() pattern)" },
	{ "SIZE_FIELD_IN_STRUCT", HD_NOTE, "the struct carries its own size: the kernel must read it twice" },
	{ "NO_ZERO_DOC", HD_WARNING, "a field has no comment saying what the value 0 means" },
	{ "INCLUDE_NOT_FOUND", HD_WARNING, "an #include could not be found; its declarations are missing" },
	{ "PARSE_ERROR", HD_ERROR, "the compiler could not parse the header" },
	{ NULL, HD_NOTE, NULL },
};

static enum hdiag_sev rule_sev(const char *id)
{
	for (const struct lint_rule *r = lint_rules; r->id; r++)
		if (!strcmp(r->id, id))
			return r->sev;
	return HD_ERROR;
}

static bool line_ignores(const struct header *h, unsigned line, const char *rule)
{
	const char *s;
	size_t n;
	if (!header_line(h, line, &s, &n))
		return false;
	size_t rl = strlen(rule);
	for (const char *p = s; p < s + n; p++) {
		if ((size_t)(s + n - p) < 16 || strncmp(p, "xsc-lint: ignore", 16))
			continue;
		p += 16;
		while (p < s + n && (*p == ' ' || *p == ',' || *p == '\t' || isupper((unsigned char)*p) ||
				     isdigit((unsigned char)*p) || *p == '_')) {
			if ((size_t)(s + n - p) >= rl && !strncmp(p, rule, rl) &&
			    (p + rl == s + n || !(isupper((unsigned char)p[rl]) || p[rl] == '_' || isdigit((unsigned char)p[rl]))) &&
			    (p == s || !(isupper((unsigned char)p[-1]) || p[-1] == '_')))
				return true;
			p++;
		}
	}
	return false;
}

/* "xsc-lint: ignore RULE[,RULE]" on the line or the line above silences RULE there. */
static bool suppressed(const struct header *h, unsigned line, const char *rule)
{
	return line && (line_ignores(h, line, rule) || (line > 1 && line_ignores(h, line - 1, rule)));
}

static void add(struct lint_result *r, const struct header *h, const char *rule, unsigned line, unsigned col,
		const char *fmt, ...) PRINTF_LIKE(6, 7);
static void add(struct lint_result *r, const struct header *h, const char *rule, unsigned line, unsigned col,
		const char *fmt, ...)
{
	if (suppressed(h, line, rule)) {
		r->suppressed++;
		return;
	}
	struct sbuf sb = SBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ALLOC_GROW(r->f, r->n + 1, r->alloc);
	struct lint_finding *f = &r->f[r->n++];
	f->sev = rule_sev(rule);
	f->rule = rule;
	f->msg = sbuf_detach(&sb);
	f->line = line, f->col = col;
}

static bool word_in(const char *hay, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = hay; (p = strstr(p, w)); p++) {
		bool l = p == hay || !isalnum((unsigned char)p[-1]);
		bool rr = !isalnum((unsigned char)p[n]);
		if (l && rr)
			return true;
	}
	return false;
}

/* Does the comment say what zero means? */
static bool says_zero(const char *doc)
{
	if (!doc)
		return false;
	char *t = xstrdup(doc);
	for (char *p = t; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	static const char *const words[] = { "0", "zero", "zeroed", "unset", "default", "null", "none", "ignored",
					     "must be zero", "disabled", "off", "no", "not set" };
	bool r = false;
	for (size_t i = 0; i < ARRAY_SIZE(words) && !r; i++)
		r = word_in(t, words[i]);
	free(t);
	return r;
}

static bool flags_name(const char *n)
{
	return strstr(n, "flags") || strstr(n, "mask") || !strcmp(n, "attr_set") || !strcmp(n, "attr_clr");
}

static bool cmd_name(const char *n)
{
	return !strcmp(n, "cmd") || !strcmp(n, "command") || !strcmp(n, "op") || !strcmp(n, "opcode");
}

/* A union that holds several per-command structs multiplexes one entry point. */
static void lint_union(const struct header *h, const struct hstruct *st, struct lint_result *r)
{
	unsigned nrec = 0;
	for (size_t i = 0; i < st->nfields; i++)
		nrec += st->fields[i].is_record;
	if (nrec >= 2)
		add(r, h, "MULTIPLEXER_UNION", st->line, st->col,
		    "union %s holds %u per-command structs: one entry point multiplexed by a command "
		    "(the bpf() pattern); give each operation its own syscall or struct", st->name, nrec);
}

/* The findings about one field; end is where the fields before it end. */
static void lint_field(const struct header *h, const struct hstruct *st, size_t i, unsigned end, bool has_cmd,
		       struct lint_result *r)
{
	const struct hfield *f = &st->fields[i];
	bool versioned = st->nversions > 0;
	if (f->offset > end && !st->packed)
		add(r, h, "PADDING_HOLE", f->line, f->col,
		    "%u bytes of implicit padding before '%s' (offset %u to %u) in struct %s; name them "
		    "(__u8 __reserved[%u]) and require zero", f->offset - end, f->name, end, f->offset, st->name,
		    f->offset - end);
	if (f->is_pointer)
		add(r, h, "RAW_POINTER", f->line, f->col,
		    "'%s' is a raw pointer (%s): its size differs between 32- and 64-bit callers; use __aligned_u64",
		    f->name, f->ctype);
	else if (f->is_long)
		add(r, h, "LONG_FIELD", f->line, f->col,
		    "'%s' is %s: 4 bytes on 32-bit ABIs, 8 on 64-bit; use __u64 or __aligned_u64", f->name, f->ctype);
	else if (f->is_signed && !f->is_record && flags_name(f->name))
		add(r, h, "SIGNED_FLAGS", f->line, f->col,
		    "flags field '%s' is signed (%s): a flag in the top bit sign-extends when widened; use __u32 or __u64",
		    f->name, f->ctype);
	else if (!f->fixed_width)
		add(r, h, "NON_FIXED_WIDTH", f->line, f->col,
		    "'%s' is %s, not a fixed-width type; use __u8..__u64 or __s8..__s64", f->name, f->ctype);
	else if (f->is_signed && !f->is_record && strncmp(f->type, "char", 4))
		add(r, h, "SIGNED_FIELD", f->line, f->col,
		    "'%s' is signed (%s): make sure 0 still means the old behaviour and -1 cannot slip in by sign extension",
		    f->name, f->ctype);
	if (f->union_of_structs && has_cmd)
		add(r, h, "MULTIPLEXER_UNION", f->line, f->col,
		    "'%s' is a union of per-command structs selected by a command field: a multiplexer; "
		    "prefer one struct per operation", f->name);
	if (!strcmp(f->name, "size") && i == 0)
		add(r, h, "SIZE_FIELD_IN_STRUCT", f->line, f->col,
		    "struct %s carries its own size in '%s': the kernel reads the size, then the struct, so a "
		    "racing thread can change it between the two reads (a double fetch); pass the size as a "
		    "separate argument instead", st->name, f->name);
	if (versioned && !f->reserved && !f->bitfield && !says_zero(f->doc))
		add(r, h, "NO_ZERO_DOC", f->line, f->col,
		    "'%s' has no comment saying what 0 means (every new field's zero must keep the old behaviour)",
		    f->name);
}

/* The struct's *_SIZE_VERn macros: a VER0, growing sizes, each on a field boundary, and
 * none of the struct's fields past the last. */
static void lint_versions(const struct header *h, const struct hstruct *st, struct lint_result *r)
{
	bool have0 = false;
	for (size_t i = 0; i < st->nversions; i++)
		have0 |= st->versions[i].n == 0;
	if (st->nversions && !have0)
		add(r, h, "NO_VER0", st->versions[0].line, st->versions[0].col,
		    "struct %s has size versions but no %.*s_SIZE_VER0: the first published size is unknown", st->name,
		    (int)(strstr(st->versions[0].name, "_SIZE_VER") - st->versions[0].name), st->versions[0].name);
	if (!st->nversions && st->nfields && !strcmp(st->fields[0].name, "size"))
		add(r, h, "NO_VER0", st->line, st->col,
		    "struct %s carries a size but the header publishes no *_SIZE_VER0 macro for it", st->name);
	for (size_t i = 0; i < st->nversions; i++) {
		const struct hversion *v = &st->versions[i];
		if (i && v->size <= st->versions[i - 1].size)
			add(r, h, "VER_MISMATCH", v->line, v->col, "%s is %llu, not larger than %s (%llu)", v->name,
			    (unsigned long long)v->size, st->versions[i - 1].name, (unsigned long long)st->versions[i - 1].size);
		if (i && v->n != st->versions[i - 1].n + 1)
			add(r, h, "VER_MISMATCH", v->line, v->col, "%s follows %s: a version number is skipped", v->name,
			    st->versions[i - 1].name);
		if (v->size > st->size) {
			add(r, h, "VER_MISMATCH", v->line, v->col, "%s is %llu, larger than sizeof(struct %s) = %u", v->name,
			    (unsigned long long)v->size, st->name, st->size);
			continue;
		}
		bool on = v->size == 0;
		for (size_t k = 0; k < st->nfields && !on; k++)
			on = st->fields[k].offset + st->fields[k].size == v->size || st->fields[k].offset == v->size;
		on |= v->size == st->size;
		if (!on) {
			const struct hfield *in = NULL;
			for (size_t k = 0; k < st->nfields; k++)
				if (st->fields[k].offset < v->size && st->fields[k].offset + st->fields[k].size > v->size)
					in = &st->fields[k];
			add(r, h, "VER_NOT_ON_BOUNDARY", v->line, v->col, "%s is %llu, inside field '%s' (bytes %u..%u)",
			    v->name, (unsigned long long)v->size, in ? in->name : "?", in ? in->offset : 0,
			    in ? in->offset + in->size : 0);
		}
	}
	if (st->nversions) {
		const struct hversion *last = &st->versions[st->nversions - 1];
		if (last->size < st->size) {
			for (size_t k = 0; k < st->nfields; k++)
				if (st->fields[k].offset >= last->size && !st->fields[k].reserved) {
					add(r, h, "FIELDS_PAST_LAST_VER", st->fields[k].line, st->fields[k].col,
					    "'%s' (offset %u) lies past %s = %llu: sizeof(struct %s) is %u but no "
					    "%.*s_SIZE_VER%u documents it", st->fields[k].name, st->fields[k].offset, last->name,
					    (unsigned long long)last->size, st->name, st->size,
					    (int)(strstr(last->name, "_SIZE_VER") - last->name), last->name, last->n + 1);
					break;
				}
		}
	}
}

static void lint_struct(const struct header *h, const struct hstruct *st, struct lint_result *r)
{
	if (st->is_union) {
		lint_union(h, st, r);
		return;
	}
	unsigned end = 0;
	bool has_cmd = false;
	for (size_t i = 0; i < st->nfields; i++)
		has_cmd |= cmd_name(st->fields[i].name);
	for (size_t i = 0; i < st->nfields; i++) {
		const struct hfield *f = &st->fields[i];
		lint_field(h, st, i, end, has_cmd, r);
		if (f->offset + f->size > end)
			end = f->offset + f->size;
	}
	if (!st->packed && st->size > end) {
		if (!st->explicit_align)
			add(r, h, "TAIL_PADDING", st->line, st->col,
			    "struct %s has %u bytes of implicit tail padding (fields end at %u, sizeof is %u); add an "
			    "explicit reserved field", st->name, st->size - end, end, st->size);
	}
	if (st->size % 8)
		add(r, h, "SIZE_NOT_MULTIPLE_OF_8", st->line, st->col,
		    "sizeof(struct %s) is %u, not a multiple of 8: the next field cannot be a naturally aligned __u64 "
		    "without padding", st->name, st->size);
	lint_versions(h, st, r);
}

static int by_line(const void *a, const void *b)
{
	const struct lint_finding *x = a, *y = b;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	return strcmp(x->rule, y->rule);
}

void lint_run(const struct header *h, struct lint_result *r)
{
	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < h->ndiags; i++)
		add(r, h, h->diags[i].rule, h->diags[i].line, h->diags[i].col, "%s", h->diags[i].msg);
	for (size_t i = 0; i < h->nstructs; i++)
		lint_struct(h, &h->structs[i], r);
	/* versions that name no struct */
	for (size_t i = 0; i < h->nversions; i++)
		if (!h->versions[i].st)
			add(r, h, "VER_MISMATCH", h->versions[i].line, h->versions[i].col,
			    "%s names no struct of this header", h->versions[i].name);
	if (r->n > 1)
		qsort(r->f, r->n, sizeof(*r->f), by_line);
}

void lint_result_release(struct lint_result *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->f[i].msg);
	free(r->f);
	memset(r, 0, sizeof(*r));
}
