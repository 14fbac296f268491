#include "base/diag.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/sbuf.h"
#include "base/banned.h"

static const char *where_file;
static unsigned long where_line, nerrors;
static void (*sink)(const char *kind, const char *msg, void *arg);
static void *sink_arg;
static FILE *stream; /* NULL: stderr */
static bool keep;
static struct diag_error *kept;
static size_t nkept, kept_alloc;

FILE *diag_set_stream(FILE *fp)
{
	FILE *was = stream;
	stream = fp;
	return was;
}

bool diag_keep_errors(bool on)
{
	bool was = keep;
	keep = on;
	return was;
}

const struct diag_error *diag_kept(size_t *n)
{
	*n = nkept;
	return kept;
}

void diag_kept_clear(size_t from)
{
	for (size_t i = from; i < nkept; i++) {
		free(kept[i].where);
		free(kept[i].msg);
	}
	if (from < nkept)
		nkept = from;
}

void diag_set_sink(void (*fn)(const char *kind, const char *msg, void *arg), void *arg)
{
	sink = fn;
	sink_arg = arg;
}

struct diag_sink diag_swap_sink(struct diag_sink to)
{
	struct diag_sink was = { sink, sink_arg };
	sink = to.fn;
	sink_arg = to.arg;
	return was;
}

void diag_discard(const char *kind, const char *msg, void *arg)
{
	(void)kind, (void)msg, (void)arg;
}

void diag_set_where(const char *file, unsigned long line)
{
	where_file = file;
	where_line = line;
}

unsigned long diag_error_count(void) { return nerrors; }

/* The length of the UTF-8 sequence at p (at most n bytes), or 0 when it is not one. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	unsigned char c = p[0];
	size_t k = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 && c >= 0xc2 ? 2 : (c & 0xf0) == 0xe0 ? 3 :
		(c & 0xf8) == 0xf0 && c <= 0xf4 ? 4 : 0;
	if (k > n)
		return 0;
	for (size_t i = 1; i < k; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	/* overlong forms, surrogates and code points past U+10FFFF are not UTF-8 */
	if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] >= 0xa0) || (c == 0xf0 && p[1] < 0x90) ||
	    (c == 0xf4 && p[1] >= 0x90))
		return 0;
	return k;
}

/* Code points that act on the terminal or reorder the line even when well encoded: C1
 * controls (U+0080-U+009F; U+009B is a CSI) and the bidirectional overrides of "Trojan
 * source" (U+202A-U+202E, U+2066-U+2069). */
static bool active_code_point(const unsigned char *p, size_t k)
{
	if (k == 2)
		return p[0] == 0xc2 && p[1] < 0xa0;
	if (k == 3 && p[0] == 0xe2 && p[1] == 0x80)
		return p[2] >= 0xaa && p[2] <= 0xae;
	if (k == 3 && p[0] == 0xe2 && p[1] == 0x81)
		return p[2] >= 0xa6 && p[2] <= 0xa9;
	return false;
}

const char *const term_colors[TERM_NCOLORS] = { "\033[0m", "\033[1m", "\033[2m", "\033[1;31m", "\033[32m",
						 "\033[33m", "\033[36m" };

/* The length of one of the colour sequences xsc itself writes (term_colors) at p, else 0.
 * Only those: a catalogue string could otherwise conceal text (ESC [ 8 m) or paint it black
 * on black. */
static size_t sgr_len(const char *p, size_t n)
{
	for (size_t i = 0; i < TERM_NCOLORS; i++) {
		size_t k = strlen(term_colors[i]);
		if (k <= n && !memcmp(p, term_colors[i], k))
			return k;
	}
	return 0;
}

size_t safe_char(const char *s, size_t n, bool *raw)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t k = utf8_len(p, n);
	*raw = k == 1 ? p[0] >= 0x20 && p[0] != 0x7f : k > 1 && !active_code_point(p, k);
	return k ? k : 1;
}

void safe_text(struct sbuf *sb, const char *s, size_t n, unsigned keep)
{
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0, k; i < n; i += k) {
		bool raw;
		unsigned char c = p[i];
		if (c == 033 && (keep & SAFE_SGR) && (k = sgr_len(s + i, n - i))) {
			sbuf_add(sb, p + i, k);
			continue;
		}
		k = safe_char(s + i, n - i, &raw);
		raw |= (c == '\n' && (keep & SAFE_NL)) || (c == '\t' && (keep & SAFE_TAB));
		for (size_t j = 0; j < k; j++)
			if (raw)
				sbuf_addch(sb, p[i + j]);
			else
				sbuf_addf(sb, "\\x%02x", p[i + j]);
	}
}

/* Messages quote user input: never let it drive the terminal. */
static void put_safe(FILE *fp, const char *s)
{
	struct sbuf sb = SBUF_INIT;
	safe_text(&sb, s, strlen(s), SAFE_TAB);
	fwrite(sb.buf, 1, sb.len, fp);
	sbuf_release(&sb);
}

/* "WHERE: kind message", WHERE being "FILE:LINE" (line > 0) or as given. */
static void print(const char *kind, const char *where, unsigned long line, const char *msg)
{
	FILE *fp = stream ? stream : stderr;
	put_safe(fp, where);
	if (line)
		fprintf(fp, ":%lu", line);
	fprintf(fp, ": %s", kind);
	put_safe(fp, msg);
	fputc('\n', fp);
}

static void keep_error(const char *msg)
{
	struct sbuf where = SBUF_INIT;
	if (where_file)
		sbuf_addf(&where, "%s:%lu", where_file, where_line);
	else
		sbuf_adds(&where, "xsc");
	ALLOC_GROW(kept, nkept + 1, kept_alloc);
	kept[nkept].where = sbuf_detach(&where);
	kept[nkept++].msg = xstrdup(msg);
}

static void report(const char *kind, const char *fmt, va_list ap)
{
	if (sink == diag_discard)
		return; /* not even formatted: the fuzzers call this in a loop */
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
	if (sink)
		sink(kind, msg, sink_arg);
	else if (keep && strcmp(kind, "warning: "))
		keep_error(msg);
	else
		print(kind, where_file ? where_file : "xsc", where_file ? where_line : 0, msg);
	if (msg != small)
		free(msg);
}

void diag_kept_print(size_t from)
{
	for (size_t i = from; i < nkept; i++)
		print("", kept[i].where, 0, kept[i].msg);
	diag_kept_clear(from);
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

int suggest_err(const struct suggest *sg, const char *otherwise, const char *fmt, ...)
{
	struct sbuf msg = SBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sbuf_vaddf(&msg, fmt, ap); /* NOLINT(clang-analyzer-valist.Uninitialized): clang 14 false positive */
	va_end(ap);
	const char *best = suggest_best(sg);
	int r = best ? err("%s (did you mean '%s'?)", msg.buf, best)
		     : err("%s%s%s", msg.buf, otherwise ? "; " : "", otherwise ? otherwise : "");
	sbuf_release(&msg);
	return r;
}

void warning(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	report("warning: ", fmt, ap);
	va_end(ap);
}
