/* clone_args as in include/uapi/linux/sched.h, 5.7: VER2 adds cgroup */
#ifndef _XSC_FIXTURE_H
#define _XSC_FIXTURE_H
#include <linux/types.h>

#define CLONE_VM	0x00000100	/* set if VM shared between processes */
#define CLONE_FS	0x00000200	/* set if fs info shared between processes */
#define CLONE_PIDFD	0x00001000	/* set if a pidfd should be placed in parent */
#define CLONE_INTO_CGROUP 0x200000000ULL /* clone into a specific cgroup given the right permissions */
/**
 * struct clone_args - arguments for the clone3 syscall
 * @flags: flags for the new process; 0: fork semantics
 * @pidfd: where to store the pidfd; 0 unless CLONE_PIDFD
 * @child_tid: child's tid in child memory; 0: none
 * @parent_tid: child's tid in parent memory; 0: none
 * @exit_signal: signal to the parent on exit; 0: none
 * @stack: lowest address of the stack; 0: share the parent's
 * @stack_size: size of the stack; 0 with a 0 stack
 * @tls: new TLS; 0 unless CLONE_SETTLS
 * @set_tid: pointer to an array of tids; 0: none
 * @set_tid_size: length of set_tid; 0: none
 * @cgroup: cgroup fd; 0 unless CLONE_INTO_CGROUP
 */
struct clone_args {
	__aligned_u64 flags;
	__aligned_u64 pidfd;
	__aligned_u64 child_tid;
	__aligned_u64 parent_tid;
	__aligned_u64 exit_signal;
	__aligned_u64 stack;
	__aligned_u64 stack_size;
	__aligned_u64 tls;
	__aligned_u64 set_tid;
	__aligned_u64 set_tid_size;
	__aligned_u64 cgroup;
};

#define CLONE_ARGS_SIZE_VER0 64 /* sizeof first published struct */
#define CLONE_ARGS_SIZE_VER1 80 /* sizeof second published struct */
#define CLONE_ARGS_SIZE_VER2 88 /* sizeof third published struct */
#endif
