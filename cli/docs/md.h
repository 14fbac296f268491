/* md: GitHub's cmark-gfm, loaded with dlopen on first use, so that runs which render no
 * Markdown pay nothing for it at start-up. The only file that opens the library; site.c and
 * termdoc.c call it through these pointers. Always safe mode (CMARK_OPT_DEFAULT): raw HTML
 * is replaced and dangerous URLs are dropped; CMARK_OPT_UNSAFE is never passed. */
#ifndef XSC_MD_H
#define XSC_MD_H
#include <stddef.h>
#include <stdint.h>
#include <cmark-gfm.h>

struct mdlib {
	cmark_parser *(*parser_new)(int options);
	void (*parser_feed)(cmark_parser *p, const char *buf, size_t len);
	cmark_node *(*parser_finish)(cmark_parser *p);
	void (*parser_free)(cmark_parser *p);
	int (*parser_attach_syntax_extension)(cmark_parser *p, cmark_syntax_extension *ext);
	cmark_llist *(*parser_get_syntax_extensions)(cmark_parser *p);
	cmark_syntax_extension *(*find_syntax_extension)(const char *name);
	char *(*render_html)(cmark_node *root, int options, cmark_llist *extensions);
	char *(*render_man)(cmark_node *root, int options, int width);
	void (*node_free)(cmark_node *n);
	cmark_iter *(*iter_new)(cmark_node *root);
	cmark_event_type (*iter_next)(cmark_iter *it);
	cmark_node *(*iter_get_node)(cmark_iter *it);
	void (*iter_free)(cmark_iter *it);
	cmark_node_type (*node_get_type)(cmark_node *n);
	const char *(*node_get_type_string)(cmark_node *n);
	const char *(*node_get_literal)(cmark_node *n);
	const char *(*node_get_url)(cmark_node *n);
	int (*node_set_url)(cmark_node *n, const char *url);
	const char *(*node_get_title)(cmark_node *n);
	int (*node_get_heading_level)(cmark_node *n);
	cmark_list_type (*node_get_list_type)(cmark_node *n);
	int (*node_get_list_start)(cmark_node *n);
	int (*node_get_list_tight)(cmark_node *n);
	const char *(*node_get_fence_info)(cmark_node *n);
	cmark_node *(*node_first_child)(cmark_node *n);
	cmark_node *(*node_next)(cmark_node *n);
	cmark_node *(*node_parent)(cmark_node *n);
	void (*ensure_registered)(void);
	uint8_t *(*table_alignments)(cmark_node *n);
	/* the library's own allocator: what it renders is freed by its free, not xsc's (in a
	 * static xsc, its libc is another) */
	cmark_mem *(*get_default_mem_allocator)(void);
};

/* The library, loaded once; NULL (reported with err()) when it cannot be found. */
const struct mdlib *mdlib_get(void);
/* Parses Markdown with the GFM table and strikethrough extensions, in safe mode. The caller
 * frees the tree with md->node_free; *exts (for render_html) lives with the parser, which
 * is returned in *parser and freed with md->parser_free after rendering. */
cmark_node *md_parse(const struct mdlib *md, const char *text, size_t len, cmark_parser **parser);
#endif
