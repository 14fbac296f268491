#include "docs/mdhtml.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "base/banned.h"

void mdhtml_init(struct mdhtml *h, const struct mdlib *md, struct sbuf *out)
{
	*h = (struct mdhtml){ .md = md, .out = out };
}

/* houdini_href_e.c's HREF_SAFE: letters, digits and these (a '%' is taken as an escape
 * already made) */
static bool href_safe(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("!#$%()*+,-./:;=?@_~", c));
}

/* scanners.re's _scan_dangerous_url: a prefix, in any case */
static bool url_dangerous(const char *url)
{
	static const char *const images[] = { "png", "gif", "jpeg", "webp" };
	if (!strncasecmp(url, "data:image/", 11))
		for (size_t i = 0; i < ARRAY_SIZE(images); i++)
			if (!strncasecmp(url + 11, images[i], strlen(images[i])))
				return false;
	return !strncasecmp(url, "javascript:", 11) || !strncasecmp(url, "vbscript:", 9) ||
	       !strncasecmp(url, "file:", 5) || !strncasecmp(url, "data:", 5);
}

void mdhtml_url(struct sbuf *sb, const char *url)
{
	if (url_dangerous(url))
		return;
	for (const unsigned char *p = (const unsigned char *)url; *p; p++) {
		if (href_safe(*p))
			sbuf_addch(sb, *p);
		else if (*p == '&')
			sbuf_adds(sb, "&amp;");
		else if (*p == '\'')
			sbuf_adds(sb, "&#x27;");
		else
			sbuf_addf(sb, "%%%02X", *p);
	}
}

void mdhtml_cr(struct sbuf *sb)
{
	if (sb->len && sb->buf[sb->len - 1] != '\n')
		sbuf_addch(sb, '\n');
}

bool mdhtml_plain(struct mdhtml *h, cmark_node *n)
{
	if (h->plain == n) /* back at the image: its end is written as usual */
		h->plain = NULL;
	if (!h->plain)
		return false;
	cmark_node_type t = h->md->node_get_type(n);
	if (t == CMARK_NODE_TEXT || t == CMARK_NODE_CODE || t == CMARK_NODE_HTML_INLINE)
		sbuf_addhtml(h->out, h->md->node_get_literal(n));
	else if (t == CMARK_NODE_LINEBREAK || t == CMARK_NODE_SOFTBREAK)
		sbuf_addch(h->out, ' ');
	return true;
}

/* table.c's html_render: a header row in <thead>, the others in one <tbody>. */
static void table_node(struct mdhtml *h, cmark_node *n, bool entering, const char *type)
{
	struct sbuf *o = h->out;
	if (!strcmp(type, "table")) {
		mdhtml_cr(o);
		if (entering) {
			sbuf_adds(o, h->table_open ? h->table_open : "");
			sbuf_adds(o, "<table>");
			h->table_body = false;
			return;
		}
		if (h->table_body) {
			sbuf_adds(o, "</tbody>");
			mdhtml_cr(o);
		}
		h->table_body = false;
		sbuf_adds(o, "</table>");
		sbuf_adds(o, h->table_close ? h->table_close : "");
		mdhtml_cr(o);
	} else if (!strcmp(type, "table_header") || !strcmp(type, "table_row")) {
		bool header = type[6] == 'h';
		mdhtml_cr(o);
		if (!entering) {
			sbuf_adds(o, header ? "</tr>\n</thead>" : "</tr>");
			h->table_header = header ? false : h->table_header;
			return;
		}
		if (header) {
			h->table_header = true;
			sbuf_adds(o, "<thead>\n");
		} else if (!h->table_body) {
			sbuf_adds(o, "<tbody>\n");
			h->table_body = true;
		}
		sbuf_adds(o, "<tr>");
	} else if (entering) {
		mdhtml_cr(o);
		sbuf_adds(o, h->table_header ? "<th" : "<td");
		cmark_node *row = h->md->node_parent(n);
		size_t i = 0;
		for (cmark_node *c = h->md->node_first_child(row); c && c != n; c = h->md->node_next(c))
			i++;
		uint8_t a = h->md->table_alignments(h->md->node_parent(row))[i];
		sbuf_adds(o, a == 'l' ? " align=\"left\"" : a == 'c' ? " align=\"center\"" : a == 'r' ? " align=\"right\"" : "");
		sbuf_addch(o, '>');
	} else {
		sbuf_adds(o, h->table_header ? "</th>" : "</td>");
	}
}

/* The nodes of the extensions, told apart by name (their type numbers are given out when
 * the library registers them). */
static bool extension_node(struct mdhtml *h, cmark_node *n, bool entering)
{
	const char *type = h->md->node_get_type_string(n);
	if (!type)
		return false;
	if (!strncmp(type, "table", 5))
		table_node(h, n, entering, type);
	else if (!strcmp(type, "strikethrough"))
		sbuf_adds(h->out, entering ? "<del>" : "</del>");
	else
		return false;
	return true;
}

static void code_block(struct mdhtml *h, cmark_node *n)
{
	const char *info = h->md->node_get_fence_info(n);
	mdhtml_cr(h->out);
	if (!info || !*info) {
		sbuf_adds(h->out, "<pre><code>");
	} else {
		/* the first word of the info string names the language */
		char *lang = xstrndup(info, strcspn(info, " \t\n\v\f\r"));
		sbuf_adds(h->out, "<pre><code class=\"language-");
		sbuf_addhtml(h->out, lang);
		sbuf_adds(h->out, "\">");
		free(lang);
	}
	sbuf_addhtml(h->out, h->md->node_get_literal(n));
	sbuf_adds(h->out, "</code></pre>\n");
}

/* A paragraph of a tight list's item has no <p>. */
static bool tight_paragraph(const struct mdlib *md, cmark_node *n)
{
	cmark_node *list = md->node_parent(md->node_parent(n));
	return list && md->node_get_type(list) == CMARK_NODE_LIST && md->node_get_list_tight(list);
}

void mdhtml_link(struct mdhtml *h, cmark_node *n, bool entering, const char *url)
{
	const char *title = h->md->node_get_title(n);
	bool image = h->md->node_get_type(n) == CMARK_NODE_IMAGE;
	if (entering) {
		sbuf_adds(h->out, image ? "<img src=\"" : "<a href=\"");
		mdhtml_url(h->out, url);
		if (image) {
			sbuf_adds(h->out, "\" alt=\"");
			h->plain = n;
			return;
		}
	}
	if (title && *title && (entering || image)) {
		sbuf_adds(h->out, "\" title=\"");
		sbuf_addhtml(h->out, title);
	}
	if (entering)
		sbuf_adds(h->out, "\">");
	else
		sbuf_adds(h->out, image ? "\" />" : "</a>");
}

static void block_node(struct mdhtml *h, cmark_node *n, bool entering, cmark_node_type t)
{
	const struct mdlib *md = h->md;
	struct sbuf *o = h->out;
	if (t == CMARK_NODE_BLOCK_QUOTE) {
		mdhtml_cr(o);
		sbuf_adds(o, entering ? "<blockquote>\n" : "</blockquote>\n");
	} else if (t == CMARK_NODE_LIST) {
		bool bullet = md->node_get_list_type(n) == CMARK_BULLET_LIST;
		int start = md->node_get_list_start(n);
		if (!entering) {
			sbuf_adds(o, bullet ? "</ul>\n" : "</ol>\n");
			return;
		}
		mdhtml_cr(o);
		if (bullet || start == 1)
			sbuf_adds(o, bullet ? "<ul>\n" : "<ol>\n");
		else
			sbuf_addf(o, "<ol start=\"%d\">\n", start);
	} else if (t == CMARK_NODE_ITEM) {
		if (entering)
			mdhtml_cr(o);
		sbuf_adds(o, entering ? "<li>" : "</li>\n");
	} else if (t == CMARK_NODE_HEADING) {
		if (entering)
			mdhtml_cr(o);
		sbuf_addf(o, entering ? "<h%d>" : "</h%d>\n", md->node_get_heading_level(n));
	} else if (t == CMARK_NODE_CODE_BLOCK) {
		code_block(h, n);
	} else if (t == CMARK_NODE_HTML_BLOCK) {
		mdhtml_cr(o);
		sbuf_adds(o, "<!-- raw HTML omitted -->");
		mdhtml_cr(o);
	} else if (t == CMARK_NODE_THEMATIC_BREAK) {
		mdhtml_cr(o);
		sbuf_adds(o, "<hr />\n");
	} else if (t == CMARK_NODE_PARAGRAPH && !tight_paragraph(md, n)) {
		if (entering)
			mdhtml_cr(o);
		sbuf_adds(o, entering ? "<p>" : "</p>\n");
	}
}

static void inline_node(struct mdhtml *h, cmark_node *n, bool entering, cmark_node_type t)
{
	struct sbuf *o = h->out;
	switch (t) {
	case CMARK_NODE_TEXT: sbuf_addhtml(o, h->md->node_get_literal(n)); break;
	case CMARK_NODE_LINEBREAK: sbuf_adds(o, "<br />\n"); break;
	case CMARK_NODE_SOFTBREAK: sbuf_addch(o, '\n'); break;
	case CMARK_NODE_CODE:
		sbuf_adds(o, "<code>");
		sbuf_addhtml(o, h->md->node_get_literal(n));
		sbuf_adds(o, "</code>");
		break;
	case CMARK_NODE_HTML_INLINE: sbuf_adds(o, "<!-- raw HTML omitted -->"); break;
	case CMARK_NODE_STRONG: sbuf_adds(o, entering ? "<strong>" : "</strong>"); break;
	case CMARK_NODE_EMPH: sbuf_adds(o, entering ? "<em>" : "</em>"); break;
	case CMARK_NODE_LINK:
	case CMARK_NODE_IMAGE: mdhtml_link(h, n, entering, h->md->node_get_url(n)); break;
	default: break;
	}
}

void mdhtml_node(struct mdhtml *h, cmark_node *n, cmark_event_type ev)
{
	if (mdhtml_plain(h, n))
		return;
	bool entering = ev == CMARK_EVENT_ENTER;
	cmark_node_type t = h->md->node_get_type(n);
	if (t == CMARK_NODE_DOCUMENT || extension_node(h, n, entering))
		return;
	if ((t & CMARK_NODE_TYPE_MASK) == CMARK_NODE_TYPE_INLINE)
		inline_node(h, n, entering, t);
	else
		block_node(h, n, entering, t);
}

void mdhtml_render(const struct mdlib *md, cmark_node *root, struct sbuf *out)
{
	struct mdhtml h;
	mdhtml_init(&h, md, out);
	cmark_iter *it = md->iter_new(root);
	cmark_event_type ev;
	while ((ev = md->iter_next(it)) != CMARK_EVENT_DONE)
		mdhtml_node(&h, md->iter_get_node(it), ev);
	md->iter_free(it);
}
