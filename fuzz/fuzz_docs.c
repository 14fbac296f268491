/* libFuzzer target: Markdown generation and rendering. A hostile catalogue file is loaded;
 * when it loads, every reference page is generated from it and rendered with cmark-gfm
 * (safe mode), as docs and site do. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "base/diag.h"
#include "docs/docgen.h"
#include "docs/md.h"
#include "model/dataload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *names[] = { "fuzz.json" };
	const char *texts[] = { (const char *)data };
	size_t lens[] = { size };
	diag_swap_sink(DIAG_DISCARD);
	struct catalog *cat = catalog_load_buffers(names, texts, lens, 1);
	if (!cat)
		return 0;
	const struct mdlib *md = mdlib_get();
	struct docgen_input in = { .cat = cat };
	struct doc_set set = { NULL, 0, 0 };
	docgen_reference(&in, &set);
	for (size_t i = 0; i < set.n; i++) {
		struct doc_page *p = &set.pages[i];
		if (md && p->markdown) {
			cmark_parser *parser = md->parser_new(CMARK_OPT_DEFAULT);
			md->parser_feed(parser, p->text.buf, p->text.len);
			cmark_node *doc = md->parser_finish(parser);
			free(md->render_html(doc, CMARK_OPT_DEFAULT, NULL));
			md->node_free(doc);
			md->parser_free(parser);
		}
	}
	doc_set_release(&set);
	catalog_free(cat);
	return 0;
}
