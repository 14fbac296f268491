#include "model/structbuf.h"
#include <stdlib.h>
#include <string.h>
#include "base/diag.h"
#include "base/util.h"
#include "base/banned.h"

static void grow(struct structbuf *sb, size_t len)
{
	if (len <= sb->len)
		return;
	sb->data = xrealloc(sb->data, len);
	memset(sb->data + sb->len, 0, len - sb->len);
	sb->len = len;
}

struct structbuf *structbuf_new(const char *name, const struct cstruct *st, const struct syscall *sc)
{
	struct structbuf *sb = xcalloc(1, sizeof(*sb));
	sb->name = xstrdup(name);
	sb->st = st;
	sb->sc = sc;
	/* sched_attr carries its size for sched_setattr but not for sched_getattr */
	sb->size_field = sc ? (sc->size_where == SW_FIELD ? st->size_field : NULL) : st->size_field;
	grow(sb, st->size);
	sb->notes = xcalloc(st->nfields ? st->nfields : 1, sizeof(*sb->notes));
	structbuf_set_size(sb, cstruct_newest_size(st));
	return sb;
}

static void drop_reloc(struct structbuf *sb, unsigned off, unsigned end)
{
	size_t kept = 0;
	for (size_t i = 0; i < sb->nrelocs; i++) {
		struct reloc *r = &sb->relocs[i];
		if (r->offset + 8 > off && r->offset < end)
			free(r->text);
		else
			sb->relocs[kept++] = *r;
	}
	sb->nrelocs = kept;
}

void structbuf_free(struct structbuf *sb)
{
	if (!sb)
		return;
	for (size_t i = 0; i < sb->st->nfields; i++)
		free(sb->notes[i]);
	drop_reloc(sb, 0, ~0u);
	free(sb->relocs);
	free(sb->notes);
	free(sb->data);
	free(sb->name);
	free(sb);
}

int structbuf_set_size(struct structbuf *sb, uint64_t size)
{
	const struct field *sf = sb->size_field;
	if (sf && sf->elem_size < 8 && size >> (sf->elem_size * 8))
		return err("size %llu does not fit the %s field '%s'", (unsigned long long)size,
			   sf->type_text, sf->name);
	sb->size = size;
	if (size <= STRUCTBUF_MAX_BYTES)
		grow(sb, (size_t)size);
	if (sf)
		le_store(sb->data + sf->offset, sf->elem_size, size);
	return 0;
}

static void clear_note(struct structbuf *sb, const struct field *f)
{
	FREE_AND_NULL(sb->notes[f - sb->st->fields]);
}

int structbuf_set_field(struct structbuf *sb, const struct field *f, const struct value *v)
{
	if (v->kind != VK_INT) {
		if (f->size != 8 || f->count)
			return err("field '%s' is %s; a pointer needs an 8-byte field", f->name, f->type_text);
		drop_reloc(sb, f->offset, f->offset + 8);
		ALLOC_GROW(sb->relocs, sb->nrelocs + 1, sb->relocs_alloc);
		struct reloc *r = &sb->relocs[sb->nrelocs++];
		r->offset = f->offset;
		r->kind = v->kind == VK_STRING ? RL_STRING : RL_BUFFER;
		r->text_len = v->text_len;
		r->text = xmalloc(v->text_len + 1);
		memcpy(r->text, v->text, v->text_len);
		r->text[v->text_len] = '\0';
		/* a string's address is real and stays valid; a buffer's is filled in at call time */
		le_store(sb->data + f->offset, 8, r->kind == RL_STRING ? (uint64_t)(uintptr_t)r->text : 0);
		clear_note(sb, f);
		return 0;
	}
	unsigned bits = f->elem_size * 8;
	uint64_t stored;
	bool ext;
	struct sbuf why = SBUF_INIT;
	if (value_convert(v, bits, ftype_signed(f->type), &stored, &ext, &why) < 0) {
		int r;
		uint64_t hi = bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
		if (ftype_signed(f->type))
			r = err("value does not fit field '%s' (%s: %lld..%lld): %s", f->name, f->type_text,
				-(long long)(hi >> 1) - 1, (long long)(hi >> 1), why.buf);
		else
			r = err("value does not fit field '%s' (%s: 0..%#llx): %s", f->name, f->type_text,
				(unsigned long long)hi, why.buf);
		sbuf_release(&why);
		return r;
	}
	sbuf_release(&why);
	drop_reloc(sb, f->offset, f->offset + f->size);
	if (f->count)
		memset(sb->data + f->offset, 0, f->size);
	le_store(sb->data + f->offset, f->elem_size, stored);
	clear_note(sb, f);
	if (ext) {
		struct sbuf n = SBUF_INIT;
		sbuf_addf(&n, "sign-extended from %s %lld", value_type_name(v), (long long)(int64_t)v->bits);
		sb->notes[f - sb->st->fields] = sbuf_detach(&n);
	}
	return 0;
}

void structbuf_unset_field(struct structbuf *sb, const struct field *f)
{
	drop_reloc(sb, f->offset, f->offset + f->size);
	memset(sb->data + f->offset, 0, f->size);
	clear_note(sb, f);
}

int structbuf_poke(struct structbuf *sb, uint64_t off, const unsigned char *bytes, size_t n)
{
	if (off > STRUCTBUF_MAX_BYTES || n > STRUCTBUF_MAX_BYTES - off)
		return err("offset %llu is past the largest buffer xsc keeps (%u bytes)",
			   (unsigned long long)off, STRUCTBUF_MAX_BYTES);
	grow(sb, (size_t)(off + n));
	memcpy(sb->data + off, bytes, n);
	drop_reloc(sb, (unsigned)off, (unsigned)(off + n));
	for (size_t i = 0; i < sb->st->nfields; i++) {
		const struct field *f = &sb->st->fields[i];
		if (f->offset < off + n && f->offset + f->size > off)
			clear_note(sb, f);
	}
	return 0;
}

uint64_t structbuf_get(const struct structbuf *sb, const struct field *f)
{
	uint64_t v = le_load(sb->data + f->offset, f->elem_size);
	if (ftype_signed(f->type) && f->elem_size < 8 && (v >> (f->elem_size * 8 - 1)) & 1)
		v |= ~0ULL << (f->elem_size * 8);
	return v;
}

const struct reloc *structbuf_reloc_at(const struct structbuf *sb, unsigned offset)
{
	for (size_t i = 0; i < sb->nrelocs; i++)
		if (sb->relocs[i].offset == offset)
			return &sb->relocs[i];
	return NULL;
}

uint64_t structbuf_kernel_size(const struct structbuf *sb)
{
	const struct field *sf = sb->size_field;
	return sf ? le_load(sb->data + sf->offset, sf->elem_size) : sb->size;
}

const struct field *structbuf_field_or_err(const struct structbuf *sb, const char *name)
{
	const struct cstruct *st = sb->st;
	const struct field *f = cstruct_find_field(st, name);
	if (f)
		return f;
	struct suggest sg = SUGGEST_INIT(name, 3);
	for (size_t i = 0; i < st->nfields; i++)
		suggest_add(&sg, st->fields[i].name);
	const char *best = suggest_best(&sg);
	if (best)
		err("struct %s has no field '%s' (did you mean '%s'?)", st->name, name, best);
	else
		err("struct %s has no field '%s'", st->name, name);
	return NULL;
}
