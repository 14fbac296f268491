/* libFuzzer target: the catalogue cache's checks (catalog_from_cache) on the bundled
 * catalogue's real cache image, edited as a forger would and resealed (checksum recomputed),
 * so every input reaches the relocation and the loader's rules rather than the checksum.
 * Input: 5-byte edits (a 32-bit little-endian offset, modulo the image's length, and a byte
 * XORed in there); a last short chunk's first byte cuts the image to that many 256ths. What
 * maps back must be safe to use: every string is read and every lookup made. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "base/diag.h"
#include "base/sbuf.h"
#include "model/dataload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned char *image;
static size_t image_len;

static void load_image(void)
{
	const char *dir = getenv("XSC_DATA");
	struct catalog *c = catalog_load(dir ? dir : "data");
	void *buf;
	if (!c)
		abort();
	catalog_to_cache(c, 1, &buf, &image_len);
	image = buf;
	catalog_free(c);
}

/* Reads what a command would: names, lookups by name, the field at every offset. */
static size_t use(const struct catalog *c)
{
	size_t sum = 0;
	for (size_t i = 0; i < c->nsyscalls; i++) {
		const struct syscall *sc = &c->syscalls[i];
		sum += strlen(sc->name) + strlen(sc->summary) + (catalog_find_syscall(c, sc->name) == sc);
		for (size_t k = 0; k < sc->nfeatures; k++)
			sum += strlen(sc->features[k]);
	}
	for (size_t i = 0; i < c->nstructs; i++) {
		const struct cstruct *st = &c->structs[i];
		for (unsigned off = 0; off < st->size; off++)
			sum += cstruct_field_at(st, off) != NULL;
		sum += cstruct_newest_size(st) + (catalog_find_struct(c, st->name) != NULL);
	}
	for (size_t i = 0; i < c->nflagsets; i++) {
		const struct flagset *in;
		for (size_t k = 0; k < c->flagsets[i].nflags; k++)
			sum += catalog_find_flag(c, &c->flagsets[i], c->flagsets[i].flags[k].name, &in) != NULL;
	}
	return sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	diag_swap_sink(DIAG_DISCARD);
	if (!image)
		load_image();
	unsigned char *copy = malloc(image_len);
	size_t len = image_len, i = 0;
	if (!copy)
		return 0;
	memcpy(copy, image, image_len);
	for (; i + 5 <= size; i += 5) {
		uint32_t off = (uint32_t)data[i] | (uint32_t)data[i + 1] << 8 | (uint32_t)data[i + 2] << 16 |
			       (uint32_t)data[i + 3] << 24;
		copy[off % image_len] ^= data[i + 4];
	}
	if (i < size)
		len = image_len * data[i] / 256;
	catalog_cache_reseal(copy, len);
	struct sbuf why = SBUF_INIT;
	struct catalog *c = catalog_from_cache(copy, len, 1, &why);
	if (c && use(c) == (size_t)-1)
		abort(); /* never: keeps use() from being optimised away */
	catalog_free(c);
	sbuf_release(&why);
	free(copy);
	return 0;
}
