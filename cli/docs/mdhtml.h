/* mdhtml: cmark-gfm's HTML renderer, node by node, in xsc's hands: what cmark_render_html
 * writes for each node in safe mode (CMARK_OPT_DEFAULT: raw HTML omitted, dangerous URLs
 * dropped), with the GFM table and strikethrough extensions, byte for byte. A renderer that
 * writes some nodes its own way (the site's headings, badges, anchors) walks the tree with
 * cmark_iter and hands every other node to mdhtml_node, as cmark's extensions hand theirs to
 * the library's renderer. The rules are those of cmark-gfm's src/html.c, houdini_html_e.c,
 * houdini_href_e.c, scanners.re (_scan_dangerous_url), extensions/table.c and
 * strikethrough.c (0.29.0.gfm); tests/unit/test_mdhtml.c holds them to the library's own
 * renderer. Footnotes and custom nodes are left out: md_parse never makes them. */
#ifndef XSC_MDHTML_H
#define XSC_MDHTML_H
#include <stdbool.h>
#include "base/sbuf.h"
#include "docs/md.h"

struct mdhtml {
	const struct mdlib *md;
	struct sbuf *out;
	cmark_node *plain;        /* the image whose alt text is being written, or NULL */
	bool table_header;        /* inside a table's header row: cells are <th> */
	bool table_body;          /* a <tbody> is open */
	/* written before <table> and after </table> when set (the site wraps a table so that
	 * a wide one scrolls) */
	const char *table_open, *table_close;
};

void mdhtml_init(struct mdhtml *h, const struct mdlib *md, struct sbuf *out);
/* One event of a cmark_iter walk, written as cmark writes it. */
void mdhtml_node(struct mdhtml *h, cmark_node *n, cmark_event_type ev);
/* Inside an image's alt attribute only text is written: true when n was written so (or
 * written nothing), so a caller with nodes of its own asks this first. */
bool mdhtml_plain(struct mdhtml *h, cmark_node *n);
/* A link or image (enter and exit), with url for its address (a renderer that rewrites
 * addresses passes its own). */
void mdhtml_link(struct mdhtml *h, cmark_node *n, bool entering, const char *url);
/* A whole tree, as cmark_render_html(root, CMARK_OPT_DEFAULT, table and strikethrough). */
void mdhtml_render(const struct mdlib *md, cmark_node *root, struct sbuf *out);

/* cmark's escaping of a URL in href/src: & and ' as entities, what is not safe in a URL
 * as %XX; a javascript:, vbscript:, file: or data: URL (but data:image/png, gif, jpeg,
 * webp) is dropped, as safe mode does. */
void mdhtml_url(struct sbuf *sb, const char *url);
/* A newline unless the output is empty or already ends with one (cmark's cr). */
void mdhtml_cr(struct sbuf *sb);
#endif
