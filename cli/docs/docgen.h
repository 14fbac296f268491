/* docgen: the catalogue (and a list of commands handed in by the caller) as Markdown pages
 * in memory: the reference index, one page per syscall and per struct, the command
 * reference, the man page's source and the bash completion. Never prints, never includes
 * the command table (cmd/ hands in struct doc_command rows).
 *
 * Pages link to each other with relative ".md" paths, so they read on any forge; the site
 * turns those into ".html". Anchors for fields and flags are written as self links with
 * the title "anchor" ([`flags`](#field-flags "anchor")); the site makes them link targets.
 * Everything the catalogue says is escaped: no catalogue string can become Markdown
 * structure, raw HTML or a link other than an http(s) autolink. Output is deterministic:
 * no dates, no absolute paths. */
#ifndef XSC_DOCGEN_H
#define XSC_DOCGEN_H
#include <stdbool.h>
#include <stddef.h>
#include "base/sbuf.h"
#include "model/catalog.h"
#include "docs/mdwrite.h"

struct probe_run;
struct census;

struct doc_command {
	const char *name, *synopsis, *summary, *help;
	const char *comp[3]; /* what arguments complete to: "command", "entity", "file", "" */
};

/* A hand-written page found in docs/ (guide, lessons), for the index. */
struct doc_link {
	char *path;  /* relative to docs/: "guide/conventions.md" */
	char *title; /* its first heading */
};

struct doc_page {
	char *path;   /* relative to the reference root: "syscalls/openat2.md", "matrix/openat2.svg" */
	char *title;
	char *section; /* "Reference", "Syscalls", "Structs", "Commands" */
	struct sbuf text;
	bool markdown; /* false: an asset copied as is (an SVG) */
};

struct doc_set {
	struct doc_page *pages;
	size_t n, alloc;
};

struct doc_option {
	const char *flag, *arg, *help;
};

struct docgen_input {
	const struct catalog *cat;
	const struct doc_command *cmds;
	size_t ncmds;
	const struct doc_option *opts; /* the global options, for the man page */
	size_t nopts;
	const struct doc_link *guide, *lessons;
	size_t nguide, nlessons;
	/* The compatibility matrix of one syscall, from the matrix command when the build has
	 * one (NULL otherwise): Markdown appended to md, or an SVG document into svg (either
	 * may be NULL). Returns 0 when it produced something. */
	int (*matrix)(void *ctx, const struct syscall *sc, struct sbuf *md, struct sbuf *svg);
	void *ctx;
	const struct probe_run *probe; /* optional: this kernel's results (site --probe) */
	const struct census *census;   /* optional: data/census/census.json (the census page) */
};

/* Every reference page, in a fixed order. */
void docgen_reference(const struct docgen_input *in, struct doc_set *out);
/* Only the pages doc_set_find could return for topic, as docgen_reference makes them:
 * `doc openat2` builds one page, not the whole reference. */
void docgen_reference_topic(const struct docgen_input *in, const char *topic, struct doc_set *out);
/* The title of every page docgen_reference makes (for "did you mean"); free each and the array. */
char **docgen_reference_titles(const struct docgen_input *in, size_t *n);
void doc_set_release(struct doc_set *set);
struct doc_page *doc_set_add(struct doc_set *set, const char *path, const char *title, const char *section,
			     bool markdown);
/* The page of a topic ("openat2", "struct open_how", "commands", "index"), or NULL. */
const struct doc_page *doc_set_find(const struct doc_set *set, const char *topic);
/* A Markdown list of links to hand-written pages, each address prefix + the page's path. */
void doc_link_list(struct sbuf *sb, const struct doc_link *links, size_t n, const char *prefix);

/* The site's home page (paths relative to the site root). */
/* The commands page (reference/commands.md), from the command rows handed in. */
void docgen_commands_page(const struct docgen_input *in, struct doc_set *set);
#define DOCGEN_COMMANDS_TITLE "Commands"
void docgen_home(const struct docgen_input *in, struct sbuf *md);
/* The Markdown source of xsc.1 (NAME, SYNOPSIS, DESCRIPTION, OPTIONS, COMMANDS, ...). */
void docgen_man(const struct docgen_input *in, struct sbuf *md);
/* A bash completion script for xsc: commands, options and catalogue names. */
void docgen_bash_completion(const struct docgen_input *in, struct sbuf *sh);

#endif
