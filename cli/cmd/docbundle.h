/* docbundle: what docs, site and doc share (cmd_docs.c): the generated reference, the
 * hand-written pages of docs/guide and docs/lessons, and where the source tree is. */
#ifndef XSC_DOCBUNDLE_H
#define XSC_DOCBUNDLE_H
#include "docs/docgen.h"
#include "model/census.h"
#include "session.h"

struct doc_file {
	char *path;  /* relative to docs/: "guide/conventions.md" */
	char *title;
	char *text;
	size_t len;
};

struct docbundle {
	char *root;                 /* the source tree: the catalogue directory's parent */
	char *site_dir;             /* the site's templates: root/site, else the default's */
	struct doc_command *cmds;
	struct doc_option *opts;
	struct doc_file *files;     /* guide pages first, then lessons */
	size_t nfiles, nguide;
	struct doc_link *guide, *lessons;
	struct census census;       /* data/census/census.json, when there is one */
	struct docgen_input in;
	struct doc_set ref;         /* docs/reference, generated */
	struct session *s;
	const char *measured_extra; /* reports beside the catalogue's measured/ (site --measured DIR), or NULL */
};

/* Loads everything; with probe non-NULL the pages carry this kernel's results; with topic
 * non-NULL the reference holds only that topic's page (docgen_reference_topic). 0 or -1. */
int docbundle_init(struct docbundle *b, struct session *s, const struct probe_run *probe, const char *topic);
/* The same, the matrices also showing the reports in measured (NULL: the catalogue's own
 * measured/ only); b must stay where it is while the bundle lives. */
int docbundle_init_measured(struct docbundle *b, struct session *s, const struct probe_run *probe, const char *topic,
			    const char *measured);
void docbundle_release(struct docbundle *b);
#endif
