/* sitepage: one Markdown page of the site as HTML, written node by node from the cmark tree
 * (cmark's own rules through mdhtml, the site's for its own nodes): headings with ids and a
 * link to themselves, the list of sections after the title, anchor targets, since and
 * unverified badges, tables that scroll, links to other pages ending in .html. The same walk
 * gives the page's entries in the search index. */
#ifndef XSC_SITEPAGE_H
#define XSC_SITEPAGE_H
#include <stddef.h>
#include "base/sbuf.h"
#include "docs/md.h"
#include "docs/site.h"

/* The entries of assets/search-index.js: [name, kind, page, url] or, for the text of a
 * section, [name, "Text", page, url, text]. */
struct site_index {
	struct sbuf js;
	size_t n;
	const char *tpl; /* the page template, or NULL: its ids are taken on every page */
};

/* The body of page pg (at page_url below the site root) into html; its entries into idx. */
void site_page_render(const struct mdlib *md, struct site_index *idx, const struct site_page *pg, const char *page_url,
		      struct sbuf *html);
/* Text for HTML text or a quoted attribute: & < > " ' escaped, control characters as spaces. */
void site_escape(struct sbuf *sb, const char *s);
#endif
