#include "model/catwrite.h"
#include <errno.h>
#include <string.h>
#include "base/out.h"
#include "model/describe.h"
#include "model/kver.h"
#include "model/xlat.h"
#include "base/banned.h"

static const char *const sections[] = { "syscalls", "structs", "flagsets" };

/* The keys of one object: the first bare, each next after sep (", " on one line, ",\n" and
 * the indent for an entry's keys). */
struct keys {
	struct sbuf *o;
	const char *sep;
	bool any;
};

static void key(struct keys *k, const char *name)
{
	sbuf_adds(k->o, k->any ? k->sep : "");
	k->any = true;
	sbuf_addf(k->o, "\"%s\": ", name);
}

static void key_str(struct keys *k, const char *name, const char *v)
{
	if (!v)
		return;
	key(k, name);
	json_quote_into(k->o, v);
}

static void key_kver(struct keys *k, const char *name, uint32_t v)
{
	char buf[16];
	key_str(k, name, kver_str(v, buf));
}

static void key_uint(struct keys *k, const char *name, unsigned long long v)
{
	key(k, name);
	sbuf_addf(k->o, "%llu", v);
}

static void key_true(struct keys *k, const char *name, bool v)
{
	if (v) {
		key(k, name);
		sbuf_adds(k->o, "true");
	}
}

static void key_strings(struct keys *k, const char *name, const char *const *v, size_t n)
{
	if (!n)
		return;
	key(k, name);
	sbuf_addch(k->o, '[');
	for (size_t i = 0; i < n; i++) {
		sbuf_adds(k->o, i ? ", " : "");
		json_quote_into(k->o, v[i]);
	}
	sbuf_addch(k->o, ']');
}

/* An entry's keys, one a line. */
#define ENTRY_KEYS(w) { (w)->out, ",\n      ", false }
/* The keys of an item of one of its arrays, on one line. */
#define ITEM_KEYS(w) { (w)->out, ", ", false }

/* "NAME": [ then each item on a line of its own (item i written by the caller between
 * array_item calls), closed by array_end. */
static void array_begin(struct keys *k, const char *name)
{
	key(k, name);
	sbuf_addch(k->o, '[');
}

static void array_item(struct sbuf *o, size_t i)
{
	sbuf_adds(o, i ? ",\n        { " : "\n        { ");
}

static void array_end(struct sbuf *o, size_t n, bool bare_when_empty)
{
	sbuf_adds(o, n || !bare_when_empty ? "\n      ]" : "]");
}

void catwrite_begin(struct catwrite *w, struct sbuf *out)
{
	w->out = out;
	w->section = -1;
	w->n = 0;
	sbuf_addch(out, '{');
}

static void close_section(struct catwrite *w)
{
	if (w->section >= 0)
		sbuf_adds(w->out, w->n ? "\n  ]" : "]");
}

void catwrite_section(struct catwrite *w, const char *name)
{
	int s = 0;
	while (s < (int)ARRAY_SIZE(sections) && strcmp(sections[s], name))
		s++;
	if (s == (int)ARRAY_SIZE(sections) || s <= w->section)
		BUG("catwrite: an unknown section, or one out of order");
	close_section(w);
	sbuf_addf(w->out, "%s\n  \"%s\": [", w->section >= 0 ? "," : "", name);
	w->section = s;
	w->n = 0;
}

static void entry_begin(struct catwrite *w, const char *section)
{
	if (w->section < 0 || strcmp(sections[w->section], section))
		BUG("catwrite: an entry outside its section");
	sbuf_adds(w->out, w->n++ ? ",\n    {\n      " : "\n    {\n      ");
}

void catwrite_end(struct catwrite *w)
{
	close_section(w);
	sbuf_adds(w->out, "\n}\n");
	w->section = (int)ARRAY_SIZE(sections);
}

/* ---- structs ---- */

static void write_field(struct sbuf *o, const struct field *f)
{
	struct keys k = { o, ", ", false };
	key_str(&k, "name", f->name);
	key_str(&k, "type", f->type_text);
	key_uint(&k, "offset", f->offset);
	key_kver(&k, "since", f->since);
	key_str(&k, "flagset", f->flagset ? f->flagset->name : NULL);
	key_str(&k, "zero", f->zero);
	key_str(&k, "doc", f->doc);
	key_strings(&k, "aliases", f->aliases, f->naliases);
	key_true(&k, "reserved", f->reserved);
	key_true(&k, "string", f->string);
	key_true(&k, "verbose_only", f->verbose_only);
	key_true(&k, "strace_extra", f->strace_extra);
	key_str(&k, "format", f->format_stated ? fformat_name(f->format) : NULL);
	key_str(&k, "direction", f->direction != FD_DEFAULT ? fdir_name(f->direction) : NULL);
	sbuf_adds(o, " }");
}

/* Where the fields end: "align" is written when it was stated, or when the struct is larger
 * (tail padding an alignment makes, which the loader takes only from a stated one). */
static unsigned fields_end(const struct cstruct *st)
{
	unsigned end = 0;
	for (size_t i = 0; i < st->nfields; i++)
		if (st->fields[i].offset + st->fields[i].size > end)
			end = st->fields[i].offset + st->fields[i].size;
	return end;
}

void catwrite_struct(struct catwrite *w, const struct cstruct *st)
{
	struct keys k = ENTRY_KEYS(w);
	entry_begin(w, "structs");
	key_str(&k, "name", st->name);
	key_str(&k, "header", st->header);
	key_str(&k, "doc", st->doc);
	key_str(&k, "direction", st->direction != FD_DEFAULT ? fdir_name(st->direction) : NULL);
	key_true(&k, "packed", st->packed);
	if (st->align && (st->align_stated || fields_end(st) < st->size))
		key_uint(&k, "align", st->align);
	array_begin(&k, "fields");
	for (size_t i = 0; i < st->nfields; i++) {
		array_item(w->out, i);
		write_field(w->out, &st->fields[i]);
	}
	array_end(w->out, st->nfields, false);
	array_begin(&k, "versions");
	for (size_t i = 0; i < st->nversions; i++) {
		struct keys v = ITEM_KEYS(w);
		array_item(w->out, i);
		key_str(&v, "name", st->versions[i].name);
		key_uint(&v, "size", st->versions[i].size);
		key_kver(&v, "since", st->versions[i].since);
		sbuf_adds(w->out, " }");
	}
	array_end(w->out, st->nversions, true);
	sbuf_adds(w->out, "\n    }");
}

/* ---- flag sets ---- */

void catwrite_flagset(struct catwrite *w, const struct flagset *fs)
{
	struct keys k = ENTRY_KEYS(w);
	entry_begin(w, "flagsets");
	key_str(&k, "name", fs->name);
	key_str(&k, "kind", fs->kind == FS_BITS ? "bits" : "enum");
	key_str(&k, "prefix", fs->prefix);
	key_str(&k, "header", fs->header);
	key_str(&k, "doc", fs->doc);
	array_begin(&k, "flags");
	for (size_t i = 0; i < fs->nflags; i++) {
		const struct flag *f = &fs->flags[i];
		struct keys v = ITEM_KEYS(w);
		array_item(w->out, i);
		key_str(&v, "name", f->name);
		key(&v, "value");
		if (f->negative)
			sbuf_addf(w->out, "\"%lld\"", (long long)f->value);
		else
			sbuf_addf(w->out, "\"0x%llx\"", (unsigned long long)f->value);
		key_kver(&v, "since", f->since);
		key_str(&v, "doc", f->doc);
		key_true(&v, "mask", f->mask);
		key_strings(&v, "companions", f->companions, f->ncompanions);
		sbuf_adds(w->out, " }");
	}
	array_end(w->out, fs->nflags, false);
	sbuf_adds(w->out, "\n    }");
}

/* ---- syscalls ---- */

static void write_nr(struct keys *k, const struct syscall *sc)
{
	key(k, "nr");
	sbuf_adds(k->o, "{ \"x86_64\": ");
	sbuf_addf(k->o, sc->nr_x86_64 < 0 ? "null" : "%ld", sc->nr_x86_64);
	sbuf_adds(k->o, ", \"aarch64\": ");
	sbuf_addf(k->o, sc->nr_aarch64 < 0 ? "null" : "%ld", sc->nr_aarch64);
	sbuf_adds(k->o, " }");
}

static void write_args(struct catwrite *w, struct keys *k, const struct syscall *sc)
{
	array_begin(k, "args");
	for (size_t i = 0; i < sc->nargs; i++) {
		const struct sarg *a = &sc->args[i];
		struct keys v = ITEM_KEYS(w);
		array_item(w->out, i);
		key_str(&v, "name", a->name);
		key_str(&v, "type", a->type);
		key_str(&v, "role", arg_role_name(a->role));
		key_str(&v, "default", a->def);
		key_str(&v, "struct", a->st ? a->st->name : NULL);
		key_str(&v, "flagset", a->flagset ? a->flagset->name : NULL);
		key_str(&v, "doc", a->doc);
		key_str(&v, "direction", a->direction != FD_DEFAULT ? fdir_name(a->direction) : NULL);
		sbuf_adds(w->out, " }");
	}
	array_end(w->out, sc->nargs, true);
}

static void write_size(struct keys *k, const struct syscall *sc)
{
	struct keys v = { k->o, ", ", false };
	key(k, "size");
	sbuf_adds(k->o, "{ ");
	key_str(&v, "where", size_where_name(sc->size_where));
	key_str(&v, "name", sc->size_name);
	if (sc->size_bits)
		key_uint(&v, "bits", sc->size_bits);
	sbuf_adds(k->o, " }");
}

static void write_rules(struct keys *k, const struct size_rules *r)
{
	struct keys v = { k->o, ", ", false };
	char kv[16];
	const char *bp[KVER_NBACKPORTS];
	size_t nbp = 0;
	char bpbuf[KVER_NBACKPORTS][16];
	key(k, "rules");
	sbuf_adds(k->o, "{ ");
	key_str(&v, "null", r->null_errno ? errno_name(r->null_errno) : NULL);
	key_str(&v, "zero", size_answer_name(&r->zero));
	key_str(&v, "below_ver0", size_answer_name(&r->below_ver0));
	if (r->min)
		key_uint(&v, "min", r->min);
	if (r->cap)
		key_uint(&v, "cap", r->cap);
	key_str(&v, "cap_since", r->cap_since ? kver_str(r->cap_since, kv) : NULL);
	for (; nbp < KVER_NBACKPORTS && r->cap_backported[nbp]; nbp++)
		bp[nbp] = kver_str(r->cap_backported[nbp], bpbuf[nbp]);
	key_strings(&v, "cap_backported", bp, nbp);
	key_str(&v, "cap_errno", r->cap_errno && r->cap_errno != E2BIG ? errno_name(r->cap_errno) : NULL);
	key_str(&v, "tail", size_tail_name(r->tail));
	key_str(&v, "writeback", size_writeback_name(r->writeback));
	key_str(&v, "check_order", r->check_order);
	key_strings(&v, "ignore_unknown", r->ignore_unknown, r->nignore_unknown);
	key_str(&v, "tail_struct", r->tail_struct ? r->tail_struct->name : NULL);
	sbuf_adds(k->o, " }");
}

void catwrite_syscall(struct catwrite *w, const struct syscall *sc)
{
	struct keys k = ENTRY_KEYS(w);
	entry_begin(w, "syscalls");
	key_str(&k, "name", sc->name);
	key_str(&k, "kind", sc_kind_name(sc->kind));
	write_nr(&k, sc);
	key_kver(&k, "since", sc->since);
	key_str(&k, "header", sc->header);
	key_str(&k, "prototype", sc->prototype);
	key_str(&k, "summary", sc->summary);
	write_args(w, &k, sc);
	key_str(&k, "struct", sc->st ? sc->st->name : NULL);
	write_size(&k, sc);
	if (sc->has_rules)
		write_rules(&k, &sc->rules);
	array_begin(&k, "errors");
	for (size_t i = 0; i < sc->nerrors; i++) {
		struct keys v = ITEM_KEYS(w);
		array_item(w->out, i);
		key_str(&v, "errno", sc->errors[i].errno_name);
		key_str(&v, "meaning", sc->errors[i].meaning);
		sbuf_adds(w->out, " }");
	}
	array_end(w->out, sc->nerrors, true);
	key_str(&k, "safety", safety_name(sc->safety));
	sbuf_adds(w->out, "\n    }");
}
