/* transcript: a session recorded as Markdown (--transcript FILE.md, 'transcript FILE.md'),
 * and the output capture it (and demos, lessons) stand on: stdout and stderr of one command
 * redirected into temporary files at the descriptor level, so everything a command prints,
 * through any stdio stream, is caught. */
#ifndef XSC_TRANSCRIPT_H
#define XSC_TRANSCRIPT_H
#include <stdio.h>
#include "base/sbuf.h"

struct capture {
	int saved_out, saved_err;
	FILE *out, *err;
};

/* Redirects descriptors 1 and 2 into temporary files. 0, or -1 (reported; nothing changed). */
int capture_begin(struct capture *c);
/* Restores them; what was written goes to out and err (either may be NULL to drop it). */
void capture_end(struct capture *c, struct sbuf *out, struct sbuf *err);

/* The Markdown of a transcript: a title, what it was recorded on (about), the session's state
 * before it as commands (state, NULL: none), then per command a heading-less block: the
 * command in an xsc fence, its output in a text fence, errors marked. 'load FILE.md' runs
 * the xsc fences again. */
void transcript_start(struct sbuf *md, const char *about, const char *state);
void transcript_add(struct sbuf *md, const char *command, const char *out, const char *err, int result);
#endif
