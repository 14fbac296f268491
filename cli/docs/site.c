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
#include "docs/sitepage.h"
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

/* ---- files ---- */

/* The directory path is in, made when it is missing. */
static int make_dir_of(const char *path)
{
	if (!mkdir_parents(path, 0755))
		return 0;
	return err("cannot create directory '%.*s': %m", (int)(strrchr(path, '/') - path), path);
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
	int r = make_dir_of(path.buf);
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

/* The marker: "xsc site", then every file written, sorted (the same bytes every build). */
static int write_marker(const char *dir, struct written *w)
{
	struct sbuf m = SBUF_INIT;
	sbuf_adds(&m, "xsc site\n");
	if (w->n)
		qsort(w->list, w->n, sizeof(*w->list), cmp_strp);
	for (size_t i = 0; i < w->n; i++)
		sbuf_addf(&m, "%s\n", w->list[i]);
	int r = write_file(dir, SITE_MARKER, m.buf, m.len, NULL, NULL);
	sbuf_release(&m);
	return r;
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
			site_escape(sb, u.buf);
			sbuf_release(&u);
			sbuf_addf(sb, "\"%s>", p == cur ? " aria-current=\"page\"" : "");
			site_escape(sb, p->title);
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
	site_escape(sb, cur->title);
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

/* What the pages of one build share: the library and the search index they fill. */
struct render {
	const struct mdlib *md;
	struct site_index idx;
};

/* One Markdown page, rendered into the template, written into dir. */
static int write_page(struct render *rd, const char *dir, const struct assets *as, const struct site_page *pages,
		      size_t n, const struct site_page *pg, struct site_stats *st, struct written *w)
{
	struct sbuf url = SBUF_INIT, root = SBUF_INIT, body = SBUF_INIT, nav = SBUF_INIT, crumbs = SBUF_INIT,
		    title = SBUF_INIT, page = SBUF_INIT;
	site_html_path(&url, pg->path);
	rel_root(&root, pg->path);
	site_page_render(rd->md, &rd->idx, pg, url.buf, &body);
	nav_html(&nav, pages, n, pg, root.buf);
	crumbs_html(&crumbs, pg, root.buf);
	site_escape(&title, pg->title);
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
	sbuf_add(&idx, rd->idx.js.buf, rd->idx.js.len);
	sbuf_adds(&idx, "\n];\n");
	st->index_entries = rd->idx.n;
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
	    read_asset(assets_dir, "console.js", &as.con, &as.con_len) || make_dir_of(out_dir)) {
		assets_release(&as);
		return -1;
	}
	struct sbuf tmp = SBUF_INIT;
	struct written w = { NULL, 0, 0 };
	sitedir_prepare(out_dir, &tmp);
	remove_tree(tmp.buf);
	/* made here and now, never one that is already there (a link put in its place) */
	int r = mkdir(tmp.buf, 0777) ? err("site: cannot create directory '%s': %m", tmp.buf) : 0;
	struct render rd = { .md = md, .idx = { SBUF_INIT, 0, as.tpl } };
	r = r ? r : write_site(&rd, tmp.buf, &as, pages, n, st, &w);
	if (!r)
		r = sitedir_swap(tmp.buf, out_dir, SITE_MARKER, w.list, w.n);
	if (r)
		remove_tree(tmp.buf);
	for (size_t i = 0; i < w.n; i++)
		free(w.list[i]);
	free(w.list);
	sbuf_release(&rd.idx.js);
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
