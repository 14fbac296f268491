/* doc: a documentation page rendered in the terminal. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/commands.h"
#include "cmd/docbundle.h"
#include "docs/termdoc.h"
#include "base/banned.h"

/* The site's address for hyperlinks: XSC_SITE_URL, else the built site in the source tree. */
static char *site_base(const char *root)
{
	const char *env = getenv("XSC_SITE_URL");
	struct sbuf u = SBUF_INIT;
	if (env && *env) {
		sbuf_adds(&u, env);
		if (u.buf[u.len - 1] != '/')
			sbuf_addch(&u, '/');
		return sbuf_detach(&u);
	}
	struct sbuf p = SBUF_INIT;
	sbuf_addf(&p, "%s/build/site/index.html", root);
	char *real = realpath(p.buf, NULL);
	sbuf_release(&p);
	if (!real)
		return NULL;
	*strrchr(real, '/') = 0;
	sbuf_addf(&u, "file://%s/", real);
	free(real);
	return sbuf_detach(&u);
}

/* The page a topic names: a reference page by title, a guide or lesson by file name (with
 * or without its directory), "lessons" the lessons' index. NULL when none; site_path gets
 * its path on the site. */
static const char *find_page(const struct docbundle *b, const char *topic, const char *want, size_t *len,
			     struct sbuf *site_path)
{
	const struct doc_page *pg = doc_set_find(&b->ref, want);
	if (pg) {
		*len = pg->text.len;
		sbuf_addf(site_path, "reference/%s", pg->path);
		return pg->text.buf;
	}
	const char *text = NULL;
	for (size_t i = 0; !text && i < b->nfiles; i++) {
		const char *base = strchr(b->files[i].path, '/') + 1;
		size_t bl = strlen(base) - 3;
		size_t pl = strlen(b->files[i].path) - 3;
		bool lessons = !strcmp(topic, "lessons") && !strcmp(b->files[i].path, "lessons/index.md");
		if (!strcmp(topic, b->files[i].path) || (strlen(topic) == bl && !strncmp(topic, base, bl)) ||
		    (strlen(topic) == pl && !strncmp(topic, b->files[i].path, pl)) || lessons) {
			text = b->files[i].text, *len = b->files[i].len;
			sbuf_adds(site_path, b->files[i].path);
		}
	}
	return text;
}

/* No page for topic: the nearest name of a page, else the topics there are. -1. */
static int no_page(struct docbundle *b, const char *topic)
{
	struct suggest sg = SUGGEST_INIT(topic, 3);
	char **bases = xcalloc(b->nfiles + 1, sizeof(*bases)); /* the suggestion points into them */
	for (size_t i = 0; i < b->nfiles; i++) {
		bases[i] = xstrdup(strchr(b->files[i].path, '/') + 1);
		bases[i][strlen(bases[i]) - 3] = 0;
		suggest_add(&sg, bases[i]);
	}
	size_t ntitles;
	char **titles = docgen_reference_titles(&b->in, &ntitles);
	for (size_t i = 0; i < ntitles; i++)
		suggest_add(&sg, titles[i]);
	const char *best = suggest_best(&sg);
	struct sbuf list = SBUF_INIT;
	for (size_t i = 0; i < b->nguide; i++) {
		const char *base = strchr(b->files[i].path, '/') + 1;
		sbuf_addf(&list, "%s%.*s", i ? ", " : "", (int)(strlen(base) - 3), base);
	}
	int r;
	if (best)
		r = err("no page '%s' (did you mean '%s'?)", topic, best);
	else
		r = err("no page '%s'; topics: a syscall or struct name, 'reference', 'commands', 'lessons'%s%s", topic,
			list.len ? ", " : "", list.buf);
	sbuf_release(&list);
	for (size_t i = 0; i < b->nfiles; i++)
		free(bases[i]);
	free(bases);
	for (size_t i = 0; i < ntitles; i++)
		free(titles[i]);
	free(titles);
	return r;
}

/* The page in the terminal: the terminal's width (or --width), measured before a pager took
 * the output; 80 when there is none, and prose is not stretched past 120. */
static int show_page(struct session *s, const struct docbundle *b, const char *text, size_t len, const char *site_path)
{
	unsigned width = s->columns >= 20 ? s->columns : 80;
	if (width > 120)
		width = 120;
	char *base = s->out.color ? site_base(b->root) : NULL;
	struct termdoc_opts o = { .color = s->out.color, .hyperlinks = s->out.color, .width = width,
				  .base_url = base, .page_path = site_path };
	struct sbuf out = SBUF_INIT;
	int r = termdoc_render(text, len, &o, &out);
	if (!r)
		out_raw(&s->out, out.buf); /* termdoc cleans the page text itself (add_clean) */
	sbuf_release(&out);
	free(base);
	return r;
}

int cmd_doc(struct session *s, int argc, char **argv)
{
	if (argc < 2 || argc > 3)
		return cmd_usage(s);
	struct sbuf topic = SBUF_INIT;
	sbuf_adds(&topic, argv[1]);
	if (argc == 3)
		sbuf_addf(&topic, " %s", argv[2]);
	/* "reference" is the reference's index page */
	const char *want = strcmp(topic.buf, "reference") ? topic.buf : "index";
	struct docbundle b;
	if (docbundle_init(&b, s, NULL, want)) {
		sbuf_release(&topic);
		return -1;
	}
	size_t len = 0;
	struct sbuf site_path = SBUF_INIT;
	const char *text = find_page(&b, topic.buf, want, &len, &site_path);
	int r = text ? show_page(s, &b, text, len, site_path.buf) : no_page(&b, topic.buf);
	sbuf_release(&site_path);
	sbuf_release(&topic);
	docbundle_release(&b);
	return r;
}
