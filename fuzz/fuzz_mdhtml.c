/* libFuzzer target: the site's HTML. Any bytes as Markdown: mdhtml writes what cmark-gfm's
 * own renderer writes (abort when a byte differs), and the site's page renderer (ids,
 * badges, anchors, the section list and the search entries) walks the same tree. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/diag.h"
#include "docs/md.h"
#include "docs/mdhtml.h"
#include "docs/sitepage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	diag_swap_sink(DIAG_DISCARD);
	const struct mdlib *md = mdlib_get();
	if (!md)
		return 0;
	cmark_parser *parser;
	cmark_node *doc = md_parse(md, (const char *)data, size, &parser);
	char *want = md->render_html(doc, CMARK_OPT_DEFAULT, md->parser_get_syntax_extensions(parser));
	struct sbuf got = SBUF_INIT;
	mdhtml_render(md, doc, &got);
	if (strcmp(got.buf, want)) {
		fprintf(stderr, "mdhtml:\n%s\ncmark:\n%s\n", got.buf, want);
		abort();
	}
	md->get_default_mem_allocator()->free(want);
	md->node_free(doc);
	md->parser_free(parser);
	sbuf_release(&got);

	struct site_page pg = { "guide/fuzz.md", "Fuzz", "Guide", (const char *)data, size, true };
	struct site_index idx = { SBUF_INIT, 0 };
	struct sbuf html = SBUF_INIT;
	site_page_render(md, &idx, &pg, "guide/fuzz.html", &html);
	sbuf_release(&html);
	sbuf_release(&idx.js);
	return 0;
}
