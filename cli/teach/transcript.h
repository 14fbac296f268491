/* transcript: a session recorded as Markdown (--transcript FILE.md, 'transcript FILE.md').
 * What each command printed is caught by swapping the session's streams (session.h). */
#ifndef XSC_TRANSCRIPT_H
#define XSC_TRANSCRIPT_H
#include "base/sbuf.h"

/* The Markdown of a transcript: a title, what it was recorded on (about), the session's state
 * before it as commands (state, NULL: none), then per command a heading-less block: the
 * command in an xsc fence, its output in a text fence, errors marked. 'load FILE.md' runs
 * the xsc fences again. */
void transcript_start(struct sbuf *md, const char *about, const char *state);
void transcript_add(struct sbuf *md, const char *command, const char *out, const char *err, int result);
#endif
