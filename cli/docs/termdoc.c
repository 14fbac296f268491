#include "docs/termdoc.h"
#include <stdlib.h>
#include <string.h>
#include "base/diag.h"
#include "docs/md.h"
#include "docs/site.h"
#include "base/banned.h"

#define SGR_BOLD "\033[1m"
#define SGR_ULINE "\033[4m"
#define SGR_ITAL "\033[3m"
#define SGR_CODE "\033[36m"
#define SGR_DIM "\033[2m"
#define SGR_RESET "\033[0m"

struct tctx {
	const struct mdlib *md;
	const struct termdoc_opts *o;
	struct sbuf *out;
};

/* Display width of UTF-8 text without escapes (one column per code point). */
static size_t text_width(const char *s, size_t n)
{
	size_t w = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == 033) { /* skip CSI ... m and OSC ... ST */
			if (i + 1 < n && s[i + 1] == '[') {
				while (i < n && s[i] != 'm')
					i++;
			} else if (i + 1 < n && s[i + 1] == ']') {
				while (i + 1 < n && !(s[i] == 033 && s[i + 1] == '\\' && i > 0 && s[i - 1] != ']'))
					i++;
				i++;
			}
			continue;
		}
		if ((c & 0xc0) != 0x80)
			w++;
	}
	return w;
}

static void add_clean(struct sbuf *sb, const char *s)
{
	/* text from the page never carries escapes of its own: pages quote the catalogue */
	safe_text(sb, s ? s : "", s ? strlen(s) : 0, 0);
}

static void link_url(struct tctx *t, const char *url, struct sbuf *u)
{
	if (url[0] == '#') {
		site_html_path(u, t->o->page_path);
		sbuf_adds(u, url);
	} else {
		/* relative to the page's directory */
		const char *slash = strrchr(t->o->page_path, '/');
		struct sbuf path = SBUF_INIT, joined = SBUF_INIT;
		if (slash)
			sbuf_add(&path, t->o->page_path, (size_t)(slash - t->o->page_path + 1));
		const char *hash = strchr(url, '#');
		size_t plen = hash ? (size_t)(hash - url) : strlen(url);
		sbuf_add(&path, url, plen);
		/* fold "dir/../" */
		char *p = path.buf;
		while (*p) {
			char *seg = strstr(p, "/../");
			if (!seg)
				break;
			char *start = seg;
			while (start > path.buf && start[-1] != '/')
				start--;
			memmove(start, seg + 4, strlen(seg + 4) + 1);
			p = path.buf;
		}
		site_html_path(&joined, path.buf);
		sbuf_adds(u, joined.buf);
		if (hash)
			sbuf_adds(u, hash);
		sbuf_release(&path);
		sbuf_release(&joined);
	}
}

static void inlines(struct tctx *t, cmark_node *n, struct sbuf *sb)
{
	const struct mdlib *md = t->md;
	bool c = t->o->color;
	for (cmark_node *k = md->node_first_child(n); k; k = md->node_next(k)) {
		cmark_node_type ty = md->node_get_type(k);
		switch (ty) {
		case CMARK_NODE_TEXT: add_clean(sb, md->node_get_literal(k)); break;
		case CMARK_NODE_SOFTBREAK: sbuf_addch(sb, ' '); break;
		case CMARK_NODE_LINEBREAK: sbuf_addch(sb, '\n'); break;
		case CMARK_NODE_CODE:
			if (c)
				sbuf_adds(sb, SGR_CODE);
			add_clean(sb, md->node_get_literal(k));
			if (c)
				sbuf_adds(sb, SGR_RESET);
			break;
		case CMARK_NODE_EMPH:
		case CMARK_NODE_STRONG:
			if (c)
				sbuf_adds(sb, ty == CMARK_NODE_STRONG ? SGR_BOLD : SGR_ITAL);
			inlines(t, k, sb);
			if (c)
				sbuf_adds(sb, SGR_RESET);
			break;
		case CMARK_NODE_LINK: {
			const char *url = md->node_get_url(k);
			bool rel = url && *url && !strchr(url, ':');
			bool abs = url && (!strncmp(url, "https://", 8) || !strncmp(url, "http://", 7));
			struct sbuf u = SBUF_INIT;
			if (t->o->hyperlinks && rel && t->o->base_url) {
				sbuf_adds(&u, t->o->base_url);
				link_url(t, url, &u);
			} else if (t->o->hyperlinks && abs) {
				add_clean(&u, url);
			}
			for (char *p = u.buf; *p; p++)
				if ((unsigned char)*p <= 0x20 || *p == 0x7f)
					*p = '_';
			if (u.len)
				sbuf_addf(sb, "\033]8;;%s\033\\", u.buf);
			size_t before = sb->len;
			inlines(t, k, sb);
			if (u.len)
				sbuf_adds(sb, "\033]8;;\033\\");
			else if (abs && sb->len == before)
				add_clean(sb, url);
			sbuf_release(&u);
			break;
		}
		case CMARK_NODE_IMAGE:
			sbuf_adds(sb, "[picture: ");
			inlines(t, k, sb);
			sbuf_adds(sb, "]");
			break;
		default:
			inlines(t, k, sb);
		}
	}
}

/* Wraps text (which may hold escapes) at width, each line prefixed. */
static void wrap(struct sbuf *out, const char *text, const char *first, const char *rest, unsigned width)
{
	const char *prefix = first;
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		/* break one hard line into words */
		size_t col = 0, pw = text_width(prefix, strlen(prefix));
		sbuf_adds(out, prefix);
		size_t i = 0;
		while (i < len) {
			size_t j = i;
			while (j < len && p[j] == ' ')
				j++;
			size_t ws = j;
			while (j < len && p[j] != ' ')
				j++;
			size_t ww = text_width(p + ws, j - ws);
			if (col && pw + col + 1 + ww > width) {
				sbuf_addch(out, '\n');
				sbuf_adds(out, rest);
				pw = text_width(rest, strlen(rest));
				col = 0;
			} else if (col) {
				sbuf_addch(out, ' ');
				col++;
			}
			sbuf_add(out, p + ws, j - ws);
			col += ww;
			i = j;
		}
		sbuf_addch(out, '\n');
		prefix = rest;
		p += len + (nl ? 1 : 0);
	}
}

static void blocks(struct tctx *t, cmark_node *n, const char *indent, int depth);
static void block_one(struct tctx *t, cmark_node *k, const char *indent, int depth, bool gap);

/* The widest word of a cell: a column narrower than that would cut a word. */
static size_t longest_word(const struct sbuf *sb)
{
	size_t best = 0;
	for (const char *p = sb->buf ? sb->buf : ""; *p;) {
		size_t n = strcspn(p, " ");
		size_t ww = text_width(p, n);
		if (ww > best)
			best = ww;
		p += n + (p[n] == ' ');
	}
	return best;
}

/* Narrows the widest columns until the table fits width (a projector's 80 columns), never
 * below a column's longest word: its cells then wrap inside it (table_row). */
static void fit_columns(const struct sbuf *cells, size_t nrows, size_t ncols, size_t *w, size_t indent, unsigned width)
{
	size_t *minw = xcalloc(ncols, sizeof(*minw)), total = indent + 2 * (ncols - 1);
	for (size_t c = 0; c < ncols; c++) {
		for (size_t r = 0; r < nrows; r++) {
			size_t lw = longest_word(&cells[r * ncols + c]);
			if (lw > minw[c])
				minw[c] = lw;
		}
		total += w[c];
	}
	while (width && total > width) {
		size_t widest = ncols;
		for (size_t c = 0; c < ncols; c++)
			if (w[c] > minw[c] && (widest == ncols || w[c] > w[widest]))
				widest = c;
		if (widest == ncols)
			break; /* every column is down to its longest word */
		w[widest]--;
		total--;
	}
	free(minw);
}

/* One row of a table: each cell wrapped to its column's width, the row as tall as its
 * tallest cell. */
static void table_row(struct tctx *t, const struct sbuf *cells, size_t ncols, const size_t *w, const uint8_t *align,
		      const char *indent)
{
	struct sbuf *wrapped = xcalloc(ncols, sizeof(*wrapped));
	const char **at = xcalloc(ncols, sizeof(*at));
	for (size_t c = 0; c < ncols; c++) {
		sbuf_init(&wrapped[c]);
		if (cells[c].buf && cells[c].len)
			wrap(&wrapped[c], cells[c].buf, "", "", (unsigned)w[c]);
		at[c] = wrapped[c].buf ? wrapped[c].buf : "";
	}
	for (bool more = true; more;) {
		sbuf_adds(t->out, indent);
		more = false;
		for (size_t c = 0; c < ncols; c++) {
			size_t n = strcspn(at[c], "\n");
			size_t cw = text_width(at[c], n);
			bool right = align && align[c] == 'r';
			for (size_t k = cw; right && k < w[c]; k++)
				sbuf_addch(t->out, ' ');
			sbuf_add(t->out, at[c], n);
			if (c + 1 < ncols) {
				for (size_t k = cw; !right && k < w[c]; k++)
					sbuf_addch(t->out, ' ');
				sbuf_adds(t->out, "  ");
			}
			at[c] += n + (at[c][n] == '\n');
			more |= *at[c] != 0;
		}
		while (t->out->len && t->out->buf[t->out->len - 1] == ' ')
			t->out->buf[--t->out->len] = 0;
		sbuf_addch(t->out, '\n');
	}
	for (size_t c = 0; c < ncols; c++)
		sbuf_release(&wrapped[c]);
	free(wrapped);
	free(at);
}

static void table(struct tctx *t, cmark_node *tbl, const char *indent)
{
	const struct mdlib *md = t->md;
	size_t ncols = 0, nrows = 0;
	for (cmark_node *row = md->node_first_child(tbl); row; row = md->node_next(row)) {
		size_t c = 0;
		for (cmark_node *cell = md->node_first_child(row); cell; cell = md->node_next(cell))
			c++;
		if (c > ncols)
			ncols = c;
		nrows++;
	}
	if (!ncols)
		return;
	struct sbuf *cells = xcalloc(nrows * ncols, sizeof(*cells));
	size_t *w = xcalloc(ncols, sizeof(*w));
	size_t r = 0;
	for (cmark_node *row = md->node_first_child(tbl); row; row = md->node_next(row), r++) {
		size_t c = 0;
		for (cmark_node *cell = md->node_first_child(row); cell; cell = md->node_next(cell), c++) {
			struct sbuf *sb = &cells[r * ncols + c];
			sbuf_init(sb);
			if (r == 0 && t->o->color)
				sbuf_adds(sb, SGR_BOLD);
			inlines(t, cell, sb);
			if (r == 0 && t->o->color)
				sbuf_adds(sb, SGR_RESET);
			size_t cw = text_width(sb->buf, sb->len);
			if (cw > w[c])
				w[c] = cw;
		}
	}
	fit_columns(cells, nrows, ncols, w, text_width(indent, strlen(indent)), t->o->width);
	uint8_t *align = md->table_alignments(tbl);
	for (r = 0; r < nrows; r++) {
		table_row(t, &cells[r * ncols], ncols, w, align, indent);
		if (r == 0) {
			sbuf_adds(t->out, indent);
			if (t->o->color)
				sbuf_adds(t->out, SGR_DIM);
			for (size_t c = 0; c < ncols; c++) {
				for (size_t k = 0; k < w[c]; k++)
					sbuf_adds(t->out, "\xe2\x94\x80");
				if (c + 1 < ncols)
					sbuf_adds(t->out, "  ");
			}
			if (t->o->color)
				sbuf_adds(t->out, SGR_RESET);
			sbuf_addch(t->out, '\n');
		}
	}
	for (size_t i = 0; i < nrows * ncols; i++)
		if (cells[i].buf)
			sbuf_release(&cells[i]);
	free(cells);
	free(w);
}

static void blocks(struct tctx *t, cmark_node *n, const char *indent, int depth)
{
	bool first = true;
	for (cmark_node *k = t->md->node_first_child(n); k; k = t->md->node_next(k)) {
		block_one(t, k, indent, depth, !first);
		first = false;
	}
}

/* A heading: levels 1 and 2 bold and underlined, or without colour in capitals (1) or as
 * they are (2); deeper levels bold. */
static void term_heading(struct tctx *t, cmark_node *k, const char *indent)
{
	bool c = t->o->color;
	int level = t->md->node_get_heading_level(k);
	struct sbuf text = SBUF_INIT;
	if (c)
		sbuf_adds(&text, level <= 2 ? SGR_BOLD SGR_ULINE : SGR_BOLD);
	if (!c && level <= 2) {
		struct sbuf plain = SBUF_INIT;
		inlines(t, k, &plain);
		for (char *p = plain.buf; *p; p++)
			if (level == 1 && *p >= 'a' && *p <= 'z')
				*p -= 32;
		sbuf_adds(&text, plain.buf);
		sbuf_release(&plain);
	} else {
		inlines(t, k, &text);
	}
	if (c)
		sbuf_adds(&text, SGR_RESET);
	wrap(t->out, text.buf, indent, indent, t->o->width);
	sbuf_release(&text);
}

/* A code block, each line indented four more and never wrapped. */
static void term_code_block(struct tctx *t, cmark_node *k, const char *indent)
{
	bool c = t->o->color;
	const char *lit = t->md->node_get_literal(k);
	struct sbuf in2 = SBUF_INIT;
	sbuf_addf(&in2, "%s    ", indent);
	for (const char *p = lit ? lit : ""; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = xstrndup(p, len);
		sbuf_adds(t->out, in2.buf);
		if (c)
			sbuf_adds(t->out, SGR_CODE);
		add_clean(t->out, line);
		if (c)
			sbuf_adds(t->out, SGR_RESET);
		sbuf_addch(t->out, '\n');
		free(line);
		p += len + (nl ? 1 : 0);
	}
	sbuf_release(&in2);
}

/* One list item after its bullet: its first paragraph beside the bullet, its other blocks
 * below, indented as far as the bullet's text. */
static void term_item(struct tctx *t, cmark_node *it, const char *indent, const char *bullet, int depth)
{
	const struct mdlib *md = t->md;
	struct sbuf rest = SBUF_INIT, item = SBUF_INIT;
	sbuf_adds(&rest, indent);
	for (size_t i = text_width(indent, strlen(indent)); i < text_width(bullet, strlen(bullet)); i++)
		sbuf_addch(&rest, ' ');
	cmark_node *p1 = md->node_first_child(it);
	cmark_node *from = p1;
	if (p1 && md->node_get_type(p1) == CMARK_NODE_PARAGRAPH) {
		inlines(t, p1, &item);
		wrap(t->out, item.buf, bullet, rest.buf, t->o->width);
		from = md->node_next(p1);
	} else {
		sbuf_adds(t->out, bullet);
		sbuf_addch(t->out, '\n');
	}
	for (cmark_node *ch = from; ch; ch = md->node_next(ch))
		block_one(t, ch, rest.buf, depth + 1, true);
	sbuf_release(&rest);
	sbuf_release(&item);
}

/* A list: numbered from its start, or bullets alternating by depth. */
static void term_list(struct tctx *t, cmark_node *k, const char *indent, int depth)
{
	const struct mdlib *md = t->md;
	bool ordered = md->node_get_list_type(k) == CMARK_ORDERED_LIST;
	int num = md->node_get_list_start(k);
	for (cmark_node *it = md->node_first_child(k); it; it = md->node_next(it)) {
		struct sbuf bullet = SBUF_INIT;
		if (ordered)
			sbuf_addf(&bullet, "%s%d. ", indent, num++);
		else
			sbuf_addf(&bullet, "%s%s ", indent, depth % 2 ? "-" : "\xe2\x80\xa2");
		term_item(t, it, indent, bullet.buf, depth);
		sbuf_release(&bullet);
	}
}

static void block_one(struct tctx *t, cmark_node *k, const char *indent, int depth, bool gap)
{
	const struct mdlib *md = t->md;
	bool c = t->o->color;
	cmark_node_type ty = md->node_get_type(k);
	const char *tys = md->node_get_type_string(k);
	if (gap && !(ty == CMARK_NODE_LIST && md->node_get_type(md->node_parent(k)) == CMARK_NODE_ITEM))
		sbuf_addch(t->out, '\n');
	struct sbuf text = SBUF_INIT;
	switch (ty) {
	case CMARK_NODE_HEADING: term_heading(t, k, indent); break;
	case CMARK_NODE_PARAGRAPH:
		inlines(t, k, &text);
		wrap(t->out, text.buf, indent, indent, t->o->width);
		break;
	case CMARK_NODE_CODE_BLOCK: term_code_block(t, k, indent); break;
	case CMARK_NODE_LIST: term_list(t, k, indent, depth); break;
	case CMARK_NODE_BLOCK_QUOTE: {
		struct sbuf ind = SBUF_INIT;
		sbuf_addf(&ind, "%s%s\xe2\x94\x82%s ", indent, c ? SGR_DIM : "", c ? SGR_RESET : "");
		blocks(t, k, ind.buf, depth);
		sbuf_release(&ind);
		break;
	}
	case CMARK_NODE_THEMATIC_BREAK:
		sbuf_addf(t->out, "%s%s\n", indent, "\xe2\x94\x80\xe2\x94\x80\xe2\x94\x80");
		break;
	case CMARK_NODE_HTML_BLOCK:
		break; /* never shown: the same rule as the site's safe mode */
	default:
		if (tys && !strcmp(tys, "table"))
			table(t, k, indent);
		else
			blocks(t, k, indent, depth);
	}
	sbuf_release(&text);
}

int termdoc_render(const char *text, size_t len, const struct termdoc_opts *o, struct sbuf *out)
{
	const struct mdlib *md = mdlib_get();
	if (!md)
		return -1;
	cmark_parser *parser;
	cmark_node *doc = md_parse(md, text, len, &parser);
	struct tctx t = { md, o, out };
	blocks(&t, doc, "", 0);
	md->node_free(doc);
	md->parser_free(parser);
	return 0;
}
