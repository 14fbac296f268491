#include "base/diag.h"
#include <stdarg.h>
#include <stdio.h>
#include "base/banned.h"

static const char *where_file;
static unsigned long where_line, nerrors;

void diag_set_where(const char *file, unsigned long line)
{
	where_file = file;
	where_line = line;
}

unsigned long diag_error_count(void) { return nerrors; }

static void report(const char *kind, const char *fmt, va_list ap)
{
	if (where_file)
		fprintf(stderr, "%s:%lu: %s", where_file, where_line, kind);
	else
		fprintf(stderr, "xsc: %s", kind);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
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
