/* md_builtin: cmark-gfm linked into the binary, for make static (build/xsc-static renders the
 * guide, lessons and site where the library is not installed: a room's machines). The other
 * builds do not link this file; md.c then loads the library with dlopen on first use. */
#include "docs/md.h"
#include <cmark-gfm-core-extensions.h>
#include <stdbool.h>
#include "base/banned.h"

bool md_builtin(struct mdlib *lib);

bool md_builtin(struct mdlib *lib)
{
	*lib = (struct mdlib){
		.parser_new = cmark_parser_new,
		.parser_feed = cmark_parser_feed,
		.parser_finish = cmark_parser_finish,
		.parser_free = cmark_parser_free,
		.parser_attach_syntax_extension = cmark_parser_attach_syntax_extension,
		.parser_get_syntax_extensions = cmark_parser_get_syntax_extensions,
		.find_syntax_extension = cmark_find_syntax_extension,
		.render_html = cmark_render_html,
		.render_man = cmark_render_man,
		.node_free = cmark_node_free,
		.iter_new = cmark_iter_new,
		.iter_next = cmark_iter_next,
		.iter_get_node = cmark_iter_get_node,
		.iter_free = cmark_iter_free,
		.node_get_type = cmark_node_get_type,
		.node_get_type_string = cmark_node_get_type_string,
		.node_get_literal = cmark_node_get_literal,
		.node_get_url = cmark_node_get_url,
		.node_set_url = cmark_node_set_url,
		.node_get_title = cmark_node_get_title,
		.node_get_heading_level = cmark_node_get_heading_level,
		.node_get_list_type = cmark_node_get_list_type,
		.node_get_list_start = cmark_node_get_list_start,
		.node_get_list_tight = cmark_node_get_list_tight,
		.node_get_fence_info = cmark_node_get_fence_info,
		.node_first_child = cmark_node_first_child,
		.node_next = cmark_node_next,
		.node_parent = cmark_node_parent,
		.ensure_registered = cmark_gfm_core_extensions_ensure_registered,
		.table_alignments = cmark_gfm_extensions_get_table_alignments,
		.get_default_mem_allocator = cmark_get_default_mem_allocator,
	};
	return true;
}
