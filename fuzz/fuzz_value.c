/* libFuzzer target: the value language (names from the bundled catalogue). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "base/diag.h"
#include "base/sbuf.h"
#include "model/dataload.h"
#include "model/value.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct catalog *cat;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	diag_swap_sink(DIAG_DISCARD);
	if (!cat) {
		const char *dir = getenv("XSC_DATA");
		cat = catalog_load(dir ? dir : "data");
		if (!cat)
			abort();
	}
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	struct value v;
	const struct flagset *fs = size ? &cat->flagsets[data[0] % cat->nflagsets] : NULL;
	if (value_parse(cat, fs, text, &v) == 0) {
		uint64_t out;
		bool ext;
		struct sbuf why = SBUF_INIT;
		static const unsigned widths[] = { 8, 16, 32, 64 };
		value_convert(&v, widths[size % 4], size & 4, &out, &ext, &why);
		sbuf_release(&why);
		value_release(&v);
	}
	free(text);
	return 0;
}
