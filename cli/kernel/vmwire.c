#include "kernel/vmwire.h"
#include <stdlib.h>
#include <string.h>
#include "base/util.h"
#include "base/banned.h"

/* ---- writing ---- */

static void put32(struct sbuf *o, uint32_t v)
{
	unsigned char b[4];
	le_store(b, 4, v);
	sbuf_add(o, b, 4);
}

static void put64(struct sbuf *o, uint64_t v)
{
	unsigned char b[8];
	le_store(b, 8, v);
	sbuf_add(o, b, 8);
}

static void putb(struct sbuf *o, const struct vw_bytes *b)
{
	put32(o, b->len);
	if (b->len)
		sbuf_add(o, b->p, b->len);
}

/* ---- reading: every get checks the bound; the first failure sticks ---- */

struct rd {
	const unsigned char *p;
	size_t len, off;
	bool bad;
};

static bool need(struct rd *r, size_t n)
{
	if (r->bad || r->len - r->off < n)
		r->bad = true;
	return !r->bad;
}

static uint32_t get32(struct rd *r)
{
	if (!need(r, 4))
		return 0;
	r->off += 4;
	return (uint32_t)le_load(r->p + r->off - 4, 4);
}

static uint64_t get64(struct rd *r)
{
	if (!need(r, 8))
		return 0;
	r->off += 8;
	return le_load(r->p + r->off - 8, 8);
}

/* A count or index no greater than max. */
static uint32_t get_upto(struct rd *r, uint32_t max)
{
	uint32_t v = get32(r);
	if (v > max)
		r->bad = true;
	return r->bad ? 0 : v;
}

static void getb(struct rd *r, struct vw_bytes *b, uint32_t max)
{
	uint32_t n = get_upto(r, max);
	b->p = NULL;
	b->len = 0;
	if (!n || !need(r, n))
		return;
	b->p = xmalloc(n);
	memcpy(b->p, r->p + r->off, n);
	b->len = n;
	r->off += n;
}

/* Bytes that must end in NUL (a path, a name) and hold no other. */
static bool is_cstring(const struct vw_bytes *b)
{
	return !b->len || (b->p[b->len - 1] == '\0' && memchr(b->p, '\0', b->len) == b->p + b->len - 1);
}

static int done(struct rd *r)
{
	return r->bad || r->off != r->len ? -1 : 0;
}

static void bytes_release(struct vw_bytes *b)
{
	free(b->p);
	b->p = NULL;
	b->len = 0;
}

/* ---- frames ---- */

int vw_header(const unsigned char h[VW_HEADER], enum vw_type *type, uint32_t *len)
{
	uint32_t t = (uint32_t)le_load(h + 4, 4);
	*len = (uint32_t)le_load(h + 8, 4);
	*type = (enum vw_type)t;
	return le_load(h, 4) == VW_MAGIC && t >= VW_HELLO && t <= VW_PROBED && *len <= VW_MAX ? 0 : -1;
}

void vw_frame(struct sbuf *out, enum vw_type type, const struct sbuf *payload)
{
	put32(out, VW_MAGIC);
	put32(out, type);
	put32(out, (uint32_t)payload->len);
	sbuf_add(out, payload->buf, payload->len);
}

/* ---- a call ---- */

void vw_encode_call(const struct vw_call *c, struct sbuf *o)
{
	struct vw_bytes name = { (unsigned char *)c->name, (uint32_t)strnlen(c->name, sizeof(c->name) - 1) + 1 };
	putb(o, &name);
	put64(o, c->nr);
	put32(o, c->flags);
	put32(o, c->safety);
	put32(o, c->prep);
	put32(o, c->size_where);
	put32(o, (uint32_t)c->prep_arg);
	put32(o, (uint32_t)c->buf_arg);
	put32(o, (uint32_t)c->extra_arg);
	put32(o, c->timeout_ms);
	put32(o, c->nargs);
	for (uint32_t i = 0; i < c->nargs && i < 6; i++) {
		put64(o, c->args[i]);
		put32(o, c->kind[i]);
		put32(o, c->role[i]);
		putb(o, &c->strings[i]);
		put32(o, c->string_guarded[i]);
	}
	put64(o, c->size);
	put32(o, c->size_cell);
	putb(o, &c->buf);
	put32(o, c->extra_len);
	put32(o, c->nslots);
	for (uint32_t i = 0; i < c->nslots && i < VW_MAX_SLOTS; i++) {
		put32(o, c->slots[i].off);
		put32(o, c->slots[i].copy);
		putb(o, &c->slots[i].data);
	}
	put32(o, c->stack_off);
	put32(o, c->stack_len);
}

/* An argument index, or -1. */
static int32_t get_index(struct rd *r)
{
	uint32_t v = get32(r);
	if (v != UINT32_MAX && v >= 6)
		r->bad = true;
	return v == UINT32_MAX ? -1 : (int32_t)v;
}

int vw_decode_call(const unsigned char *p, size_t len, struct vw_call *c)
{
	struct rd r = { p, len, 0, false };
	struct vw_bytes name;
	memset(c, 0, sizeof(*c));
	getb(&r, &name, sizeof(c->name));
	if (name.len && is_cstring(&name))
		memcpy(c->name, name.p, name.len);
	else
		r.bad = true;
	bytes_release(&name);
	c->nr = get64(&r);
	c->flags = get32(&r);
	c->safety = get32(&r);
	c->prep = get32(&r);
	c->size_where = get32(&r);
	c->prep_arg = get_index(&r);
	c->buf_arg = get_index(&r);
	c->extra_arg = get_index(&r);
	c->timeout_ms = get_upto(&r, 600000);
	c->nargs = get_upto(&r, 6);
	for (uint32_t i = 0; i < c->nargs && !r.bad; i++) {
		c->args[i] = get64(&r);
		c->kind[i] = (uint8_t)get_upto(&r, VA_NKINDS - 1);
		c->role[i] = (uint8_t)get_upto(&r, 255);
		getb(&r, &c->strings[i], VW_MAX_BYTES);
		c->string_guarded[i] = (uint8_t)get_upto(&r, 1);
		/* a path reaches the kernel as a C string; a guarded buffer is bytes */
		if ((!c->string_guarded[i] && !is_cstring(&c->strings[i])) || (c->kind[i] == VA_STRING && !c->strings[i].len))
			r.bad = true;
	}
	c->size = get64(&r);
	c->size_cell = get32(&r);
	getb(&r, &c->buf, VW_MAX_BYTES);
	c->extra_len = get_upto(&r, VW_MAX_BYTES);
	c->nslots = get_upto(&r, VW_MAX_SLOTS);
	for (uint32_t i = 0; i < c->nslots && !r.bad; i++) {
		c->slots[i].off = get32(&r);
		c->slots[i].copy = get_upto(&r, 1);
		getb(&r, &c->slots[i].data, VW_MAX_BYTES);
		if (c->buf.len < 8 || c->slots[i].off > c->buf.len - 8 || !c->slots[i].data.len ||
		    (!c->slots[i].copy && !is_cstring(&c->slots[i].data)))
			r.bad = true;
	}
	c->stack_off = get32(&r);
	c->stack_len = get_upto(&r, 1u << 20);
	if (c->stack_len && (c->buf.len < 16 || c->stack_off > c->buf.len - 16))
		r.bad = true;
	for (uint32_t i = 0; i < c->nargs; i++)
		if ((c->kind[i] == VA_BUF && !c->buf.len) || (c->kind[i] == VA_EXTRA && !c->extra_len))
			r.bad = true;
	if (done(&r) < 0) {
		vw_call_release(c);
		return -1;
	}
	return 0;
}

void vw_call_release(struct vw_call *c)
{
	bytes_release(&c->buf);
	for (int i = 0; i < 6; i++)
		bytes_release(&c->strings[i]);
	for (uint32_t i = 0; i < VW_MAX_SLOTS; i++)
		bytes_release(&c->slots[i].data);
	memset(c, 0, sizeof(*c));
}

/* ---- a result ---- */

void vw_encode_result(const struct vw_result *res, struct sbuf *o)
{
	put32(o, res->stage);
	put64(o, (uint64_t)res->ret);
	put32(o, (uint32_t)res->err);
	put32(o, (uint32_t)res->signal);
	put64(o, (uint64_t)res->prep_value);
	put32(o, res->size_cell);
	put64(o, res->elapsed_us);
	putb(o, &res->setup_error);
	putb(o, &res->after);
	putb(o, &res->extra);
	put32(o, res->ncopies);
	for (uint32_t i = 0; i < res->ncopies && i < 8; i++)
		putb(o, &res->copies[i]);
}

int vw_decode_result(const unsigned char *p, size_t len, struct vw_result *res)
{
	struct rd r = { p, len, 0, false };
	memset(res, 0, sizeof(*res));
	res->stage = get_upto(&r, 4); /* enum outcome_stage */
	res->ret = (int64_t)get64(&r);
	res->err = (int32_t)get_upto(&r, 4095);
	res->signal = (int32_t)get_upto(&r, 64);
	res->prep_value = (int64_t)get64(&r);
	res->size_cell = get32(&r);
	res->elapsed_us = get64(&r);
	getb(&r, &res->setup_error, 4096);
	if (!is_cstring(&res->setup_error))
		r.bad = true;
	getb(&r, &res->after, VW_MAX_BYTES);
	getb(&r, &res->extra, VW_MAX_BYTES);
	res->ncopies = get_upto(&r, 8);
	for (uint32_t i = 0; i < res->ncopies && !r.bad; i++)
		getb(&r, &res->copies[i], VW_MAX_BYTES);
	if (done(&r) < 0) {
		vw_result_release(res);
		return -1;
	}
	return 0;
}

void vw_result_release(struct vw_result *r)
{
	bytes_release(&r->setup_error);
	bytes_release(&r->after);
	bytes_release(&r->extra);
	for (int i = 0; i < 8; i++)
		bytes_release(&r->copies[i]);
	memset(r, 0, sizeof(*r));
}

/* ---- the agent's greeting ---- */

void vw_encode_hello(const struct vw_hello *h, struct sbuf *o)
{
	putb(o, &h->release);
	putb(o, &h->version);
	put32(o, h->landlock_abi);
	put32(o, h->shm);
}

int vw_decode_hello(const unsigned char *p, size_t len, struct vw_hello *h)
{
	struct rd r = { p, len, 0, false };
	memset(h, 0, sizeof(*h));
	getb(&r, &h->release, 65);
	getb(&r, &h->version, 65);
	h->landlock_abi = get_upto(&r, 255);
	h->shm = get_upto(&r, 1);
	if (!h->release.len || !is_cstring(&h->release) || !h->version.len || !is_cstring(&h->version) || done(&r) < 0) {
		vw_hello_release(h);
		return -1;
	}
	return 0;
}

void vw_hello_release(struct vw_hello *h)
{
	bytes_release(&h->release);
	bytes_release(&h->version);
}

int vw_shm_take(const volatile unsigned char *area, enum vw_type *type, unsigned char **payload, uint32_t *len)
{
	unsigned char h[VW_HEADER];
	for (size_t i = 0; i < VW_HEADER; i++)
		h[i] = area[i];
	if (vw_header(h, type, len) < 0 || *len > VW_SHM_HALF - VW_HEADER)
		return -1;
	*payload = xmalloc(*len ? *len : 1);
	for (uint32_t i = 0; i < *len; i++) /* once: what is checked is this copy */
		(*payload)[i] = area[VW_HEADER + i];
	return 0;
}

/* ---- the catalogue for a probe ---- */

static bool plain_json_name(const char *n)
{
	size_t len = strlen(n);
	if (len < 6 || strcmp(n + len - 5, ".json"))
		return false;
	for (size_t i = 0; i < len - 5; i++)
		if (!((n[i] >= 'a' && n[i] <= 'z') || (n[i] >= 'A' && n[i] <= 'Z') || (n[i] >= '0' && n[i] <= '9') ||
		      n[i] == '_' || n[i] == '-'))
			return false;
	return true;
}

void vw_encode_files(const struct vw_files *f, struct sbuf *o)
{
	put32(o, f->n);
	for (uint32_t i = 0; i < f->n && i < VW_MAX_FILES; i++) {
		struct vw_bytes name = { (unsigned char *)f->name[i], (uint32_t)strlen(f->name[i]) + 1 };
		putb(o, &name);
		putb(o, &f->data[i]);
	}
}

int vw_decode_files(const unsigned char *p, size_t len, struct vw_files *f)
{
	struct rd r = { p, len, 0, false };
	memset(f, 0, sizeof(*f));
	uint32_t n = get_upto(&r, VW_MAX_FILES);
	for (uint32_t i = 0; i < n && !r.bad; i++) {
		struct vw_bytes name;
		getb(&r, &name, sizeof(f->name[i]));
		if (name.len && is_cstring(&name) && plain_json_name((const char *)name.p))
			memcpy(f->name[i], name.p, name.len);
		else
			r.bad = true;
		bytes_release(&name);
		getb(&r, &f->data[i], VW_MAX);
		f->n = i + 1;
	}
	if (done(&r) < 0) {
		vw_files_release(f);
		return -1;
	}
	return 0;
}

void vw_files_release(struct vw_files *f)
{
	for (uint32_t i = 0; i < VW_MAX_FILES; i++)
		bytes_release(&f->data[i]);
	memset(f, 0, sizeof(*f));
}
