/* int and unsigned int instead of __s32/__u32 */
#include <linux/types.h>
struct nf_args {
	unsigned int flags; /* 0: none */
	int fd; /* 0: stdin, sadly */
};
#define NF_ARGS_SIZE_VER0 8
