/* kver: kernel release numbers ("5.6", "2.6.31", "6.18.44") as ordered integers. */
#ifndef XSC_KVER_H
#define XSC_KVER_H
#include <stdbool.h>
#include <stdint.h>

#define KVER(a, b, c) (((uint32_t)(a) << 16) | ((uint32_t)(b) << 8) | (uint32_t)(c))
/* Parses "A.B" or "A.B.C" (each part 0..255, trailing "-suffix" ignored when lenient).
 * Returns 0 or -1. */
int kver_parse(const char *s, uint32_t *out, int lenient);
/* Formats into buf (at least 16 bytes); returns buf. "6.18", or "2.6.31" when the third
 * part is nonzero. */
char *kver_str(uint32_t v, char buf[16]);
/* The release a version belongs to: 6.18.44 → 6.18, but 2.6.31 stays (before 3.0 the
 * third number was the release). */
uint32_t kver_release(uint32_t v);
/* Parses ARG as a version from lo to any patch level of hi's release; otherwise reports
 * "WHAT …" naming the span and returns -1. */
int kver_parse_within(const char *what, const char *arg, uint32_t lo, uint32_t hi, uint32_t *kv);
/* The stable releases a change was backported to ("backported": 6.1.192), at most this many
 * per change, in a zero-terminated array. */
#define KVER_NBACKPORTS 4
/* Whether kernel kv has a change that came in `since`: at or after it, or in the stable series
 * of one of the backports bp at or past its patch level (6.1.192 has what 6.1 lacks). */
bool kver_has(uint32_t kv, uint32_t since, const uint32_t bp[KVER_NBACKPORTS]);
#endif
