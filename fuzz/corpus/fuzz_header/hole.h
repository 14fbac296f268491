/* implicit padding between fields */
#include <linux/types.h>
struct hole_args {
	__u32 flags; /* 0: none */
	__u64 addr; /* 0: none */
};
#define HOLE_ARGS_SIZE_VER0 16
