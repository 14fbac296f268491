/* versions that disagree with the layout and each other */
#include <linux/types.h>
struct vm_args {
	__u64 flags; /* 0: none */
	__u64 mode; /* 0: none */
};
#define VM_ARGS_SIZE_VER0 16
#define VM_ARGS_SIZE_VER1 8
#define VM_ARGS_SIZE_VER2 24
