/* libFuzzer target: the uapi header front end (libclang, loaded on first use) and the
 * checks and export built on its model. */
#include <stdint.h>
#include <stdlib.h>
#include "base/diag.h"
#include "base/sbuf.h"
#include "headers/header.h"
#include "model/kver.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct header h;
	diag_swap_sink(DIAG_DISCARD);
	/* libclang parses on a fresh 8 MB thread unless told not to; here the parse runs on
	 * libFuzzer's main thread (same stack size), a third faster */
	setenv("LIBCLANG_NOTHREADS", "1", 0);
	if (header_parse_here(&h, "fuzz.h", (const char *)data, size) == 0) {
		struct sbuf json = SBUF_INIT;
		header_export_json(&h, "linux/fuzz.h", KVER(6, 18, 0), &json);
		sbuf_release(&json);
	}
	header_release(&h);
	return 0;
}
