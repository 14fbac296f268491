/* mdwrite: catalogue strings written into Markdown so that none becomes structure: text,
 * code spans and anchor ids (docgen.h's header comment says what is escaped and why). */
#include "docs/mdwrite.h"
#include <string.h>
#include "base/diag.h"
#include "base/util.h"
#include "base/banned.h"

/* Length of the character at p if it may be written as it is (safe_char: valid UTF-8, no
 * C1 control, no bidirectional override), 0 when not. */
static int utf8_len(const unsigned char *p)
{
	bool raw;
	size_t n = safe_char((const char *)p, strnlen((const char *)p, 4), &raw);
	return raw ? (int)n : 0;
}

void md_text(struct sbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	const unsigned char *start = p;
	while (*p) {
		unsigned char c = *p;
		if (c == '\n' || c == '\r' || c == '\t') {
			sbuf_addch(sb, ' ');
		} else if (c < 0x20 || c == 0x7f) {
			sbuf_addf(sb, "\\\\x%02x", c); /* visible, and not a control character */
		} else if (c >= 0x80) {
			int n = utf8_len(p);
			if (n) {
				sbuf_add(sb, p, (size_t)n);
				p += n;
				continue;
			}
			sbuf_adds(sb, "\xef\xbf\xbd");
		} else if (strchr("\\`*[]<>&|~!", c) ||
			   (c == '_' && (p == start || !md_is_alnum(p[-1]) || !md_is_alnum(p[1]))) ||
			   (p == start && strchr("#+-=>", c))) {
			sbuf_addch(sb, '\\');
			sbuf_addch(sb, c);
		} else if ((c == '.' || c == ')') && p > start) {
			/* "1." or "1)" at the start would begin a list */
			const unsigned char *q = start;
			while (q < p && *q >= '0' && *q <= '9')
				q++;
			if (q == p)
				sbuf_addch(sb, '\\');
			sbuf_addch(sb, c);
		} else {
			sbuf_addch(sb, c);
		}
		p++;
	}
}

void md_code(struct sbuf *sb, const char *s, bool in_table)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	struct sbuf body = SBUF_INIT;
	size_t run = 0, maxrun = 0;
	for (; *p; p++) {
		unsigned char c = *p;
		if (c == '`') {
			if (++run > maxrun)
				maxrun = run;
		} else {
			run = 0;
		}
		if (c < 0x20 || c == 0x7f) {
			sbuf_adds(&body, c == '\n' || c == '\t' || c == '\r' ? " " : "\xef\xbf\xbd");
		} else if (c >= 0x80) {
			int n = utf8_len(p);
			if (n) {
				sbuf_add(&body, p, (size_t)n);
				p += n - 1;
			} else {
				sbuf_adds(&body, "\xef\xbf\xbd");
			}
		} else if (c == '|' && in_table) {
			sbuf_adds(&body, "\\|");
		} else {
			sbuf_addch(&body, c);
		}
	}
	size_t ticks = maxrun + 1;
	bool pad = body.len && (body.buf[0] == '`' || body.buf[body.len - 1] == '`' || body.buf[0] == ' ');
	for (size_t i = 0; i < ticks; i++)
		sbuf_addch(sb, '`');
	if (pad)
		sbuf_addch(sb, ' ');
	sbuf_add(sb, body.buf, body.len);
	if (pad)
		sbuf_addch(sb, ' ');
	for (size_t i = 0; i < ticks; i++)
		sbuf_addch(sb, '`');
	sbuf_release(&body);
}

void md_anchor_id(struct sbuf *sb, const char *prefix, const char *name)
{
	sbuf_adds(sb, prefix);
	for (const char *p = name; *p; p++)
		sbuf_addch(sb, md_is_alnum((unsigned char)*p) || *p == '_' ? *p : '-');
}
