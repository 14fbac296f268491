/* an include that cannot be found is reported, not fatal */
#include <linux/types.h>
#include <linux/no_such_header_xsc.h>
struct mi_args {
	__u64 flags; /* 0: none */
};
#define MI_ARGS_SIZE_VER0 8
