#include "base/sbuf.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/banned.h"

char sbuf_empty[1];

void sbuf_init(struct sbuf *sb)
{
	sb->buf = sbuf_empty;
	sb->len = sb->alloc = 0;
}

void sbuf_release(struct sbuf *sb)
{
	if (sb->alloc)
		free(sb->buf);
	sbuf_init(sb);
}

char *sbuf_detach(struct sbuf *sb)
{
	char *r = sb->alloc ? sb->buf : xstrdup("");
	sbuf_init(sb);
	return r;
}

void sbuf_reset(struct sbuf *sb)
{
	sb->len = 0;
	if (sb->alloc)
		sb->buf[0] = '\0';
}

void sbuf_grow(struct sbuf *sb, size_t extra)
{
	if (sb->len + extra + 1 <= sb->alloc)
		return;
	size_t want = sb->len + extra + 1;
	size_t cap = sb->alloc ? sb->alloc : 64;
	while (cap < want)
		cap *= 2;
	if (!sb->alloc) {
		sb->buf = xmalloc(cap);
		sb->buf[0] = '\0';
	} else {
		sb->buf = xrealloc(sb->buf, cap);
	}
	sb->alloc = cap;
}

void sbuf_add(struct sbuf *sb, const void *data, size_t n)
{
	sbuf_grow(sb, n);
	memcpy(sb->buf + sb->len, data, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sbuf_adds(struct sbuf *sb, const char *s) { sbuf_add(sb, s, strlen(s)); }

void sbuf_addch(struct sbuf *sb, int c)
{
	sbuf_grow(sb, 1);
	sb->buf[sb->len++] = (char)c;
	sb->buf[sb->len] = '\0';
}

void sbuf_vaddf(struct sbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(sb->buf + sb->len, sb->alloc ? sb->alloc - sb->len : 0, fmt, cp); /* NOLINT(clang-analyzer-valist.Uninitialized) */
	va_end(cp);
	if (n < 0)
		BUG("vsnprintf failed");
	if (sb->len + (size_t)n + 1 > sb->alloc) {
		sbuf_grow(sb, (size_t)n);
		n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap); /* NOLINT(clang-analyzer-valist.Uninitialized) */
	}
	sb->len += (size_t)n;
}

void sbuf_addf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void sbuf_pad(struct sbuf *sb, size_t col)
{
	do
		sbuf_addch(sb, ' ');
	while (sb->len < col);
}

void sbuf_addhtml(struct sbuf *sb, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': sbuf_adds(sb, "&amp;"); break;
		case '<': sbuf_adds(sb, "&lt;"); break;
		case '>': sbuf_adds(sb, "&gt;"); break;
		case '"': sbuf_adds(sb, "&quot;"); break;
		default: sbuf_addch(sb, *s);
		}
	}
}
