/* libFuzzer target: the catalogue loader on one hostile file. */
#include <stdint.h>
#include <stdlib.h>
#include "base/diag.h"
#include "model/dataload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *names[] = { "fuzz.json" };
	const char *texts[] = { (const char *)data };
	size_t lens[] = { size };
	diag_set_quiet(true);
	catalog_free(catalog_load_buffers(names, texts, lens, 1));
	return 0;
}
