/* fields that do not say what zero means */
#include <linux/types.h>
struct zd_args {
	__u64 flags; /* the flags */
	__u64 mode;
};
#define ZD_ARGS_SIZE_VER0 16
