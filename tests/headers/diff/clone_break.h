/* clone_args, broken: a field inserted in the middle, a published size changed, a flag renumbered */
#ifndef _XSC_FIXTURE_H
#define _XSC_FIXTURE_H
#include <linux/types.h>

#define CLONE_VM	0x00000100	/* set if VM shared between processes */
#define CLONE_FS	0x00000400	/* renumbered */
#define CLONE_PIDFD	0x00001000	/* set if a pidfd should be placed in parent */

struct clone_args {
	__aligned_u64 flags;
	__aligned_u64 pidfd;
	__aligned_u64 child_tid;
	__aligned_u64 parent_tid;
	__u32 exit_signal;
	__u32 cpu; /* inserted */
	__aligned_u64 stack;
	__aligned_u64 stack_size;
	__aligned_u64 tls;
	__aligned_u64 set_tid;
	__aligned_u64 set_tid_size;
};

#define CLONE_ARGS_SIZE_VER0 72
#define CLONE_ARGS_SIZE_VER1 80
#endif
