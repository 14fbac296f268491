/* fetch: reads a header from a path or a URL (http, https, file) into memory.
 * libcurl is loaded with dlopen on the first URL, so runs that fetch nothing pay nothing.
 * TLS is verified; file: only when the user typed it, redirects only to http and https; the
 * body is capped (4 MiB by default, also after decompression) and so are the connect and
 * total times. Credentials in a URL (user:password@) reach the server only: every message
 * and display name shows them redacted. A cache directory is used only when it is the
 * user's own and writable by nobody else; so is each file in it. Never runs what it fetches. */
#ifndef XSC_FETCH_H
#define XSC_FETCH_H
#include <stdbool.h>
#include <stddef.h>
#include "base/sbuf.h"

#define FETCH_MAX_DEFAULT ((size_t)4 << 20)

struct fetch_opts {
	size_t max_size;          /* bytes; 0: FETCH_MAX_DEFAULT */
	long timeout_ms;          /* total; 0: 30000 */
	long connect_timeout_ms;  /* 0: 10000 */
	const char *cache_dir;    /* NULL: no cache */
	bool no_progress;         /* never draw the progress bar */
};
#define FETCH_OPTS_INIT { 0, 0, 0, NULL, false }

/* Does s look like SCHEME://…? */
bool fetch_is_url(const char *s);
/* Appends text to out with the password of every URL in it replaced by *** (a user name
 * alone, often a token, by ***), as curl shows them: https://user:***@host/. */
void fetch_redact(const char *text, struct sbuf *out);
/* Fetches url into body (appended). Returns 0, or -1 after err() with a precise message:
 * bad URL, unsupported protocol (also for a redirect), HTTP status, timeout, too large,
 * connection refused, TLS verification. */
int fetch_url(const char *url, const struct fetch_opts *o, struct sbuf *body);
/* A path, a URL, or a system header name such as linux/openat2.h (tried under
 * /usr/include when no such file exists here). *display (heap, caller frees) is the name
 * to use in messages and outputs: a URL's credentials are redacted in it. */
int fetch_source(const char *src, const struct fetch_opts *o, struct sbuf *text, char **display);
/* Takes one of --cache DIR, --timeout MS, --connect-timeout MS, --max-size N at argv[*i]:
 * 1 taken (and *i advanced past its value), 0 not a fetch option, -1 bad value (reported). */
int fetch_parse_opt(struct fetch_opts *o, int argc, char **argv, int *i);
#endif
