/* explain 'LINE' | FILE | -: a strace line of a catalogue syscall, or every such line of a
 * whole strace log, decoded and explained without calling anything: which sizes the struct
 * has had, and why a kernel answers as it did. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cmd/commands.h"
#include "kernel/explain.h"
#include "model/decode.h"
#include "model/kver.h"
#include "model/stracelog.h"
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
	plan->req.buf = l->b ? l->b->data : NULL;
	plan->req.buflen = l->b ? l->b->len : 0;
	plan->req.size = o->size;
	plan->req.buf_arg = l->struct_null ? -1 : l->buf_arg; /* NULL: not a struct of zeros */
	plan->req.extra_arg = -1;
	plan->req.nargs = (int)sc->nargs;
	plan->req.foreign = true;
	memcpy(plan->req.args, o->args, sizeof(plan->req.args));
	if (l->b && l->buf_arg >= 0 && l->buf_arg < 6 && l->struct_text[0] == '{')
		plan->req.args[l->buf_arg] = (uint64_t)(uintptr_t)l->b->data; /* strace read it: mapped memory */
	for (size_t i = 0; i < 6 && i < sc->nargs; i++) {
		/* the line's strings for the path checks; its descriptors are the numbers it shows */
		plan->req.strings[i] = l->strings[i];
		if (l->strings[i])
			plan->req.args[i] = (uint64_t)(uintptr_t)l->strings[i];
		else if (l->shown[i]) /* strace read it: non-NULL, mapped */
			plan->req.args[i] = (uint64_t)(uintptr_t)l->shown[i];
		if (sc->args[i].role == AR_FD)
			plan->req.overridden |= 1u << i;
	}
}

/* What a line with "..." or a write-back shows that the bytes do not: strace hid fields (read
 * here as zero), and on E2BIG a size the kernel wrote back is the size of its struct. */
static void put_evidence(struct out *out, const struct strace_line *l, const char *text, const struct outcome *o)
{
	const char *wb = strstr(text, " => {");
	const struct field *sf = l->sc->st ? l->sc->st->size_field : NULL;
	if (l->struct_text && strstr(l->struct_text, "..."))
		out_text(out, "  note: strace left out part of the struct (...): those fields cannot be seen here "
			 "and are read as zero; strace -v shows them\n");
	if (wb && sf && o->stage == OS_CALLED && o->ret == -1 && o->err == E2BIG) {
		char name[64];
		unsigned long long v;
		if (sscanf(wb, " => {%63[a-z_]=%llu}", name, &v) == 2 && !strcmp(name, sf->name))
			out_text(out, "  note: the kernel wrote back %s=%llu: its struct %s is %llu bytes\n", name, v,
				 l->sc->st->name, v);
	}
}

/* The bits of a flags argument that hold a signal number (clone's CSIGNAL: the exit signal),
 * named as a signal, not read as flags. */
static void put_signal_bits(struct out *out, const struct catalog *cat, const struct sarg *a, uint64_t v)
{
	if (!(v & a->signal_mask))
		return;
	struct sbuf name = SBUF_INIT;
	decode_signal(&name, cat, v & a->signal_mask);
	out_text(out, "  %s: %s bits = %s: %s\n", a->name, a->signal_name, name.buf, a->signal_means);
	sbuf_release(&name);
}

/* Each flags argument in words: the flags it names with the release that added each, and
 * the bits a kernel of version here does not know. */
static void put_flag_args(struct out *out, const struct catalog *cat, const struct strace_line *l, uint32_t here)
{
	const struct syscall *sc = l->sc;
	char kv[16];
	for (size_t i = 0; i < sc->nargs && i < 6; i++) {
		const struct flagset *fs = sc->args[i].flagset;
		uint64_t v = l->args[i];
		if (sc->args[i].role != AR_FLAGS || !fs || fs->kind != FS_BITS || !v)
			continue;
		put_signal_bits(out, cat, &sc->args[i], v);
		v &= ~sc->args[i].signal_mask;
		if (!v)
			continue;
		out_text(out, "  %s:", sc->args[i].name);
		uint64_t named = 0;
		for (size_t k = 0; k < fs->nflags; k++) {
			const struct flag *f = &fs->flags[k];
			if (f->mask || !f->value || (v & f->value) != f->value)
				continue;
			out_text(out, " %s (%s)", f->name, kver_str(f->since, kv));
			named |= f->value;
		}
		uint64_t unknown = v & ~flagset_known_bits(fs, here);
		if (v & ~named)
			out_text(out, "%s%#llx (no %s name)", named ? " and " : " ", (unsigned long long)(v & ~named), fs->name);
		if (unknown)
			out_text(out, "; a %s kernel does not know %#llx\n", kver_str(here, kv), (unsigned long long)unknown);
		else
			out_text(out, "; all known to a %s kernel\n", kver_str(here, kv));
	}
}

/* The outcome a parsed line shows: its arguments, size, answer and the struct's bytes. */
static void outcome_of_line(struct outcome *o, const struct strace_line *l)
{
	struct structbuf *b = l->b;
	o->size = l->size;
	memcpy(o->args, l->args, sizeof(o->args));
	o->stage = l->answered ? OS_CALLED : OS_NOT_RUN;
	o->ret = l->ret;
	o->err = l->err;
	if (b) {
		o->len = b->len;
		o->before = xmalloc(b->len);
		o->after = xmalloc(b->len);
		memcpy(o->before, b->data, b->len);
		memcpy(o->after, b->data, b->len);
	}
}

/* The call's struct as the line shows it, and its published sizes. */
static void put_struct_of_line(struct session *s, const struct strace_line *l, const struct outcome *o,
			       struct sbuf *decoded)
{
	struct out *out = &s->out;
	const struct syscall *sc = l->sc;
	const struct cstruct *st = sc->st;
	char kv[16];
	if (!st)
		sbuf_adds(decoded, "(no struct: its arguments are the call)");
	else if (l->struct_text[0] == '{' && l->b)
		decode_struct(decoded, s->cat, st, l->b->data, l->b->len, decode_shown_size(sc, st, o->size), 0);
	else
		sbuf_addf(decoded, "%s (an address: strace did not show the struct)", l->struct_text);
	if (!st) {
		out_text(out, "%s: %s, since %s\n", sc->name, decoded->buf, kver_str(sc->since, kv));
		return;
	}
	out_text(out, "%s: struct %s, size %llu: %s\n", sc->name, st->name, (unsigned long long)o->size, decoded->buf);
	out_text(out, "sizes of struct %s:", st->name);
	for (size_t i = 0; i < st->nversions; i++)
		out_text(out, " %u (%s%s%s)", st->versions[i].size, kver_str(st->versions[i].since, kv),
			 st->versions[i].name ? ", " : "", st->versions[i].name ? st->versions[i].name : "");
	out_text(out, "%s\n", st->nversions ? "" : " not size-versioned");
}

/* What the line's answer means at kernel here: the simulator's check walk on the same call
 * names the check, then the explanation of the answer. */
static void put_meaning(struct session *s, const struct strace_line *l, const struct outcome *o, uint32_t here)
{
	struct out *out = &s->out;
	char kv[16];
	struct call_plan plan;
	plan_of_line(&plan, l, o);
	struct explanation ex;
	explanation_init(&ex);
	struct sim_opts so = { here, false };
	struct outcome sim_out;
	struct sbuf sim_why = SBUF_INIT;
	sim_call(s->cat, &plan.req, &so, &sim_out, &sim_why);
	struct sim_verdict verdict = { &sim_out, sim_why.buf };
	explain_outcome(&ex, s->cat, &plan, o, here, &verdict);
	outcome_release(&sim_out);
	sbuf_release(&sim_why);
	out_text(out, "on a %s kernel the answer means:\n", kver_str(here, kv));
	if (!ex.text.len)
		out_text(out, "  %s\n", o->ret == -1 ? "no check of the catalogue gives this errno for these arguments"
			 : "nothing in the arguments is refused (the catalogue's checks pass)");
	put_flag_args(out, s->cat, l, here);
	for (const char *q = ex.text.buf; *q;) {
		const char *nl = strchr(q, '\n');
		out_text(out, "  %.*s\n", (int)(nl - q), q);
		q = nl + 1;
	}
	out_s64(out, "ret", o->ret);
	out_str(out, "errno_name", o->ret == -1 ? errno_name(o->err) : NULL);
	out_str(out, "explanation", ex.text.buf);
	explanation_release(&ex);
	sbuf_release(&plan.notes);
}

/* Explains one call line at kernel here; -1 (reported) when the line cannot be read. */
static int explain_line(struct session *s, const char *text, uint32_t here)
{
	struct strace_line l;
	struct outcome o;
	outcome_init(&o);
	if (strace_line_parse(s->cat, text, &l) < 0) {
		strace_line_release(&l);
		outcome_release(&o);
		return -1;
	}
	outcome_of_line(&o, &l);
	struct out *out = &s->out;
	struct sbuf decoded = SBUF_INIT;
	put_struct_of_line(s, &l, &o, &decoded);
	put_evidence(out, &l, text, &o);
	out_obj(out, NULL);
	out_str(out, "syscall", l.sc->name);
	out_u64(out, "size", o.size);
	out_str(out, "decoded", decoded.buf);
	if (l.b && l.struct_text[0] == '{') /* the bytes rebuilt from the line, up to the size passed */
		out_hex(out, "bytes", l.b->data, o.size < l.b->len ? (size_t)o.size : l.b->len);
	sbuf_release(&decoded);
	if (o.stage == OS_CALLED)
		put_meaning(s, &l, &o, here);
	else
		out_text(out, "  the line has no answer (= ? : the process went away during the call)\n");
	out_end(out);
	strace_line_release(&l);
	outcome_release(&o);
	return 0;
}

/* The name a call line is for, to tell the catalogue's calls from the rest of a log. */
static bool in_catalogue(struct session *s, const char *call)
{
	size_t n = strcspn(call, "(");
	char name[64];
	if (n >= sizeof(name))
		return false;
	memcpy(name, call, n);
	name[n] = '\0';
	if (!strcmp(name, "ioctl")) { /* ioctl(3, UFFDIO_API, ...) names the entry second */
		const char *c = strchr(call, ',');
		if (!c)
			return false;
		c += 1 + strspn(c + 1, " ");
		n = strcspn(c, ",)");
		if (n >= sizeof(name))
			return false;
		memcpy(name, c, n);
		name[n] = '\0';
	}
	return session_find_syscall(s, name) != NULL;
}

/* explain FILE or explain -: every call of the catalogue in a whole strace log, explained;
 * the rest of the log counted. */
static int explain_log(struct session *s, const char *path, uint32_t here)
{
	FILE *fp = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!fp)
		return err("explain: cannot open '%s'", path);
	struct strace_log lg;
	strace_log_init(&lg);
	out_obj(&s->out, NULL); /* one document: the calls explained, then the counts */
	out_str(&s->out, "log", path);
	out_arr(&s->out, "explained_calls");
	char *raw = NULL;
	size_t cap = 0, lineno = 0, calls = 0, explained = 0, other = 0, skipped = 0, orphans = 0;
	while (getline(&raw, &cap, fp) > 0) {
		char *call;
		lineno++;
		enum strace_log_kind k = strace_log_feed(&lg, raw, &call);
		skipped += k == SL_OTHER;
		orphans += k == SL_ORPHAN;
		if (k != SL_CALL)
			continue;
		if (!in_catalogue(s, call)) {
			other++;
		} else {
			calls++;
			out_text(&s->out, "line %zu: %s\n", lineno, call);
			if (explain_line(s, call, here) == 0) {
				explained++;
			} else { /* in its place in the list, so the calls keep the log's order */
				out_obj(&s->out, NULL);
				out_u64(&s->out, "line", lineno);
				out_str(&s->out, "unexplained", call);
				out_end(&s->out);
			}
		}
		free(call);
	}
	free(raw);
	if (fp != stdin)
		fclose(fp);
	size_t unfinished = strace_log_release(&lg);
	out_text(&s->out, "explain: %zu lines: %zu calls of the catalogue, %zu explained; %zu other calls, "
		 "%zu signal, exit or blank lines, %zu unfinished, %zu resumed without their start\n",
		 lineno, calls, explained, other, skipped, unfinished, orphans);
	out_end(&s->out);
	out_u64(&s->out, "lines", lineno);
	out_u64(&s->out, "catalogue_calls", calls);
	out_u64(&s->out, "explained", explained);
	out_u64(&s->out, "other_calls", other);
	out_u64(&s->out, "unfinished", unfinished);
	out_end(&s->out);
	return explained == calls ? 0 : -1;
}

/* explain [--kernel V] LINE | FILE | -: --kernel anywhere among the line's words, as the other
 * commands take their options (--kernel V, --kernel=V, '--' ends them), and its version as
 * 'target sim' takes one; the words of an unquoted line (= -1 EINVAL) stay in the line. */
int cmd_explain(struct session *s, int argc, char **argv)
{
	enum { O_KERNEL = 256 };
	static const struct cmd_opt opts[] = { { "kernel", O_KERNEL, "V" }, { 0 } };
	struct cmd_opt_iter it = CMD_OPT_ITER(s, argc, argv);
	uint32_t here = 0;
	struct sbuf line = SBUF_INIT;
	int words = 0, k, r = 0;
	const char *word = NULL;
	it.loose = true;
	while (!r && (k = cmd_opt_next(&it, opts)) != CMD_OPT_END) {
		if (k == O_KERNEL) {
			r = session_kernel_arg(s, "explain: --kernel", it.value, &here);
		} else if (k == CMD_OPT_OPERAND) {
			sbuf_addf(&line, "%s%s", words++ ? " " : "", it.value);
			word = it.value;
		} else {
			r = k;
		}
	}
	if (!r && !words)
		r = cmd_usage(s);
	if (!r && !here)
		here = running_kernel();
	if (!r && words == 1 && !strchr(word, '(') && (!strcmp(word, "-") || !access(word, R_OK)))
		r = explain_log(s, word, here);
	else if (!r)
		r = explain_line(s, line.buf, here);
	sbuf_release(&line);
	return r;
}
