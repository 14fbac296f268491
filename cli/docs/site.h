/* site: Markdown pages rendered with cmark-gfm (safe mode) into a static site: one template
 * and its CSS/JS from site/, navigation, breadcrumbs, heading/field/flag anchors, version
 * badges, a prebuilt search index (a .js file, so it works from file://), pictures copied
 * as they are. Reproducible: the same input gives the same bytes. Written atomically: the
 * site is built in a temporary directory beside the target, then swapped into place. */
#ifndef XSC_SITE_H
#define XSC_SITE_H
#include <stdbool.h>
#include <stddef.h>
#include "base/sbuf.h"

struct site_page {
	const char *path;    /* relative to the site root: "reference/syscalls/openat2.md" */
	const char *title;
	const char *section; /* "Guide", "Reference", "Syscalls", "Structs", "Lessons", "" (home) */
	const char *text;
	size_t len;
	bool markdown;       /* false: copied as is (an SVG) */
};

struct site_stats {
	size_t pages, files, bytes, index_entries;
};

/* Builds the site from pages into out_dir, with the template and assets of assets_dir.
 * Refuses to replace an existing directory that is not a site xsc built. 0 or -1 (reported). */
int site_build(const char *out_dir, const char *assets_dir, const struct site_page *pages, size_t n,
	       struct site_stats *st);
/* A man page from Markdown through cmark's man renderer; date may be "" (none). */
int site_render_man(const char *md, size_t len, const char *name, const char *date, struct sbuf *out);
/* The site path of a Markdown page: "a/b.md" -> "a/b.html". */
void site_html_path(struct sbuf *sb, const char *md_path);
/* A GitHub-style heading slug ("Size versions" -> "size-versions"). */
void site_slug(struct sbuf *sb, const char *text);
#endif
