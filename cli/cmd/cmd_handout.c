/* handout: the room's two-page cheat sheet, as HTML or (through headless Chromium's
 * print-to-PDF) as a PDF. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/outfile.h"
#include "base/proc.h"
#include "cmd/commands.h"
#include "docs/handout.h"
#include "model/dataload.h"
#include "teach/lesson.h"
#include "base/banned.h"

struct word_count { char *word; size_t n; };

static int by_use(const void *a, const void *b)
{
	const struct word_count *x = a, *y = b;
	return x->n != y->n ? (x->n < y->n) - (x->n > y->n) : strcmp(x->word, y->word);
}

/* The commands the lessons' solutions use (the first word of each line), most used first. */
static size_t lesson_words(struct session *s, struct word_count **out)
{
	char *dir = lesson_dir(s->data_dir ? s->data_dir : catalog_default_dir());
	struct sbuf sol = SBUF_INIT;
	struct word_count *w = NULL;
	size_t n = 0, alloc = 0;
	sbuf_addf(&sol, "%s/solutions", dir ? dir : ".");
	DIR *d = dir ? opendir(sol.buf) : NULL;
	for (struct dirent *e; d && (e = readdir(d));) {
		size_t l = strlen(e->d_name);
		struct sbuf p = SBUF_INIT;
		char *text = NULL;
		size_t len;
		sbuf_addf(&p, "%s/%s", sol.buf, e->d_name);
		if (l > 4 && !strcmp(e->d_name + l - 4, ".xsc") && !read_file_max(p.buf, 1 << 20, &text, &len)) {
			for (char *line = text; line && *line;) {
				char *nl = strchr(line, '\n');
				size_t k = strcspn(line, " \t\n;#");
				for (size_t j = 0; k && j <= n; j++) {
					if (j == n) {
						ALLOC_GROW(w, n + 1, alloc);
						w[n++] = (struct word_count){ xstrndup(line, k), 0 };
					}
					if (strlen(w[j].word) == k && !strncmp(w[j].word, line, k)) {
						w[j].n++;
						break;
					}
				}
				line = nl ? nl + 1 : NULL;
			}
		}
		free(text);
		sbuf_release(&p);
	}
	if (d)
		closedir(d);
	if (n)
		qsort(w, n, sizeof(*w), by_use);
	sbuf_release(&sol);
	free(dir);
	*out = w;
	return n;
}

/* Chromium prints html (a file) into pdf; its own messages go to log. 0 or -1 (reported). */
static int print_pdf(const char *html, const char *pdf, unsigned timeout_ms)
{
	const char *browser = getenv("CHROMIUM");
	if (!browser || !*browser)
		browser = access("/usr/bin/chromium", X_OK) == 0 ? "/usr/bin/chromium" : "chromium";
	struct sbuf to = SBUF_INIT, url = SBUF_INIT, log = SBUF_INIT;
	sbuf_addf(&to, "--print-to-pdf=%s", pdf);
	sbuf_addf(&url, "file://%s", html);
	/* --no-sandbox: root cannot use Chromium's own; the page is xsc's, with no script */
	char *argv[] = { (char *)browser, (char *)"--headless", (char *)"--no-sandbox", (char *)"--disable-gpu",
			 (char *)"--no-pdf-header-footer", (char *)"--disable-dev-shm-usage", to.buf, url.buf, NULL };
	(void)timeout_ms;
	int st = proc_run(argv, NULL, &log);
	int r = 0;
	if (st != 0 || access(pdf, R_OK) != 0)
		r = err("Chromium could not print the handout (%s, exit %d)%s%s; 'handout -o FILE.html' needs no browser",
			browser, st, log.len ? ": " : "", log.len ? log.buf : "");
	sbuf_release(&to);
	sbuf_release(&url);
	sbuf_release(&log);
	return r;
}

static int write_pdf(struct session *s, const struct sbuf *html, const char *out, unsigned flags)
{
	struct sbuf t = SBUF_INIT, h = SBUF_INIT, p = SBUF_INIT;
	sbuf_addf(&t, "%s/xsc-handout.XXXXXX", scratch_dir());
	char *dir = scratch_mkdtemp(t.buf);
	if (!dir) {
		sbuf_release(&t);
		return err("cannot make a scratch directory: %m");
	}
	sbuf_addf(&h, "%s/handout.html", dir);
	sbuf_addf(&p, "%s/handout.pdf", dir);
	int r = outfile_put(h.buf, html->buf, html->len, 0);
	if (r < 0)
		r = err("cannot write '%s': %m", h.buf);
	if (!r)
		r = print_pdf(h.buf, p.buf, s->timeout_ms);
	char *bytes = NULL;
	size_t len = 0;
	if (!r && read_file_max(p.buf, 64u << 20, &bytes, &len) < 0)
		r = err("cannot read the printed handout: %m");
	if (!r && outfile_put(out, bytes, len, flags) < 0)
		r = errno == EEXIST ? err("'%s' exists; --force replaces it", out) : err("cannot write '%s': %m", out);
	free(bytes);
	scratch_remove(dir);
	sbuf_release(&t);
	sbuf_release(&h);
	sbuf_release(&p);
	return r;
}

int cmd_handout(struct session *s, int argc, char **argv)
{
	static const struct cmd_opt opts[] = { { NULL, 'o', "FILE" }, { "force", 256, NULL }, { 0 } };
	const char *out = NULL;
	bool force = false;
	struct cmd_opt_iter it = CMD_OPT_ITER(s, argc, argv);
	int k;
	while ((k = cmd_opt_next(&it, opts)) != CMD_OPT_END) {
		if (k == 'o' && !out)
			out = it.value;
		else if (k == 256)
			force = true;
		else
			return k < 0 ? k : cmd_usage(s);
	}
	size_t len = out ? strlen(out) : 0;
	bool pdf = len > 4 && !strcmp(out + len - 4, ".pdf");
	if (out && !pdf && !(len > 5 && !strcmp(out + len - 5, ".html")))
		return err("handout: '%s' is neither FILE.pdf nor FILE.html", out);
	if (out && session_may_write(s, out) < 0)
		return -1;
	size_t ncmds = 0;
	while (commands[ncmds].name)
		ncmds++;
	struct doc_command *dc = xcalloc(ncmds, sizeof(*dc));
	for (size_t i = 0; i < ncmds; i++)
		dc[i] = (struct doc_command){ commands[i].name, commands[i].synopsis, commands[i].summary, commands[i].help, { "", "", "" } };
	struct word_count *w;
	size_t nw = lesson_words(s, &w);
	const char **words = xcalloc(nw + 1, sizeof(*words));
	for (size_t i = 0; i < nw; i++)
		words[i] = w[i].word;
	struct handout_input in = { s->cat, dc, ncmds, words, nw, XSC_VERSION };
	struct sbuf html = SBUF_INIT;
	handout_html(&in, &html);
	unsigned flags = (force || s->force ? OF_FORCE : 0) | session_write_flags(s);
	int r = 0;
	if (!out)
		out_raw(&s->out, html.buf);
	else if (pdf)
		r = write_pdf(s, &html, out, flags);
	else if (outfile_put(out, html.buf, html.len, flags) < 0)
		r = errno == EEXIST ? err("'%s' exists; --force replaces it", out) : err("cannot write '%s': %m", out);
	if (!r && out)
		out_text(&s->out, "handout: %s\n", out);
	sbuf_release(&html);
	for (size_t i = 0; i < nw; i++)
		free(w[i].word);
	free(w);
	free(words);
	free(dc);
	return r;
}
