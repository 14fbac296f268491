#include "docs/handout.h"
#include <stdlib.h>
#include <string.h>
#include "base/util.h"
#include "model/kver.h"
#include "model/xlat.h"
#include "base/banned.h"

static const char style[] =
	"@page{size:A4;margin:9mm}"
	"body{font:8.2pt/1.25 'DejaVu Sans',sans-serif;margin:0;color:#111}"
	"h1{font-size:13pt;margin:0 0 2mm}h2{font-size:9.5pt;margin:2.5mm 0 1mm;border-bottom:1px solid #999;break-after:avoid}"
	".cols{column-count:2;column-gap:6mm}.page{break-after:page}"
	"table{border-collapse:collapse;width:100%;break-inside:auto}td,th{padding:.2mm 1mm;vertical-align:top;text-align:left}"
	"tr:nth-child(even){background:#f2f2f2}code,.m{font-family:'DejaVu Sans Mono',monospace;font-size:7.6pt}"
	".bar{display:flex;margin:.6mm 0;font-size:7.4pt}.bar div{padding:.6mm 1mm;border:1px solid #555;margin-right:-1px}"
	"td.m{white-space:nowrap}.k{background:#cde}.z{background:#eee}.t{background:#fdd}.n{border:none!important;padding-left:2mm!important}"
	"p{margin:.8mm 0}";

/* The convention in one picture: what the kernel does with each relation of the caller's
 * size (usize) to its own (ksize). */
static void diagram(struct sbuf *o)
{
	sbuf_adds(o, "<h2>The convention: the size is the version</h2>"
		     "<p><code>copy_struct_from_user(dst, ksize, src, usize)</code>: the kernel copies the "
		     "caller's struct into its own.</p>"
		     "<div class=bar><div class=k>fields both know</div><div class=z>zero-filled</div>"
		     "<div class=n>usize &lt; ksize: an old caller; the kernel zero-fills its newer fields (0 = the old behaviour)</div></div>"
		     "<div class=bar><div class=k>fields both know</div>"
		     "<div class=n>usize = ksize: the same version</div></div>"
		     "<div class=bar><div class=k>fields both know</div><div class=t>tail: all zero?</div>"
		     "<div class=n>usize &gt; ksize: a new caller; a nonzero byte past ksize is <b>E2BIG</b>, zeros are accepted</div></div>"
		     "<p>Below the first published size (<code>*_SIZE_VER0</code>): <b>EINVAL</b>. Some calls cap the size "
		     "(openat2: a page, else E2BIG); some write their own size back on E2BIG (sched_attr, "
		     "perf_event_attr). Unknown flag bits: <b>EINVAL</b>. An unknown syscall: <b>ENOSYS</b>. "
		     "A bad pointer: <b>EFAULT</b>. Flags are unsigned: a negative <code>int</code> sign-extends "
		     "into a 64-bit field and sets 32 unknown bits.</p>");
}

static void commands(const struct handout_input *in, struct sbuf *o)
{
	sbuf_adds(o, "<h2>The commands the lessons use</h2><table>");
	for (size_t w = 0; w < in->nlesson_words; w++)
		for (size_t i = 0; i < in->ncmds; i++) {
			if (strcmp(in->cmds[i].name, in->lesson_words[w]))
				continue;
			sbuf_adds(o, "<tr><td class=m>");
			sbuf_addhtml(o, in->cmds[i].name);
			sbuf_addch(o, ' ');
			sbuf_addhtml(o, in->cmds[i].synopsis);
			sbuf_adds(o, "</td><td>");
			sbuf_addhtml(o, in->cmds[i].summary);
			sbuf_adds(o, "</td></tr>");
		}
	sbuf_adds(o, "</table><p>Also: <code>help COMMAND</code>, <code>lesson N</code>, <code>doc TOPIC</code>, "
		     "<code>save FILE</code> / <code>load FILE</code>; TAB completes names.</p>");
}

/* Every struct an extensible call takes, with each published size and its kernel. */
static void versions(const struct catalog *cat, struct sbuf *o)
{
	char kv[16];
	sbuf_adds(o, "<h2>Size versions of the extensible structs</h2><table><tr><th>struct (call)</th>"
		     "<th>sizes in bytes (kernel)</th></tr>");
	for (size_t i = 0; i < cat->nsyscalls; i++) {
		const struct syscall *sc = &cat->syscalls[i];
		if (sc->kind != SK_EXTENSIBLE || !sc->st || !sc->st->nversions)
			continue;
		bool seen = false; /* a struct two calls share is listed once */
		for (size_t j = 0; j < i && !seen; j++)
			seen = cat->syscalls[j].kind == SK_EXTENSIBLE && cat->syscalls[j].st == sc->st;
		if (seen)
			continue;
		sbuf_adds(o, "<tr><td class=m>");
		sbuf_addhtml(o, sc->st->name);
		sbuf_adds(o, " <small>(");
		sbuf_addhtml(o, sc->name);
		sbuf_adds(o, ")</small></td><td>");
		for (size_t v = 0; v < sc->st->nversions; v++)
			sbuf_addf(o, "%s%u <small>(%s)</small>", v ? " · " : "", sc->st->versions[v].size,
				  kver_str(sc->st->versions[v].since, kv));
		sbuf_adds(o, "</td></tr>");
	}
	sbuf_adds(o, "</table>");
}

struct errno_count {
	const char *name, *example, *meaning;
	size_t n;
};

static int by_count(const void *a, const void *b)
{
	const struct errno_count *x = a, *y = b;
	return x->n != y->n ? (x->n < y->n) - (x->n > y->n) : strcmp(x->name, y->name);
}

/* The errnos the catalogue documents, the most named first: how many interfaces name each,
 * and one of their meanings. */
static void errnos(const struct catalog *cat, struct sbuf *o)
{
	struct errno_count *e = NULL;
	size_t n = 0, alloc = 0;
	for (size_t i = 0; i < cat->nsyscalls; i++)
		for (size_t k = 0; k < cat->syscalls[i].nerrors; k++) {
			const struct serror *se = &cat->syscalls[i].errors[k];
			size_t j = 0;
			while (j < n && strcmp(e[j].name, se->errno_name))
				j++;
			if (j == n) {
				ALLOC_GROW(e, n + 1, alloc);
				e[n++] = (struct errno_count){ se->errno_name, cat->syscalls[i].name, se->meaning, 0 };
			}
			e[j].n++;
		}
	if (n)
		qsort(e, n, sizeof(*e), by_count);
	sbuf_adds(o, "<h2>Errors, and what they mean here</h2><table><tr><th>errno</th><th>calls</th><th>for example</th></tr>");
	for (size_t j = 0; j < n && j < 16; j++) {
		sbuf_adds(o, "<tr><td class=m><b>");
		sbuf_addhtml(o, e[j].name);
		sbuf_addf(o, "</b> %d</td><td>%zu</td><td>", errno_from_name(e[j].name), e[j].n);
		sbuf_addhtml(o, e[j].example);
		sbuf_adds(o, ": ");
		sbuf_addhtml(o, e[j].meaning);
		sbuf_adds(o, "</td></tr>");
	}
	sbuf_adds(o, "</table>");
	free(e);
}

void handout_html(const struct handout_input *in, struct sbuf *o)
{
	sbuf_addf(o, "<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>xsc handout</title><style>%s</style>"
		     "</head><body><div class=page><h1>Extensible system calls: a cheat sheet</h1><div class=cols>",
		  style);
	diagram(o);
	commands(in, o);
	sbuf_adds(o, "</div></div><div class=cols>");
	versions(in->cat, o);
	errnos(in->cat, o);
	sbuf_addf(o, "<p><small>Generated by xsc %s from its catalogue and command table.</small></p></div></body></html>\n",
		  in->version);
}
