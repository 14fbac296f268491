/* fetch_redact (headers/fetch.h): a URL's password hidden in a text, apart from fetch.c
 * because the WebAssembly build, which fetches nothing, still writes transcripts through it. */
#include <string.h>
#include "headers/fetch.h"
#include "base/sbuf.h"
#include "base/banned.h"

/* The end of a URL's authority (user:password@host:port) that starts at p. */
static const char *authority_end(const char *p)
{
	return p + strcspn(p, "/?#\\ \t\n\"'<>");
}

void fetch_redact(const char *text, struct sbuf *out)
{
	const char *p = text;
	for (const char *s; (s = strstr(p, "://"));) {
		s += 3;
		const char *end = authority_end(s);
		const char *at = memrchr(s, '@', (size_t)(end - s));
		if (!at) {
			sbuf_add(out, p, (size_t)(end - p));
			p = end;
			continue;
		}
		const char *colon = memchr(s, ':', (size_t)(at - s));
		sbuf_add(out, p, (size_t)(s - p));
		if (colon)
			sbuf_add(out, s, (size_t)(colon - s)), sbuf_adds(out, ":***");
		else
			sbuf_adds(out, "***"); /* a lone user name is often a token */
		p = at;
	}
	sbuf_adds(out, p);
}
