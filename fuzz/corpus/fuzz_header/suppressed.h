/* an inline comment silences one rule */
#include <linux/types.h>
struct sup_args {
	__u32 flags; /* 0: none */
	/* xsc-lint: ignore PADDING_HOLE */
	__u64 addr; /* 0: none */
	int fd; /* 0: none xsc-lint: ignore NON_FIXED_WIDTH */
	__u32 pad; /* must be zero */
};
#define SUP_ARGS_SIZE_VER0 24
