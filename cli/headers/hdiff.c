/* hdiff: struct, size-version and flag changes between two headers. See hdiff.h. */
#include "headers/hdiff.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "base/sbuf.h"
#include "base/banned.h"

const char *hverdict_name(enum hverdict v)
{
	return v == HV_COMPATIBLE ? "compatible" : v == HV_UNDOCUMENTED ? "undocumented" : "break";
}

static void add(struct hdiff *d, const char *scope, const char *kind, const char *name, enum hverdict v,
		long long off, long long size, const char *fmt, ...) PRINTF_LIKE(8, 9);
static void add(struct hdiff *d, const char *scope, const char *kind, const char *name, enum hverdict v,
		long long off, long long size, const char *fmt, ...)
{
	struct sbuf sb = SBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	ALLOC_GROW(d->c, d->n + 1, d->alloc);
	struct hchange *c = &d->c[d->n++];
	c->scope = scope, c->kind = kind, c->name = name, c->verdict = v;
	c->offset = off, c->size = size;
	c->detail = sbuf_detach(&sb);
}

static const struct hfield *find_field(const struct hstruct *st, const char *name)
{
	for (size_t i = 0; i < st->nfields; i++) {
		if (!strcmp(st->fields[i].name, name))
			return &st->fields[i];
		for (size_t k = 0; k < st->fields[i].naliases; k++)
			if (!strcmp(st->fields[i].aliases[k], name))
				return &st->fields[i];
	}
	return NULL;
}

static const struct hversion *find_version_size(const struct hstruct *st, uint64_t size)
{
	for (size_t i = 0; i < st->nversions; i++)
		if (st->versions[i].size == size)
			return &st->versions[i];
	return NULL;
}

static bool unnamed(const struct hversion *v)
{
	return !v->name || !*v->name;
}

/* v's counterpart in st: by macro name; a size without a macro (catalogues list sizes that
 * no *_SIZE_VERn names, as landlock's) is its own identity, so it is matched by size. */
static const struct hversion *find_version(const struct hstruct *st, const struct hversion *v)
{
	if (unnamed(v)) {
		const struct hversion *o = find_version_size(st, v->size);
		return o && unnamed(o) ? o : NULL;
	}
	for (size_t i = 0; i < st->nversions; i++)
		if (!unnamed(&st->versions[i]) && !strcmp(st->versions[i].name, v->name))
			return &st->versions[i];
	return NULL;
}

static const char *version_label(const struct hversion *v, struct sbuf *sb)
{
	sbuf_reset(sb);
	if (unnamed(v))
		sbuf_addf(sb, "the size %llu", (unsigned long long)v->size);
	else
		sbuf_adds(sb, v->name);
	return sb->buf;
}

/* Was [off, off+size) reserved space or an implicit hole in the old struct? */
static bool was_spare(const struct hstruct *o, unsigned off, unsigned size)
{
	for (unsigned b = off; b < off + size; b++) {
		bool spare = true;
		for (size_t i = 0; i < o->nfields; i++) {
			const struct hfield *f = &o->fields[i];
			if (b >= f->offset && b < f->offset + f->size)
				spare = f->reserved;
		}
		if (!spare || b >= o->size)
			return false;
	}
	return true;
}

/* Fields removed, moved or retyped. */
static void diff_old_fields(const struct hstruct *o, const struct hstruct *n, struct hdiff *d)
{
	for (size_t i = 0; i < o->nfields; i++) {
		const struct hfield *of = &o->fields[i];
		const struct hfield *nf = find_field(n, of->name);
		if (!nf) {
			if (of->reserved)
				continue; /* spare space renamed or taken over: judged by the additions */
			add(d, o->name, "field_removed", of->name, HV_BREAK, of->offset, of->size,
			    "field '%s' (offset %u, %u bytes) removed", of->name, of->offset, of->size);
			continue;
		}
		if (nf->offset != of->offset)
			add(d, o->name, "field_moved", of->name, HV_BREAK, nf->offset, nf->size,
			    "field '%s' moved from offset %u to %u", of->name, of->offset, nf->offset);
		if (nf->size != of->size)
			add(d, o->name, "field_retyped", of->name, HV_BREAK, nf->offset, nf->size,
			    "field '%s' changed size from %u to %u bytes (%s to %s)", of->name, of->size, nf->size, of->type,
			    nf->type);
		else if (strcmp(nf->type, of->type)) {
			bool benign = (!strcmp(of->type, "u64") && !strcmp(nf->type, "aligned_u64")) ||
				      (!strcmp(of->type, "aligned_u64") && !strcmp(nf->type, "u64"));
			add(d, o->name, "field_retyped", of->name, benign ? HV_COMPATIBLE : HV_UNDOCUMENTED, nf->offset,
			    nf->size, "field '%s' changed type from %s to %s (same size%s)", of->name, of->type, nf->type,
			    benign ? ", same layout on 64-bit" : "; signedness or meaning changed");
		}
	}
}

/* A field the new struct has and the old one lacks: in spare space, inside the old struct,
 * or appended (covered by a new size version or not). */
static void diff_added_field(const struct hstruct *o, const struct hstruct *n, const struct hfield *nf,
			     struct hdiff *d)
{
	if (nf->reserved && nf->offset < o->size)
		return; /* spare space renamed */
	if (nf->offset + nf->size <= o->size) {
		if (was_spare(o, nf->offset, nf->size))
			add(d, n->name, "field_added", nf->name, HV_COMPATIBLE, nf->offset, nf->size,
			    "field '%s' (%s, %u bytes) added at offset %u, in space that was reserved", nf->name,
			    nf->type, nf->size, nf->offset);
		else
			add(d, n->name, "field_added", nf->name, HV_BREAK, nf->offset, nf->size,
			    "field '%s' (%s, %u bytes) inserted at offset %u, inside the old struct (%u bytes)",
			    nf->name, nf->type, nf->size, nf->offset, o->size);
		return;
	}
	unsigned end = nf->offset + nf->size;
	const struct hversion *v = NULL;
	for (size_t k = 0; k < n->nversions; k++)
		if (n->versions[k].size >= end && !find_version_size(o, n->versions[k].size)) {
			v = &n->versions[k];
			break;
		}
	if (v)
		add(d, n->name, "field_added", nf->name, HV_COMPATIBLE, nf->offset, nf->size,
		    "field '%s' (%s, %u bytes) appended at offset %u, covered by %s = %llu",
		    nf->name, nf->type, nf->size, nf->offset, v->name, (unsigned long long)v->size);
	else
		add(d, n->name, "field_added", nf->name, HV_UNDOCUMENTED, nf->offset, nf->size,
		    "field '%s' (%s, %u bytes) appended at offset %u, but no new *_SIZE_VERn covers it"
		    "", nf->name, nf->type, nf->size, nf->offset);
}

static void diff_added(const struct hstruct *o, const struct hstruct *n, struct hdiff *d)
{
	for (size_t i = 0; i < n->nfields; i++)
		if (!find_field(o, n->fields[i].name))
			diff_added_field(o, n, &n->fields[i], d);
}

/* The size, and the size versions removed, changed or added. */
static void diff_sizes(const struct hstruct *o, const struct hstruct *n, struct hdiff *d)
{
	if (n->size < o->size)
		add(d, o->name, "size_changed", o->name, HV_BREAK, -1, n->size, "size shrank from %u to %u bytes",
		    o->size, n->size);
	else if (n->size > o->size) {
		const struct hversion *v = find_version_size(n, n->size);
		bool fresh = v && !find_version_size(o, n->size);
		add(d, n->name, "size_changed", n->name, fresh ? HV_COMPATIBLE : HV_UNDOCUMENTED, -1, n->size,
		    "size grew from %u to %u bytes%s%s%s", o->size, n->size, fresh ? ", documented by " : "",
		    fresh ? v->name : "", fresh ? "" : "; no new *_SIZE_VERn macro names the new size");
	}
	struct sbuf label = SBUF_INIT;
	for (size_t i = 0; i < o->nversions; i++) {
		const struct hversion *ov = &o->versions[i];
		const struct hversion *nv = find_version(n, ov);
		if (!nv)
			add(d, o->name, "version_removed", ov->name, HV_BREAK, -1, (long long)ov->size,
			    "%s (%llu) removed: programs built against it no longer compile", version_label(ov, &label),
			    (unsigned long long)ov->size);
		else if (nv->size != ov->size)
			add(d, o->name, "version_changed", ov->name, HV_BREAK, -1, (long long)nv->size,
			    "%s changed from %llu to %llu: a published size must never change", ov->name,
			    (unsigned long long)ov->size, (unsigned long long)nv->size);
	}
	for (size_t i = 0; i < n->nversions; i++)
		if (!find_version(o, &n->versions[i]))
			add(d, n->name, "version_added", n->versions[i].name, HV_COMPATIBLE, -1, (long long)n->versions[i].size,
			    "%s = %llu added", version_label(&n->versions[i], &label), (unsigned long long)n->versions[i].size);
	sbuf_release(&label);
}

static void diff_struct(const struct hstruct *o, const struct hstruct *n, struct hdiff *d)
{
	diff_old_fields(o, n, d);
	diff_added(o, n, d);
	diff_sizes(o, n, d);
}

static const struct hmacro *find_flag(const struct header *h, const char *name, const struct hflagset **in)
{
	for (size_t i = 0; i < h->nflagsets; i++)
		for (size_t k = 0; k < h->flagsets[i].nflags; k++)
			if (!strcmp(h->flagsets[i].flags[k].name, name)) {
				*in = &h->flagsets[i];
				return &h->flagsets[i].flags[k];
			}
	return NULL;
}

void hdiff_run(const struct header *oh, const struct header *nh, struct hdiff *d)
{
	memset(d, 0, sizeof(*d));
	for (size_t i = 0; i < oh->nstructs; i++) {
		const struct hstruct *n = header_find_struct(nh, oh->structs[i].name);
		if (!n)
			add(d, oh->structs[i].name, "struct_removed", oh->structs[i].name, HV_BREAK, -1, oh->structs[i].size,
			    "struct %s removed", oh->structs[i].name);
		else
			diff_struct(&oh->structs[i], n, d);
	}
	for (size_t i = 0; i < nh->nstructs; i++)
		if (!header_find_struct(oh, nh->structs[i].name))
			add(d, nh->structs[i].name, "struct_added", nh->structs[i].name, HV_COMPATIBLE, -1, nh->structs[i].size,
			    "struct %s added (%u bytes)", nh->structs[i].name, nh->structs[i].size);
	for (size_t i = 0; i < oh->nflagsets; i++)
		for (size_t k = 0; k < oh->flagsets[i].nflags; k++) {
			const struct hmacro *of = &oh->flagsets[i].flags[k];
			const struct hflagset *in;
			const struct hmacro *nf = find_flag(nh, of->name, &in);
			if (!nf)
				add(d, oh->flagsets[i].prefix, "flag_removed", of->name, HV_BREAK, -1, -1,
				    "flag %s (0x%llx) removed", of->name, (unsigned long long)of->value);
			else if (nf->value != of->value)
				add(d, oh->flagsets[i].prefix, "flag_renumbered", of->name, HV_BREAK, -1, -1,
				    "flag %s renumbered from 0x%llx to 0x%llx", of->name, (unsigned long long)of->value,
				    (unsigned long long)nf->value);
		}
	for (size_t i = 0; i < nh->nflagsets; i++)
		for (size_t k = 0; k < nh->flagsets[i].nflags; k++) {
			const struct hmacro *nf = &nh->flagsets[i].flags[k];
			const struct hflagset *in;
			if (find_flag(oh, nf->name, &in))
				continue;
			/* a new bit that an old flag already used is a clash */
			bool clash = false;
			for (size_t q = 0; q < nh->flagsets[i].nflags; q++) {
				const struct hflagset *oin;
				const struct hmacro *other = &nh->flagsets[i].flags[q];
				if (other != nf && other->value == nf->value && find_flag(oh, other->name, &oin) &&
				    nh->flagsets[i].bits && nf->value && !(nf->value & (nf->value - 1)))
					clash = true;
			}
			add(d, nh->flagsets[i].prefix, "flag_added", nf->name, clash ? HV_UNDOCUMENTED : HV_COMPATIBLE, -1, -1,
			    "flag %s = 0x%llx added%s", nf->name, (unsigned long long)nf->value,
			    clash ? " with the value of an existing flag" : "");
		}
}

void hdiff_release(struct hdiff *d)
{
	for (size_t i = 0; i < d->n; i++)
		free(d->c[i].detail);
	free(d->c);
	memset(d, 0, sizeof(*d));
}
