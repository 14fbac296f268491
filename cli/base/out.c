#include "base/out.h"
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>
#include "base/diag.h"
#include "base/sbuf.h"
#include "base/banned.h"

void out_init(struct out *o, FILE *fp, bool json, bool color)
{
	memset(o, 0, sizeof(*o));
	o->fp = fp;
	o->json = json;
	o->color = color && !json;
	o->first[0] = true;
}

static void indent(struct out *o)
{
	fputc('\n', o->fp);
	for (int i = 0; i < o->depth; i++)
		fputs("  ", o->fp);
}

void json_quote_into(struct sbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	sbuf_addch(sb, '"');
	while (*p) {
		unsigned char c = *p;
		if (c == '"' || c == '\\') {
			sbuf_addch(sb, '\\');
			sbuf_addch(sb, c);
		} else if (c == '\n') {
			sbuf_adds(sb, "\\n");
		} else if (c == '\t') {
			sbuf_adds(sb, "\\t");
		} else if (c < 0x20 || c == 0x7f) {
			sbuf_addf(sb, "\\u%04x", c);
		} else if (c == 0xc2 && p[1] >= 0x80 && p[1] < 0xa0) {
			sbuf_addf(sb, "\\u%04x", p[1]); /* C1 controls: a CSI when printed raw */
			p += 2;
			continue;
		} else if (c < 0x80) {
			sbuf_addch(sb, c);
		} else {
			/* pass valid UTF-8 through, replace anything else */
			int n = (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
			int ok = n > 0 && !(n == 2 && c < 0xc2) && !(n == 4 && c > 0xf4);
			for (int i = 1; ok && i < n; i++)
				ok = (p[i] & 0xc0) == 0x80;
			if (ok) {
				sbuf_add(sb, p, (size_t)n);
				p += n;
				continue;
			}
			sbuf_adds(sb, "\\ufffd");
		}
		p++;
	}
	sbuf_addch(sb, '"');
}

static void put_key(struct out *o, const char *key)
{
	if (o->depth > 0) {
		if (!o->first[o->depth])
			fputc(',', o->fp);
		indent(o);
	} else if (!o->first[0]) {
		BUG("two JSON documents in one command");
	}
	o->first[o->depth] = false;
	bool in_array = o->depth > 0 && o->is_array[o->depth];
	if (in_array || o->depth == 0) {
		if (key)
			BUG("key inside an array");
		return;
	}
	if (!key)
		BUG("member without a key");
	struct sbuf sb = SBUF_INIT;
	json_quote_into(&sb, key);
	fputs(sb.buf, o->fp);
	fputs(": ", o->fp);
	sbuf_release(&sb);
}

static void open_nest(struct out *o, const char *key, bool array)
{
	if (!o->json)
		return;
	put_key(o, key);
	fputc(array ? '[' : '{', o->fp);
	if (++o->depth >= (int)ARRAY_SIZE(o->first))
		BUG("JSON nesting too deep");
	o->first[o->depth] = true;
	o->is_array[o->depth] = array;
}

void out_obj(struct out *o, const char *key) { open_nest(o, key, false); }
void out_arr(struct out *o, const char *key) { open_nest(o, key, true); }

void out_end(struct out *o)
{
	if (!o->json)
		return;
	if (o->depth <= 0)
		BUG("out_end without an open object");
	bool array = o->is_array[o->depth], empty = o->first[o->depth];
	o->depth--;
	if (!empty)
		indent(o);
	fputc(array ? ']' : '}', o->fp);
}

void out_str(struct out *o, const char *key, const char *v)
{
	if (!o->json)
		return;
	put_key(o, key);
	if (!v) {
		fputs("null", o->fp);
		return;
	}
	struct sbuf sb = SBUF_INIT;
	json_quote_into(&sb, v);
	fputs(sb.buf, o->fp);
	sbuf_release(&sb);
}

void out_u64(struct out *o, const char *key, uint64_t v)
{
	if (!o->json)
		return;
	put_key(o, key);
	fprintf(o->fp, "%" PRIu64, v);
}

void out_s64(struct out *o, const char *key, int64_t v)
{
	if (!o->json)
		return;
	put_key(o, key);
	fprintf(o->fp, "%" PRId64, v);
}

void out_bool(struct out *o, const char *key, bool v)
{
	if (!o->json)
		return;
	put_key(o, key);
	fputs(v ? "true" : "false", o->fp);
}

void out_null(struct out *o, const char *key)
{
	if (!o->json)
		return;
	put_key(o, key);
	fputs("null", o->fp);
}

void out_hex(struct out *o, const char *key, const unsigned char *p, size_t n)
{
	struct sbuf sb = SBUF_INIT;
	for (size_t i = 0; i < n; i++)
		sbuf_addf(&sb, "%02x", p[i]);
	out_str(o, key, sb.buf);
	sbuf_release(&sb);
}

/* Text mode writes through the sanitiser: catalogue strings, header lines, file names and
 * cache contents reach the terminal with their control characters shown, never obeyed.
 * Only the colour sequences out_color() makes (and the like) pass, and only with colour. */
static void put_text(struct out *o, const char *s, size_t n)
{
	struct sbuf sb = SBUF_INIT;
	safe_text(&sb, s, n, SAFE_NL | SAFE_TAB | (o->color ? SAFE_SGR : 0));
	fwrite(sb.buf, 1, sb.len, o->fp);
	sbuf_release(&sb);
}

void out_text(struct out *o, const char *fmt, ...)
{
	if (o->json)
		return;
	struct sbuf sb = SBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sbuf_vaddf(&sb, fmt, ap); /* NOLINT(clang-analyzer-valist.Uninitialized): clang 14 false positive */
	va_end(ap);
	put_text(o, sb.buf, sb.len);
	sbuf_release(&sb);
}

void out_puts(struct out *o, const char *s)
{
	if (!o->json)
		put_text(o, s, strlen(s));
}

void out_raw(struct out *o, const char *s)
{
	if (!o->json)
		fputs(s, o->fp);
}

_Static_assert(OC_CYAN + 1 == TERM_NCOLORS, "one colour sequence per out_color");

const char *out_color(const struct out *o, enum out_color c)
{
	/* the sanitiser lets exactly these through when colour is on */
	return o->color ? term_colors[c] : "";
}

void out_done(struct out *o)
{
	if (!o->json)
		return;
	if (o->depth != 0)
		BUG("unbalanced JSON output");
	if (!o->first[0])
		fputc('\n', o->fp);
	o->first[0] = true;
	fflush(o->fp);
}
