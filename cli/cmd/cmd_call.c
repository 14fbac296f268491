/* call: invoke a syscall on the running kernel with the current buffer. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "base/pager.h"
#include "cmd/commands.h"
#include "kernel/explain.h"
#include "kernel/invoke.h"
#include "kernel/vm.h"
#include "model/decode.h"
#include "model/kver.h"
#include "model/xlat.h"
#include "sim/sim.h"
#include "base/banned.h"

static struct structbuf *lookup(void *ctx, const char *name)
{
	return session_find_buffer(ctx, name);
}

/* The buffer a call uses: the current one when it is of the syscall's struct, else the
 * newest buffer of that struct, else a fresh zeroed one. */
static struct structbuf *buffer_for(struct session *s, const struct syscall *sc)
{
	if (!sc->st)
		return NULL;
	if (s->cur && s->cur->st == sc->st)
		return s->cur;
	for (size_t i = s->nbufs; i-- > 0;)
		if (s->bufs[i]->st == sc->st) {
			s->cur = s->bufs[i];
			return s->cur;
		}
	for (size_t i = 0; s->cur && i < sc->nargs; i++)
		if (sc->args[i].st == s->cur->st)
			return s->cur;
	struct structbuf *b = structbuf_new(sc->st->name, sc->st, sc);
	session_add_buffer(s, b);
	out_text(&s->out, "(made a zeroed %s buffer at %llu bytes)\n", sc->st->name, (unsigned long long)b->size);
	return b;
}

/* A live call made with --unsafe says so, and names each check that would have refused it. */
static void print_unsafe(struct out *o, const struct call_plan *plan)
{
	if (!plan->unsafe)
		return;
	out_text(o, "  note: --unsafe: the argument checks and the Landlock write rule were lifted%s\n",
		 plan->lifted.len ? "" : " (no argument check refused this call)");
	for (const char *p = plan->lifted.buf; *p; p += strcspn(p, "\n") + 1)
		out_text(o, "  note: --unsafe allowed: %.*s\n", (int)strcspn(p, "\n"), p);
}

/* A simulated answer's "certain", and when it is not, every outcome it considered possible
 * ("ok" for success) and the kinds of world state they depend on. */
static void print_certainty(struct out *o_, const struct outcome *o)
{
	out_bool(o_, "certain", !o->uncertain);
	if (o->plausible_pid)
		out_bool(o_, "plausible", true);
	if (!o->uncertain)
		return;
	out_arr(o_, "possible");
	for (size_t i = 0; i < o->npossible; i++)
		out_str(o_, NULL, o->possible[i] > 0 ? errno_name(o->possible[i]) : o->possible[i] ? "signaled" : "ok");
	out_end(o_);
	out_arr(o_, "depends_on");
	for (int k = 0; k < ENV_NKINDS; k++)
		if (o->depends_on & 1u << k)
			out_str(o_, NULL, env_kind_name((enum env_kind)k));
	out_end(o_);
}

/* Each line of text (every line ends in a newline), indented under a title. */
static void print_lines(struct out *o, const char *title, const char *text)
{
	out_text(o, "  %s:\n", title);
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		out_text(o, "    %.*s\n", (int)(nl - p), p);
		p = nl + 1;
	}
}

/* An output argument the kernel filled: statmount's buffer, listmount's ids, … */
static void print_filled(struct session *s, const struct syscall *sc, const struct outcome *o)
{
	const struct sarg *a = &sc->args[o->extra_arg];
	struct sbuf fill = SBUF_INIT, title = SBUF_INIT;
	if (a->st) {
		unsigned char *zero = xcalloc(1, o->extra_len);
		explain_changes(&fill, s->cat, a->st, zero, o->extra, a->st->size < o->extra_len ? a->st->size : o->extra_len);
		free(zero);
	} else {
		for (size_t k = 0; k + 8 <= o->extra_len && k < 64 * 8; k += 8) {
			uint64_t v;
			memcpy(&v, o->extra + k, 8);
			if (v)
				sbuf_addf(&fill, "[%zu]: %llu\n", k / 8, (unsigned long long)v);
		}
	}
	sbuf_addf(&title, "the kernel filled %s", a->name);
	if (fill.len)
		print_lines(&s->out, title.buf, fill.buf);
	sbuf_release(&title);
	sbuf_release(&fill);
}

/* The outcome as text: the call's line, its result, what --unsafe lifted, why, and what the
 * kernel wrote. */
static void print_outcome_text(struct session *s, const struct syscall *sc, const struct call_plan *plan,
			       const struct outcome *o, const struct explanation *ex, const char *line, const char *wb)
{
	struct out *o_ = &s->out;
	out_text(o_, "%s\n", line);
	if (o->stage == OS_CALLED) {
		if (o->ret == -1)
			out_text(o_, "  %serror %s%s: %s\n", out_color(o_, OC_RED), errno_name(o->err), out_color(o_, OC_RESET),
				 strerror(o->err));
		else
			out_text(o_, "  %sreturned %ld%s\n", out_color(o_, OC_GREEN), o->ret, out_color(o_, OC_RESET));
	}
	print_unsafe(o_, plan);
	for (const char *p = ex->text.buf; *p;) {
		const char *nl = strchr(p, '\n');
		char *one = xstrndup(p, nl ? (size_t)(nl - p) : strlen(p));
		struct sbuf w = SBUF_INIT; /* continued under the reason, not under "why:" */
		term_wrap(&w, one, 7, 7, s->columns);
		out_text(o_, "  why: %s\n", w.buf);
		sbuf_release(&w);
		free(one);
		p = nl ? nl + 1 : p + strlen(p);
	}
	if (*wb)
		print_lines(o_, "the kernel wrote back", wb);
	if (o->extra && o->stage == OS_CALLED && o->extra_arg >= 0)
		print_filled(s, sc, o);
}

/* The bytes that changed, in JSON: the struct's (writeback) and the output argument's (filled,
 * which was passed zeroed). */
static void print_changes_json(struct out *o_, const struct syscall *sc, const struct outcome *o)
{
	out_arr(o_, "writeback");
	for (size_t i = o->before ? mem_diff(o->before, o->after, 0, o->len) : o->len; i < o->len; i = mem_diff(o->before, o->after, i + 1, o->len)) {
		out_obj(o_, NULL);
		out_u64(o_, "offset", i);
		out_u64(o_, "before", o->before[i]);
		out_u64(o_, "after", o->after[i]);
		out_end(o_);
	}
	out_end(o_);
	if (!o->extra || o->stage != OS_CALLED || o->extra_arg < 0)
		return;
	out_str(o_, "filled_arg", sc->args[o->extra_arg].name);
	out_arr(o_, "filled");
	for (size_t i = 0; i < o->extra_len; i++) {
		if (!o->extra[i])
			continue;
		out_obj(o_, NULL);
		out_u64(o_, "offset", i);
		out_u64(o_, "after", o->extra[i]);
		out_end(o_);
	}
	out_end(o_);
}

static void print_outcome_json(struct out *o_, const struct syscall *sc, const struct call_plan *plan,
			       const struct outcome *o, const struct explanation *ex, const char *target, const char *line)
{
	out_obj(o_, NULL);
	out_str(o_, "syscall", sc->name);
	out_str(o_, "target", target);
	out_str(o_, "line", line);
	out_u64(o_, "size", o->size);
	if (o->before && plan->req.buf_arg >= 0) /* the struct's bytes as passed, up to the size */
		out_hex(o_, "passed", o->before, o->size < o->len ? (size_t)o->size : o->len);
	out_str(o_, "stage", (const char *[]){ "not_run", "setup", "called", "timeout", "signaled" }[o->stage]);
	if (o->stage == OS_CALLED)
		out_s64(o_, "ret", o->ret);
	else
		out_null(o_, "ret");
	bool failed = o->stage == OS_CALLED && o->ret == -1;
	out_u64(o_, "errno", failed ? (uint64_t)o->err : 0);
	out_str(o_, "errno_name", failed ? errno_name(o->err) : NULL);
	out_str(o_, "explanation", ex->text.buf);
	out_u64(o_, "followup_calls", ex->followups);
	print_changes_json(o_, sc, o);
	out_u64(o_, "elapsed_us", o->elapsed_us);
	if (o->simulated)
		print_certainty(o_, o);
	if (plan->unsafe) {
		out_bool(o_, "unsafe", true);
		out_arr(o_, "lifted");
		for (const char *p = plan->lifted.buf; *p; p += strcspn(p, "\n") + 1) {
			char *one = xstrndup(p, strcspn(p, "\n"));
			out_str(o_, NULL, one);
			free(one);
		}
		out_end(o_);
	}
	out_end(o_);
}

static void print_outcome(struct session *s, const struct syscall *sc, const struct call_plan *plan,
			  const struct outcome *o, const struct explanation *ex, const char *target, unsigned style)
{
	struct sbuf line = SBUF_INIT, wb = SBUF_INIT;
	decode_call_as(&line, s->cat, sc, o, plan->req.buf_arg, style);
	explain_writeback(&wb, s->cat, plan->req.buf_arg >= 0 ? sc->st : NULL, &sc->entries, o);
	print_outcome_text(s, sc, plan, o, ex, line.buf, wb.buf);
	print_outcome_json(&s->out, sc, plan, o, ex, target, line.buf);
	sbuf_release(&line);
	sbuf_release(&wb);
}

/* A live answer explained: the simulator's check walk on the same call at the running
 * kernel's version names the check, and follow-up calls confirm what it does not explain. */
static void explain_live(struct session *s, struct call_plan *plan, const struct outcome *o, struct explanation *ex)
{
	uint32_t kv = plan->guest ? vm_kernel(plan->guest) : running_kernel();
	struct sim_opts so = { kv, false };
	struct outcome so_out;
	struct sbuf why = SBUF_INIT;
	sim_call(s->cat, &plan->req, &so, &so_out, &why);
	struct sim_verdict v = { &so_out, why.buf };
	explain_outcome(ex, s->cat, plan, o, kv, &v);
	outcome_release(&so_out);
	sbuf_release(&why);
}

/* Runs the planned call on the target: the simulated kernel, whose reasons (naming the check
 * or size step) are the explanation, or a live one (here or in a guest), explained after. */
static int call_run(struct session *s, struct call_plan *plan, struct outcome *o, struct explanation *ex,
		    struct sbuf *target)
{
	if (s->sim) {
		struct sim_opts so = { s->sim_kv, s->check_fields };
		char kv[16];
		plan->live = false;
		sim_call(s->cat, &plan->req, &so, o, &ex->text);
		sbuf_addf(target, "sim %s%s", kver_str(s->sim_kv, kv), s->check_fields ? " --check-fields" : "");
		return 0;
	}
	if (s->vm_version && !(plan->guest = session_guest(s, s->vm_version)))
		return -1;
	if (invoke_run(plan, o) < 0)
		return -1;
	explain_live(s, plan, o, ex);
	sbuf_adds(target, plan->guest ? vm_target(plan->guest) : "live");
	return 0;
}

/* What the call left behind: the bytes the kernel wrote into buffers fields pointed at and into
 * the call's own buffer, as a program would see them, and the outcome as the last call. */
static void call_keep(struct session *s, const struct syscall *sc, struct structbuf *sb,
		      const struct call_plan *plan, struct outcome *o)
{
	for (size_t k = 0; k < o->npointed && o->stage == OS_CALLED; k++) {
		struct structbuf *pb = session_find_buffer(s, o->pointed_name[k]);
		if (!pb || pb->len != o->pointed_len[k] || !memcmp(pb->data, o->pointed[k], pb->len))
			continue;
		struct sbuf fill = SBUF_INIT, title = SBUF_INIT;
		explain_changes(&fill, s->cat, pb->st, pb->data, o->pointed[k], pb->len);
		sbuf_addf(&title, "the kernel wrote into &%s", pb->name);
		print_lines(&s->out, title.buf, fill.buf);
		sbuf_release(&title);
		sbuf_release(&fill);
		memcpy(pb->data, o->pointed[k], pb->len);
	}
	if (sb && plan->req.buf_arg >= 0 && !plan->req.buf_override && o->stage == OS_CALLED)
		invoke_writeback(plan, o, sb->data, sb->len);
	outcome_release(&s->last);
	s->last = *o;
	s->last_sc = sc;
	s->have_last = true;
	s->calls++;
}

int cmd_call(struct session *s, int argc, char **argv)
{
	bool unsafe = s->unsafe, verbose = false;
	enum { O_UNSAFE = 256 };
	static const struct cmd_opt opts[] = { { "unsafe", O_UNSAFE, NULL }, { "verbose", 'v', NULL }, { 0 } };
	struct cmd_opt_iter it = CMD_OPT_ITER(s, argc, argv);
	int k;
	it.front_only = true; /* the call's own arguments follow its name */
	while ((k = cmd_opt_next(&it, opts)) != CMD_OPT_END && k != CMD_OPT_OPERAND) {
		if (k < 0)
			return k;
		if (k == O_UNSAFE)
			unsafe = true;
		else
			verbose = true;
	}
	if (k == CMD_OPT_END)
		return cmd_usage(s);
	int i = it.i - 1; /* the syscall's name */
	if (unsafe && !s->unsafe && s->checking) /* a student's solution, run by whoever checks it */
		return err("call --unsafe: a solution being checked (lesson --check) may not lift the sandbox's checks");
	const struct syscall *sc = session_find_syscall(s, argv[i]);
	if (!sc) {
		struct suggest sg = SUGGEST_INIT(argv[i], 3);
		for (size_t k = 0; k < s->cat->nsyscalls; k++)
			suggest_add(&sg, s->cat->syscalls[k].name);
		return suggest_err(&sg, "'list' shows them", "no syscall named '%s'", argv[i]);
	}
	if (sc->designed && !s->sim)
		return err("%s is a designed syscall that no kernel has; 'target sim VERSION' answers it", sc->name);
	if (s->no_effects && !s->sim)
		return err("live calls are disabled in this session; 'target sim VERSION' still works");
	struct structbuf *sb = buffer_for(s, sc);
	struct buffer_lookup bl = { lookup, s };
	struct call_plan plan;
	struct outcome o;
	struct explanation ex;
	struct sbuf target = SBUF_INIT;
	int rc = -1;
	explanation_init(&ex);
	if (invoke_plan(s->cat, sc, sb, &bl, argc - i - 1, argv + i + 1,
			(unsafe ? PLAN_UNSAFE : 0) | (s->sim ? PLAN_SIM : 0), s->timeout_ms, &plan) < 0 ||
	    call_run(s, &plan, &o, &ex, &target) < 0)
		goto out;
	o.raw_addresses = plan.raw_addresses;
	print_outcome(s, sc, &plan, &o, &ex, target.buf, s->verbose || verbose ? DECODE_VERBOSE : 0);
	call_keep(s, sc, sb, &plan, &o);
	rc = 0;
out:
	sbuf_release(&target);
	explanation_release(&ex);
	invoke_plan_release(&plan);
	return rc;
}
