/* lint SRC...: convention checks with compiler-style diagnostics (engine: headers/lint.c). */
#include <stdlib.h>
#include <string.h>
#include "base/diag.h"
#include "cmd/commands.h"
#include "headers/fetch.h"
#include "headers/header.h"
#include "headers/lint.h"
#include "base/banned.h"

static const char *const sev_names[] = { "note", "warning", "error" };

static void show_finding(struct out *o, const struct header *h, const char *file, const struct lint_finding *f)
{
	out_obj(o, NULL);
	out_str(o, "file", file);
	out_u64(o, "line", f->line);
	out_u64(o, "col", f->col);
	out_str(o, "severity", sev_names[f->sev]);
	out_str(o, "rule", f->rule);
	out_str(o, "message", f->msg);
	out_end(o);
	const char *sc = f->sev == HD_ERROR ? out_color(o, OC_RED) : f->sev == HD_WARNING ? out_color(o, OC_YELLOW)
											  : out_color(o, OC_CYAN);
	if (f->line)
		out_text(o, "%s%s:%u:%u:%s %s%s:%s %s [%s]\n", out_color(o, OC_BOLD), file, f->line, f->col,
			 out_color(o, OC_RESET), sc, sev_names[f->sev], out_color(o, OC_RESET), f->msg, f->rule);
	else
		out_text(o, "%s%s:%s %s%s:%s %s [%s]\n", out_color(o, OC_BOLD), file, out_color(o, OC_RESET), sc,
			 sev_names[f->sev], out_color(o, OC_RESET), f->msg, f->rule);
	const char *ls;
	size_t ln;
	if (f->line && header_line(h, f->line, &ls, &ln)) {
		/* the line is shown sanitised (\x1b for an ESC): the caret counts what is shown,
		 * one column per character */
		struct sbuf caret = SBUF_INIT, shown = SBUF_INIT;
		safe_text(&shown, ls, f->col > 1 && f->col - 1 < ln ? f->col - 1 : f->col > 1 ? ln : 0, SAFE_TAB);
		for (size_t i = 0; i < shown.len; i++)
			if ((shown.buf[i] & 0xc0) != 0x80)
				sbuf_addch(&caret, shown.buf[i] == '\t' ? '\t' : ' ');
		sbuf_release(&shown);
		out_text(o, "%.*s\n%s%s^%s\n", (int)ln, ls, caret.buf, out_color(o, OC_GREEN), out_color(o, OC_RESET));
		sbuf_release(&caret);
	}
}

int cmd_lint(struct session *s, int argc, char **argv)
{
	struct fetch_opts fo = FETCH_OPTS_INIT;
	const char **srcs = xcalloc((size_t)argc, sizeof(*srcs));
	int nsrc = 0;
	static const struct cmd_opt opts[] = { { 0 } };
	struct cmd_opt_iter it = CMD_OPT_ITER(s, argc, argv);
	int k;
	it.fetch = &fo;
	while ((k = cmd_opt_next(&it, opts)) == CMD_OPT_OPERAND)
		srcs[nsrc++] = it.value;
	if (k < 0) {
		free(srcs);
		return k;
	}
	if (!nsrc) {
		free(srcs);
		return cmd_usage(s);
	}
	if (fo.cache_dir && session_may_write(s, fo.cache_dir) < 0) { /* the cache is files written */
		free(srcs);
		return -1;
	}
	struct out *o = &s->out;
	size_t count[3] = { 0, 0, 0 }, supp = 0, unread = 0;
	int ret = 0;
	out_arr(o, NULL);
	for (int k = 0; k < nsrc; k++) {
		struct sbuf text = SBUF_INIT;
		char *name = NULL;
		struct header h;
		memset(&h, 0, sizeof(h));
		if (fetch_source(srcs[k], &fo, &text, &name) < 0 || header_parse(&h, name, text.buf, text.len) < 0) {
			ret = -1;
			unread++;
		} else {
			struct lint_result r;
			lint_run(&h, &r);
			for (size_t i = 0; i < r.n; i++) {
				show_finding(o, &h, name, &r.f[i]);
				count[r.f[i].sev]++;
			}
			supp += r.suppressed;
			lint_result_release(&r);
		}
		header_release(&h);
		sbuf_release(&text);
		free(name);
	}
	out_end(o);
	out_text(o, "%zu error%s, %zu warning%s, %zu note%s", count[HD_ERROR], count[HD_ERROR] == 1 ? "" : "s",
		 count[HD_WARNING], count[HD_WARNING] == 1 ? "" : "s", count[HD_NOTE], count[HD_NOTE] == 1 ? "" : "s");
	if (supp)
		out_text(o, " (%zu suppressed)", supp);
	if (unread) /* "0 errors" alone would pass a header nobody read */
		out_text(o, "; %zu of %d source%s not read", unread, nsrc, nsrc == 1 ? "" : "s");
	out_text(o, "\n");
	free(srcs);
	if (ret < 0)
		return -1;
	if (count[HD_ERROR]) {
		fflush(s->out.fp);
		return err("lint: %zu error%s", count[HD_ERROR], count[HD_ERROR] == 1 ? "" : "s");
	}
	return 0;
}
