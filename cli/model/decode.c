#include "model/decode.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "model/describe.h"
#include "model/expr.h"
#include "model/structbuf.h"
#include "model/xlat.h"
#include "base/banned.h"

static uint64_t field_value(const struct field *f, const unsigned char *data)
{
	uint64_t v = le_load(data + f->offset, f->elem_size);
	if (ftype_signed(f->type) && f->elem_size && f->elem_size < 8 && (v >> (f->elem_size * 8 - 1)) & 1)
		v |= ~0ULL << (f->elem_size * 8);
	return v;
}

static void put_ptr(struct sbuf *sb, uint64_t v)
{
	if (v)
		sbuf_addf(sb, "%#llx", (unsigned long long)v);
	else
		sbuf_adds(sb, "NULL");
}

/* A pointer argument: in a simulated line, a buffer of xsc's is named, not its address (the
 * host's, different every run); an address the user gave is shown as given. */
static void put_arg_ptr(struct sbuf *sb, const struct outcome *o, size_t i, uint64_t v)
{
	if (o->simulated && v && !(o->raw_addresses & (1u << i)))
		sbuf_adds(sb, "(xsc's buffer)");
	else
		put_ptr(sb, v);
}

void decode_signal(struct sbuf *sb, const struct catalog *cat, uint64_t v)
{
	const struct flagset *k = catalog_find_flagset(cat, "constants");
	for (size_t i = 0; k && v && i < k->nflags; i++)
		if (k->flags[i].value == v && !strncmp(k->flags[i].name, "SIG", 3) && strncmp(k->flags[i].name, "SIG_", 4)) {
			sbuf_adds(sb, k->flags[i].name);
			return;
		}
	/* the realtime signals as strace 6.1 names them (src/signal.c signame: 32 is the last
	 * entry of linux/generic/signalent.h, SIGRTMIN; 33..64 are SIGRT_1..SIGRT_32 past
	 * ASM_SIGRTMIN 32) */
	if (v == 32)
		sbuf_adds(sb, "SIGRTMIN");
	else if (v > 32 && v <= 64)
		sbuf_addf(sb, "SIGRT_%u", (unsigned)(v - 32));
	else
		sbuf_addf(sb, "%llu", (unsigned long long)v);
}

/* A file mode as strace's print_symbolic_mode_t writes it: S_IFDIR|0755, S_IFREG|S_ISUID|0755;
 * a type it cannot name, or none, as the octal number (0644). */
static void put_mode(struct sbuf *sb, uint64_t v)
{
	static const struct { unsigned v; const char *name; } types[] = { /* strace's xlat/modetypes.in */
		{ 0140000, "S_IFSOCK" }, { 0120000, "S_IFLNK" }, { 0100000, "S_IFREG" }, { 0060000, "S_IFBLK" },
		{ 0040000, "S_IFDIR" }, { 0020000, "S_IFCHR" }, { 0010000, "S_IFIFO" },
	};
	const char *type = (v & 0170000) ? NULL : "";
	for (size_t i = 0; i < ARRAY_SIZE(types); i++)
		if ((v & 0170000) == types[i].v)
			type = types[i].name;
	if (!type) {
		sbuf_addf(sb, "%#03llo", (unsigned long long)v);
		return;
	}
	sbuf_addf(sb, "%s%s%s%s%s%#03llo", type, *type ? "|" : "", v & 04000 ? "S_ISUID|" : "", v & 02000 ? "S_ISGID|" : "",
		  v & 01000 ? "S_ISVTX|" : "", (unsigned long long)(v & ~0177000ULL));
}

/* A bit set whose bits an enum names by number, strace's way: 1<<CAP_CHOWN|1<<CAP_KILL, in
 * the order of strace's table (then the names it lacks), what no name covers in hex, 0 as 0. */
static void put_bit_numbers(struct sbuf *sb, const struct flagset *fs, uint64_t v)
{
	size_t start = sb->len, n = fs->strace.norder ? fs->strace.norder : fs->nflags;
	for (int pass = 0; pass < 2; pass++)
		for (size_t k = 0; k < (pass ? fs->nflags : n); k++) {
			const struct flag *f = &fs->flags[pass || !fs->strace.norder ? k : fs->strace.order[k]];
			if (f->value > 63 || !(v & 1ULL << f->value))
				continue;
			sbuf_addf(sb, "%s1<<%s", sb->len > start ? "|" : "", f->name);
			v &= ~(1ULL << f->value);
		}
	if (v || sb->len == start)
		sbuf_addf(sb, v ? "%s%#llx" : "%s0", sb->len > start ? "|" : "", (unsigned long long)v);
}

static bool flagset_has_value(const struct flagset *fs, uint64_t v)
{
	for (size_t i = 0; i < fs->nflags; i++)
		if (fs->flags[i].value == v)
			return true;
	return false;
}

/* A field's value has two looks: strace's, on a call line, and xsc's beside a buffer's bytes
 * (dump, expect): a number with its hex, an array summed up. One walk serves both (an array
 * or a number; a number signed or not, joined with its high half, with flags or in its
 * format); only what each step writes differs. */
enum look { LOOK_STRACE, LOOK_BUFFER };

/* A char array up to its first NUL, quoted, a byte that is not printable as \xNN; strace's
 * look writes the quote and the backslash so too. */
static void put_chars(struct sbuf *sb, const unsigned char *p, size_t n, enum look look)
{
	sbuf_addch(sb, '"');
	for (size_t i = 0; i < n && p[i]; i++) {
		bool plain = p[i] >= 0x20 && p[i] < 0x7f && (look == LOOK_BUFFER || (p[i] != '"' && p[i] != '\\'));
		sbuf_addf(sb, plain ? "%c" : "\\x%02x", p[i]);
	}
	sbuf_addch(sb, '"');
}

/* An array field at p: chars as text; other elements as strace's [e0, e1, ...] (at most 32),
 * or beside the bytes, which show them, only whether they are zero. */
static void put_array(struct sbuf *sb, const struct field *f, const unsigned char *p, enum look look)
{
	if (look == LOOK_BUFFER && mem_all_zero(p, f->size)) {
		sbuf_adds(sb, "all zero");
		return;
	}
	if (f->type == FT_CHAR) {
		put_chars(sb, p, f->size, look);
		return;
	}
	if (look == LOOK_BUFFER) {
		sbuf_adds(sb, "nonzero");
		return;
	}
	sbuf_addch(sb, '[');
	for (unsigned i = 0; i < f->count; i++) {
		if (i == 32) {
			sbuf_adds(sb, ", ...");
			break;
		}
		uint64_t e = le_load(p + i * f->elem_size, f->elem_size);
		/* strace's print_xint_array_member: hex, 0 as 0 */
		sbuf_addf(sb, f->format == FF_HEX && e ? "%s%#llx" : "%s%llu", i ? ", " : "", (unsigned long long)e);
	}
	sbuf_addch(sb, ']');
}

/* A value with a flag set. strace's: a capability set bit by bit (1<<CAP_X), a stated dec as
 * its PRINT_FIELD_XVAL_U. Beside the bytes: as the call line's xlat names it (O_ACCMODE, never
 * O_WRONLY|O_RDWR), but an enum's 0 that it does not name as 0 (the old behaviour, propagation
 * left as it is, not an unknown value). */
static void put_flags(struct sbuf *sb, const struct field *f, uint64_t v, enum look look)
{
	const struct flagset *fs = f->flagset;
	if (look == LOOK_BUFFER && fs->kind == FS_ENUM && !v && !flagset_has_value(fs, 0))
		sbuf_adds(sb, "0");
	else if (look == LOOK_BUFFER)
		xlat_flags_valued(sb, fs, v);
	else if (f->format == FF_BIT_NUMBERS)
		put_bit_numbers(sb, fs, v);
	else
		xlat_strace_as(sb, fs, v, f->format_stated && f->format == FF_DEC);
}

/* A number in the field's format. strace's look names a pointer, a signal and a file mode and
 * writes hex as hex; beside the bytes every number but a mode is decimal, with its hex from
 * 256 on. A mode is octal in both (strace's PRINT_VAL_03O writes 0 as 000; chmod's way, 0). */
static void put_number(struct sbuf *sb, const struct catalog *cat, const struct field *f, uint64_t v, enum look look)
{
	if (f->format == FF_OCTAL) {
		sbuf_addf(sb, look == LOOK_STRACE ? "%#03llo" : "%#llo", (unsigned long long)v);
		return;
	}
	if (look == LOOK_STRACE) {
		switch (f->format) {
		case FF_PTR: put_ptr(sb, v); return;
		case FF_HEX: sbuf_addf(sb, "%#llx", (unsigned long long)v); return;
		case FF_SIGNAL: decode_signal(sb, cat, v); return;
		case FF_MODE: put_mode(sb, v); return;
		default: break; /* FF_DEC, FF_FD, FF_EPOCH: decimal */
		}
	}
	if (ftype_signed(f->type))
		sbuf_addf(sb, "%lld", (long long)(int64_t)v);
	else if (look == LOOK_BUFFER && v >= 256)
		sbuf_addf(sb, "%llu (%#llx)", (unsigned long long)v, (unsigned long long)v);
	else
		sbuf_addf(sb, "%llu", (unsigned long long)v);
}

/* Field f of the struct in data, in a look. cat names signals (strace's look only). */
static void field_as(struct sbuf *sb, const struct catalog *cat, const struct field *f, const unsigned char *data,
		     enum look look)
{
	if (f->count) {
		put_array(sb, f, data + f->offset, look);
		return;
	}
	uint64_t v = field_value(f, data);
	if (f->high && look == LOOK_STRACE) /* strace joins the two halves (capget's 64-bit sets); a
					       * buffer shows each half in its own row */
		v = (v & 0xffffffffULL) | field_value(f->high, data) << 32;
	if (f->flagset)
		put_flags(sb, f, v, look);
	else
		put_number(sb, cat, f, v, look);
}

void decode_field(struct sbuf *sb, const struct catalog *cat, const struct field *f, const unsigned char *data)
{
	field_as(sb, cat, f, data, LOOK_STRACE);
}

/* A pointer field of a buffer names what it points at: the text xsc copied (its first 64
 * bytes), or the buffer, &NAME. */
void decode_field_buffer(struct sbuf *sb, const struct structbuf *b, const struct field *f)
{
	const struct reloc *r = f->size == 8 ? structbuf_reloc_at(b, f->offset) : NULL;
	if (r && r->kind == RL_STRING) {
		sbuf_addch(sb, '"');
		for (size_t i = 0; i < r->text_len && i < 64; i++) {
			unsigned char c = (unsigned char)r->text[i];
			if (c == '"' || c == '\\')
				sbuf_addf(sb, "\\%c", c);
			else if (c < 0x20 || c >= 0x7f)
				sbuf_addf(sb, "\\x%02x", c);
			else
				sbuf_addch(sb, c);
		}
		sbuf_adds(sb, r->text_len > 64 ? "\"..." : "\"");
	} else if (r) {
		sbuf_addf(sb, "&%s", r->text);
	} else {
		field_as(sb, NULL, f, b->data, LOOK_BUFFER);
	}
}

enum {
	STRACE_STRSIZE = 32, /* strace -s default */
	STRACE_PAGE = 4096,  /* strace reads a struct's tail up to the page size (print_nonzero_bytes) */
};

/* Whether c holds for the struct in data[0, len); no condition always holds. */
static bool cond_holds(const struct catalog *cat, const struct cstruct *st, const struct field_cond *c,
		       const unsigned char *data, size_t len)
{
	if (!c->text)
		return true;
	struct expr_env env = { .cat = cat, .st = st, .buf = data, .seen = len };
	return expr_eval(c->code, c->ncode, &env) != 0;
}

/* strace leaves out reserved fields that are zero, and the fields its decoder shows only on
 * a condition (the catalogue's shown_if: open_how's mode, clone_args' pointers). */
static bool skip_field(const struct catalog *cat, const struct cstruct *st, const struct field *f,
		       const unsigned char *data, size_t len)
{
	if (f->is_high)
		return true; /* shown joined with its low half */
	if (f->reserved)
		return mem_all_zero(data + f->offset, f->size);
	return !cond_holds(cat, st, &f->shown_if, data, len);
}

/* A size past the struct: strace shows its nonzero bytes up to the page (print_nonzero_bytes),
 * or, for a struct whose decoder says only that there is more (sched_attr), ", ...". */
static void put_tail(struct sbuf *sb, const struct cstruct *st, const unsigned char *data, size_t len,
		     uint64_t size, bool first)
{
	if (st->tail_more) {
		if (size > st->size)
			sbuf_addf(sb, "%s...", first ? "" : ", ");
		return;
	}
	/* strace looks at the tail up to the page size: a nonzero byte past it goes unseen */
	uint64_t end = size < STRACE_PAGE ? size : STRACE_PAGE;
	if (end <= st->size || end > len || mem_all_zero(data + st->size, (size_t)(end - st->size)))
		return;
	sbuf_addf(sb, "%s/* bytes %u..%llu */ \"", first ? "" : ", ", st->size, (unsigned long long)(end - 1));
	/* like strace, at most its default string size (-s 32), then "..." */
	uint64_t shown = end - st->size > STRACE_STRSIZE ? st->size + STRACE_STRSIZE : end;
	static const char hex[] = "0123456789abcdef";
	for (uint64_t k = st->size; k < shown; k++) {
		char x[4] = { '\\', 'x', hex[data[k] >> 4], hex[data[k] & 15] };
		sbuf_add(sb, x, 4);
	}
	sbuf_adds(sb, shown < end ? "\"..." : "\"");
}

/* The comment strace writes after a timestamp (sprinttime_nsec, util.c): its local time with
 * the nanoseconds and the zone, nothing for 0 or a nanosecond count past a second. */
static void put_time_comment(struct sbuf *sb, int64_t sec, uint64_t nsec)
{
	time_t t = (time_t)sec;
	struct tm tm;
	char when[64], zone[16];
	if ((!sec && !nsec) || nsec > 999999999 || !localtime_r(&t, &tm) ||
	    !strftime(when, sizeof(when), "%FT%T", &tm) || !strftime(zone, sizeof(zone), "%z", &tm))
		return;
	sbuf_addf(sb, " /* %s", when);
	if (nsec)
		sbuf_addf(sb, ".%09llu", (unsigned long long)nsec);
	sbuf_addf(sb, "%s */", zone);
}

/* Flattened members of a nested struct (stx_atime.tv_sec) are shown nested, as strace shows
 * them: stx_atime={tv_sec=..., tv_nsec=...}; an "epoch" member's group ends in the time. */
struct group_state {
	const char *name; /* the open group's prefix, NULL: none */
	size_t len;
	bool epoch, first;
	int64_t sec;
	uint64_t nsec;
};

static void group_close(struct sbuf *sb, struct group_state *g)
{
	if (!g->name)
		return;
	sbuf_addch(sb, '}');
	if (g->epoch)
		put_time_comment(sb, g->sec, g->nsec);
	*g = (struct group_state){ 0 };
}

/* Writes ", name=" for field f (or "name=" first), opening or closing its group. */
static void put_field_name(struct sbuf *sb, const struct field *f, bool first, struct group_state *g)
{
	const char *dot = strchr(f->name, '.');
	size_t len = dot ? (size_t)(dot - f->name) : 0;
	if (g->name && (len != g->len || strncmp(g->name, f->name, len)))
		group_close(sb, g);
	if (len && !g->name) {
		sbuf_addf(sb, "%s%.*s={", first ? "" : ", ", (int)len, f->name);
		*g = (struct group_state){ .name = f->name, .len = len, .first = true };
	}
	if (g->name) {
		sbuf_addf(sb, "%s%s=", g->first ? "" : ", ", f->name + len + 1);
		g->first = false;
	} else {
		sbuf_addf(sb, "%s%s=", first ? "" : ", ", f->name);
	}
}

/* One field of a struct line, after its name: an epoch's seconds and the nanoseconds that
 * follow them are kept for the group's time comment. */
static void put_field_value(struct sbuf *sb, const struct catalog *cat, const struct field *f,
			    const unsigned char *data, struct group_state *g)
{
	decode_field(sb, cat, f, data);
	if (!g->name)
		return;
	if (f->format == FF_EPOCH) {
		g->epoch = true;
		g->sec = (int64_t)field_value(f, data);
	} else if (g->epoch && !g->nsec) {
		g->nsec = le_load(data + f->offset, f->elem_size);
	}
}

/* strace's decode_attr_extra_data (bpf.c): a nonzero reserved area, as ... or with -v its
 * bytes; returns whether anything was written */
static bool put_extra(struct sbuf *sb, const struct field *f, const unsigned char *data, bool first,
		      unsigned style, bool *abbreviated)
{
	if (mem_all_zero(data + f->offset, f->size))
		return false;
	if (!(style & DECODE_VERBOSE)) {
		*abbreviated = true;
		return false;
	}
	sbuf_addf(sb, "%sextra_data=\"", first ? "" : ", ");
	for (unsigned k = 0; k < f->size; k++)
		sbuf_addf(sb, "\\x%02x", data[f->offset + k]);
	sbuf_addf(sb, "\" /* bytes %u..%u */", f->offset, f->offset + f->size - 1);
	return true;
}

/* The size a struct line shows fields up to: the size, at most the struct's, and with
 * strace's by_version only the largest version the size holds (sched_attr). */
static uint64_t shown_extent(const struct cstruct *st, uint64_t size)
{
	uint64_t shown = size < st->size ? size : st->size;
	if (st->strace_by_version)
		for (size_t i = st->nversions; i-- > 0;)
			if (st->versions[i].size <= size) {
				shown = shown < st->versions[i].size ? shown : st->versions[i].size;
				break;
			}
	return shown;
}

/* ---- strace's own view of a struct (perf_event_attr's, strace 6.1 src/perf.c) ---- */

static uint64_t item_value(const struct strace_item *it, const unsigned char *data)
{
	uint64_t v = field_value(it->field, data);
	if (!it->mask)
		return v;
	v &= it->mask;
	return v >> __builtin_ctzll(it->mask);
}

/* A value of a table (a strace table or a flag set) as strace's printxval/printflags write
 * it; a table's own "unknown" comment. */
static void put_table(struct sbuf *sb, const struct flagset *t, uint64_t v)
{
	xlat_strace(sb, t, v);
}

static const struct flagset *table(const struct catalog *cat, const char *name)
{
	const struct flagset *t = catalog_find_strace_table(cat, name);
	return t ? t : catalog_find_flagset(cat, name);
}

/* A flag's value by name (PERF_TYPE_HARDWARE), or ~0 when the catalogue lacks it. */
static uint64_t named(const struct catalog *cat, const char *name)
{
	const struct flagset *in;
	const struct flag *f = catalog_find_flag(cat, NULL, name, &in);
	return f ? f->value : ~0ULL;
}

/* perf_event_attr's config by its type (strace 6.1 src/perf.c print_perf_event_attr): a
 * hardware event's PMU in the high 32 bits, a cache event's three bytes, a tracepoint's id
 * in decimal, anything else in hex. */
static void print_perf_config(struct sbuf *sb, const struct catalog *cat, const struct cstruct *st,
			      const struct strace_item *it, const unsigned char *data)
{
	const struct field *tf = cstruct_find_field(st, "type");
	uint64_t type = tf ? field_value(tf, data) : ~0ULL, config = item_value(it, data);
	if (type == named(cat, "PERF_TYPE_HARDWARE") || type == named(cat, "PERF_TYPE_HW_CACHE")) {
		if (config >> 32)
			sbuf_addf(sb, "%#llx<<32|", (unsigned long long)(config >> 32));
		if (type == named(cat, "PERF_TYPE_HARDWARE")) {
			put_table(sb, table(cat, "perf_hw_id"), config & 0xffffffff); /* PERF_HW_EVENT_MASK */
			return;
		}
		if ((config & 0xffffffff) >> 24)
			sbuf_addf(sb, "%#llx<<24|", (unsigned long long)((config & 0xffffffff) >> 24));
		put_table(sb, table(cat, "perf_hw_cache_op_result_id"), (config >> 16) & 0xff);
		sbuf_adds(sb, "<<16|");
		put_table(sb, table(cat, "perf_hw_cache_op_id"), (config >> 8) & 0xff);
		sbuf_adds(sb, "<<8|");
		put_table(sb, table(cat, "perf_hw_cache_id"), config & 0xff);
	} else if (type == named(cat, "PERF_TYPE_SOFTWARE")) {
		put_table(sb, table(cat, "perf_sw_ids"), config);
	} else if (type == named(cat, "PERF_TYPE_TRACEPOINT")) {
		sbuf_addf(sb, "%llu", (unsigned long long)config);
	} else {
		sbuf_addf(sb, config ? "%#llx" : "0", (unsigned long long)config);
	}
}

/* A breakpoint's type: its name, or a combination strace calls invalid (any of R/W with X),
 * or a value past those (strace 6.1 src/perf.c). */
static void print_perf_bp_type(struct sbuf *sb, const struct catalog *cat, const struct cstruct *st,
			       const struct strace_item *it, const unsigned char *data)
{
	(void)st;
	const struct flagset *t = table(cat, "hw_breakpoint_type");
	uint64_t v = item_value(it, data);
	for (size_t i = 0; t && i < t->nflags; i++)
		if (t->flags[i].value == v) {
			sbuf_adds(sb, t->flags[i].name);
			return;
		}
	sbuf_addf(sb, "%#llx /* %s */", (unsigned long long)v,
		  v <= (named(cat, "HW_BREAKPOINT_X") | named(cat, "HW_BREAKPOINT_RW")) ? "HW_BREAKPOINT_INVALID" : "HW_BREAKPOINT_???");
}

/* What a table cannot say, by the name a view item gives ("printer"). */
static const struct {
	const char *name;
	void (*print)(struct sbuf *sb, const struct catalog *cat, const struct cstruct *st,
		      const struct strace_item *it, const unsigned char *data);
} strace_printers[] = {
	{ "perf_config", print_perf_config },
	{ "perf_bp_type", print_perf_bp_type },
};

unsigned decode_printer_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(strace_printers); i++)
		if (!strcmp(strace_printers[i].name, name))
			return (unsigned)i + 1;
	return 0;
}

unsigned decode_printer_count(void)
{
	return (unsigned)ARRAY_SIZE(strace_printers);
}

/* A size by the struct's version names, else in hex with strace's comment (0x90 /\* PERF_ATTR_SIZE_??? *\/). */
static void put_version_name(struct sbuf *sb, const struct cstruct *st, const struct strace_item *it, uint64_t v)
{
	for (size_t i = 0; i < st->nversions; i++)
		if (st->versions[i].size == v && st->versions[i].name) {
			sbuf_adds(sb, st->versions[i].name);
			return;
		}
	sbuf_addf(sb, v ? "%#llx /* %s */" : "%llu /* %s */", (unsigned long long)v, it->unknown);
}

static void put_item_value(struct sbuf *sb, const struct catalog *cat, const struct cstruct *st,
			   const struct strace_item *it, const unsigned char *data)
{
	uint64_t v = item_value(it, data);
	if (it->printer)
		strace_printers[it->printer - 1].print(sb, cat, st, it, data);
	else if (it->version_name)
		put_version_name(sb, st, it, v);
	else if (it->table)
		put_table(sb, it->table, v);
	else if (it->format == FF_HEX)
		sbuf_addf(sb, v ? "%#llx" : "0", (unsigned long long)v);
	else if (it->mask || !ftype_signed(it->field->type))
		sbuf_addf(sb, "%llu", (unsigned long long)v);
	else
		sbuf_addf(sb, "%lld", (long long)(int64_t)v);
	if (it->comment)
		sbuf_addf(sb, " /* %s */", it->comment);
	else if (v < it->ncomments)
		sbuf_addf(sb, " /* %s */", it->comments[v]);
}

/* Whether item it is shown: within the bytes strace read, in this mode, its condition
 * holding, and nonzero where only a nonzero value is. */
static bool item_shown(const struct catalog *cat, const struct cstruct *st, const struct strace_item *it,
		       const unsigned char *data, uint64_t shown, unsigned style)
{
	bool verbose = style & DECODE_VERBOSE;
	if (it->field->offset >= shown || !cond_holds(cat, st, &it->cond, data, shown))
		return false;
	bool zero = !item_value(it, data);
	return !(zero && (it->nonzero || it->as_comment || (it->abbrev_nonzero && !verbose)));
}

/* The struct as strace's own decoder shows it (fetch_perf_event_attr, print_perf_event_attr):
 * size bytes of data, or the first version's for 0 (a size below that is shown as the
 * address, view_too_small); the
 * fields past the size read as zero; "..." for the items left to -v and a size past the
 * struct; after, what the kernel left, for a value it rewrote ("size=0x90 => 0x88"). */
static bool view_too_small(const struct cstruct *st, const unsigned char *data, uint64_t size)
{
	return !data || (size && size < (st->nversions ? st->versions[0].size : st->size));
}

static void decode_view(struct sbuf *sb, const struct catalog *cat, const struct cstruct *st,
			const unsigned char *data, const unsigned char *after, size_t len, uint64_t size,
			unsigned style)
{
	unsigned min = st->nversions ? st->versions[0].size : st->size;
	uint64_t shown = size ? (size < st->size ? size : st->size) : min;
	unsigned char *copy = xcalloc(1, st->size), *acopy = after ? xcalloc(1, st->size) : NULL;
	memcpy(copy, data, shown < len ? shown : len);
	if (acopy)
		memcpy(acopy, after, shown < len ? shown : len);
	bool first = true, abbreviated = false;
	sbuf_addch(sb, '{');
	for (size_t i = 0; i < st->nview; i++) {
		const struct strace_item *it = &st->view[i];
		if (it->verbose_only && !(style & DECODE_VERBOSE)) {
			abbreviated = true;
			continue;
		}
		if (!item_shown(cat, st, it, copy, shown, style))
			continue;
		if (it->as_comment) {
			sbuf_addf(sb, " /* bytes %u..%u: %#llx */", it->field->offset, it->field->offset + it->field->size - 1,
				  (unsigned long long)item_value(it, copy));
			continue;
		}
		sbuf_addf(sb, "%s%s=", first ? "" : ", ", it->name);
		put_item_value(sb, cat, st, it, copy);
		if (it->changed && acopy && item_value(it, copy) != item_value(it, acopy)) {
			sbuf_adds(sb, " => ");
			put_item_value(sb, cat, st, it, acopy);
		}
		first = false;
	}
	if (abbreviated || size > st->size)
		sbuf_addf(sb, "%s...", first ? "" : ", ");
	sbuf_addch(sb, '}');
	free(copy);
	free(acopy);
}

void decode_struct_as(struct sbuf *sb, const struct catalog *cat, const struct cstruct *st,
		      const unsigned char *data, size_t len, uint64_t size, uint64_t addr, unsigned style)
{
	if (st->nview && view_too_small(st, data, size)) {
		put_ptr(sb, addr);
		return;
	}
	if (st->nview) {
		decode_view(sb, cat, st, data, NULL, len, size, style);
		return;
	}
	unsigned min = st->nversions ? st->versions[0].size : st->size;
	if (size < min || !data) {
		/* too small to decode: strace shows the address; with the size inside, just that */
		if (st->size_field && data && size >= st->size_field->offset + st->size_field->size) {
			sbuf_addch(sb, '{');
			sbuf_addf(sb, "%s=", st->size_field->name);
			decode_field(sb, cat, st->size_field, data);
			sbuf_addch(sb, '}');
		} else {
			put_ptr(sb, addr);
		}
		return;
	}
	uint64_t shown = shown_extent(st, size);
	unsigned char *cut = NULL; /* strace's zeroed struct holding the size's bytes (clone3) */
	if (st->strace_partial && size < st->size) {
		cut = xcalloc(1, st->size);
		memcpy(cut, data, size < len ? (size_t)size : len);
		data = cut;
		len = st->size;
	}
	bool first = true, abbreviated = false, past_strace = false;
	struct group_state g = { 0 };
	sbuf_addch(sb, '{');
	for (size_t i = 0; i < st->nfields; i++) {
		const struct field *f = &st->fields[i];
		bool cut_short = f->offset + f->size > shown && !(cut && f->offset < shown);
		if (cut_short || skip_field(cat, st, f, data, len))
			continue;
		if ((style & DECODE_ENTRY) && f->direction == FD_OUT)
			continue; /* the kernel writes it: strace shows it on exit, if at all */
		if (f->strace_extra) {
			group_close(sb, &g);
			first &= !put_extra(sb, f, data, first, style, &abbreviated);
			continue;
		}
		if (f->verbose_only && !(style & DECODE_VERBOSE)) {
			abbreviated = true; /* strace's abbrev(tcp): -v shows it */
			continue;
		}
		put_field_name(sb, f, first, &g);
		put_field_value(sb, cat, f, data, &g);
		first = false;
		past_strace |= st->strace_size && f->offset >= st->strace_size;
	}
	group_close(sb, &g);
	/* bytes past the struct that strace knows, which no field of ours showed: its "..." */
	abbreviated |= st->strace_size && size > st->strace_size && !past_strace;
	if (abbreviated) {
		sbuf_addf(sb, "%s...", first ? "" : ", ");
		first = false;
	}
	put_tail(sb, st, data, len, size, first);
	sbuf_addch(sb, '}');
	free(cut);
}

/* The fields idx[0..n) of st in data, strace's order, after what *first says is there; the
 * fields "a.b" of one group nest as a={b=..., c=...} (strace's PRINT_FIELD_OBJ_PTR). */
static void put_listed(struct sbuf *sb, const struct catalog *cat, const struct cstruct *st, const unsigned *idx,
		       size_t n, const unsigned char *data, size_t len, bool *first)
{
	struct group_state g = { 0 };
	for (size_t k = 0; k < n; k++) {
		const struct field *f = &st->fields[idx[k]];
		if (f->offset + f->size > len || skip_field(cat, st, f, data, len))
			continue;
		put_field_name(sb, f, *first, &g);
		put_field_value(sb, cat, f, data, &g);
		*first = false;
	}
	group_close(sb, &g);
}

/* A struct strace prints in two halves (io_uring_params): the fields it reads on entry from
 * what was passed, then, when the call succeeded, those it reads on exit from what the kernel
 * wrote, in one pair of braces. */
static void put_entry_exit(struct sbuf *sb, const struct catalog *cat, const struct cstruct *st,
			   const struct outcome *o, size_t i)
{
	if (!o->before || o->len < st->size) {
		put_arg_ptr(sb, o, i, o->args[i]);
		return;
	}
	bool first = true;
	sbuf_addch(sb, '{');
	put_listed(sb, cat, st, st->strace_entry, st->nstrace_entry, o->before, o->len, &first);
	if (o->stage == OS_CALLED && o->ret >= 0 && o->after && !(o->simulated && !o->known))
		put_listed(sb, cat, st, st->strace_exit, st->nstrace_exit, o->after, o->len, &first);
	sbuf_addch(sb, '}');
}

void decode_struct(struct sbuf *sb, const struct catalog *cat, const struct cstruct *st,
		   const unsigned char *data, size_t len, uint64_t size, uint64_t addr)
{
	decode_struct_as(sb, cat, st, data, len, size, addr, 0);
}

static void put_string(struct sbuf *sb, const char *s)
{
	sbuf_addch(sb, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			sbuf_addf(sb, "\\%c", *p);
		else if (*p == '\n')
			sbuf_adds(sb, "\\n");
		else if (*p == '\t')
			sbuf_adds(sb, "\\t");
		else if (*p < 0x20 || *p >= 0x7f)
			sbuf_addf(sb, "\\%o", *p);
		else
			sbuf_addch(sb, *p);
	}
	sbuf_addch(sb, '"');
}

static bool writes_fields(const struct cstruct *st)
{
	for (size_t i = 0; i < st->nfields; i++)
		if (st->fields[i].written_if.text)
			return true;
	return false;
}

/* What the kernel wrote back, strace's way: the fields the catalogue's written_if names
 * (clone3's pidfd: => {pidfd=[3]}), else the size field when the kernel changed it. */
static void put_writeback(struct sbuf *sb, const struct catalog *cat, const struct cstruct *st, const struct outcome *o)
{
	if (o->after && writes_fields(st)) {
		if (o->ret < 0)
			return; /* strace shows what the kernel wrote only when it succeeded */
		bool first = true;
		for (size_t i = 0; i < st->nfields; i++) {
			const struct field *f = &st->fields[i];
			if (!f->written_if.text || f->offset + f->size > o->len ||
			    !cond_holds(cat, st, &f->written_if, o->before, o->len))
				continue;
			sbuf_addf(sb, "%s%s=", first ? " => {" : ", ", f->name);
			decode_field(sb, cat, f, o->after);
			first = false;
		}
		if (!first)
			sbuf_addch(sb, '}');
		return;
	}
	const struct field *f = st->size_field;
	if (!f || !o->after || o->len < f->offset + f->size ||
	    !memcmp(o->before + f->offset, o->after + f->offset, f->size))
		return;
	sbuf_addf(sb, " => {%s=", f->name);
	decode_field(sb, cat, f, o->after);
	sbuf_addch(sb, '}');
}

/* Appends the separator before item k of n in a list in words: "a", "a and b", "a, b and c"
 * (conj "and"), or with "or". */
static void put_sep(struct sbuf *sb, size_t k, size_t n, const char *conj)
{
	if (k)
		sbuf_addf(sb, k + 1 == n ? " %s " : ", ", conj);
}

/* What a simulated answer does not know: " (simulated; ENOENT/ENOTDIR are possible,
 * depending on the path)", that its pid is made up, or that success may kill the caller. The
 * answer itself is not among the others; with no other outcome, nothing is said of them. */
static void decode_uncertainty(struct sbuf *sb, const struct catalog *cat, const struct outcome *o)
{
	static const char *const what[ENV_NKINDS] = {
		[ENV_PATH] = "the path", [ENV_FD] = "the descriptor", [ENV_POINTER] = "the memory pointed at",
		[ENV_PRIVILEGE] = "privilege", [ENV_HARDWARE] = "the hardware", [ENV_LSM] = "the LSMs",
		[ENV_FILESYSTEM] = "the filesystem", [ENV_OBJECT] = "what exists", [ENV_PID] = "the process",
		[ENV_MEMORY] = "memory", [ENV_CONFIG] = "the kernel's configuration", [ENV_SIGNAL] = "how the caller handles the signal",
	};
	if (!o->simulated || (!o->uncertain && !o->plausible_pid))
		return;
	sbuf_adds(sb, " (simulated");
	if (o->plausible_pid)
		sbuf_adds(sb, "; a made-up pid: the kernel picks it");
	int answer = o->ret == -1 ? o->err : 0;
	size_t nother = 0, ndeaths = 0, nkinds = 0;
	for (size_t i = 0; o->uncertain && i < o->npossible; i++) {
		nother += o->possible[i] != answer;
		ndeaths += o->possible[i] < 0;
	}
	if (nother) {
		/* the other answers slash-joined (ENOENT/ENOTDIR), then each death the call may cause */
		size_t m = 0;
		sbuf_adds(sb, "; ");
		for (size_t i = 0; i < o->npossible; i++) {
			int e = o->possible[i];
			if (e == answer || e < 0)
				continue;
			const char *en = e ? errno_name(e) : "success";
			sbuf_addf(sb, "%s%s", m++ ? "/" : "", en ? en : "E???");
		}
		for (size_t i = 0, d = 0; i < o->npossible; i++) {
			if (o->possible[i] >= 0)
				continue;
			put_sep(sb, d + !!m, ndeaths + !!m, "or");
			d++;
			struct sbuf name = SBUF_INIT;
			decode_signal(&name, cat, (uint64_t)-o->possible[i]);
			sbuf_addf(sb, "the caller's death by %s%s", name.buf[0] == 'S' ? "" : "signal ", name.buf);
			sbuf_release(&name);
		}
		sbuf_addf(sb, " %s possible", nother > 1 ? "are" : "is");
		for (int k = 0; k < ENV_NKINDS; k++)
			nkinds += !!(o->depends_on & 1u << k);
		if (nkinds)
			sbuf_adds(sb, ", depending on ");
		for (int k = 0, n = 0; k < ENV_NKINDS; k++)
			if (o->depends_on & 1u << k) {
				put_sep(sb, (size_t)n++, nkinds, "and");
				sbuf_adds(sb, what[k]);
			}
	}
	sbuf_adds(sb, ")");
}

uint64_t decode_shown_size(const struct syscall *sc, const struct cstruct *st, uint64_t size)
{
	if (!size && sc->has_rules && sc->rules.zero.kind == SA_VER0 && st->nversions)
		return st->versions[0].size; /* the kernel reads size 0 as VER0, and so does strace */
	return size;
}

/* An output struct as strace shows it on the call's exit: what the kernel wrote, up to the
 * size it says it wrote (sched_getattr's size field) or the size passed; the address when
 * the call failed, since the kernel wrote nothing. */
static void put_out_struct(struct sbuf *sb, const struct catalog *cat, const struct cstruct *st,
			   const struct outcome *o, size_t i, uint64_t size, unsigned style)
{
	if (o->stage != OS_CALLED || o->ret < 0 || !o->after) {
		put_arg_ptr(sb, o, i, o->args[i]);
		return;
	}
	decode_struct_as(sb, cat, st, o->after, o->len, decode_out_size(st, o->after, o->len, size), o->args[i], style);
}

/* The struct in data and the call's n entries after it, strace's way: {..., ops=[{...}, ...]};
 * by default at most strace's -s 32 of them, then "..." (print_local_array_ex). */
static void put_with_entries(struct sbuf *sb, const struct catalog *cat, const struct syscall *sc,
			     const struct cstruct *st, const unsigned char *data, uint64_t n, uint64_t addr,
			     unsigned style)
{
	const struct call_entries *e = &sc->entries;
	decode_struct_as(sb, cat, st, data, st->size, st->size, addr, style);
	if (!e->st)
		return;
	sb->len--; /* the struct's closing brace: the entries go inside */
	sbuf_addf(sb, "%s%s=[", sb->buf[sb->len - 1] == '{' ? "" : ", ", e->name);
	for (uint64_t k = 0; k < n; k++) {
		if (k == STRACE_STRSIZE && !(style & DECODE_VERBOSE)) {
			sbuf_adds(sb, ", ...");
			break;
		}
		if (k)
			sbuf_adds(sb, ", ");
		decode_struct_as(sb, cat, e->st, data + st->size + k * e->st->size, e->st->size, e->st->size, 0, style);
	}
	sbuf_adds(sb, "]}");
}

/* A struct strace prints on entry only when a byte of it or its entries is set, and on exit
 * from what the kernel wrote (io_uring_probe: strace's print_io_uring_probe); more entries
 * than the kernel takes, or a failed call with nothing printed, show the address. */
static void put_entry_if_set(struct sbuf *sb, const struct catalog *cat, const struct syscall *sc,
			     const struct cstruct *st, const struct outcome *o, size_t i, unsigned style)
{
	const struct call_entries *e = &sc->entries;
	uint64_t n = 0, esize = e->st ? e->st->size : 0;
	if (e->st)
		n = sc->args[e->count_arg].width == 4 ? (uint32_t)o->args[e->count_arg] : o->args[e->count_arg];
	if ((e->st && n > e->max) || !o->before || o->len < st->size + n * esize) {
		put_arg_ptr(sb, o, i, o->args[i]);
		return;
	}
	bool set = !mem_all_zero(o->before, (size_t)(st->size + n * esize));
	bool wrote = o->stage == OS_CALLED && o->ret >= 0 && o->after;
	if (set)
		put_with_entries(sb, cat, sc, st, o->before, n, o->args[i], style);
	if (!wrote) {
		if (!set)
			put_arg_ptr(sb, o, i, o->args[i]);
		return;
	}
	uint64_t filled = st->strace_count ? le_load(o->after + st->strace_count->offset, st->strace_count->size) : n;
	if (set)
		sbuf_adds(sb, " => ");
	put_with_entries(sb, cat, sc, st, o->after, filled < n ? filled : n, o->args[i], style);
}

/* An argument the kernel writes (capget's dataptr), as strace shows it on exit: what the
 * kernel left there; its address when the call failed, or when a simulated answer does not
 * know what the kernel would write. */
static void put_out_arg(struct sbuf *sb, const struct catalog *cat, const struct cstruct *st,
			const struct outcome *o, size_t i, unsigned style)
{
	if (o->stage != OS_CALLED || o->ret < 0 || o->extra_len < st->size ||
	    (o->simulated && (!o->extra_known || mem_all_zero(o->extra_known, st->size)))) {
		put_arg_ptr(sb, o, i, o->args[i]);
		return;
	}
	decode_struct_as(sb, cat, st, o->extra, o->extra_len, st->size, o->args[i], style);
}

uint64_t decode_out_size(const struct cstruct *st, const unsigned char *data, size_t len, uint64_t size)
{
	const struct field *sf = st->size_field;
	if (sf && data && len >= sf->offset + sf->size) {
		uint64_t wrote = le_load(data + sf->offset, sf->size);
		return wrote < size ? wrote : size;
	}
	return size;
}

void decode_call(struct sbuf *sb, const struct catalog *cat, const struct syscall *sc,
		 const struct outcome *o, int buf_arg)
{
	decode_call_as(sb, cat, sc, o, buf_arg, 0);
}

/* The call's struct argument (i): strace's entry/exit view, an output struct, strace's own
 * decoder's view, or the struct as passed with what the kernel wrote back. */
static void put_struct_arg(struct sbuf *sb, const struct catalog *cat, const struct syscall *sc, const struct outcome *o,
			   size_t i, unsigned style)
{
	const struct sarg *a = &sc->args[i];
	uint64_t v = o->args[i];
	const struct cstruct *st = a->st ? a->st : sc->st;
	uint64_t size = sc->size_where == SW_IOCTL || sc->size_where == SW_NONE ? st->size : o->size;
	enum fdir dir = (enum fdir)describe_direction(sc, st).kind;
	if (st->strace_entry_if_set) {
		put_entry_if_set(sb, cat, sc, st, o, i, style);
		return;
	}
	if (st->nstrace_entry || st->nstrace_exit) {
		put_entry_exit(sb, cat, st, o, i);
		return;
	}
	if (dir == FD_OUT) {
		put_out_struct(sb, cat, st, o, i, decode_shown_size(sc, st, size), style);
		return;
	}
	if (st->nview && view_too_small(st, o->before, size)) {
		put_arg_ptr(sb, o, i, v);
		return;
	}
	if (st->nview) { /* strace's own decoder: what the kernel rewrote is inside, on the call's
			  * exit; an ioctl's is decoded on entry (strace 6.1 src/perf_ioctl.c
			  * perf_ioctl_modify_attributes), before any */
		decode_view(sb, cat, st, o->before, sc->is_ioctl ? NULL : o->after, o->len, size, style);
		return;
	}
	decode_struct_as(sb, cat, st, o->before, o->len, decode_shown_size(sc, st, size), v, style | DECODE_ENTRY);
	put_writeback(sb, cat, st, o);
}

/* Any other argument (i), as strace prints it by its role. */
static void put_scalar_arg(struct sbuf *sb, const struct catalog *cat, const struct syscall *sc,
			   const struct outcome *o, size_t i, unsigned style)
{
	const struct sarg *a = &sc->args[i];
	uint64_t v = o->args[i];
	switch (a->role) {
	case AR_FD:
		if ((int)v == -100)
			sbuf_adds(sb, "AT_FDCWD");
		else
			sbuf_addf(sb, "%d", (int)v);
		break;
	case AR_PATH:
		if (o->raw_addresses & (1u << i))
			put_ptr(sb, v);
		else if (v)
			put_string(sb, (const char *)(uintptr_t)v);
		else
			sbuf_adds(sb, "NULL");
		break;
	case AR_FLAGS:
	case AR_CMD:
		if (sc->is_ioctl && a->role == AR_CMD) {
			sbuf_addf(sb, "%s", sc->name);
			break;
		}
		if (a->strace_numeric) /* strace's PRINT_VAL_U or PRINT_VAL_X, no table */
			sbuf_addf(sb, a->strace_format == FF_HEX && sarg_bits(a, v) ? "%#llx" : "%llu",
				  (unsigned long long)sarg_bits(a, v));
		else if (a->flagset)
			xlat_strace(sb, a->flagset, sarg_bits(a, v));
		else /* a flags word strace has no table for: PRINT_VAL_U */
			sbuf_addf(sb, "%llu", (unsigned long long)sarg_bits(a, v));
		break;
	case AR_PTR:
	case AR_STRUCT:
		if (o->extra && (int)i == o->extra_arg && a->direction == FD_OUT && a->st)
			put_out_arg(sb, cat, a->st, o, i, style);
		else if (o->extra && (int)i == o->extra_arg)
			put_arg_ptr(sb, o, i, v);
		else if (v && a->def && a->def[0] == '"' && !(o->raw_addresses & (1u << i)))
			put_string(sb, (const char *)(uintptr_t)v);
		else
			put_arg_ptr(sb, o, i, v);
		break;
	case AR_SIZE:
	case AR_PID:
	case AR_INT:
	default:
		if (a->is_ptr)
			put_arg_ptr(sb, o, i, v);
		else if (!a->is_signed)
			sbuf_addf(sb, "%llu", (unsigned long long)sarg_bits(a, v));
		else if (a->width < 8)
			sbuf_addf(sb, "%d", (int32_t)v);
		else
			sbuf_addf(sb, "%lld", (long long)v);
		break;
	}
}

void decode_call_as(struct sbuf *sb, const struct catalog *cat, const struct syscall *sc,
		    const struct outcome *o, int buf_arg, unsigned style)
{
	/* the system call itself: ioctl for ioctls, io_uring_register for its opcodes */
	const char *fn = sc->prototype ? strchr(sc->prototype, '(') : NULL, *start = fn;
	while (start && start > sc->prototype && (start[-1] == '_' || (start[-1] >= 'a' && start[-1] <= 'z') ||
						   (start[-1] >= '0' && start[-1] <= '9')))
		start--;
	if (start && start < fn)
		sbuf_addf(sb, "%.*s(", (int)(fn - start), start);
	else
		sbuf_addf(sb, "%s(", sc->name);
	for (size_t i = 0; i < sc->nargs && i < 6; i++) {
		if (i)
			sbuf_adds(sb, ", ");
		if ((int)i == buf_arg && sc->st)
			put_struct_arg(sb, cat, sc, o, i, style);
		else
			put_scalar_arg(sb, cat, sc, o, i, style);
	}
	sbuf_adds(sb, ")");
	if (o->stage == OS_CALLED) {
		if (o->ret == -1 && o->err) {
			const char *en = errno_name(o->err);
			sbuf_addf(sb, " = -1 %s (%s)", en ? en : "E???", strerror(o->err));
		} else {
			sbuf_addf(sb, " = %ld", o->ret);
		}
		decode_uncertainty(sb, cat, o);
	} else if (o->stage == OS_SIGNALED && o->ret > 0) {
		/* clone3 returned the new pid to its caller, which that process's exit_signal
		 * killed afterwards: strace's line ends in the return, its "+++ killed" line follows */
		sbuf_addf(sb, " = %ld", o->ret);
	} else {
		sbuf_adds(sb, " = ?");
	}
}
