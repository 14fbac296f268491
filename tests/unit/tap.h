/* A tiny TAP producer for the C unit tests. */
#ifndef XSC_TAP_H
#define XSC_TAP_H
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

#define ok(cond, ...)                                                    \
	do {                                                             \
		int tap_c_ = !!(cond);                                   \
		tap_n++;                                                 \
		if (tap_c_) {                                            \
			printf("ok %d - ", tap_n);                       \
		} else {                                                 \
			tap_failed++;                                    \
			printf("not ok %d - ", tap_n);                   \
		}                                                        \
		printf(__VA_ARGS__);                                     \
		printf(tap_c_ ? "\n" : "  (%s:%d)\n", __FILE__, __LINE__); \
	} while (0)

#define is_str(got, want, ...) ok(!strcmp((got), (want)), __VA_ARGS__); \
	if (strcmp((got), (want))) printf("#   got:  '%s'\n#   want: '%s'\n", (got), (want))

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}
#endif
