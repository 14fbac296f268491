/* handout: a two-page printable cheat sheet for a room, as one HTML page (print CSS for A4):
 * the convention in one picture, the commands the lessons use (from the command table), the
 * size versions of the extensible structs and the errnos the catalogue documents, all from
 * the catalogue, so it is never out of date. */
#ifndef XSC_HANDOUT_H
#define XSC_HANDOUT_H
#include <stddef.h>
#include "base/sbuf.h"
#include "docs/docgen.h"
#include "model/catalog.h"

struct handout_input {
	const struct catalog *cat;
	const struct doc_command *cmds;  /* the command table */
	size_t ncmds;
	const char *const *lesson_words; /* the commands the lessons' solutions use, most used first */
	size_t nlesson_words;
	const char *version;             /* xsc's */
};

void handout_html(const struct handout_input *in, struct sbuf *out);
#endif
