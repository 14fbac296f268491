/* implicit tail padding */
#include <linux/types.h>
struct tail_args {
	__u64 addr; /* 0: none */
	__u32 flags; /* 0: none */
};
#define TAIL_ARGS_SIZE_VER0 16
