/* The WebAssembly build's refusals (cli/wasm/native.h): one row per command, or per
 * argument of a command, whose code is left out of the build (the Makefile's WASM_LEAVE).
 * Without this table such a command would reach a left-out function, which
 * cli/wasm/wasi.js makes a JavaScript exception: the console's line would die half done.
 * tests/sh/wasm-commands.sh runs every command of the table in the build and fails on any
 * exception, so a command that newly reaches left-out code needs a row here. 'demo' is
 * refused by cmd_demo.c itself, after its options are checked: the build has no demos. */
#include <stddef.h>
#include <string.h>
#include "wasm/native.h"

static const struct {
	const char *command;
	const char *word; /* NULL: the command itself; else only when this word is among its arguments */
	const char *why;
} native_only[] = {
	{ "measure", NULL, "it runs each matrix row in real kernels" },
	{ "probe", NULL, "it asks the running kernel" },
	{ "features", NULL, "it probes the running kernel" },
	{ "kernels", NULL, "it lists and fetches the kernel images 'target vm' boots under qemu" },
	{ "matrix", "--host", "--host calls the running kernel" },
	{ "doc", NULL, "it renders the page with cmark-gfm for a terminal (the site shows the same pages)" },
	{ "docs", NULL, "it writes the reference from the catalogue into a directory" },
	{ "site", NULL, "it renders the site with cmark-gfm" },
	{ "import", NULL, "it parses headers with libclang" },
	{ "lint", NULL, "it parses headers with libclang" },
	{ "diff", NULL, "it parses headers with libclang and reads catalogues from files or URLs" },
};

const char *wasm_needs_native(int argc, char **argv)
{
	for (size_t i = 0; i < sizeof(native_only) / sizeof(native_only[0]); i++) {
		if (strcmp(argv[0], native_only[i].command))
			continue;
		if (!native_only[i].word)
			return native_only[i].why;
		for (int a = 1; a < argc; a++)
			if (!strcmp(argv[a], native_only[i].word))
				return native_only[i].why;
	}
	return NULL;
}
