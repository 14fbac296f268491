/* a size that is not a multiple of 8 */
#include <linux/types.h>
struct odd_args {
	__u32 flags; /* 0: none */
	__u32 mode; /* 0: none */
	__u32 extra; /* 0: none */
};
#define ODD_ARGS_SIZE_VER0 12
