/* mdhtml writes what cmark-gfm's own HTML renderer writes, byte for byte: for hostile
 * snippets (escapes, dangerous and odd URLs, images, tables, lists, raw HTML), for every
 * byte in a text, a code span and a link's address, and for every Markdown page of docs/. */
#include <ftw.h>
#include <stdlib.h>
#include <time.h>
#include "tap.h"
#include "base/sbuf.h"
#include "base/util.h"
#include "docs/md.h"
#include "docs/mdhtml.h"
#include "docs/sitepage.h"

static const struct mdlib *md;

/* 1 when both renderers agree on text; the first difference is shown otherwise. */
static int same(const char *what, const char *text, size_t len)
{
	cmark_parser *parser;
	cmark_node *doc = md_parse(md, text, len, &parser);
	char *want = md->render_html(doc, CMARK_OPT_DEFAULT, md->parser_get_syntax_extensions(parser));
	struct sbuf got = SBUF_INIT;
	mdhtml_render(md, doc, &got);
	int r = !strcmp(got.buf, want);
	if (!r) {
		size_t i = 0;
		while (got.buf[i] && got.buf[i] == want[i])
			i++;
		size_t from = i > 40 ? i - 40 : 0;
		printf("# %s: differs at byte %zu\n#   got:  '%.80s'\n#   want: '%.80s'\n", what, i, got.buf + from,
		       want + from);
	}
	sbuf_release(&got);
	md->get_default_mem_allocator()->free(want);
	md->node_free(doc);
	md->parser_free(parser);
	return r;
}

static const char *const snippets[] = {
	"plain & <b>bold</b> \"quoted\" 'single' a/b \\* &amp; &copy; &#x27; &#0; &bogus;\n",
	"*emph* **strong** ***both*** ~~struck~~ ~single~ `code <&>\"'` `` a`b ``\n",
	"line one  \nline two\\\nline three\nsoft\n",
	"# Title\n\nSetext\n======\n\n## Two `code` *em*\n\n###### six\n####### seven\n",
	"[a](https://x.org/a?b=1&c='d'#e \"t & \\\"q\\\"\") [b](<a b>) [c]() [d](#id \"anchor\") [e](../x.md#y)\n",
	"[js](javascript:alert(1)) [JS](JaVaScRiPt:x) [vb](VBSCRIPT:x) [f](file:///etc/passwd)\n"
	"[d](data:text/html,x) [p](data:image/png;base64,AA) [g](DATA:IMAGE/GIF;x) [s](data:image/svg+xml,x)\n"
	"[w](data:image/webpx) [j](data:image/jpeg) [q](data:imagex)\n",
	"<https://x.org/?a=1&b='2'> <mailto:a@b.c> <a@b.c> www.x.org http://y.org\n",
	"![alt *em* `code` <b>raw</b>\nsoft](pic.png \"a \\\"title\\\" & more\") ![](javascript:x) [![i](p.svg)](l.md)\n",
	"[ref]: https://r.org/%20x \"Ref title\"\n\n[ref] and [text][ref] and [ref][]\n",
	"- a\n- b\n  - c\n  - d\n\n- loose\n\n- list\n\n1. one\n2. two\n\n0. zero\n\n3) three\n4) four\n\n* x\n\n  para\n",
	"- [ ] task\n- [x] done\n\n- > quote in item\n  > more\n",
	"> quote\n> - list\n>\n> ```c\n> code\n> ```\n\n>\n",
	"```c extra words\nint a < b && c > \"d\";\n```\n\n```\nno info\n```\n\n~~~ <lang>\ntilde\n~~~\n\n    indented <code>\n\n```\n",
	"<div>\nraw block\n</div>\n\n<!-- comment -->\n\ntext <span>inline</span> <!-- c --> <?pi?> <![CDATA[x]]>\n",
	"***\n---\n___\n\npara\n***\n",
	"| a | b | c | d |\n|:--|:-:|--:|---|\n| 1 | `2` | **3** | [4](x.md) |\n| \\| | | <b> | ~~x~~ |\n",
	"| only header |\n|---|\n\ntext\n\n| x |\n|-|\n| y |\n\n| a | b |\n|---|---|\n| 1 |\n| 1 | 2 | 3 |\n",
	"| a |\n|---|\n| ![img *x*](p.png) |\n> | q |\n> |---|\n> | r |\n",
	"\xc3\xa9t\xc3\xa9 \xe2\x80\xa8 \xef\xbb\xbf \x01\x02\x7f\t\ttab\r\nCR line\rlone CR\n",
	"[link *with `code`* and ![img](i.png)](u \"t\")\n\n[a\nb](c)\n\n[x](y 'single') [x](y (paren))\n",
	"",
	"\n\n\n",
	"text\n\n<script>alert(1)</script>\n\n<a href=\"javascript:x\">y</a>\n",
};

/* Every byte (but NUL) in a text, a code span and a link's address. */
static int every_byte(void)
{
	int all = 1;
	for (int c = 1; c < 256; c++) {
		char text[96];
		int n = snprintf(text, sizeof(text), "a%cb `c%cd` [e](f%cg) [h](<i%cj>) ![k](l%cm)\n", c, c, c, c, c);
		char what[32];
		snprintf(what, sizeof(what), "byte 0x%02x", c);
		all &= same(what, text, (size_t)n);
	}
	return all;
}

static size_t npages, nsame;

static int page(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)ftw;
	size_t n = strlen(path);
	if (flag != FTW_F || n < 3 || strcmp(path + n - 3, ".md"))
		return 0;
	char *text;
	size_t len;
	if (read_file_max(path, 1u << 24, &text, &len))
		return 0;
	npages++;
	nsame += same(path, text, len);
	free(text);
	return 0;
}

/* The page's ids are unique, and none is the template's: a heading after an anchor target of
 * its slug, an anchor target after a heading of its slug, a heading named as the search box. */
static int unique_ids(void)
{
	static const char text[] = "# Page\n\n## Foo\n\n[target](#foo \"anchor\")\n\n## Foo\n\n"
				   "[again](#foo-2 \"anchor\")\n\n## Search\n";
	struct site_page pg = { .path = "guide/p.md", .title = "Page", .section = "Guide", .text = text,
				.len = strlen(text), .markdown = true };
	struct site_index idx = { SBUF_INIT, 0, "<input id=\"search\"><div id=\"side\">{{content}}</div>" };
	struct sbuf html = SBUF_INIT;
	site_page_render(md, &idx, &pg, "guide/p.html", &html);
	static const char *const want[] = { "id=\"page\"", "id=\"foo\"", "id=\"foo-1\"", "id=\"foo-2\"",
					    "id=\"search-1\"" };
	int r = 1;
	for (size_t i = 0; i < ARRAY_SIZE(want); i++) {
		const char *at = strstr(html.buf, want[i]);
		if (!at || strstr(at + 1, want[i]))
			r = 0, printf("# %s: %s\n", want[i], at ? "twice" : "missing");
	}
	if (strstr(html.buf, "id=\"search\""))
		r = 0, printf("# a heading took the template's id=\"search\"\n");
	sbuf_release(&html);
	sbuf_release(&idx.js);
	return r;
}

/* A page of 3,000 "## a" headings: ids a, a-1 ... a-2999, found in linear time (each heading
 * tried every k from 1 against every id: minutes of CPU for a page of 18 KB) */
static int many_headings(void)
{
	struct sbuf text = SBUF_INIT, html = SBUF_INIT;
	sbuf_adds(&text, "# Page\n\n");
	for (int i = 0; i < 3000; i++)
		sbuf_adds(&text, "## a\n\n");
	struct site_page pg = { .path = "guide/p.md", .title = "Page", .section = "Guide", .text = text.buf,
				.len = text.len, .markdown = true };
	struct site_index idx = { SBUF_INIT, 0, NULL };
	clock_t t0 = clock();
	site_page_render(md, &idx, &pg, "guide/p.html", &html);
	double cpu = (double)(clock() - t0) / CLOCKS_PER_SEC;
	int r = strstr(html.buf, "id=\"a-2999\"") && !strstr(html.buf, "id=\"a-3000\"") && cpu < 2.0;
	if (!r)
		printf("# %.2f s of CPU\n", cpu);
	sbuf_release(&text), sbuf_release(&html), sbuf_release(&idx.js);
	return r;
}

int main(void)
{
	md = mdlib_get();
	ok(md != NULL, "cmark-gfm loads");
	if (!md)
		return tap_done();
	size_t nsnip = 0;
	for (size_t i = 0; i < ARRAY_SIZE(snippets); i++) {
		char what[32];
		snprintf(what, sizeof(what), "snippet %zu", i);
		nsnip += same(what, snippets[i], strlen(snippets[i]));
	}
	ok(nsnip == ARRAY_SIZE(snippets), "each hostile snippet is rendered as cmark renders it (%zu of %zu)", nsnip,
	   ARRAY_SIZE(snippets));
	ok(every_byte(), "every byte in text, code and addresses is escaped as cmark escapes it");
	ok(unique_ids(), "a page's ids are unique and none is the template's");
	ok(many_headings(), "3,000 headings of one name get their ids in linear time");
	nftw("docs", page, 16, FTW_PHYS);
	ok(npages > 100 && nsame == npages, "every page of docs/ is rendered as cmark renders it (%zu of %zu)", nsame,
	   npages);
	return tap_done();
}
