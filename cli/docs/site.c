#include "docs/site.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/diag.h"
#include "docs/md.h"
#include "docs/sitedir.h"
#include "base/banned.h"

#define ASSET_MAX (1u << 20)
#define SITE_MARKER ".xsc-site"

void site_html_path(struct sbuf *sb, const char *p)
{
	size_t n = strlen(p);
	if (n > 3 && !strcmp(p + n - 3, ".md")) {
		sbuf_add(sb, p, n - 3);
		sbuf_adds(sb, ".html");
	} else {
		sbuf_adds(sb, p);
	}
}

void site_slug(struct sbuf *sb, const char *text)
{
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		unsigned char c = *p;
		if (c >= 'A' && c <= 'Z')
			sbuf_addch(sb, c + 32);
		else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-')
			sbuf_addch(sb, c);
		else if (c == ' ')
			sbuf_addch(sb, '-');
		else if (c >= 0x80)
			sbuf_addch(sb, c); /* letters of other scripts stay, as on GitHub */
	}
}

static void html_escape(struct sbuf *sb, const char *s)
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

/* ---- files ---- */

static int mkdirs(const char *path)
{
	struct sbuf p = SBUF_INIT;
	sbuf_adds(&p, path);
	int r = 0;
	for (char *s = p.buf + 1; r == 0 && *s; s++) {
		if (*s != '/')
			continue;
		*s = 0;
		if (mkdir(p.buf, 0755) && errno != EEXIST)
			r = -1;
		*s = '/';
	}
	if (r == 0 && mkdir(p.buf, 0755) && errno != EEXIST)
		r = -1;
	if (r)
		err("cannot create directory '%s': %m", p.buf);
	sbuf_release(&p);
	return r;
}

/* Every file a build writes, for the marker: a later build keeps what is not in it. */
struct written {
	char **list;
	size_t n, alloc;
};

static int write_file(const char *dir, const char *rel, const void *data, size_t len, struct site_stats *st,
		      struct written *w)
{
	struct sbuf path = SBUF_INIT;
	sbuf_addf(&path, "%s/%s", dir, rel);
	char *slash = strrchr(path.buf, '/');
	int r = 0;
	*slash = 0;
	r = mkdirs(path.buf);
	*slash = '/';
	FILE *fp = r ? NULL : fopen(path.buf, "we");
	if (!r && !fp)
		r = err("cannot write '%s': %m", path.buf);
	if (fp) {
		if (fwrite(data, 1, len, fp) != len)
			r = err("cannot write '%s': %m", path.buf);
		if (fclose(fp) && !r)
			r = err("cannot write '%s': %m", path.buf);
	}
	if (!r && st) {
		st->files++;
		st->bytes += len;
	}
	if (!r && w) {
		ALLOC_GROW(w->list, w->n + 1, w->alloc);
		w->list[w->n++] = xstrdup(rel);
	}
	sbuf_release(&path);
	return r;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The marker: "xsc site", then every file written, sorted (the same bytes every build). */
static int write_marker(const char *dir, struct written *w)
{
	struct sbuf m = SBUF_INIT;
	sbuf_adds(&m, "xsc site\n");
	if (w->n)
		qsort(w->list, w->n, sizeof(*w->list), cmp_str);
	for (size_t i = 0; i < w->n; i++)
		sbuf_addf(&m, "%s\n", w->list[i]);
	int r = write_file(dir, SITE_MARKER, m.buf, m.len, NULL, NULL);
	sbuf_release(&m);
	return r;
}

/* ---- one page ---- */

struct render {
	const struct mdlib *md;
	struct sbuf search;        /* entries of search-index.js */
	size_t nentries;
	char **ids;                /* ids used on the current page */
	size_t nids, ids_alloc;
};

static bool id_used(struct render *r, const char *id)
{
	for (size_t i = 0; i < r->nids; i++)
		if (!strcmp(r->ids[i], id))
			return true;
	return false;
}

static void id_add(struct render *r, const char *id)
{
	ALLOC_GROW(r->ids, r->nids + 1, r->ids_alloc);
	r->ids[r->nids++] = xstrdup(id);
}

static void ids_reset(struct render *r)
{
	for (size_t i = 0; i < r->nids; i++)
		free(r->ids[i]);
	r->nids = 0;
}

/* The text of one section, for the full-text search: at most this many bytes of it. */
enum { SECTION_TEXT_MAX = 3000 };

static void search_add_text(struct render *r, const char *name, const char *page_title, const char *url,
			    const char *text)
{
	sbuf_adds(&r->search, r->nentries ? ",\n" : "\n");
	sbuf_adds(&r->search, "[");
	js_string(&r->search, name);
	sbuf_adds(&r->search, ",\"Text\",");
	js_string(&r->search, page_title);
	sbuf_adds(&r->search, ",");
	js_string(&r->search, url);
	sbuf_adds(&r->search, ",");
	js_string(&r->search, text);
	sbuf_adds(&r->search, "]");
	r->nentries++;
}

static void search_add(struct render *r, const char *name, const char *kind, const char *page_title,
		       const char *url)
{
	sbuf_adds(&r->search, r->nentries ? ",\n" : "\n");
	sbuf_adds(&r->search, "[");
	js_string(&r->search, name);
	sbuf_adds(&r->search, ",");
	js_string(&r->search, kind);
	sbuf_adds(&r->search, ",");
	js_string(&r->search, page_title);
	sbuf_adds(&r->search, ",");
	js_string(&r->search, url);
	sbuf_adds(&r->search, "]");
	r->nentries++;
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

static bool valid_id(const char *s, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
			return false;
	}
	return true;
}

/* The section being read, for the full-text search ("zero-fill", "double fetch" find the
 * section that says them) and the page's "on this page" list. */
struct section_text {
	struct sbuf title, url, text;
	struct sbuf toc;  /* <li> of the page's h2 headings */
	size_t ntoc;
};

static void section_flush(struct render *r, struct section_text *st, const char *page_title)
{
	if (st->text.len)
		search_add_text(r, st->title.buf, page_title, st->url.buf, st->text.buf);
	sbuf_reset(&st->text);
}

/* A heading starts a section: the last one goes to the index; an h2 joins the list. */
static void section_start(struct render *r, struct section_text *st, const struct site_page *pg, const char *page_url,
			  const char *title, const char *slug, int level)
{
	section_flush(r, st, pg->title);
	sbuf_reset(&st->title);
	sbuf_adds(&st->title, level > 1 ? title : pg->title);
	sbuf_reset(&st->url);
	sbuf_addf(&st->url, level > 1 ? "%s#%s" : "%s", page_url, slug);
	if (level == 2) {
		sbuf_addf(&st->toc, "<li><a href=\"#%s\">", slug);
		html_escape(&st->toc, title);
		sbuf_adds(&st->toc, "</a></li>");
		st->ntoc++;
	}
}

/* Text of the body (not of headings) for the index, up to SECTION_TEXT_MAX a section. */
static void section_add(const struct mdlib *md, struct section_text *st, cmark_node *n)
{
	cmark_node *parent = md->node_parent(n);
	const char *lit = md->node_get_literal(n);
	/* an address is not searched for, and in the index it would look like a request the
	 * site makes (tests/sh/site-links.py) */
	if (!lit || (parent && md->node_get_type(parent) == CMARK_NODE_HEADING) || st->text.len >= SECTION_TEXT_MAX ||
	    strstr(lit, "://"))
		return;
	if (st->text.len)
		sbuf_addch(&st->text, ' ');
	for (const char *p = lit; *p && st->text.len < SECTION_TEXT_MAX; p++)
		sbuf_addch(&st->text, *p == '\n' || *p == '\t' ? ' ' : *p);
}

static void section_release(struct section_text *st)
{
	sbuf_release(&st->title);
	sbuf_release(&st->url);
	sbuf_release(&st->text);
	sbuf_release(&st->toc);
}

/* A heading's id: its slug, made unique on the page with -1, -2, ... */
static void heading_id(struct render *r, const char *text, struct sbuf *slug)
{
	site_slug(slug, text);
	if (!slug->len)
		sbuf_adds(slug, "section");
	size_t base = slug->len;
	for (int k = 1; id_used(r, slug->buf); k++) {
		slug->len = base;
		slug->buf[base] = 0;
		sbuf_addf(slug, "-%d", k);
	}
	id_add(r, slug->buf);
}

/* The kind of an anchor target for the search index, from its id's prefix. */
static const char *anchor_kind(const char *url)
{
	return !strncmp(url, "#field-", 7) ? "Field" : !strncmp(url, "#flag-", 6) ? "Flag" :
	       !strncmp(url, "#errno-", 7) ? "Error" : !strncmp(url, "#arg-", 5) ? "Argument" : "Anchor";
}

/* A link: a target ("[x](#id \"anchor\")") goes to the index and takes its id; a link to
 * another page of the site has its .md become .html. */
static void link_node(struct render *r, const struct site_page *pg, const char *page_url, cmark_node *n)
{
	const struct mdlib *md = r->md;
	const char *url = md->node_get_url(n);
	const char *title = md->node_get_title(n);
	if (url && title && !strcmp(title, "anchor") && url[0] == '#' && valid_id(url + 1, strlen(url + 1))) {
		struct sbuf text = SBUF_INIT, u = SBUF_INIT;
		node_text(md, n, &text);
		if (text.len) {
			sbuf_addf(&u, "%s%s", page_url, url);
			search_add(r, text.buf, anchor_kind(url), pg->title, u.buf);
		}
		id_add(r, url + 1);
		sbuf_release(&text);
		sbuf_release(&u);
	} else if (url && is_relative(url)) {
		struct sbuf nu = SBUF_INIT;
		const char *hash = strchr(url, '#');
		size_t plen = hash ? (size_t)(hash - url) : strlen(url);
		char *path = xstrndup(url, plen);
		site_html_path(&nu, path);
		if (hash)
			sbuf_adds(&nu, hash);
		md->node_set_url(n, nu.buf);
		free(path);
		sbuf_release(&nu);
	}
}

/* The slugs of a page's headings, in order. */
struct slugs {
	struct sbuf *list;
	size_t n, alloc;
};

/* One walk of the tree: headings get their slugs and start sections, text goes to the
 * search index, links are rewritten. */
static void walk_page(struct render *r, const struct site_page *pg, const char *page_url, cmark_node *doc,
		      struct section_text *sec, struct slugs *slugs)
{
	const struct mdlib *md = r->md;
	cmark_iter *it = md->iter_new(doc);
	cmark_event_type ev;
	while ((ev = md->iter_next(it)) != CMARK_EVENT_DONE) {
		if (ev != CMARK_EVENT_ENTER)
			continue;
		cmark_node *n = md->iter_get_node(it);
		cmark_node_type t = md->node_get_type(n);
		if (t == CMARK_NODE_HEADING) {
			struct sbuf text = SBUF_INIT, slug = SBUF_INIT;
			node_text(md, n, &text);
			heading_id(r, text.buf, &slug);
			section_start(r, sec, pg, page_url, text.buf, slug.buf, md->node_get_heading_level(n));
			if (md->node_get_heading_level(n) > 1) {
				struct sbuf u = SBUF_INIT;
				sbuf_addf(&u, "%s#%s", page_url, slug.buf);
				search_add(r, text.buf, "Section", pg->title, u.buf);
				sbuf_release(&u);
			}
			ALLOC_GROW(slugs->list, slugs->n + 1, slugs->alloc);
			slugs->list[slugs->n++] = slug;
			sbuf_release(&text);
		} else if (t == CMARK_NODE_TEXT || t == CMARK_NODE_CODE || t == CMARK_NODE_CODE_BLOCK) {
			section_add(md, sec, n);
		} else if (t == CMARK_NODE_LINK || t == CMARK_NODE_IMAGE) {
			link_node(r, pg, page_url, n);
		}
	}
	md->iter_free(it);
}

/* An anchor target "<a href="#ID" title="anchor">" at p becomes "<a class="anchor" id="ID"
 * href="#ID">"; returns where the source goes on, or NULL when p is another link. */
static const char *patch_anchor(struct sbuf *html, const char *p)
{
	const char *id = p + 10, *q = id;
	while (*q && *q != '"')
		q++;
	if (strncmp(q, "\" title=\"anchor\">", 17) || !valid_id(id, (size_t)(q - id)))
		return NULL;
	sbuf_adds(html, "<a class=\"anchor\" id=\"");
	sbuf_add(html, id, (size_t)(q - id));
	sbuf_adds(html, "\" href=\"#");
	sbuf_add(html, id, (size_t)(q - id));
	sbuf_adds(html, "\">");
	return q + 17;
}

/* cmark's HTML with the headings' ids, the list of sections after the title, anchor
 * targets, since and unverified badges and scrolling tables. */
static void patch_html(struct sbuf *html, const char *out, const struct slugs *slugs, struct sbuf *toc)
{
	size_t h = 0;
	for (const char *p = out; *p;) {
		const char *q;
		if (p[0] == '<' && p[1] == 'h' && p[2] >= '1' && p[2] <= '6' && p[3] == '>' && h < slugs->n) {
			sbuf_addf(html, "<h%c id=\"%s\"><a class=\"hlink\" href=\"#%s\" aria-label=\"link to this section\">#</a>",
				  p[2], slugs->list[h].buf, slugs->list[h].buf);
			h++;
			p += 4;
		} else if (!strncmp(p, "</h1>", 5) && toc->len) {
			sbuf_adds(html, "</h1>");
			sbuf_add(html, toc->buf, toc->len);
			sbuf_reset(toc);
			p += 5;
		} else if (!strncmp(p, "<a href=\"#", 10)) {
			q = patch_anchor(html, p);
			if (!q) {
				sbuf_adds(html, "<a href=\"#");
				q = p + 10;
			}
			p = q;
		} else if (!strncmp(p, "<code>since ", 12)) {
			sbuf_adds(html, "<code class=\"since\">since ");
			p += 12;
		} else if (!strncmp(p, "<code>unverified</code>", 23)) {
			/* a fact no source confirms (docgen's unverified_badge) */
			sbuf_adds(html, "<code class=\"unverified\" title=\"no source confirms this yet\">unverified</code>");
			p += 23;
		} else if (!strncmp(p, "<table>", 7)) {
			sbuf_adds(html, "<div class=\"table-wrap\"><table>");
			p += 7;
		} else if (!strncmp(p, "</table>", 8)) {
			sbuf_adds(html, "</table></div>");
			p += 8;
		} else {
			q = strchr(p + 1, '<');
			size_t len = q ? (size_t)(q - p) : strlen(p);
			sbuf_add(html, p, len);
			p += len;
		}
	}
}

/* The body HTML of one page; headings get ids, anchor links become targets. */
static int render_page(struct render *r, const struct site_page *pg, const char *page_url, struct sbuf *html)
{
	const struct mdlib *md = r->md;
	cmark_parser *parser;
	cmark_node *doc = md_parse(md, pg->text, pg->len, &parser);
	struct slugs slugs = { NULL, 0, 0 };
	ids_reset(r);
	search_add(r, pg->title, pg->section && *pg->section ? pg->section : "Page", pg->title, page_url);
	struct section_text sec = { SBUF_INIT, SBUF_INIT, SBUF_INIT, SBUF_INIT, 0 };
	sbuf_adds(&sec.title, pg->title);
	sbuf_adds(&sec.url, page_url);
	walk_page(r, pg, page_url, doc, &sec, &slugs);
	section_flush(r, &sec, pg->title);
	struct sbuf toc = SBUF_INIT; /* after the title, on a page long enough to need it */
	if (sec.ntoc >= 3)
		sbuf_addf(&toc, "\n<nav class=\"toc\" aria-label=\"On this page\"><b>On this page</b><ul>%s</ul></nav>",
			  sec.toc.buf);
	section_release(&sec);

	char *out = md->render_html(doc, CMARK_OPT_DEFAULT, md->parser_get_syntax_extensions(parser));
	patch_html(html, out, &slugs, &toc);
	md->get_default_mem_allocator()->free(out);
	sbuf_release(&toc);
	for (size_t i = 0; i < slugs.n; i++)
		sbuf_release(&slugs.list[i]);
	free(slugs.list);
	md->node_free(doc);
	md->parser_free(parser);
	return 0;
}

/* ---- navigation ---- */

static void rel_root(struct sbuf *sb, const char *path)
{
	for (const char *p = path; *p; p++)
		if (*p == '/')
			sbuf_adds(sb, "../");
}

static const char *const nav_sections[] = { "Guide", "Reference", "Syscalls", "Structs", "Lessons" };

static void nav_html(struct sbuf *sb, const struct site_page *pages, size_t n, const struct site_page *cur,
		     const char *root)
{
	sbuf_addf(sb, "<ul class=\"nav-top\"><li><a href=\"%sindex.html\"%s>Home</a></li></ul>\n", root,
		  cur->section && !*cur->section ? " aria-current=\"page\"" : "");
	for (size_t s = 0; s < ARRAY_SIZE(nav_sections); s++) {
		bool any = false, open = s < 2;
		for (size_t i = 0; i < n; i++)
			if (pages[i].markdown && pages[i].section && !strcmp(pages[i].section, nav_sections[s])) {
				any = true;
				open |= &pages[i] == cur;
			}
		if (!any)
			continue;
		sbuf_addf(sb, "<details%s><summary>%s</summary><ul>\n", open ? " open" : "", nav_sections[s]);
		for (size_t i = 0; i < n; i++) {
			const struct site_page *p = &pages[i];
			if (!p->markdown || !p->section || strcmp(p->section, nav_sections[s]))
				continue;
			sbuf_addf(sb, "<li><a href=\"%s", root);
			struct sbuf u = SBUF_INIT;
			site_html_path(&u, p->path);
			html_escape(sb, u.buf);
			sbuf_release(&u);
			sbuf_addf(sb, "\"%s>", p == cur ? " aria-current=\"page\"" : "");
			html_escape(sb, p->title);
			sbuf_adds(sb, "</a></li>\n");
		}
		sbuf_adds(sb, "</ul></details>\n");
	}
}

static void crumbs_html(struct sbuf *sb, const struct site_page *cur, const char *root)
{
	sbuf_addf(sb, "<a href=\"%sindex.html\">Home</a>", root);
	if (!cur->section || !*cur->section)
		return;
	const char *sec = cur->section;
	if (!strcmp(sec, "Syscalls") || !strcmp(sec, "Structs"))
		sbuf_addf(sb, " › <a href=\"%sreference/index.html\">Reference</a> › <a href=\"%sreference/index.html#%s\">%s</a>",
			  root, root, !strcmp(sec, "Syscalls") ? "syscalls" : "structs", sec);
	else if (!strcmp(sec, "Reference"))
		sbuf_addf(sb, " › <a href=\"%sreference/index.html\">Reference</a>", root);
	else
		sbuf_addf(sb, " › %s", sec);
	sbuf_adds(sb, " › <span aria-current=\"page\">");
	html_escape(sb, cur->title);
	sbuf_adds(sb, "</span>");
}

/* Replaces {{key}} in the template. */
static void fill(struct sbuf *out, const char *tpl, const char *const *keys, const char *const *vals, size_t n)
{
	for (const char *p = tpl; *p;) {
		if (p[0] == '{' && p[1] == '{') {
			bool done = false;
			for (size_t k = 0; k < n && !done; k++) {
				size_t kl = strlen(keys[k]);
				if (!strncmp(p + 2, keys[k], kl) && !strncmp(p + 2 + kl, "}}", 2)) {
					sbuf_adds(out, vals[k]);
					p += 4 + kl;
					done = true;
				}
			}
			if (done)
				continue;
		}
		sbuf_addch(out, *p++);
	}
}

static int read_asset(const char *dir, const char *name, char **text, size_t *len)
{
	struct sbuf p = SBUF_INIT;
	sbuf_addf(&p, "%s/%s", dir, name);
	int r = read_file_max(p.buf, ASSET_MAX, text, len);
	if (r)
		err("cannot read '%s': %m", p.buf);
	sbuf_release(&p);
	return r;
}

/* The directory that holds out_dir, made when it is missing. */
static int make_parent(const char *out_dir)
{
	struct sbuf o = SBUF_INIT;
	sbuf_adds(&o, out_dir);
	char *slash = strrchr(o.buf, '/');
	int r = 0;
	if (slash && slash != o.buf) {
		*slash = 0;
		r = mkdirs(o.buf);
	}
	sbuf_release(&o);
	return r;
}

/* The assets every build reads: the page template, the style sheet, the script and the
 * console's loader (what it loads, assets/xsc-bundle.js, is make wasm's: kept across builds). */
struct assets {
	char *tpl, *css, *js, *con;
	size_t tpl_len, css_len, js_len, con_len;
};

static void assets_release(struct assets *a)
{
	free(a->tpl), free(a->css), free(a->js), free(a->con);
}

/* One Markdown page, rendered into the template, written into dir. */
static int write_page(struct render *rd, const char *dir, const struct assets *as, const struct site_page *pages,
		      size_t n, const struct site_page *pg, struct site_stats *st, struct written *w)
{
	struct sbuf url = SBUF_INIT, root = SBUF_INIT, body = SBUF_INIT, nav = SBUF_INIT, crumbs = SBUF_INIT,
		    title = SBUF_INIT, page = SBUF_INIT;
	site_html_path(&url, pg->path);
	rel_root(&root, pg->path);
	render_page(rd, pg, url.buf, &body);
	nav_html(&nav, pages, n, pg, root.buf);
	crumbs_html(&crumbs, pg, root.buf);
	html_escape(&title, pg->title);
	const char *keys[] = { "title", "root", "nav", "crumbs", "content" };
	const char *vals[] = { title.buf, root.buf, nav.buf, crumbs.buf, body.buf };
	fill(&page, as->tpl, keys, vals, ARRAY_SIZE(keys));
	int r = write_file(dir, url.buf, page.buf, page.len, st, w);
	st->pages++;
	sbuf_release(&url), sbuf_release(&root), sbuf_release(&body), sbuf_release(&nav);
	sbuf_release(&crumbs), sbuf_release(&title), sbuf_release(&page);
	return r;
}

static int write_search_index(struct render *rd, const char *dir, struct site_stats *st, struct written *w)
{
	struct sbuf idx = SBUF_INIT;
	sbuf_adds(&idx, "/* generated by xsc site: [name, kind, page, url relative to the site root] */\n"
			"window.XSC_SEARCH = [");
	sbuf_add(&idx, rd->search.buf, rd->search.len);
	sbuf_adds(&idx, "\n];\n");
	st->index_entries = rd->nentries;
	int r = write_file(dir, "assets/search-index.js", idx.buf, idx.len, st, w);
	sbuf_release(&idx);
	return r;
}

/* Every file of the site into the new directory dir (the marker first, so a later build
 * can tell this directory is its own if this one dies). */
static int write_site(struct render *rd, const char *dir, const struct assets *as, const struct site_page *pages,
		      size_t n, struct site_stats *st, struct written *w)
{
	int r = write_file(dir, SITE_MARKER, "xsc site\n", 9, NULL, NULL);
	r = r ? r : write_file(dir, "assets/xsc.css", as->css, as->css_len, st, w);
	r = r ? r : write_file(dir, "assets/xsc.js", as->js, as->js_len, st, w);
	r = r ? r : write_file(dir, "assets/console.js", as->con, as->con_len, st, w);
	for (size_t i = 0; !r && i < n; i++) {
		const struct site_page *pg = &pages[i];
		if (pg->markdown)
			r = write_page(rd, dir, as, pages, n, pg, st, w);
		else
			r = write_file(dir, pg->path, pg->text, pg->len, st, w);
	}
	r = r ? r : write_search_index(rd, dir, st, w);
	return r ? r : write_marker(dir, w);
}

int site_build(const char *out_dir, const char *assets_dir, const struct site_page *pages, size_t n,
	       struct site_stats *st)
{
	const struct mdlib *md = mdlib_get();
	if (!md)
		return -1;
	memset(st, 0, sizeof(*st));
	struct assets as = { 0 };
	if (read_asset(assets_dir, "template.html", &as.tpl, &as.tpl_len) ||
	    read_asset(assets_dir, "xsc.css", &as.css, &as.css_len) || read_asset(assets_dir, "xsc.js", &as.js, &as.js_len) ||
	    read_asset(assets_dir, "console.js", &as.con, &as.con_len) || make_parent(out_dir)) {
		assets_release(&as);
		return -1;
	}
	struct sbuf tmp = SBUF_INIT;
	struct written w = { NULL, 0, 0 };
	sitedir_prepare(out_dir, &tmp);
	remove_tree(tmp.buf);
	/* made here and now, never one that is already there (a link put in its place) */
	int r = mkdir(tmp.buf, 0777) ? err("site: cannot create directory '%s': %m", tmp.buf) : 0;
	struct render rd = { .md = md, .search = SBUF_INIT };
	r = r ? r : write_site(&rd, tmp.buf, &as, pages, n, st, &w);
	if (!r)
		r = sitedir_swap(tmp.buf, out_dir, SITE_MARKER, w.list, w.n);
	if (r)
		remove_tree(tmp.buf);
	for (size_t i = 0; i < w.n; i++)
		free(w.list[i]);
	free(w.list);
	ids_reset(&rd);
	free(rd.ids);
	sbuf_release(&rd.search);
	sbuf_release(&tmp);
	assets_release(&as);
	return r;
}

int site_render_man(const char *text, size_t len, const char *name, const char *date, struct sbuf *out)
{
	const struct mdlib *md = mdlib_get();
	if (!md)
		return -1;
	cmark_parser *parser;
	cmark_node *doc = md_parse(md, text, len, &parser);
	char *man = md->render_man(doc, CMARK_OPT_DEFAULT, 0);
	sbuf_addf(out, ".TH \"%s\" \"1\" \"%s\" \"xsc\" \"User Commands\"\n", name, date);
	sbuf_adds(out, man);
	md->get_default_mem_allocator()->free(man);
	md->node_free(doc);
	md->parser_free(parser);
	return 0;
}
