/* the size inside the struct */
#include <linux/types.h>
struct sz_attr {
	__u32 size; /* 0: VER0 */
	__u32 flags; /* 0: none */
};
#define SZ_ATTR_SIZE_VER0 8
