/* The WebAssembly build's (make wasm) sys/prctl.h: the uapi's constants and prctl itself,
 * which cli/wasm/absent.c answers with ENOSYS (a WASI program has no process to set up) */
#include <linux/prctl.h>
int prctl(int option, ...);
