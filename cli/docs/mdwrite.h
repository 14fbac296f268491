/* mdwrite: Markdown escaping of catalogue strings, shared by docgen, the site and tests. */
#ifndef XSC_MDWRITE_H
#define XSC_MDWRITE_H
#include <stdbool.h>
#include "base/sbuf.h"

void md_text(struct sbuf *sb, const char *s);          /* inline text: nothing is markup */
void md_code(struct sbuf *sb, const char *s, bool in_table); /* an inline code span */
void md_anchor_id(struct sbuf *sb, const char *prefix, const char *name); /* "field-flags" */

/* An ASCII letter or digit, whatever the locale. */
static inline bool md_is_alnum(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}
#endif
