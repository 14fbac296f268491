/* versions without a VER0 */
#include <linux/types.h>
struct nv_args {
	__u64 flags; /* 0: none */
	__u64 mode; /* 0: none */
};
#define NV_ARGS_SIZE_VER1 16
