/* size, poke: the size passed to the kernel, and raw bytes. */
#include <stdlib.h>
#include <string.h>
#include "cmd/commands.h"
#include "model/value.h"
#include "base/banned.h"

static void describe_size(struct out *o, const struct structbuf *b)
{
	const struct cstruct *st = b->st;
	uint64_t size = b->size;
	out_text(o, "size %llu", (unsigned long long)size);
	for (size_t i = 0; i < st->nversions; i++)
		if (st->versions[i].size == size)
			out_text(o, " (%s)", st->versions[i].name ? st->versions[i].name : "a published size");
	if (st->nversions && size < st->versions[0].size)
		out_text(o, " (below the first published size %u)", st->versions[0].size);
	else if (size > st->size && size <= STRUCTBUF_MAX_BYTES)
		out_text(o, " (%llu bytes past the known struct)", (unsigned long long)(size - st->size));
	else if (size > STRUCTBUF_MAX_BYTES)
		out_text(o, " (passed as is; xsc backs only %zu bytes with memory)", b->len);
	out_text(o, "\n");
}

int cmd_size(struct session *s, int argc, char **argv)
{
	struct structbuf *b = s->cur;
	if (argc == 1) {
		describe_size(&s->out, b);
		return 0;
	}
	if (argc != 2)
		return cmd_usage(s);
	const char *a = argv[1];
	const struct cstruct *st = b->st;
	uint64_t size;
	const struct sversion *ver = cstruct_find_version(st, a);
	if (!ver && !strncmp(a, "VER", 3) && a[3] >= '0' && a[3] <= '9') {
		char *end;
		unsigned long n = strtoul(a + 3, &end, 10);
		if (*end || n >= st->nversions)
			return err("struct %s has %zu size version%s (VER0..VER%zu); no %s", st->name, st->nversions,
				   st->nversions == 1 ? "" : "s", st->nversions ? st->nversions - 1 : 0, a);
		ver = &st->versions[n];
	}
	if (ver) {
		size = ver->size;
	} else {
		bool rel = a[0] == '+' || a[0] == '-';
		struct value v;
		if (value_parse(s->cat, NULL, rel ? a + 1 : a, &v) < 0)
			return -1;
		if (v.kind != VK_INT || (v.is_signed && (int64_t)v.bits < 0)) {
			value_release(&v);
			return err("a size is a number of bytes, not '%s'", a);
		}
		if (a[0] == '+') {
			if (v.bits > UINT64_MAX - b->size)
				return err("size %llu + %llu overflows 64 bits", (unsigned long long)b->size,
					   (unsigned long long)v.bits);
			size = b->size + v.bits;
		} else if (a[0] == '-') {
			if (v.bits > b->size)
				return err("size %llu - %llu is negative", (unsigned long long)b->size,
					   (unsigned long long)v.bits);
			size = b->size - v.bits;
		} else {
			size = v.bits;
		}
	}
	if (structbuf_set_size(b, size) < 0)
		return -1;
	describe_size(&s->out, b);
	return 0;
}

int cmd_poke(struct session *s, int argc, char **argv)
{
	if (argc < 3)
		return cmd_usage(s);
	struct value v;
	if (value_parse(s->cat, NULL, argv[1], &v) < 0)
		return -1;
	if (v.kind != VK_INT || (v.is_signed && (int64_t)v.bits < 0)) {
		value_release(&v);
		return err("an offset is a number of bytes, not '%s'", argv[1]);
	}
	uint64_t off = v.bits;
	size_t n = (size_t)(argc - 2);
	unsigned char *bytes = xmalloc(n);
	for (size_t i = 0; i < n; i++) {
		if (value_parse(s->cat, NULL, argv[2 + i], &v) < 0 || v.kind != VK_INT ||
		    (v.is_signed && (int64_t)v.bits < 0) || v.bits > 255) {
			if (v.kind != VK_INT || v.bits > 255 || (v.is_signed && (int64_t)v.bits < 0))
				err("a byte is 0..255, not '%s'", argv[2 + i]);
			value_release(&v);
			free(bytes);
			return -1;
		}
		bytes[i] = (unsigned char)v.bits;
	}
	int r = structbuf_poke(s->cur, off, bytes, n);
	free(bytes);
	if (r < 0)
		return r;
	uint64_t ksize = structbuf_kernel_size(s->cur);
	if (off + n > ksize)
		out_text(&s->out, "note: bytes %llu..%llu are past the size passed to the kernel (%llu); it will not read them\n",
			 (unsigned long long)(off > ksize ? off : ksize), (unsigned long long)(off + n - 1),
			 (unsigned long long)ksize);
	return 0;
}
