/* a raw pointer and a long */
#include <linux/types.h>
struct ptr_args {
	const char *path; /* NULL: none */
	unsigned long len; /* 0: empty */
};
#define PTR_ARGS_SIZE_VER0 16
