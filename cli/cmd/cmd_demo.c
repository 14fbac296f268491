/* demo: run a teaching demo (teach/demo.h) in a scratch session, narrated. */
#include <stdlib.h>
#include <string.h>
#include "cmd/commands.h"
#include "model/kver.h"
#include "teach/demo.h"
#include "base/banned.h"

static void print_lines(struct out *o, const char *prefix, const char *text)
{
	if (!text)
		return;
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		out_text(o, "%s%.*s\n", prefix, (int)n, p);
		p += n + (nl ? 1 : 0);
	}
}

/* text with "{sim}" and "{kernel}" filled in (teach/demo.h). */
static void fill(struct sbuf *sb, const char *text, const char *sim, uint32_t sim_kv)
{
	for (const char *p = text; *p;) {
		if (!strncmp(p, "{sim}", 5)) {
			sbuf_adds(sb, sim);
			p += 5;
		} else if (!strncmp(p, "{kernel}", 8)) {
			if (sim_kv)
				sbuf_addf(sb, "a simulated %s kernel", sim);
			else
				sbuf_adds(sb, "the running kernel");
			p += 8;
		} else {
			sbuf_addch(sb, *p++);
		}
	}
}

/* Under --sim, a kernel before the syscall a demo's story is about answers ENOSYS to all of
 * it, which the narration does not tell: refused, naming the first kernel that has it. */
static int sim_has_needs(const struct session *s, const struct demo *d, uint32_t sim_kv)
{
	const struct syscall *sc = d->needs && sim_kv ? catalog_find_syscall(s->cat, d->needs) : NULL;
	char kv[16], since[16];
	if (!sc || sc->since <= sim_kv)
		return 0;
	return err("demo %s: its story is about %s, which came in %s; a %s kernel answers ENOSYS to all of it "
		   "(use --sim %s or later)", d->name, sc->name, kver_str(sc->since, since), kver_str(sim_kv, kv), since);
}

/* Runs one command in the scratch session, its output (and errors) caught. */
static int run_step(struct session *sub, const char *cmd, struct sbuf *output)
{
	struct session_capture cap;
	if (session_capture_begin(sub, &cap) < 0)
		return -1;
	int r = sub->runner->line(sub, cmd);
	struct sbuf errs = SBUF_INIT;
	session_capture_end(sub, &cap, output, &errs);
	sbuf_add(output, errs.buf, errs.len);
	sbuf_release(&errs);
	return r;
}

static int list_demos(struct out *o)
{
	out_arr(o, NULL);
	for (const struct demo *d = demos; d->name; d++) {
		out_text(o, "  %-16s %s\n", d->name, d->title);
		out_obj(o, NULL);
		out_str(o, "name", d->name);
		out_str(o, "title", d->title);
		out_end(o);
	}
	out_end(o);
	out_text(o, "run one with 'demo NAME' (--sim VERSION: simulated instead of live calls)\n");
	return 0;
}

/* A demo under way: its scratch session, its options and what its steps produced. */
struct demo_run {
	struct session *s, sub;
	struct demo_opts opts;
	char kv[16];       /* the simulated kernel, as --sim named it */
	struct sbuf live;  /* "target sim KV", in place of the steps' 'target live' under --sim */
	struct demo_result res;
	int result;
};

/* A command step: run in the scratch session (skipped under --sim when it asks the running
 * kernel), shown with its output. */
static void command_step(struct demo_run *dr, const struct demo_step *st, const char *cmd)
{
	struct out *o = &dr->s->out;
	if (dr->opts.sim_kv && !strcmp(cmd, "target live"))
		cmd = dr->live.buf;
	out_obj(o, NULL);
	out_str(o, "command", cmd);
	if (dr->opts.sim_kv && st->kind == DS_LIVE_RUN) {
		out_text(o, "xsc> %s\n(skipped: it asks the running kernel, and --sim is on)\n", cmd);
		out_bool(o, "skipped", true);
		out_end(o);
		return;
	}
	struct sbuf output = SBUF_INIT;
	int r = run_step(&dr->sub, cmd, &output);
	out_text(o, "xsc> %s\n", cmd);
	out_puts(o, output.buf);
	out_str(o, "output", output.buf);
	out_bool(o, "ok", r == 0);
	out_end(o);
	if (r)
		dr->result = -1;
	sbuf_release(&output);
}

/* One step: narration, a command, or a computation of the demo's own. */
static void demo_step(struct demo_run *dr, const struct demo_step *st, struct sbuf *text)
{
	struct out *o = &dr->s->out;
	sbuf_reset(text);
	if (st->text)
		fill(text, st->text, dr->kv, dr->opts.sim_kv);
	if (st->kind == DS_SIM_COMPUTE && !dr->opts.sim_kv)
		return;
	if (st->kind == DS_SAY) {
		out_text(o, "\n");
		print_lines(o, "# ", text->buf);
		out_obj(o, NULL);
		out_str(o, "say", text->buf);
		out_end(o);
	} else if (st->kind == DS_RUN || st->kind == DS_LIVE_RUN) {
		command_step(dr, st, text->buf);
	} else {
		size_t before = dr->res.text.len;
		if (st->fn(dr->s->cat, &dr->opts, &dr->res))
			dr->result = -1;
		out_text(o, "\n");
		print_lines(o, "  ", dr->res.text.buf + before);
		out_obj(o, NULL);
		out_str(o, "result", dr->res.text.buf + before);
		out_end(o);
	}
}

/* d, told and run step by step in a scratch session. */
static int run_demo(struct session *s, const struct demo *d, const struct demo_opts *opts)
{
	struct demo_run dr = { .s = s, .opts = *opts, .kv = DEMO_SIM_DEFAULT, .live = SBUF_INIT };
	struct out *o = &s->out;
	struct sbuf text = SBUF_INIT;
	session_init_child(&dr.sub, s);
	if (opts->sim_kv)
		sbuf_addf(&dr.live, "target sim %s", kver_str(opts->sim_kv, dr.kv));
	out_text(o, "%s== demo %s: %s ==%s\n", out_color(o, OC_BOLD), d->name, d->title, out_color(o, OC_RESET));
	if (opts->sim_kv)
		out_text(o, "(--sim %s: calls meant for the running kernel go to a simulated %s kernel)\n", dr.kv, dr.kv);
	out_obj(o, NULL);
	out_str(o, "demo", d->name);
	out_str(o, "title", d->title);
	if (opts->sim_kv)
		out_str(o, "sim", dr.kv);
	else
		out_null(o, "sim");
	out_arr(o, "steps");
	demo_result_init(&dr.res);
	for (const struct demo_step *st = d->steps; st->kind || st->text || st->fn; st++)
		demo_step(&dr, st, &text);
	out_end(o);
	out_obj(o, "facts");
	for (size_t i = 0; i < dr.res.nfacts; i++)
		out_u64(o, dr.res.facts[i].key, dr.res.facts[i].value);
	out_end(o);
	out_end(o);
	demo_result_release(&dr.res);
	sbuf_release(&dr.live);
	sbuf_release(&text);
	session_release(&dr.sub);
	if (dr.result)
		return err("demo %s: a step failed (see above)", d->name);
	return 0;
}

int cmd_demo(struct session *s, int argc, char **argv)
{
	struct demo_opts opts = { 0, s->timeout_ms, false };
	const char *name = NULL;
	enum { O_SIM = 256, O_VERBOSE };
	static const struct cmd_opt options[] = { { "sim", O_SIM, "VERSION" }, { "verbose", O_VERBOSE, NULL }, { 0 } };
	struct cmd_opt_iter it = CMD_OPT_ITER(s, argc, argv);
	int k;
	while ((k = cmd_opt_next(&it, options)) != CMD_OPT_END) {
		uint32_t v;
		if (k == O_SIM && session_kernel_arg(s, "demo --sim", it.value, &v) < 0)
			return -1;
		if (k == O_SIM)
			opts.sim_kv = kver_release(v);
		else if (k == O_VERBOSE)
			opts.verbose = true;
		else if (k == CMD_OPT_OPERAND && !name)
			name = it.value;
		else
			return k < 0 ? k : cmd_usage(s);
	}
	if (!demos[0].name) /* the WebAssembly build (cli/wasm/absent.c) */
		return err("demo needs the native program: a demo runs real calls in a scratch session of its own "
			   "(this is xsc built for WebAssembly)");
	if (!name)
		return list_demos(&s->out);
	const struct demo *d = demo_find(name);
	if (!d) {
		struct suggest sg = SUGGEST_INIT(name, 4);
		for (const struct demo *k = demos; k->name; k++)
			suggest_add(&sg, k->name);
		return suggest_err(&sg, "'demo' lists them", "no demo named '%s'", name);
	}
	if (s->no_effects)
		return err("'demo' is disabled in this session");
	if (sim_has_needs(s, d, opts.sim_kv) < 0)
		return -1;
	return run_demo(s, d, &opts);
}
