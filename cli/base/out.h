/* out: results on stdout, as text for people or as one JSON document per command.
 * The JSON calls (out_obj, out_str, …) write nothing in text mode and out_text writes
 * nothing in JSON mode, so a command states each datum once for each audience.
 * The writer checks that objects and arrays nest and close (BUG otherwise). */
#ifndef XSC_OUT_H
#define XSC_OUT_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "base/util.h"

enum out_color { OC_RESET, OC_BOLD, OC_DIM, OC_RED, OC_GREEN, OC_YELLOW, OC_CYAN }; /* term_colors' order */

struct out {
	FILE *fp;
	bool json, color;
	int depth;
	bool first[64];
	bool is_array[64];
};

void out_init(struct out *o, FILE *fp, bool json, bool color);
/* key is NULL inside arrays and at the top level. */
void out_obj(struct out *o, const char *key);
void out_arr(struct out *o, const char *key);
void out_end(struct out *o);
void out_str(struct out *o, const char *key, const char *v); /* v NULL: null */
void out_u64(struct out *o, const char *key, uint64_t v);
void out_s64(struct out *o, const char *key, int64_t v);
void out_bool(struct out *o, const char *key, bool v);
void out_null(struct out *o, const char *key);
/* Bytes as a string of hex pairs (JSON only, as the other out_ values). */
void out_hex(struct out *o, const char *key, const unsigned char *p, size_t n);
/* Text mode only; control characters in the text are shown escaped (safe_text). */
void out_text(struct out *o, const char *fmt, ...) PRINTF_LIKE(2, 3);
void out_puts(struct out *o, const char *s);
/* Text that a renderer made terminal-ready itself (termdoc's styles and hyperlinks):
 * written as it is. Everything else goes through out_text or out_puts, which sanitise. */
void out_raw(struct out *o, const char *s);
/* The escape sequence for c when colour is on, else "". */
const char *out_color(const struct out *o, enum out_color c);
/* Ends a JSON document (newline); BUG if anything is still open. */
void out_done(struct out *o);
/* JSON string escaping, for other writers. */
struct sbuf;
void json_quote_into(struct sbuf *sb, const char *s);
#endif
