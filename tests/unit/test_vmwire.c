/* The 'target vm' wire: a call, a result and a greeting survive the trip; every truncation
 * of them, an oversized length, a count past its bound and trailing bytes are refused; the
 * agent rebuilds a plan whose arguments and struct slots point at its own copies. */
#include <stdlib.h>
#include <string.h>
#include "base/diag.h"
#include "kernel/vmagent.h"
#include "kernel/vmwire.h"
#include "tap.h"

static void sample(struct vw_call *c, unsigned char *buf, unsigned char *copy)
{
	memset(c, 0, sizeof(*c));
	strcpy(c->name, "clone3");
	c->nr = 435;
	c->flags = VC_CLONE3;
	c->prep_arg = -1;
	c->buf_arg = 0;
	c->extra_arg = -1;
	c->timeout_ms = 2000;
	c->nargs = 2;
	c->kind[0] = VA_BUF;
	c->args[1] = 88;
	c->size = 88;
	memset(buf, 0, 88);
	buf[0] = 1;
	c->buf = (struct vw_bytes){ buf, 88 };
	c->nslots = 2;
	c->slots[0] = (struct vw_slot){ 16, false, { (unsigned char *)"text", 5 } };
	c->slots[1] = (struct vw_slot){ 24, true, { copy, 24 } };
	c->stack_off = 40;
	c->stack_len = 65536;
}

int main(void)
{
	unsigned char buf[88], copy[24] = { 7 };
	struct vw_call c, d;
	struct sbuf p = SBUF_INIT, q = SBUF_INIT, why = SBUF_INIT;
	diag_swap_sink(DIAG_DISCARD);
	sample(&c, buf, copy);
	vw_encode_call(&c, &p);
	ok(vw_decode_call((unsigned char *)p.buf, p.len, &d) == 0, "a call decodes");
	vw_encode_call(&d, &q);
	ok(q.len == p.len && !memcmp(q.buf, p.buf, p.len), "and encodes to the same bytes");
	ok(!strcmp(d.name, "clone3") && d.nslots == 2 && d.slots[1].copy && d.stack_len == 65536, "its fields survive");
	int refused = 0;
	for (size_t n = 0; n < p.len; n++) {
		struct vw_call e;
		if (vw_decode_call((unsigned char *)p.buf, n, &e) == 0)
			vw_call_release(&e);
		else
			refused++;
	}
	ok(refused == (int)p.len, "every truncation is refused (%d of %zu)", refused, p.len);
	sbuf_addch(&p, 0);
	struct vw_call e;
	ok(vw_decode_call((unsigned char *)p.buf, p.len, &e) < 0, "a trailing byte is refused");
	p.len--;

	/* the agent's plan: its own buffers, its own addresses in the slots */
	struct vm_agent_call a;
	ok(vm_agent_plan(&a, &d, &why) == 0, "the agent plans it");
	const struct call_request *req = &a.plan.req;
	ok(req->args[0] == (uint64_t)(uintptr_t)req->buf && req->buf[0] == 1, "the buffer argument points at the agent's copy");
	ok(le_load(req->buf + 16, 8) == (uint64_t)(uintptr_t)a.texts[0] && !strcmp(a.texts[0], "text"), "a string slot points at its copy");
	ok(req->ncopies == 1 && le_load(req->buf + 24, 8) == (uint64_t)(uintptr_t)req->copies[0] &&
	   ((unsigned char *)req->copies[0])[0] == 7, "a &NAME slot points at its copy");
	ok(a.plan.stack && le_load(req->buf + 40, 8) == (uint64_t)(uintptr_t)a.plan.stack && le_load(req->buf + 48, 8) == 65536,
	   "the stack is the agent's");
	struct outcome o;
	struct vw_result r, r2;
	outcome_init(&o);
	o.stage = OS_CALLED;
	o.ret = -1;
	o.err = 22;
	o.len = 88;
	o.after = malloc(88);
	memcpy(o.after, req->buf, 88);
	o.after[8] = 9; /* the kernel wrote here */
	vm_agent_result(&a, &o, &r);
	ok(!memcmp(r.after.p + 16, buf + 16, 32) && r.after.p[8] == 9, "the result carries xsc's addresses back, and the kernel's write");
	sbuf_reset(&q);
	vw_encode_result(&r, &q);
	ok(vw_decode_result((unsigned char *)q.buf, q.len, &r2) == 0 && r2.err == 22 && r2.after.len == 88, "a result decodes");
	vw_result_release(&r2);
	outcome_release(&o);
	vm_agent_release(&a);

	/* bounds */
	unsigned char h[VW_HEADER];
	enum vw_type t;
	uint32_t len;
	le_store(h, 4, VW_MAGIC);
	le_store(h + 4, 4, VW_CALL);
	le_store(h + 8, 4, VW_MAX + 1);
	ok(vw_header(h, &t, &len) < 0, "a frame longer than VW_MAX is refused");
	le_store(h + 8, 4, 10);
	ok(vw_header(h, &t, &len) == 0 && t == VW_CALL && len == 10, "a frame header reads");
	le_store(h + 4, 4, 99);
	ok(vw_header(h, &t, &len) < 0, "an unknown frame type is refused");
	struct vw_hello hello = { { (unsigned char *)"6.1\0x", 5 }, { (unsigned char *)"v", 2 }, 2 }, hh;
	sbuf_reset(&q);
	vw_encode_hello(&hello, &q);
	ok(vw_decode_hello((unsigned char *)q.buf, q.len, &hh) < 0, "a release with a NUL inside is refused");
	/* a probe's catalogue: plain names only */
	struct vw_files f = { .n = 1 }, g;
	strcpy(f.name[0], "openat2.json");
	f.data[0] = (struct vw_bytes){ (unsigned char *)"{}", 2 };
	sbuf_reset(&q);
	vw_encode_files(&f, &q);
	ok(vw_decode_files((unsigned char *)q.buf, q.len, &g) == 0 && g.n == 1 && !strcmp(g.name[0], "openat2.json"), "catalogue files decode");
	vw_files_release(&g);
	strcpy(f.name[0], "../etc.json");
	sbuf_reset(&q);
	vw_encode_files(&f, &q);
	ok(vw_decode_files((unsigned char *)q.buf, q.len, &g) < 0, "a file name with a path in it is refused");
	sbuf_release(&p);
	sbuf_release(&q);
	sbuf_release(&why);
	return tap_done();
}
