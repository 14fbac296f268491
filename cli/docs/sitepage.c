#include "docs/sitepage.h"
#include <stdlib.h>
#include <string.h>
#include "docs/mdhtml.h"
#include "base/banned.h"

void site_escape(struct sbuf *sb, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '&': sbuf_adds(sb, "&amp;"); break;
		case '<': sbuf_adds(sb, "&lt;"); break;
		case '>': sbuf_adds(sb, "&gt;"); break;
		case '"': sbuf_adds(sb, "&quot;"); break;
		case '\'': sbuf_adds(sb, "&#39;"); break;
		default: sbuf_addch(sb, *p < 0x20 || *p == 0x7f ? ' ' : *p);
		}
	}
}

/* A string inside a JS double-quoted literal (also safe inside HTML). */
static void js_string(struct sbuf *sb, const char *s)
{
	sbuf_addch(sb, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			sbuf_addf(sb, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f || *p == '<' || *p == '>' || *p == '&')
			sbuf_addf(sb, "\\u%04x", *p);
		else if (*p == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9)) {
			sbuf_addf(sb, "\\u%04x", p[2] == 0xa8 ? 0x2028 : 0x2029);
			p += 2;
		} else
			sbuf_addch(sb, *p);
	}
	sbuf_addch(sb, '"');
}

/* One entry of the index; text is NULL but for a section's text. */
static void index_add(struct site_index *idx, const char *name, const char *kind, const char *page_title,
		      const char *url, const char *text)
{
	const char *const fields[] = { name, kind, page_title, url, text };
	sbuf_adds(&idx->js, idx->n ? ",\n[" : "\n[");
	for (size_t i = 0; i < ARRAY_SIZE(fields) && fields[i]; i++) {
		if (i)
			sbuf_addch(&idx->js, ',');
		js_string(&idx->js, fields[i]);
	}
	sbuf_addch(&idx->js, ']');
	idx->n++;
}

/* The text of one section, for the full-text search: at most this many bytes of it. */
enum { SECTION_TEXT_MAX = 3000 };

/* One page being written. The section being read goes to the full-text search ("zero-fill",
 * "double fetch" find the section that says them) and its h2 headings to the page's "on
 * this page" list. */
struct page {
	const struct mdlib *md;
	struct site_index *idx;
	const struct site_page *pg;
	const char *url;           /* the page's, below the site root */
	struct mdhtml h;           /* cmark's rules, writing the body */
	struct page_id *ids;       /* the ids used on the page: a hash set, a power of two long */
	size_t nids, ids_cap;
	struct sbuf slug;          /* the id of the heading being written */
	struct sbuf title, section_url, text;
	struct sbuf toc;           /* <li> of the page's h2 headings */
	size_t ntoc;
	size_t toc_at;             /* where the list goes in the body: after the first </h1> (0: none) */
};

/* An id of the page; next: the k of the first "ID-k" a heading of this slug may try (a
 * page of a thousand "## a" headings costs a thousand tries, not half a million). */
struct page_id {
	char *id;
	int next;
};

static size_t id_hash(const char *id, size_t n)
{
	size_t h = 2166136261u; /* FNV-1a */
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)id[i]) * 16777619u;
	return h;
}

/* The slot of id (ending at NUL or '"'), or the empty slot where it would go. */
static struct page_id *id_slot(const struct page *p, const char *id)
{
	size_t n = strcspn(id, "\""), mask = p->ids_cap - 1;
	for (size_t i = id_hash(id, n) & mask;; i = (i + 1) & mask) {
		const char *e = p->ids[i].id;
		if (!e || (!strncmp(e, id, n) && !e[n]))
			return &p->ids[i];
	}
}

static bool id_used(const struct page *p, const char *id)
{
	return p->ids_cap && id_slot(p, id)->id;
}

static struct page_id *id_add(struct page *p, const char *id)
{
	if (2 * (p->nids + 1) > p->ids_cap) {
		struct page_id *old = p->ids;
		size_t cap = p->ids_cap;
		p->ids_cap = cap ? 2 * cap : 64;
		p->ids = xcalloc(p->ids_cap, sizeof(*p->ids));
		for (size_t i = 0; i < cap; i++)
			if (old[i].id)
				*id_slot(p, old[i].id) = old[i];
		free(old);
	}
	struct page_id *e = id_slot(p, id);
	if (!e->id) {
		*e = (struct page_id){ xstrndup(id, strcspn(id, "\"")), 1 };
		p->nids++;
	}
	return e;
}

/* The template's ids are taken on every page: a heading "Search" must not become the search
 * box's id="search" (the first of two ids wins, and the template's comes first). */
static void ids_of_template(struct page *p, const char *tpl)
{
	for (const char *t = tpl; t && (t = strstr(t, "id=\"")); t += 4)
		id_add(p, t + 4);
}

/* The plain text of a node's inline children. */
static void node_text(const struct mdlib *md, cmark_node *n, struct sbuf *sb)
{
	for (cmark_node *c = md->node_first_child(n); c; c = md->node_next(c)) {
		const char *lit = md->node_get_literal(c);
		cmark_node_type t = md->node_get_type(c);
		if (t == CMARK_NODE_TEXT || t == CMARK_NODE_CODE)
			sbuf_adds(sb, lit ? lit : "");
		else if (t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK)
			sbuf_addch(sb, ' ');
		else
			node_text(md, c, sb);
	}
}

static bool is_relative(const char *url)
{
	if (!*url || *url == '#' || *url == '/')
		return false;
	for (const char *p = url; *p && *p != '/' && *p != '#' && *p != '?'; p++)
		if (*p == ':')
			return false; /* has a scheme */
	return true;
}

static bool valid_id(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '_' ||
		      *s == '-'))
			return false;
	return true;
}

/* A link "[text](#ID "anchor")" is an anchor target: its id, or NULL for another link. */
static const char *anchor_id(const struct mdlib *md, cmark_node *n)
{
	if (md->node_get_type(n) != CMARK_NODE_LINK)
		return NULL;
	const char *url = md->node_get_url(n), *title = md->node_get_title(n);
	if (!url || !title || strcmp(title, "anchor") || url[0] != '#' || !valid_id(url + 1))
		return NULL;
	return url + 1;
}

/* The kind of an anchor target for the search index, from its id's prefix. */
static const char *anchor_kind(const char *id)
{
	return !strncmp(id, "field-", 6) ? "Field" : !strncmp(id, "flag-", 5) ? "Flag" :
	       !strncmp(id, "errno-", 6) ? "Error" : !strncmp(id, "arg-", 4) ? "Argument" : "Anchor";
}

static void section_flush(struct page *p)
{
	if (p->text.len)
		index_add(p->idx, p->title.buf, "Text", p->pg->title, p->section_url.buf, p->text.buf);
	sbuf_reset(&p->text);
}

/* A heading starts a section: the last one goes to the index; an h2 joins the list. */
static void section_start(struct page *p, const char *title, int level)
{
	section_flush(p);
	sbuf_reset(&p->title);
	sbuf_adds(&p->title, level > 1 ? title : p->pg->title);
	sbuf_reset(&p->section_url);
	sbuf_adds(&p->section_url, p->url);
	if (level > 1)
		sbuf_addf(&p->section_url, "#%s", p->slug.buf);
	if (level == 2) {
		sbuf_addf(&p->toc, "<li><a href=\"#%s\">", p->slug.buf);
		site_escape(&p->toc, title);
		sbuf_adds(&p->toc, "</a></li>");
		p->ntoc++;
	}
}

/* Text of the body (not of headings) for the index, up to SECTION_TEXT_MAX a section. */
static void section_add(struct page *p, cmark_node *n)
{
	cmark_node *parent = p->md->node_parent(n);
	const char *lit = p->md->node_get_literal(n);
	/* an address is not searched for, and in the index it would look like a request the
	 * site makes (tests/sh/site-links.py) */
	if (!lit || (parent && p->md->node_get_type(parent) == CMARK_NODE_HEADING) ||
	    p->text.len >= SECTION_TEXT_MAX || strstr(lit, "://"))
		return;
	if (p->text.len)
		sbuf_addch(&p->text, ' ');
	for (const char *s = lit; *s && p->text.len < SECTION_TEXT_MAX; s++)
		sbuf_addch(&p->text, *s == '\n' || *s == '\t' ? ' ' : *s);
}

/* A heading's id: its slug, made unique on the page with -1, -2, ...; it starts a section. */
static void heading_index(struct page *p, cmark_node *n)
{
	struct sbuf text = SBUF_INIT;
	int level = p->md->node_get_heading_level(n);
	node_text(p->md, n, &text);
	sbuf_reset(&p->slug);
	site_slug(&p->slug, text.buf);
	if (!p->slug.len)
		sbuf_adds(&p->slug, "section");
	if (id_used(p, p->slug.buf)) {
		char *base = xstrdup(p->slug.buf);
		int k = id_slot(p, base)->next;
		do {
			sbuf_reset(&p->slug);
			sbuf_addf(&p->slug, "%s-%d", base, k++);
		} while (id_used(p, p->slug.buf));
		id_slot(p, base)->next = k;
		free(base);
	}
	id_add(p, p->slug.buf);
	section_start(p, text.buf, level);
	if (level > 1)
		index_add(p->idx, text.buf, "Section", p->pg->title, p->section_url.buf, NULL);
	sbuf_release(&text);
}

/* What a node gives the index, in the order of the page: sections, their text, anchors. */
static void index_node(struct page *p, cmark_node *n, cmark_node_type t)
{
	const char *id;
	if (t == CMARK_NODE_HEADING) {
		heading_index(p, n);
	} else if (t == CMARK_NODE_TEXT || t == CMARK_NODE_CODE || t == CMARK_NODE_CODE_BLOCK) {
		section_add(p, n);
	} else if ((id = anchor_id(p->md, n))) {
		struct sbuf text = SBUF_INIT, u = SBUF_INIT;
		node_text(p->md, n, &text);
		if (text.len) {
			sbuf_addf(&u, "%s#%s", p->url, id);
			index_add(p->idx, text.buf, anchor_kind(id), p->pg->title, u.buf, NULL);
		}
		sbuf_release(&text);
		sbuf_release(&u);
	}
}

/* A heading with its id and a link to itself; the list of sections goes after the title. */
static void heading_html(struct page *p, cmark_node *n, bool entering)
{
	struct sbuf *o = p->h.out;
	int level = p->md->node_get_heading_level(n);
	if (entering) {
		mdhtml_cr(o);
		sbuf_addf(o, "<h%d id=\"%s\"><a class=\"hlink\" href=\"#%s\" aria-label=\"link to this section\">#</a>",
			  level, p->slug.buf, p->slug.buf);
		return;
	}
	sbuf_addf(o, "</h%d>", level);
	if (level == 1 && !p->toc_at)
		p->toc_at = o->len;
	sbuf_addch(o, '\n');
}

/* A code span: "since 6.2" is a version badge, "unverified" marks a fact no source
 * confirms yet (docgen's unverified_badge). */
static void code_html(struct page *p, cmark_node *n)
{
	struct sbuf *o = p->h.out;
	const char *lit = p->md->node_get_literal(n);
	lit = lit ? lit : "";
	if (!strcmp(lit, "unverified")) {
		sbuf_adds(o, "<code class=\"unverified\" title=\"no source confirms this yet\">unverified</code>");
		return;
	}
	sbuf_adds(o, !strncmp(lit, "since ", 6) ? "<code class=\"since\">" : "<code>");
	sbuf_addhtml(o, lit);
	sbuf_adds(o, "</code>");
}

/* An anchor target takes its id; a link to another page of the site has its .md become
 * .html. */
static void link_html(struct page *p, cmark_node *n, bool entering)
{
	const char *id = anchor_id(p->md, n), *url = p->md->node_get_url(n);
	if (id) {
		if (entering)
			sbuf_addf(p->h.out, "<a class=\"anchor\" id=\"%s\" href=\"#%s\">", id, id);
		else
			sbuf_adds(p->h.out, "</a>");
		return;
	}
	struct sbuf u = SBUF_INIT;
	if (url && is_relative(url)) {
		const char *hash = strchr(url, '#');
		char *path = xstrndup(url, hash ? (size_t)(hash - url) : strlen(url));
		site_html_path(&u, path);
		sbuf_adds(&u, hash ? hash : "");
		url = u.buf;
		free(path);
	}
	mdhtml_link(&p->h, n, entering, url ? url : "");
	sbuf_release(&u);
}

static void render_node(struct page *p, cmark_node *n, cmark_event_type ev, cmark_node_type t)
{
	bool entering = ev == CMARK_EVENT_ENTER;
	if (t == CMARK_NODE_HEADING)
		heading_html(p, n, entering);
	else if (t == CMARK_NODE_CODE)
		code_html(p, n);
	else if (t == CMARK_NODE_LINK || t == CMARK_NODE_IMAGE)
		link_html(p, n, entering);
	else
		mdhtml_node(&p->h, n, ev);
}

static void page_release(struct page *p)
{
	for (size_t i = 0; i < p->ids_cap; i++)
		free(p->ids[i].id);
	free(p->ids);
	sbuf_release(&p->slug);
	sbuf_release(&p->title);
	sbuf_release(&p->section_url);
	sbuf_release(&p->text);
	sbuf_release(&p->toc);
}

void site_page_render(const struct mdlib *md, struct site_index *idx, const struct site_page *pg, const char *page_url,
		      struct sbuf *html)
{
	cmark_parser *parser;
	cmark_node *doc = md_parse(md, pg->text, pg->len, &parser);
	struct sbuf body = SBUF_INIT;
	struct page p = { .md = md, .idx = idx, .pg = pg, .url = page_url, .slug = SBUF_INIT, .title = SBUF_INIT,
			  .section_url = SBUF_INIT, .text = SBUF_INIT, .toc = SBUF_INIT };
	mdhtml_init(&p.h, md, &body);
	p.h.table_open = "<div class=\"table-wrap\">"; /* a wide table scrolls, not the page */
	p.h.table_close = "</div>";
	index_add(idx, pg->title, pg->section && *pg->section ? pg->section : "Page", pg->title, page_url, NULL);
	sbuf_adds(&p.title, pg->title);
	sbuf_adds(&p.section_url, page_url);
	ids_of_template(&p, idx->tpl);
	/* an anchor target's id is the author's, fixed wherever it stands: headings take others */
	cmark_iter *it = md->iter_new(doc);
	cmark_event_type ev;
	while ((ev = md->iter_next(it)) != CMARK_EVENT_DONE) {
		const char *id = anchor_id(md, md->iter_get_node(it));
		if (ev == CMARK_EVENT_ENTER && id && !id_used(&p, id))
			id_add(&p, id);
	}
	md->iter_free(it);
	it = md->iter_new(doc);
	while ((ev = md->iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = md->iter_get_node(it);
		cmark_node_type t = md->node_get_type(n);
		if (ev == CMARK_EVENT_ENTER)
			index_node(&p, n, t);
		if (!mdhtml_plain(&p.h, n)) /* an image's alt text is all text */
			render_node(&p, n, ev, t);
	}
	md->iter_free(it);
	section_flush(&p);
	/* the list of sections, on a page long enough to need it */
	bool toc = p.ntoc >= 3 && p.toc_at;
	size_t at = toc ? p.toc_at : body.len;
	sbuf_add(html, body.buf, at);
	if (toc)
		sbuf_addf(html, "\n<nav class=\"toc\" aria-label=\"On this page\"><b>On this page</b><ul>%s</ul></nav>",
			  p.toc.buf);
	sbuf_add(html, body.buf + at, body.len - at);
	sbuf_release(&body);
	page_release(&p);
	md->node_free(doc);
	md->parser_free(parser);
}
