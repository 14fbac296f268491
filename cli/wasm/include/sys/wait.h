/* The WebAssembly build's sys/wait.h: no children to wait for (cli/wasm/absent.c: ECHILD) */
#include <sys/types.h>
#include <linux/wait.h> /* __WALL */
#define WIFEXITED(s) (((s) & 0x7f) == 0)
#define WEXITSTATUS(s) (((s) >> 8) & 0xff)
#define WIFSIGNALED(s) (((signed char)(((s) & 0x7f) + 1) >> 1) > 0)
#define WTERMSIG(s) ((s) & 0x7f)
pid_t waitpid(pid_t pid, int *status, int options);
pid_t fork(void);
