/* The catalogue adapter: a catalogue seen as a parsed header (lint and diff over catalogued
 * structs), and a parsed header written as catalogue JSON (import). */
#include "headers/header.h"
#include <string.h>
#include "base/out.h"
#include "base/sbuf.h"
#include "headers/hmacro.h"
#include "model/catalog.h"
#include "base/banned.h"

void header_from_catalog(struct header *h, const struct catalog *c, const char *name)
{
	memset(h, 0, sizeof(*h));
	h->name = arena_strdup(&h->a, name);
	h->text = arena_strdup(&h->a, "");
	h->structs = xcalloc(c->nstructs + 1, sizeof(*h->structs));
	for (size_t i = 0; i < c->nstructs; i++) {
		const struct cstruct *cs = &c->structs[i];
		struct hstruct *st = &h->structs[h->nstructs++];
		st->name = cs->name;
		st->doc = cs->doc;
		st->size = cs->size;
		st->align = cs->align;
		st->packed = cs->packed;
		st->fields = arena_alloc(&h->a, sizeof(*st->fields) * (cs->nfields + 1));
		for (size_t k = 0; k < cs->nfields; k++) {
			const struct field *f = &cs->fields[k];
			struct hfield *hf = &st->fields[st->nfields++];
			hf->name = f->name;
			hf->type = f->type_text;
			hf->ctype = f->type_text;
			hf->doc = f->doc;
			hf->offset = f->offset;
			hf->size = f->size;
			hf->align = f->elem_size;
			hf->aliases = f->aliases;
			hf->naliases = f->naliases;
			hf->reserved = f->reserved;
			hf->is_signed = ftype_signed(f->type);
			hf->fixed_width = true;
			hf->is_pointer = f->type == FT_PTR;
		}
		st->versions = arena_alloc(&h->a, sizeof(*st->versions) * (cs->nversions + 1));
		for (size_t k = 0; k < cs->nversions; k++) {
			struct hversion *v = &st->versions[st->nversions++];
			v->name = cs->versions[k].name ? cs->versions[k].name : "";
			v->n = (unsigned)k;
			v->size = cs->versions[k].size;
			v->st = cs->name;
			unsigned n;
			size_t plen;
			if (cs->versions[k].name && header_ver_macro(cs->versions[k].name, &n, &plen))
				v->n = n;
		}
	}
	size_t nm = 0;
	for (size_t i = 0; i < c->nflagsets; i++)
		nm += c->flagsets[i].nflags;
	h->macros = xcalloc(nm + 1, sizeof(*h->macros));
	h->flagsets = xcalloc(c->nflagsets + 1, sizeof(*h->flagsets));
	for (size_t i = 0; i < c->nflagsets; i++) {
		const struct flagset *cf = &c->flagsets[i];
		struct hflagset *fs = &h->flagsets[h->nflagsets++];
		fs->name = cf->name;
		fs->prefix = cf->prefix ? cf->prefix : "";
		fs->bits = cf->kind == FS_BITS;
		fs->flags = &h->macros[h->nmacros];
		for (size_t k = 0; k < cf->nflags; k++) {
			struct hmacro *m = &h->macros[h->nmacros++];
			m->name = cf->flags[k].name;
			m->value = cf->flags[k].value;
			m->doc = cf->flags[k].doc;
			m->negative = cf->kind == FS_ENUM && (int64_t)cf->flags[k].value < 0;
			fs->nflags++;
		}
	}
	header_index(h);
}

static void jkey(struct sbuf *o, const char *k, const char *v)
{
	sbuf_addf(o, "\"%s\": ", k);
	json_quote_into(o, v);
}

/* Where a struct's fields end (its size less any tail padding). */
static unsigned fields_end(const struct hstruct *st)
{
	unsigned end = 0;
	for (size_t k = 0; k < st->nfields; k++)
		if (st->fields[k].offset + st->fields[k].size > end)
			end = st->fields[k].offset + st->fields[k].size;
	return end;
}

static void export_field(struct sbuf *o, const struct hfield *f, const char *since)
{
	sbuf_adds(o, "        { "), jkey(o, "name", f->name);
	sbuf_adds(o, ", "), jkey(o, "type", f->type);
	sbuf_addf(o, ", \"offset\": %u, ", f->offset);
	jkey(o, "since", since);
	sbuf_adds(o, ", ");
	jkey(o, "zero", f->doc ? f->doc : "not documented in the header");
	if (f->doc)
		sbuf_adds(o, ", "), jkey(o, "doc", f->doc);
	if (f->naliases) {
		sbuf_adds(o, ", \"aliases\": [");
		for (size_t q = 0; q < f->naliases; q++) {
			if (q)
				sbuf_adds(o, ", ");
			json_quote_into(o, f->aliases[q]);
		}
		sbuf_adds(o, "]");
	}
	if (f->reserved)
		sbuf_adds(o, ", \"reserved\": true");
	if (f->is_pointer)
		sbuf_adds(o, ", \"format\": \"ptr\"");
	sbuf_adds(o, " }");
}

/* A struct's fields, each implicit hole written as a reserved field (the catalogue has
 * no implicit padding), overlapping fields and flexible arrays left out. */
static void export_fields(struct sbuf *o, const struct hstruct *st, const char *since)
{
	unsigned end = fields_end(st), at = 0;
	bool firstf = true;
	for (size_t k = 0; k <= st->nfields; k++) {
		const struct hfield *f = k < st->nfields ? &st->fields[k] : NULL;
		unsigned next = f ? f->offset : (st->explicit_align ? end : st->size);
		if (f && (f->offset < at || !f->size))
			continue; /* overlaps, or a flexible array member: the catalogue has neither */
		if (next > at) { /* an implicit hole: written as a reserved field */
			sbuf_adds(o, firstf ? "\n" : ",\n");
			firstf = false;
			sbuf_addf(o, "        { \"name\": \"__hole_%u\", \"type\": \"u8[%u]\", \"offset\": %u, \"since\": \"%s\", "
				     "\"zero\": \"implicit padding; must be zero\", \"reserved\": true }",
				  at, next - at, at, since);
		}
		if (!f)
			break;
		sbuf_adds(o, firstf ? "\n" : ",\n");
		firstf = false;
		export_field(o, f, since);
		at = f->offset + f->size;
	}
}

static void export_struct(struct sbuf *o, const struct hstruct *st, const char *hdrname, const char *since)
{
	struct sbuf doc = SBUF_INIT;
	if (st->doc && *st->doc)
		sbuf_adds(&doc, st->doc);
	else
		sbuf_addf(&doc, "struct %s from %s", st->name, hdrname);
	sbuf_adds(o, "      "), jkey(o, "name", st->name);
	sbuf_adds(o, ",\n      "), jkey(o, "header", hdrname);
	sbuf_adds(o, ",\n      "), jkey(o, "doc", doc.buf);
	sbuf_release(&doc);
	if (st->packed)
		sbuf_adds(o, ",\n      \"packed\": true");
	if (st->explicit_align && fields_end(st) < st->size)
		sbuf_addf(o, ",\n      \"align\": %u", st->align);
	sbuf_adds(o, ",\n      \"fields\": [");
	export_fields(o, st, since);
	sbuf_adds(o, "\n      ],\n      \"versions\": [");
	for (size_t k = 0; k < st->nversions; k++) {
		sbuf_adds(o, k ? ",\n        { " : "\n        { ");
		jkey(o, "name", st->versions[k].name);
		sbuf_addf(o, ", \"size\": %llu, ", (unsigned long long)st->versions[k].size);
		jkey(o, "since", since);
		sbuf_adds(o, " }");
	}
	sbuf_adds(o, st->nversions ? "\n      ]\n    }" : "]\n    }");
}

static void export_flagset(struct sbuf *o, const struct hflagset *fs, const char *hdrname, const char *since)
{
	struct sbuf doc = SBUF_INIT;
	sbuf_addf(&doc, "%s* macros from %s", fs->prefix, hdrname);
	sbuf_adds(o, "      "), jkey(o, "name", fs->name);
	sbuf_addf(o, ",\n      \"kind\": \"%s\"", fs->bits ? "bits" : "enum");
	sbuf_adds(o, ",\n      "), jkey(o, "prefix", fs->prefix);
	sbuf_adds(o, ",\n      "), jkey(o, "header", hdrname);
	sbuf_adds(o, ",\n      "), jkey(o, "doc", doc.buf);
	sbuf_release(&doc);
	sbuf_adds(o, ",\n      \"flags\": [");
	for (size_t k = 0; k < fs->nflags; k++) {
		const struct hmacro *m = &fs->flags[k];
		sbuf_adds(o, k ? ",\n        { " : "\n        { ");
		jkey(o, "name", m->name);
		if (m->negative)
			sbuf_addf(o, ", \"value\": \"%lld\"", (long long)m->value);
		else
			sbuf_addf(o, ", \"value\": \"0x%llx\"", (unsigned long long)m->value);
		sbuf_adds(o, ", "), jkey(o, "since", since);
		if (m->doc)
			sbuf_adds(o, ", "), jkey(o, "doc", m->doc);
		if (fs->bits && !header_pow2(m->value))
			sbuf_adds(o, ", \"mask\": true");
		sbuf_adds(o, " }");
	}
	sbuf_adds(o, "\n      ]\n    }");
}

void header_export_json(const struct header *h, const char *hdrname, const char *since, struct sbuf *o)
{
	sbuf_adds(o, "{\n  \"structs\": [");
	bool firsts = true;
	for (size_t i = 0; i < h->nstructs; i++) {
		const struct hstruct *st = &h->structs[i];
		if (st->is_union || !st->size)
			continue; /* a struct of a flexible array alone (bpf_raw_tracepoint_args) has no fields */
		sbuf_adds(o, firsts ? "\n    {\n" : ",\n    {\n");
		firsts = false;
		export_struct(o, st, hdrname, since);
	}
	sbuf_adds(o, firsts ? "],\n  \"flagsets\": [" : "\n  ],\n  \"flagsets\": [");
	for (size_t i = 0; i < h->nflagsets; i++) {
		sbuf_adds(o, i ? ",\n    {\n" : "\n    {\n");
		export_flagset(o, &h->flagsets[i], hdrname, since);
	}
	sbuf_adds(o, h->nflagsets ? "\n  ]\n}\n" : "]\n}\n");
}
