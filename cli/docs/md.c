#include "docs/md.h"
#include <dlfcn.h>
#include <stdbool.h>
#include "base/diag.h"
#include "base/banned.h"

static struct mdlib lib;
static bool loaded, failed;

#define SONAME_CORE "libcmark-gfm.so." CMARK_GFM_VERSION_STRING
#define SONAME_EXT "libcmark-gfm-extensions.so." CMARK_GFM_VERSION_STRING

static void *open_one(const char *soname, const char *devname)
{
	void *h = dlopen(soname, RTLD_NOW | RTLD_GLOBAL);
	if (!h)
		h = dlopen(devname, RTLD_NOW | RTLD_GLOBAL);
	return h;
}

/* Defined only in make static's binary, which links cmark-gfm in (md_builtin.c). */
bool md_builtin(struct mdlib *lib) __attribute__((weak));

#define SYM(h, field, name)                                                     \
	do {                                                                    \
		*(void **)&lib.field = dlsym((h), (name));                      \
		if (!lib.field)                                                 \
			missing = (name);                                       \
	} while (0)

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
	void *core = open_one(SONAME_CORE, "libcmark-gfm.so");
	void *ext = core ? open_one(SONAME_EXT, "libcmark-gfm-extensions.so") : NULL;
	if (!core || !ext) {
		failed = true;
		err("cannot load cmark-gfm (%s): %s; install libcmark-gfm-extensions0.29.0.gfm.6 (make deps)",
		    core ? SONAME_EXT : SONAME_CORE, dlerror());
		return NULL;
	}
	const char *missing = NULL;
	SYM(core, parser_new, "cmark_parser_new");
	SYM(core, parser_feed, "cmark_parser_feed");
	SYM(core, parser_finish, "cmark_parser_finish");
	SYM(core, parser_free, "cmark_parser_free");
	SYM(core, parser_attach_syntax_extension, "cmark_parser_attach_syntax_extension");
	SYM(core, parser_get_syntax_extensions, "cmark_parser_get_syntax_extensions");
	SYM(core, find_syntax_extension, "cmark_find_syntax_extension");
	SYM(core, render_html, "cmark_render_html");
	SYM(core, render_man, "cmark_render_man");
	SYM(core, node_free, "cmark_node_free");
	SYM(core, iter_new, "cmark_iter_new");
	SYM(core, iter_next, "cmark_iter_next");
	SYM(core, iter_get_node, "cmark_iter_get_node");
	SYM(core, iter_free, "cmark_iter_free");
	SYM(core, node_get_type, "cmark_node_get_type");
	SYM(core, node_get_type_string, "cmark_node_get_type_string");
	SYM(core, node_get_literal, "cmark_node_get_literal");
	SYM(core, node_get_url, "cmark_node_get_url");
	SYM(core, node_set_url, "cmark_node_set_url");
	SYM(core, node_get_title, "cmark_node_get_title");
	SYM(core, node_get_heading_level, "cmark_node_get_heading_level");
	SYM(core, node_get_list_type, "cmark_node_get_list_type");
	SYM(core, node_get_list_start, "cmark_node_get_list_start");
	SYM(core, node_first_child, "cmark_node_first_child");
	SYM(core, node_next, "cmark_node_next");
	SYM(core, node_parent, "cmark_node_parent");
	SYM(core, get_default_mem_allocator, "cmark_get_default_mem_allocator");
	SYM(ext, ensure_registered, "cmark_gfm_core_extensions_ensure_registered");
	SYM(ext, table_alignments, "cmark_gfm_extensions_get_table_alignments");
	if (missing) {
		failed = true;
		err("cmark-gfm has no '%s'", missing);
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
