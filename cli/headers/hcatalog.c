/* The catalogue adapter: a catalogue seen as a parsed header (lint and diff over catalogued
 * structs), and a parsed header written as catalogue JSON (import). */
#include "headers/header.h"
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "base/out.h"
#include "base/sbuf.h"
#include "headers/hmacro.h"
#include "model/catalog.h"
#include "model/catwrite.h"
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

/* A parsed struct in the model's terms: its fields, each implicit hole a reserved u8[N]
 * field (the catalogue has no implicit padding), overlapping fields and flexible arrays left
 * out; up to where its fields end when its alignment was stated (the writer then writes it),
 * else to its size. */
static void model_fields(struct arena *a, const struct hstruct *hs, uint32_t since, struct cstruct *st)
{
	unsigned end = 0, at = 0;
	for (size_t k = 0; k < hs->nfields; k++)
		if (hs->fields[k].offset + hs->fields[k].size > end)
			end = hs->fields[k].offset + hs->fields[k].size;
	st->fields = arena_alloc(a, sizeof(*st->fields) * (2 * hs->nfields + 1));
	for (size_t k = 0; k <= hs->nfields; k++) {
		const struct hfield *hf = k < hs->nfields ? &hs->fields[k] : NULL;
		unsigned next = hf ? hf->offset : (hs->explicit_align ? end : hs->size);
		if (hf && (hf->offset < at || !hf->size))
			continue; /* overlaps, or a flexible array member: the catalogue has neither */
		if (next > at) {
			struct field *f = &st->fields[st->nfields++];
			char name[32], type[32];
			snprintf(name, sizeof(name), "__hole_%u", at);
			snprintf(type, sizeof(type), "u8[%u]", next - at);
			*f = (struct field){ .name = arena_strdup(a, name), .type_text = arena_strdup(a, type), .offset = at,
					     .size = next - at, .since = since, .zero = "implicit padding; must be zero",
					     .reserved = true };
		}
		if (!hf)
			break;
		st->fields[st->nfields++] = (struct field){
			.name = hf->name, .type_text = hf->type, .offset = hf->offset, .size = hf->size, .since = since,
			.zero = hf->doc ? hf->doc : "not documented in the header", .doc = hf->doc,
			.aliases = hf->aliases, .naliases = hf->naliases, .reserved = hf->reserved,
			.format = hf->is_pointer ? FF_PTR : FF_DEC, .format_stated = hf->is_pointer,
		};
		at = hf->offset + hf->size;
	}
}

static void model_struct(struct arena *a, const struct hstruct *hs, const char *hdrname, uint32_t since,
			 struct cstruct *st)
{
	struct sbuf doc = SBUF_INIT;
	if (hs->doc && *hs->doc)
		sbuf_adds(&doc, hs->doc);
	else
		sbuf_addf(&doc, "struct %s from %s", hs->name, hdrname);
	*st = (struct cstruct){ .name = hs->name, .header = hdrname, .doc = arena_strdup(a, doc.buf),
				.packed = hs->packed, .align = hs->align, .size = hs->size };
	sbuf_release(&doc);
	model_fields(a, hs, since, st);
	st->versions = arena_alloc(a, sizeof(*st->versions) * (hs->nversions + 2));
	/* a macro past 32 bits stays out of range for the loader to refuse: cut to 32 bits,
	 * 4294967304 was a valid size 8 */
	for (size_t k = 0; k < hs->nversions; k++)
		st->versions[st->nversions++] = (struct sversion){
			.name = hs->versions[k].name, .since = since,
			.size = hs->versions[k].size > UINT_MAX ? UINT_MAX : (unsigned)hs->versions[k].size };
	/* a struct that grew before its header named the new size (pidfd_info in 6.16 and 6.17,
	 * 72 bytes with only PIDFD_INFO_SIZE_VER0 64, until upstream 4061c43a9977): its size is a
	 * version without a name, so the fields past the last macro still belong to one */
	if (st->nversions && st->versions[st->nversions - 1].size < hs->size && hs->size <= UINT_MAX)
		st->versions[st->nversions++] = (struct sversion){ .since = since, .size = (unsigned)hs->size };
}

/* A macro group as a flag set: a bit set's value that is not one bit is a mask. */
static void model_flagset(struct arena *a, const struct hflagset *hf, const char *hdrname, uint32_t since,
			  struct flagset *fs)
{
	struct sbuf doc = SBUF_INIT;
	sbuf_addf(&doc, "%s* macros from %s", hf->prefix, hdrname);
	*fs = (struct flagset){ .name = hf->name, .kind = hf->bits ? FS_BITS : FS_ENUM, .prefix = hf->prefix,
				.header = hdrname, .doc = arena_strdup(a, doc.buf) };
	sbuf_release(&doc);
	fs->flags = arena_alloc(a, sizeof(*fs->flags) * (hf->nflags + 1));
	for (size_t k = 0; k < hf->nflags; k++) {
		const struct hmacro *m = &hf->flags[k];
		fs->flags[fs->nflags++] = (struct flag){ .name = m->name, .value = m->value, .since = since, .doc = m->doc,
							 .mask = hf->bits && !header_pow2(m->value),
							 .negative = m->negative };
	}
}

void header_export_json(const struct header *h, const char *hdrname, uint32_t since, struct sbuf *o)
{
	struct arena a = { 0 };
	struct catwrite w;
	catwrite_begin(&w, o);
	catwrite_section(&w, "structs");
	for (size_t i = 0; i < h->nstructs; i++) {
		struct cstruct st;
		if (h->structs[i].is_union || !h->structs[i].size)
			continue; /* a struct of a flexible array alone (bpf_raw_tracepoint_args) has no fields */
		model_struct(&a, &h->structs[i], hdrname, since, &st);
		catwrite_struct(&w, &st);
	}
	catwrite_section(&w, "flagsets");
	for (size_t i = 0; i < h->nflagsets; i++) {
		struct flagset fs;
		model_flagset(&a, &h->flagsets[i], hdrname, since, &fs);
		catwrite_flagset(&w, &fs);
	}
	catwrite_end(&w);
	arena_release(&a);
}
