/* a VERn inside a field */
#include <linux/types.h>
struct vb_args {
	__u64 flags; /* 0: none */
	__u64 mode; /* 0: none */
};
#define VB_ARGS_SIZE_VER0 12
#define VB_ARGS_SIZE_VER1 16
