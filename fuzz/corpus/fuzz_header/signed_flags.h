/* a signed flags field */
#include <linux/types.h>
struct sf_args {
	__s32 flags; /* 0: none */
	__u32 pad; /* 0: must be zero */
};
#define SF_ARGS_SIZE_VER0 8
