/* dump: an annotated hex dump of the current buffer. */
#include <string.h>
#include "base/pager.h"
#include "cmd/commands.h"
#include "model/decode.h"
#include "model/describe.h"
#include "base/banned.h"

static void hex_bytes(struct sbuf *sb, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sbuf_addf(sb, "%s%02x", i ? " " : "", p[i]);
}

/* The VALUE column starts here: "  OFF  BYTES  FIELD " */
enum { VALUE_COL = 2 + 5 + 2 + 23 + 2 + 22 + 1 };

/* A value wrapped to the terminal (80 columns on a projector): continued under the VALUE
 * column, or further left when that leaves too little room. */
static void wrap_value(struct sbuf *sb, const char *value, unsigned width)
{
	size_t indent = width >= VALUE_COL + 20 ? VALUE_COL : 8;
	term_wrap(sb, value, VALUE_COL, indent, width);
}

static void dump_row(struct out *o, unsigned width, size_t off, const unsigned char *p, size_t n, const char *field,
		     const char *value, bool alarm)
{
	struct sbuf hex = SBUF_INIT, val = SBUF_INIT;
	hex_bytes(&hex, p, n);
	wrap_value(&val, value, width);
	out_text(o, "  %5zu  %s%-23s%s  %-22s %s%s%s\n", off, alarm ? out_color(o, OC_RED) : "", hex.buf,
		 alarm ? out_color(o, OC_RESET) : "", field, alarm ? out_color(o, OC_RED) : "", val.buf,
		 alarm ? out_color(o, OC_RESET) : "");
	sbuf_release(&hex);
	sbuf_release(&val);
}

/* The dump's first lines: the buffer, its sizes, its direction and the column heads. */
static void dump_head(struct out *o, const struct structbuf *b, uint64_t ksize, enum fdir way)
{
	const struct cstruct *st = b->st;
	out_str(o, "name", b->name);
	out_str(o, "struct", st->name);
	out_u64(o, "size", b->size);
	out_u64(o, "kernel_size", ksize);
	out_u64(o, "buffer_size", b->len);
	out_u64(o, "newest_size", cstruct_newest_size(st));
	out_text(o, "%s: struct %s, size %llu", b->name, st->name, (unsigned long long)b->size);
	if (b->size_field)
		out_text(o, " (the kernel reads the size from field '%s': %llu)", b->size_field->name,
			 (unsigned long long)ksize);
	out_text(o, ", newest known %u\n", cstruct_newest_size(st));
	if (way == FD_OUT)
		out_text(o, "  (an output struct%s%s: the kernel writes it and checks none of it)\n", b->sc ? " of " : "",
			 b->sc ? b->sc->name : "");
	out_text(o, "  %s%5s  %-23s  %-22s %s%s\n", out_color(o, OC_DIM), "OFF", "BYTES", "FIELD", "VALUE",
		 out_color(o, OC_RESET));
}

/* A field's rows: its bytes (a pointer's as the address it carries, a zeroed array as one
 * row) beside its decoded value (shown: with the notes). */
static void field_rows(struct out *o, unsigned columns, const struct structbuf *b, const struct field *f,
		       const char *shown, bool is_ptr, bool reserved_bad)
{
	const unsigned char *p = b->data + f->offset;
	if (is_ptr) {
		dump_row(o, columns, f->offset, p, 0, f->name, shown, false);
	} else if (f->count && f->size > 8 && mem_all_zero(p, f->size)) {
		struct sbuf z = SBUF_INIT, v = SBUF_INIT;
		sbuf_addf(&z, "00 x %u", f->size);
		wrap_value(&v, shown, columns);
		out_text(o, "  %5u  %-23s  %-22s %s\n", f->offset, z.buf, f->name, v.buf);
		sbuf_release(&v);
		sbuf_release(&z);
	} else {
		for (size_t k = 0; k < f->size; k += 8) {
			size_t n = f->size - k < 8 ? f->size - k : 8;
			dump_row(o, columns, f->offset + k, p + k, n, k ? "" : f->name, k ? "" : shown,
				 reserved_bad && !mem_all_zero(p + k, n));
		}
	}
}

/* Field i of the buffer: its rows, and its JSON object. */
static void dump_field(struct out *o, unsigned columns, const struct structbuf *b, size_t i, uint64_t ksize,
		       enum fdir way, bool *said_short)
{
	const struct cstruct *st = b->st;
	const struct field *f = &st->fields[i];
	const unsigned char *p = b->data + f->offset;
	struct sbuf val = SBUF_INIT, hex = SBUF_INIT, shownval = SBUF_INIT;
	decode_field_buffer(&val, b, f);
	hex_bytes(&hex, p, f->size);
	const char *note = b->notes[i];
	bool beyond = f->offset >= ksize;
	bool reserved_bad = f->reserved && !mem_all_zero(p, f->size);
	bool is_ptr = f->size == 8 && structbuf_reloc_at(b, f->offset);
	if (beyond && !*said_short) {
		out_text(o, "  %s-- not passed: the kernel reads %llu bytes and zero-fills the rest --%s\n",
			 out_color(o, OC_DIM), (unsigned long long)ksize, out_color(o, OC_RESET));
		*said_short = true;
	}
	sbuf_adds(&shownval, val.buf);
	if (note)
		sbuf_addf(&shownval, "   <- %s", note);
	if (reserved_bad)
		sbuf_adds(&shownval, "   !! reserved, must be zero");
	enum fdir dir = field_direction(b->sc && b->sc->st == st ? b->sc : NULL, st, f);
	if (way == FD_INOUT && (dir == FD_OUT || dir == FD_IGNORED)) /* in an in/out struct: not read */
		sbuf_addf(&shownval, "   (%s)", fdir_name(dir));
	field_rows(o, columns, b, f, shownval.buf, is_ptr, reserved_bad);
	sbuf_release(&shownval);
	out_obj(o, NULL);
	out_str(o, "name", f->name);
	out_u64(o, "offset", f->offset);
	out_u64(o, "size", f->size);
	out_str(o, "type", f->type_text);
	out_str(o, "direction", fdir_name(dir));
	out_str(o, "bytes", is_ptr ? NULL : hex.buf);
	if (f->count || is_ptr)
		out_null(o, "value");
	else if (ftype_signed(f->type))
		out_s64(o, "value", (int64_t)structbuf_get(b, f));
	else
		out_u64(o, "value", structbuf_get(b, f));
	out_str(o, "decoded", val.buf);
	out_str(o, "note", note);
	out_bool(o, "passed", !beyond);
	out_end(o);
	sbuf_release(&val);
	sbuf_release(&hex);
}

/* The tail: bytes past the known struct that the kernel will be handed, up to tail_end;
 * runs of zeros in one row, a nonzero byte marked. */
static void dump_tail(struct out *o, unsigned columns, const struct structbuf *b, size_t tail_end)
{
	const struct cstruct *st = b->st;
	out_obj(o, "tail");
	out_u64(o, "offset", st->size);
	out_u64(o, "length", tail_end > st->size ? tail_end - st->size : 0);
	out_arr(o, "nonzero");
	if (tail_end > st->size) {
		out_text(o, "  %s-- tail: bytes past the newest known struct (%u); the kernel wants them zero --%s\n",
			 out_color(o, OC_DIM), st->size, out_color(o, OC_RESET));
		size_t zero_from = (size_t)-1;
		for (size_t off = st->size; off < tail_end; off += 8) {
			size_t n = tail_end - off < 8 ? tail_end - off : 8;
			const unsigned char *p = b->data + off;
			if (mem_all_zero(p, n)) {
				if (zero_from == (size_t)-1)
					zero_from = off;
				continue;
			}
			if (zero_from != (size_t)-1) {
				out_text(o, "  %5zu  %-23s  %s\n", zero_from, "00 ...", "(zero)");
				zero_from = (size_t)-1;
			}
			struct sbuf marks = SBUF_INIT;
			for (size_t k = 0; k < n; k++)
				if (p[k]) {
					sbuf_addf(&marks, "%s%zu", marks.len ? "," : "!! nonzero at ", off + k);
					out_u64(o, NULL, off + k);
				}
			dump_row(o, columns, off, p, n, "(tail)", marks.buf, true);
			sbuf_release(&marks);
		}
		if (zero_from != (size_t)-1)
			out_text(o, "  %5zu  %-23s  %s\n", zero_from, "00 ...", tail_end - zero_from > 8 ? "(zero to the end)" : "(zero)");
	}
	out_end(o);
	out_end(o);
}

int cmd_dump(struct session *s, int argc, char **argv)
{
	(void)argv;
	if (argc != 1)
		return cmd_usage(s);
	const struct structbuf *b = s->cur;
	const struct cstruct *st = b->st;
	struct out *o = &s->out;
	uint64_t ksize = structbuf_kernel_size(b);
	size_t shown = b->size < b->len ? (size_t)b->size : b->len;
	if (shown < st->size)
		shown = st->size;
	enum fdir way = (enum fdir)describe_direction(b->sc, st).kind;
	out_obj(o, NULL);
	dump_head(o, b, ksize, way);
	out_arr(o, "fields");
	bool said_short = false;
	for (size_t i = 0; i < st->nfields; i++)
		dump_field(o, s->columns, b, i, ksize, way, &said_short);
	out_end(o);
	dump_tail(o, s->columns, b, shown);
	if (b->size > b->len)
		out_text(o, "  (size %llu is past the %zu bytes xsc holds; a live call passes it as is)\n",
			 (unsigned long long)b->size, b->len);
	out_end(o);
	return 0;
}
