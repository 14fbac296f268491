/* The WebAssembly build's sys/syscall.h: x86_64's numbers (the catalogue's), and syscall
 * itself, which cli/wasm/absent.c answers with ENOSYS (no kernel behind a WASI program) */
#include <asm/unistd_64.h>
#include <sys-names.h> /* SYS_x for each __NR_x: the Makefile writes it */
long syscall(long nr, ...);
