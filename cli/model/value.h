/* value: the value language of `set`, `size` and `expect`.
 *   42 0x2a 052 0b101 -1 ~0     integers, typed as in C (int, unsigned, long, unsigned long)
 *   O_CREAT|O_EXCL  SIGCHLD     flag names (the field's set first) and constants, with | & ^ + - << >>
 *   (int)0x80000000  (u32)-1    C casts with real C conversions: (int) (unsigned) (s8)…(u64) (long) (size_t) …
 *   "text"   &NAME              a pointer to a copy of the text, a pointer to another buffer
 * A plain `1<<63` widens to unsigned long instead of being undefined as in C. */
#ifndef XSC_VALUE_H
#define XSC_VALUE_H
#include <stdbool.h>
#include <stdint.h>
#include "base/sbuf.h"
#include "model/catalog.h"

enum value_kind { VK_INT, VK_STRING, VK_BUFREF };

struct value {
	enum value_kind kind;
	uint64_t bits;    /* VK_INT: the value as 64 bits, sign-extended when is_signed */
	unsigned width;   /* VK_INT: width of its C type in bits: 8, 16, 32, 64 */
	bool is_signed;
	char *text;       /* VK_STRING: the bytes (heap); VK_BUFREF: the buffer name (heap) */
	size_t text_len;
};

/* Parses text; names are looked up in fs first (may be NULL), then the catalogue.
 * On error reports "bad value 'TEXT': …" with a column and an unknown name's nearest match,
 * and returns -1. Release with value_release(). */
int value_parse(const struct catalog *c, const struct flagset *fs, const char *text, struct value *out);
/* The same, reporting nothing: what is wrong goes into why (NULL: nowhere), for a caller to
 * which a value that does not parse is an answer (a strace line's arguments). */
int value_parse_why(const struct catalog *c, const struct flagset *fs, const char *text, struct value *out,
		    struct sbuf *why);
void value_release(struct value *v);
/* The C type name of an integer value: "int", "unsigned int", "long", "unsigned long", … */
const char *value_type_name(const struct value *v);
/* Converts v for storage in an integer of bits width/signedness, as C does, but refuses values
 * the field cannot represent (a negative value is accepted in an unsigned field when it fits
 * the signed type of the same width: it is stored in two's complement).
 * On success *out holds the stored bits and *sign_extended tells whether a negative value of
 * a narrower type filled the upper bits with ones. On failure writes why into why. */
int value_convert(const struct value *v, unsigned bits, bool is_signed, uint64_t *out,
		  bool *sign_extended, struct sbuf *why);
#endif
