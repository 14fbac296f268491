/* not C: the compiler's error is reported */
#include <linux/types.h>
struct bad_args {
	__u64 flags /* 0: none */
	__u64 mode; /* 0: none */
};
