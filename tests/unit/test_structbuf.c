/* Struct buffers: sizes, field stores, pokes, embedded size fields. */
#include <stdlib.h>
#include "tap.h"
#include "model/dataload.h"
#include "model/structbuf.h"

int main(void)
{
	struct catalog *cat = catalog_load(getenv("XSC_TEST_DATA") ? getenv("XSC_TEST_DATA") : "data");
	ok(cat != NULL, "the catalogue loads");
	if (!cat)
		return tap_done();
	const struct cstruct *how = catalog_find_struct(cat, "open_how");
	struct structbuf *b = structbuf_new("h", how, NULL);
	ok(b->size == 24 && b->len == 24, "open_how starts at 24 bytes");
	ok(structbuf_set_size(b, 32) == 0 && b->len == 32 && b->data[31] == 0, "growing pads with zeros");
	ok(structbuf_set_size(b, 16) == 0 && b->len == 32 && b->size == 16, "shrinking the size keeps memory");
	ok(structbuf_set_size(b, (1ULL << 63) | 24) == 0 && b->len == 32, "a huge size is passed, not allocated");
	ok(structbuf_kernel_size(b) == ((1ULL << 63) | 24), "and the kernel sees it");
	unsigned char one = 1;
	ok(structbuf_poke(b, 40, &one, 1) == 0 && b->len == 41 && b->data[40] == 1, "poke grows the buffer");
	ok(structbuf_poke(b, STRUCTBUF_MAX_BYTES, &one, 1) < 0, "poke past the largest buffer is refused");
	struct value v = { .kind = VK_INT, .bits = 0xffffffff80000000ULL, .width = 32, .is_signed = true };
	const struct field *flags = cstruct_find_field(how, "flags");
	ok(structbuf_set_field(b, flags, &v) == 0 && structbuf_get(b, flags) == 0xffffffff80000000ULL,
	   "a negative int sign-extends into a u64 field");
	ok(b->notes[0] != NULL && strstr(b->notes[0], "sign-extended"), "and the buffer notes it: %s", b->notes[0]);
	v = (struct value){ .kind = VK_INT, .bits = 7, .width = 32, .is_signed = true };
	ok(structbuf_set_field(b, flags, &v) == 0 && b->notes[0] == NULL, "a new value clears the note");
	v = (struct value){ .kind = VK_STRING, .text = (char *)"abc", .text_len = 3 };
	ok(structbuf_set_field(b, flags, &v) == 0 && structbuf_reloc_at(b, 0) != NULL, "a string becomes a pointer");
	structbuf_unset_field(b, flags);
	ok(structbuf_get(b, flags) == 0 && structbuf_reloc_at(b, 0) == NULL, "unset clears value and pointer");
	structbuf_free(b);

	const struct cstruct *attr = catalog_find_struct(cat, "sched_attr");
	ok(attr->size_field != NULL, "sched_attr carries its size in a field");
	b = structbuf_new("a", attr, NULL);
	ok(structbuf_get(b, attr->size_field) == 56, "a new sched_attr says size=56");
	ok(structbuf_set_size(b, 48) == 0 && structbuf_kernel_size(b) == 48, "size 48 sets the field");
	ok(structbuf_set_size(b, 1ULL << 32) < 0, "a size too wide for the u32 field is refused");
	const struct field *nice = cstruct_find_field(attr, "sched_nice");
	v = (struct value){ .kind = VK_INT, .bits = (uint64_t)-5, .width = 32, .is_signed = true };
	ok(structbuf_set_field(b, nice, &v) == 0 && (int64_t)structbuf_get(b, nice) == -5, "signed fields read back signed");
	structbuf_free(b);
	catalog_free(cat);
	return tap_done();
}
