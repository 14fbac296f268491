/* seccomp-eperm NR CMD ARGS...: runs CMD under a seccomp filter that answers syscall NR with
 * EPERM (as container runtimes filter unknown syscalls); everything else is allowed. */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <linux/audit.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>
#include <errno.h>
int main(int argc,char**argv){ unsigned nr=atoi(argv[1]);
 struct sock_filter f[]={ BPF_STMT(BPF_LD|BPF_W|BPF_ABS,offsetof(struct seccomp_data,nr)),
  BPF_JUMP(BPF_JMP|BPF_JEQ|BPF_K,nr,0,1), BPF_STMT(BPF_RET|BPF_K,SECCOMP_RET_ERRNO|EPERM), BPF_STMT(BPF_RET|BPF_K,SECCOMP_RET_ALLOW)};
 struct sock_fprog p={4,f}; prctl(PR_SET_NO_NEW_PRIVS,1,0,0,0); if(prctl(PR_SET_SECCOMP,SECCOMP_MODE_FILTER,&p))return 99; execvp(argv[2],argv+2); return 98;}
