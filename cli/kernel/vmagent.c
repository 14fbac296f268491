#include "kernel/vmagent.h"
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "base/util.h"
#include "base/banned.h"

static void put_addr(unsigned char *buf, uint32_t off, const void *p)
{
	le_store(buf + off, 8, (uint64_t)(uintptr_t)p);
}

/* The struct's slots that held xsc's addresses now hold the agent's. */
static int point_slots(struct vm_agent_call *a, struct sbuf *why)
{
	struct call_request *req = &a->plan.req;
	struct vw_call *c = &a->wire;
	for (uint32_t i = 0; i < c->nslots; i++) {
		struct vw_slot *s = &c->slots[i];
		if (s->copy) {
			if (req->ncopies == ARRAY_SIZE(req->copies)) {
				sbuf_adds(why, "too many &BUFFER pointers in one struct");
				return -1;
			}
			void *copy = xmalloc(s->data.len);
			memcpy(copy, s->data.p, s->data.len);
			req->copy_len[req->ncopies] = s->data.len;
			req->copy_name[req->ncopies] = "";
			req->copies[req->ncopies++] = copy;
			put_addr(req->buf, s->off, copy);
		} else {
			a->texts[i] = xstrdup((const char *)s->data.p);
			put_addr(req->buf, s->off, a->texts[i]);
		}
		request_note_supplied(req, s->off);
	}
	if (c->stack_len) {
		a->plan.stack = mmap(NULL, c->stack_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (a->plan.stack == MAP_FAILED) {
			a->plan.stack = NULL;
			sbuf_adds(why, "no memory for a stack");
			return -1;
		}
		a->plan.stack_len = c->stack_len;
		put_addr(req->buf, c->stack_off, a->plan.stack);
		le_store(req->buf + c->stack_off + 8, 8, c->stack_len);
		request_note_supplied(req, c->stack_off);
		request_note_supplied(req, c->stack_off + 8);
	}
	return 0;
}

static void set_args(struct vm_agent_call *a)
{
	struct call_request *req = &a->plan.req;
	struct vw_call *c = &a->wire;
	for (uint32_t i = 0; i < c->nargs; i++) {
		const struct vw_bytes *b = &c->strings[i];
		if (b->len && c->string_guarded[i]) {
			req->strings[i] = req->mem->get(b->len, &req->string_map[i]);
			memcpy(req->strings[i], b->p, b->len);
		} else if (b->len) {
			req->strings[i] = xstrdup((const char *)b->p);
		}
		switch ((enum vw_arg)c->kind[i]) {
		case VA_BUF: req->args[i] = (uint64_t)(uintptr_t)req->buf; break;
		case VA_EXTRA: req->args[i] = (uint64_t)(uintptr_t)req->extra; break;
		case VA_STRING: req->args[i] = (uint64_t)(uintptr_t)req->strings[i]; break;
		case VA_SIZE_CELL: req->args[i] = (uint64_t)(uintptr_t)&req->size_cell; break;
		default: req->args[i] = c->args[i]; break;
		}
	}
}

int vm_agent_plan(struct vm_agent_call *a, struct vw_call *c, struct sbuf *why)
{
	memset(a, 0, sizeof(*a));
	a->wire = *c;
	memset(c, 0, sizeof(*c));
	c = &a->wire;
	a->sc.name = c->name;
	a->sc.nargs = c->nargs;
	a->sc.args = a->args;
	a->sc.size_where = (enum size_where)c->size_where;
	a->sc.safety = (enum safety)c->safety;
	for (uint32_t i = 0; i < c->nargs; i++) {
		a->args[i].name = "";
		a->args[i].role = (enum arg_role)c->role[i];
	}
	struct call_plan *p = &a->plan;
	struct call_request *req = &p->req;
	sbuf_init(&p->notes);
	sbuf_init(&p->lifted);
	req->sc = &a->sc;
	req->mem = &invoke_guarded;
	req->nargs = (int)c->nargs;
	req->buf_arg = c->buf_arg;
	req->extra_arg = c->extra_arg;
	req->size = c->size;
	req->size_cell = c->size_cell;
	if (c->buf.len) {
		req->buf = req->mem->get(c->buf.len, &req->map_len);
		memcpy(req->buf, c->buf.p, c->buf.len);
		req->buflen = c->buf.len;
	}
	if (c->extra_len) {
		req->extra_len = c->extra_len;
		req->extra = req->mem->get(c->extra_len, &req->extra_map);
	}
	p->nr = (long)c->nr;
	p->prep = c->prep <= PREP_LAST ? (enum prep_kind)c->prep : PREP_NONE;
	p->prep_arg = c->prep_arg;
	p->safety = (enum safety)c->safety;
	p->ns = c->flags & VC_NS;
	p->clone3 = c->flags & VC_CLONE3;
	p->rseq_unregister = c->flags & VC_RSEQ_RELEASE;
	p->unsafe = c->flags & VC_UNSAFE;
	p->live = true;
	p->timeout_ms = c->timeout_ms ? c->timeout_ms : 2000;
	set_args(a);
	return point_slots(a, why);
}

void vm_agent_result(const struct vm_agent_call *a, struct outcome *o, struct vw_result *r)
{
	const struct vw_call *c = &a->wire;
	const struct call_request *req = &a->plan.req;
	memset(r, 0, sizeof(*r));
	/* slots the kernel left alone go back to xsc's addresses */
	for (size_t i = 0; o->after && i < req->nsupplied; i++) {
		uint32_t off = req->supplied[i];
		if (off + 8 <= o->len && off + 8 <= c->buf.len && !memcmp(o->after + off, req->buf + off, 8))
			memcpy(o->after + off, c->buf.p + off, 8);
	}
	r->stage = o->stage;
	r->ret = o->ret;
	r->err = o->err;
	r->signal = o->signal;
	r->prep_value = a->plan.prep_arg >= 0 ? (int64_t)o->args[a->plan.prep_arg] : -1;
	r->size_cell = o->size_cell_after;
	r->elapsed_us = o->elapsed_us;
	if (o->setup_error.len)
		r->setup_error = (struct vw_bytes){ (unsigned char *)o->setup_error.buf, (uint32_t)o->setup_error.len + 1 };
	if (o->after)
		r->after = (struct vw_bytes){ o->after, (uint32_t)o->len };
	if (o->extra)
		r->extra = (struct vw_bytes){ o->extra, (uint32_t)o->extra_len };
	r->ncopies = (uint32_t)o->npointed;
	for (size_t i = 0; i < o->npointed && i < 8; i++)
		r->copies[i] = (struct vw_bytes){ o->pointed[i], (uint32_t)o->pointed_len[i] };
}

void vm_agent_release(struct vm_agent_call *a)
{
	invoke_plan_release(&a->plan);
	for (size_t i = 0; i < ARRAY_SIZE(a->texts); i++)
		free(a->texts[i]);
	vw_call_release(&a->wire);
	memset(a, 0, sizeof(*a));
}
