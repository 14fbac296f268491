/* termdoc: a Markdown page rendered for a terminal from the cmark tree: headings, paragraphs
 * (wrapped), lists, block quotes, code blocks, tables (aligned columns), emphasis and code.
 * With colour, styles are ANSI escapes; with hyperlinks, links and anchors become OSC 8
 * hyperlinks to the site (base_url + the page's .html path + #anchor). Plain otherwise. */
#ifndef XSC_TERMDOC_H
#define XSC_TERMDOC_H
#include <stdbool.h>
#include <stddef.h>
#include "base/sbuf.h"

struct termdoc_opts {
	bool color, hyperlinks;
	unsigned width;           /* wrap paragraphs at this column */
	const char *base_url;     /* "file:///…/build/site/" (with the slash), or NULL */
	const char *page_path;    /* the page's path below the site root: "reference/syscalls/openat2.md" */
};

int termdoc_render(const char *md, size_t len, const struct termdoc_opts *o, struct sbuf *out);
#endif
