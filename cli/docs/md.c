#include "docs/md.h"
#include <stdbool.h>
#include "base/diag.h"
#include "base/dynlib.h"
#include "base/util.h"
#include "base/banned.h"

static struct mdlib lib;
static bool loaded, failed;

#define SONAME_CORE "libcmark-gfm.so." CMARK_GFM_VERSION_STRING
#define SONAME_EXT "libcmark-gfm-extensions.so." CMARK_GFM_VERSION_STRING

/* Defined only in make static's binary, which links cmark-gfm in (md_builtin.c). */
bool md_builtin(struct mdlib *lib) __attribute__((weak));

static const struct dynlib core_lib = { "cmark-gfm", "libcmark-gfm-extensions0.29.0.gfm.6 (make deps)",
					(const char *const[]){ SONAME_CORE, "libcmark-gfm.so", NULL }, DYNLIB_GLOBAL };
static const struct dynlib ext_lib = { "cmark-gfm's extensions", "libcmark-gfm-extensions0.29.0.gfm.6 (make deps)",
				       (const char *const[]){ SONAME_EXT, "libcmark-gfm-extensions.so", NULL },
				       DYNLIB_GLOBAL };

static const struct dynlib_sym core_syms[] = {
	DYNLIB_SYM("cmark_parser_new", lib.parser_new),
	DYNLIB_SYM("cmark_parser_feed", lib.parser_feed),
	DYNLIB_SYM("cmark_parser_finish", lib.parser_finish),
	DYNLIB_SYM("cmark_parser_free", lib.parser_free),
	DYNLIB_SYM("cmark_parser_attach_syntax_extension", lib.parser_attach_syntax_extension),
	DYNLIB_SYM("cmark_parser_get_syntax_extensions", lib.parser_get_syntax_extensions),
	DYNLIB_SYM("cmark_find_syntax_extension", lib.find_syntax_extension),
	DYNLIB_SYM("cmark_render_html", lib.render_html),
	DYNLIB_SYM("cmark_render_man", lib.render_man),
	DYNLIB_SYM("cmark_node_free", lib.node_free),
	DYNLIB_SYM("cmark_iter_new", lib.iter_new),
	DYNLIB_SYM("cmark_iter_next", lib.iter_next),
	DYNLIB_SYM("cmark_iter_get_node", lib.iter_get_node),
	DYNLIB_SYM("cmark_iter_free", lib.iter_free),
	DYNLIB_SYM("cmark_node_get_type", lib.node_get_type),
	DYNLIB_SYM("cmark_node_get_type_string", lib.node_get_type_string),
	DYNLIB_SYM("cmark_node_get_literal", lib.node_get_literal),
	DYNLIB_SYM("cmark_node_get_url", lib.node_get_url),
	DYNLIB_SYM("cmark_node_set_url", lib.node_set_url),
	DYNLIB_SYM("cmark_node_get_title", lib.node_get_title),
	DYNLIB_SYM("cmark_node_get_heading_level", lib.node_get_heading_level),
	DYNLIB_SYM("cmark_node_get_list_type", lib.node_get_list_type),
	DYNLIB_SYM("cmark_node_get_list_start", lib.node_get_list_start),
	DYNLIB_SYM("cmark_node_get_list_tight", lib.node_get_list_tight),
	DYNLIB_SYM("cmark_node_get_fence_info", lib.node_get_fence_info),
	DYNLIB_SYM("cmark_node_first_child", lib.node_first_child),
	DYNLIB_SYM("cmark_node_next", lib.node_next),
	DYNLIB_SYM("cmark_node_parent", lib.node_parent),
	DYNLIB_SYM("cmark_get_default_mem_allocator", lib.get_default_mem_allocator),
};
static const struct dynlib_sym ext_syms[] = {
	DYNLIB_SYM("cmark_gfm_core_extensions_ensure_registered", lib.ensure_registered),
	DYNLIB_SYM("cmark_gfm_extensions_get_table_alignments", lib.table_alignments),
};

const struct mdlib *mdlib_get(void)
{
	if (loaded)
		return &lib;
	if (failed)
		return NULL;
	if (md_builtin && md_builtin(&lib)) {
		lib.ensure_registered();
		loaded = true;
		return &lib;
	}
	void *core = dynlib_open(&core_lib, NULL);
	void *ext = core ? dynlib_open(&ext_lib, NULL) : NULL;
	if (!core || !ext || dynlib_resolve(&core_lib, core, core_syms, ARRAY_SIZE(core_syms)) ||
	    dynlib_resolve(&ext_lib, ext, ext_syms, ARRAY_SIZE(ext_syms))) {
		failed = true;
		err("%s", dynlib_error());
		return NULL;
	}
	lib.ensure_registered();
	loaded = true;
	return &lib;
}

cmark_node *md_parse(const struct mdlib *md, const char *text, size_t len, cmark_parser **parser)
{
	cmark_parser *p = md->parser_new(CMARK_OPT_DEFAULT);
	static const char *const exts[] = { "table", "strikethrough" };
	for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		cmark_syntax_extension *e = md->find_syntax_extension(exts[i]);
		if (e)
			md->parser_attach_syntax_extension(p, e);
	}
	md->parser_feed(p, text, len);
	cmark_node *doc = md->parser_finish(p);
	*parser = p;
	return doc;
}
