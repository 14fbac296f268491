/* explain 'LINE': a strace line of a catalogue syscall, decoded and explained without
 * calling anything: which sizes the struct has had, and why a kernel answers as it did. */
#include <stdlib.h>
#include <string.h>
#include "cmd/commands.h"
#include "kernel/explain.h"
#include "model/decode.h"
#include "model/kver.h"
#include "model/straceline.h"
#include "model/xlat.h"
#include "sim/sim.h"
#include "base/banned.h"

/* The plan the explanation reads: the line's call, as made outside the sandbox. */
static void plan_of_line(struct call_plan *plan, const struct strace_line *l, const struct outcome *o)
{
	const struct syscall *sc = l->sc;
	memset(plan, 0, sizeof(*plan));
	sbuf_init(&plan->notes);
	plan->req.sc = sc;
	plan->req.buf = l->b->data;
	plan->req.buflen = l->b->len;
	plan->req.size = o->size;
	plan->req.buf_arg = l->struct_null ? -1 : l->buf_arg; /* NULL: not a struct of zeros */
	plan->req.extra_arg = -1;
	plan->req.nargs = (int)sc->nargs;
	plan->req.foreign = true;
	memcpy(plan->req.args, o->args, sizeof(plan->req.args));
	for (size_t i = 0; i < 6 && i < sc->nargs; i++) {
		/* the line's strings for the path checks; its descriptors are the numbers it shows */
		plan->req.strings[i] = l->strings[i];
		if (l->strings[i])
			plan->req.args[i] = (uint64_t)(uintptr_t)l->strings[i];
		if (sc->args[i].role == AR_FD)
			plan->req.overridden |= 1u << i;
	}
}

int cmd_explain(struct session *s, int argc, char **argv)
{
	uint32_t here = 0;
	int from = 1;
	if (argc >= 3 && !strcmp(argv[1], "--kernel")) {
		if (session_kernel_arg(s, "explain: --kernel", argv[2], &here) < 0)
			return -1;
		from = 3;
	}
	if (argc <= from)
		return command_usage(command_find("explain"));
	if (!here)
		here = running_kernel();
	struct sbuf line = SBUF_INIT;
	for (int i = from; i < argc; i++)
		sbuf_addf(&line, "%s%s", i > from ? " " : "", argv[i]);
	int result = -1;
	struct strace_line l;
	struct outcome o;
	outcome_init(&o);
	if (strace_line_parse(s->cat, line.buf, &l) < 0)
		goto out;
	const struct syscall *sc = l.sc;
	struct structbuf *b = l.b;
	o.size = l.size;
	memcpy(o.args, l.args, sizeof(o.args));
	o.stage = l.answered ? OS_CALLED : OS_NOT_RUN;
	o.ret = l.ret;
	o.err = l.err;
	o.len = b->len;
	o.before = xmalloc(b->len);
	o.after = xmalloc(b->len);
	memcpy(o.before, b->data, b->len);
	memcpy(o.after, b->data, b->len);

	struct out *out = &s->out;
	const struct cstruct *st = sc->st;
	char kv[16];
	struct sbuf decoded = SBUF_INIT;
	if (l.struct_text[0] == '{')
		decode_struct(&decoded, s->cat, st, b->data, b->len, decode_shown_size(sc, st, o.size), 0);
	else
		sbuf_addf(&decoded, "%s (an address: too small to decode)", l.struct_text);
	out_text(out, "%s: struct %s, size %llu: %s\n", sc->name, st->name, (unsigned long long)o.size, decoded.buf);
	out_text(out, "sizes of struct %s:", st->name);
	for (size_t i = 0; i < st->nversions; i++)
		out_text(out, " %u (%s%s%s)", st->versions[i].size, kver_str(st->versions[i].since, kv),
			 st->versions[i].name ? ", " : "", st->versions[i].name ? st->versions[i].name : "");
	out_text(out, "%s\n", st->nversions ? "" : " not size-versioned");
	out_obj(out, NULL);
	out_str(out, "syscall", sc->name);
	out_u64(out, "size", o.size);
	out_str(out, "decoded", decoded.buf);
	sbuf_release(&decoded);
	if (o.stage == OS_CALLED) {
		struct call_plan plan;
		plan_of_line(&plan, &l, &o);
		struct explanation ex;
		explanation_init(&ex);
		/* the simulator's check walk on the same call at that kernel names the check */
		struct sim_opts so = { here, false };
		struct outcome sim_out;
		struct sbuf sim_why = SBUF_INIT;
		sim_call(s->cat, &plan.req, &so, &sim_out, &sim_why);
		struct sim_verdict verdict = { &sim_out, sim_why.buf };
		explain_outcome(&ex, s->cat, &plan, &o, here, &verdict);
		outcome_release(&sim_out);
		sbuf_release(&sim_why);
		out_text(out, "on a %s kernel the answer means:\n", kver_str(here, kv));
		for (const char *q = ex.text.buf; *q;) {
			const char *nl = strchr(q, '\n');
			out_text(out, "  %.*s\n", (int)(nl - q), q);
			q = nl + 1;
		}
		out_s64(out, "ret", o.ret);
		out_str(out, "errno_name", o.ret == -1 ? errno_name(o.err) : NULL);
		out_str(out, "explanation", ex.text.buf);
		explanation_release(&ex);
		sbuf_release(&plan.notes);
	}
	out_end(out);
	result = 0;
out:
	strace_line_release(&l);
	outcome_release(&o);
	sbuf_release(&line);
	return result;
}
