/* The commands, and the arguments of a command, that only the native program can answer
 * (cli/wasm/native.c): the WebAssembly build leaves out what they run on (kernels, VMs,
 * libclang, the network, cmark-gfm), so the dispatcher refuses them before they start. */
#ifndef XSC_WASM_NATIVE_H
#define XSC_WASM_NATIVE_H
/* Why argv (argv[0] the command) needs the native program, or NULL when it runs here. */
const char *wasm_needs_native(int argc, char **argv);
#endif
