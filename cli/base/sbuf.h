/* sbuf: a growable NUL-terminated string buffer (git's strbuf, smaller).
 * Invariant: buf is never NULL and buf[len] == '\0'. */
#ifndef XSC_SBUF_H
#define XSC_SBUF_H
#include <stdarg.h>
#include <stddef.h>
#include "base/util.h"

struct sbuf {
	char *buf;
	size_t len, alloc;
};
extern char sbuf_empty[];
#define SBUF_INIT { sbuf_empty, 0, 0 }

void sbuf_init(struct sbuf *sb);
void sbuf_release(struct sbuf *sb);            /* frees; sb is SBUF_INIT again */
char *sbuf_detach(struct sbuf *sb);            /* caller frees the result */
void sbuf_reset(struct sbuf *sb);              /* len = 0, memory kept */
void sbuf_grow(struct sbuf *sb, size_t extra);
void sbuf_add(struct sbuf *sb, const void *data, size_t n);
void sbuf_adds(struct sbuf *sb, const char *s);
void sbuf_addch(struct sbuf *sb, int c);
void sbuf_addf(struct sbuf *sb, const char *fmt, ...) PRINTF_LIKE(2, 3);
void sbuf_vaddf(struct sbuf *sb, const char *fmt, va_list ap);
void sbuf_pad(struct sbuf *sb, size_t col);     /* spaces until len >= col (at least one) */
/* s (NULL: nothing) as HTML or XML text or a quoted attribute: & < > " escaped, nothing else
 * (' and / as they are: cmark's escaping, which the site and SVG pictures share) */
void sbuf_addhtml(struct sbuf *sb, const char *s);
#endif
