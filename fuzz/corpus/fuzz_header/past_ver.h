/* a field past the newest VERn */
#include <linux/types.h>
struct pv_args {
	__u64 flags; /* 0: none */
	__u64 mode; /* 0: none */
	__u64 extra; /* 0: none */
};
#define PV_ARGS_SIZE_VER0 16
