#include "base/diag.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "base/banned.h"

static const char *where_file;
static unsigned long where_line, nerrors;
static bool quiet;

bool diag_set_quiet(bool q)
{
	bool was = quiet;
	quiet = q;
	return was;
}

void diag_set_where(const char *file, unsigned long line)
{
	where_file = file;
	where_line = line;
}

unsigned long diag_error_count(void) { return nerrors; }

/* Messages quote user input: never let it drive the terminal. Control characters and
 * bytes that are not UTF-8 are written as \xNN. */
static void put_safe(FILE *fp, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		unsigned char c = *p;
		int n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 && c >= 0xc2 ? 2 : (c & 0xf0) == 0xe0 ? 3 :
			(c & 0xf8) == 0xf0 && c <= 0xf4 ? 4 : 0;
		for (int i = 1; i < n; i++)
			if ((p[i] & 0xc0) != 0x80)
				n = 0;
		if (n == 1 && (c >= 0x20 || c == '\t') && c != 0x7f) {
			fputc(c, fp);
		} else if (n > 1) {
			fwrite(p, 1, (size_t)n, fp);
			p += n;
			continue;
		} else {
			fprintf(fp, "\\x%02x", c);
		}
		p++;
	}
}

static void report(const char *kind, const char *fmt, va_list ap)
{
	if (quiet)
		return;
	char small[512], *msg = small;
	va_list cp;
	va_copy(cp, ap);
	int n = vsnprintf(small, sizeof(small), fmt, cp);
	va_end(cp);
	if (n >= (int)sizeof(small)) {
		msg = malloc((size_t)n + 1);
		if (!msg)
			return;
		vsnprintf(msg, (size_t)n + 1, fmt, ap);
	}
	if (where_file) {
		put_safe(stderr, where_file);
		fprintf(stderr, ":%lu: %s", where_line, kind);
	} else {
		fprintf(stderr, "xsc: %s", kind);
	}
	put_safe(stderr, msg);
	fputc('\n', stderr);
	if (msg != small)
		free(msg);
}

int err(const char *fmt, ...)
{
	va_list ap;
	nerrors++;
	va_start(ap, fmt);
	report("", fmt, ap);
	va_end(ap);
	return -1;
}

int usage_err(const char *fmt, ...)
{
	va_list ap;
	nerrors++;
	va_start(ap, fmt);
	report("usage: ", fmt, ap);
	va_end(ap);
	return CMD_USAGE;
}

void warning(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report("warning: ", fmt, ap);
	va_end(ap);
}
