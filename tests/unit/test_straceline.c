/* straceline: real strace lines (tests/fixtures/strace, strace 6.1: xsc's own live batteries,
 * a python3 thread's clone3, stat and ls's statx) read back into the catalogue's terms: the
 * call, the size, the answer, and the struct, which decodes to the text strace printed. A
 * line the parser cannot read must be refused with a reason, never misread. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "model/dataload.h"
#include "model/decode.h"
#include "model/straceline.h"
#include "base/diag.h"
#include "base/sbuf.h"

static struct catalog *cat;

/* Reads one fixture line as strace -f writes it ("PID  call(...) = N"): the pid column is
 * strace's, not the call's. Returns 0 or -1. */
static int parse_fixture_line(const char *raw, struct strace_line *l)
{
	while (*raw >= '0' && *raw <= '9')
		raw++;
	return strace_line_parse(cat, raw, l);
}

/* strace 6.1 decodes sched_attr by version: with a size between VER0 (48) and VER1 (56) it
 * stops at sched_period, where xsc shows every field the size holds (sched_util_min at
 * 48..51 in 55 bytes) */
static bool strace_decodes_by_version(const struct strace_line *l)
{
	return !strcmp(l->sc->st->name, "sched_attr") && l->size > 48 && l->size < 56;
}

/* Every line of a fixture file parses; its struct decodes back to strace's text unless
 * strace elides ("...") or names a constant xsc writes otherwise. */
static void test_file(const char *path, const char *name)
{
	FILE *f = fopen(path, "r");
	ok(f != NULL, "%s opens", path);
	if (!f)
		return;
	char raw[8192];
	int n = 0, parsed = 0, round = 0, compared = 0;
	struct sbuf dec = SBUF_INIT;
	while (fgets(raw, sizeof(raw), f)) {
		raw[strcspn(raw, "\n")] = '\0';
		n++;
		struct strace_line l;
		diag_swap_sink(DIAG_DISCARD);
		int r = parse_fixture_line(raw, &l);
		diag_swap_sink((struct diag_sink){ NULL, NULL });
		if (r < 0) {
			/* strace cuts a long tail at -s 32: the bytes it hides are not guessed */
			ok(strstr(raw, "\"...}") != NULL, "%s: only a line whose tail strace cut short is refused: %s", name, raw);
			strace_line_release(&l);
			continue;
		}
		parsed++;
		if (!strcmp(l.sc->name, name) && l.answered && l.b)
			round++;
		if (l.struct_text[0] == '{' && !strstr(l.struct_text, "...") && !strstr(l.struct_text, "/*")) {
			sbuf_reset(&dec);
			uint64_t size = decode_shown_size(l.sc, l.sc->st, l.size);
			if ((l.sc->direction != FD_DEFAULT ? l.sc->direction : l.sc->st->direction) == FD_OUT)
				size = decode_out_size(l.sc->st, l.b->data, l.b->len, size);
			decode_struct(&dec, cat, l.sc->st, l.b->data, l.b->len, size, 0);
			compared++;
			if (!strace_decodes_by_version(&l))
				is_str(dec.buf, l.struct_text, "%s line %d: the struct decodes back to strace's text", name, n);
		}
		strace_line_release(&l);
	}
	fclose(f);
	sbuf_release(&dec);
	ok(n > 0 && round == parsed, "%s: %d lines, %d read as %s with an answer and a struct, %d decoded back",
	   name, n, parsed, name, compared);
}

static void test_fields(void)
{
	struct strace_line l;
	ok(strace_line_parse(cat, "[pid 18379] sched_setattr(0, {size=40} => {size=56}, 0) = -1 E2BIG (Argument list too long)", &l) == 0,
	   "a [pid N] prefix and a write-back");
	ok(l.size == 40 && l.ret == -1 && l.err == E2BIG && l.answered, "the size in the struct, the answer");
	strace_line_release(&l);
	ok(strace_line_parse(cat, "openat2(AT_FDCWD, \"/\", {flags=O_RDONLY, resolve=0, /* bytes 24..31 */ "
				  "\"\\x00\\x00\\x00\\x00\\x01\\x00\\x00\\x00\"}, 32) = -1 E2BIG (Argument list too long)", &l) == 0,
	   "a nonzero tail");
	ok(l.size == 32 && l.b->data[28] == 1 && l.b->data[24] == 0, "its bytes, where strace put them");
	strace_line_release(&l);
	ok(strace_line_parse(cat, "openat2(AT_FDCWD, \"/\", 0x7ffd6a957dc0, 16) = -1 EINVAL (Invalid argument)", &l) == 0 &&
		   !strcmp(l.struct_text, "0x7ffd6a957dc0") && l.size == 16,
	   "a struct too small to decode is its address");
	strace_line_release(&l);
	ok(strace_line_parse(cat, "clone3({flags=CLONE_PIDFD, pidfd=0x7ffc, exit_signal=SIGCHLD, stack=NULL, stack_size=0}, 64)",
			     &l) == 0 && !l.answered, "a line without its answer");
	ok(l.b && l.b->data[32] == 17, "exit_signal=SIGCHLD is 17 at offset 32");
	strace_line_release(&l);
	ok(strace_line_parse(cat, "clone3({flags=0, exit_signal=SIGRT_1, stack=NULL, stack_size=0}, 88) = 5", &l) == 0 &&
		   l.b && l.b->data[32] == 33, "SIGRT_1, strace's name of signal 33");
	strace_line_release(&l);
	/* strace 6.1's io_uring_setup: an array in hex; what it prints on exit is the kernel's */
	ok(strace_line_parse(cat, "io_uring_setup(4, {flags=0, sq_thread_cpu=0, sq_thread_idle=0, resv=[0, 0x42, 0]}) = -1 EINVAL "
				  "(Invalid argument)", &l) == 0 && l.b && l.b->data[32] == 0x42 && l.b->data[28] == 0,
	   "an array field, element by element: resv[1] = 0x42 at offset 32");
	strace_line_release(&l);
	ok(strace_line_parse(cat, "io_uring_setup(4, {flags=0, sq_thread_cpu=0x3, sq_thread_idle=0, sq_entries=4, cq_entries=8, "
				  "features=IORING_FEAT_SINGLE_MMAP, sq_off={head=0, tail=4}, cq_off={head=8}}) = 4", &l) == 0 &&
		   l.b && l.b->data[12] == 3 && l.b->data[0] == 0 && l.b->data[4] == 0 && l.b->data[20] == 0 && l.b->data[44] == 0,
	   "the fields strace prints on exit (sq_entries .. cq_off) are the kernel's: not rebuilt");
	strace_line_release(&l);
	diag_swap_sink(DIAG_DISCARD);
	static const char *const bad[] = {
		"nosuch(1) = 0",
		"openat2(AT_FDCWD, \"/\", {flags=O_RDONLY}) = 0",
		"openat2(AT_FDCWD, \"/\", {flags=O_RDONLY, resolv=0}, 24) = 0",
		"openat2(AT_FDCWD, \"/\", {flags=O_RDONLY, 24) = 0",
		"openat2(AT_FDCWD, \"/, {flags=O_RDONLY}, 24) = 0",
		"openat2(AT_FDCWD, \"/\", {flags=O_RDONLY /* unclosed}, 24) = 0",
		"openat2(AT_FDCWD, \"/\", {flags=O_RDONLY}, 24) = -1 EBOGUS (No)",
		"openat2(AT_FDCWD, \"/\", {/* bytes 24..31 */ \"\\x01\"}, 32) = -1 E2BIG (Argument list too long)",
		"openat2(AT_FDCWD, \"/\", {/* bytes 31..24 */ \"\\x01\"}, 32) = -1 E2BIG (Argument list too long)",
		"io_uring_setup(4, {flags=0, resv=[1, 2, 3, 4]}) = -1 EINVAL (Invalid argument)",
		"io_uring_setup(4, {flags=0, resv=[0x100000000]}) = -1 EINVAL (Invalid argument)",
		"io_uring_setup(4, {flags=0, resv=[]}) = -1 EINVAL (Invalid argument)",
		"clone3({flags=0, exit_signal=SIGRT_33, stack=NULL, stack_size=0}, 88) = 5",
		"clone3({flags=0, exit_signal=SIGRT_01, stack=NULL, stack_size=0}, 88) = 5",
		"no parenthesis at all",
		"",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ok(strace_line_parse(cat, bad[i], &l) < 0, "refused: '%s'", bad[i]);
		strace_line_release(&l);
	}
	diag_swap_sink((struct diag_sink){ NULL, NULL });
}

/* statx's output struct as strace writes it: stx_mode as S_IF* names and octal is read
 * (S_IFDIR|0755 is 040755), a mode that is none of them is refused naming it */
static void test_statx(void)
{
	FILE *f = fopen("tests/fixtures/strace/stat-ls.strace", "r");
	char raw[4096];
	int n = 0, read = 0;
	while (f && fgets(raw, sizeof(raw), f)) {
		raw[strcspn(raw, "\n")] = '\0';
		struct strace_line l;
		n++;
		if (parse_fixture_line(raw, &l) == 0 && l.b) {
			const struct field *m = cstruct_find_field(l.sc->st, "stx_mode");
			read += m && (l.b->data[m->offset] | l.b->data[m->offset + 1] << 8) ==
					     (strstr(raw, "S_IFDIR|0755") ? 040755 : 0100755);
		}
		strace_line_release(&l);
	}
	if (f)
		fclose(f);
	ok(n == 3 && read == n, "statx lines of stat and ls: stx_mode read from S_IF* and octal (%d of %d)", read, n);
	struct strace_line l;
	diag_swap_sink(DIAG_DISCARD);
	ok(strace_line_parse(cat, "statx(AT_FDCWD, \"/\", 0, STATX_ALL, {stx_mask=STATX_ALL, stx_mode=S_IFWHAT|0755}) = 0", &l) < 0,
	   "a mode strace never writes is refused");
	diag_swap_sink((struct diag_sink){ NULL, NULL });
	strace_line_release(&l);
}

static void put_le(unsigned char *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* perf_event_attr in strace's own style (strace 6.1 src/perf.c): config by type, the bit
 * fields one by one, the size rewritten on E2BIG inside the struct; read back, the bytes
 * strace showed are those passed */
static void test_perf(void)
{
	const struct syscall *sc = catalog_find_syscall(cat, "perf_event_open");
	unsigned char attr[152] = { 0 }, after[152];
	put_le(attr, 3, 4);                                      /* PERF_TYPE_HW_CACHE */
	put_le(attr + 4, 152, 4);
	put_le(attr + 8, 2ULL << 32 | 1 << 16 | 1 << 8 | 3, 8);  /* PMU 2, MISS, WRITE, DTLB */
	put_le(attr + 16, 4000, 8);
	put_le(attr + 40, 0x1 | 0x400 | 2 << 15 | 0x100000, 8);  /* disabled, freq, precise_ip 2, exclude_guest */
	attr[110] = 1;                                           /* __reserved_2 */
	memcpy(after, attr, sizeof(after));
	put_le(after + 4, 136, 4);
	struct outcome o;
	outcome_init(&o);
	o.stage = OS_CALLED;
	o.args[0] = 0x7f0000001000ULL;
	o.args[2] = (uint64_t)-1;
	o.args[3] = (uint64_t)-1;
	o.args[4] = 8;
	o.size = 152;
	o.before = attr;
	o.after = after;
	o.len = sizeof(attr);
	o.ret = -1;
	o.err = E2BIG;
	struct sbuf sb = SBUF_INIT;
	decode_call(&sb, cat, sc, &o, 0);
	is_str(sb.buf, "perf_event_open({type=PERF_TYPE_HW_CACHE, size=0x98 /* PERF_ATTR_SIZE_??? */ => PERF_ATTR_SIZE_VER8, "
		       "config=0x2<<32|PERF_COUNT_HW_CACHE_RESULT_MISS<<16|PERF_COUNT_HW_CACHE_OP_WRITE<<8|PERF_COUNT_HW_CACHE_DTLB, "
		       "sample_freq=4000, sample_type=0, read_format=0, disabled=1, freq=1, precise_ip=2 /* requested to have 0 skid */, "
		       "exclude_guest=1, ...}, 0, -1, -1, PERF_FLAG_FD_CLOEXEC) = -1 E2BIG (Argument list too long)",
	       "perf_event_attr as strace writes it, without -v");
	struct strace_line l;
	ok(strace_line_parse(cat, sb.buf, &l) == 0 && l.b && !memcmp(l.b->data, attr, 48) && l.size == 152,
	   "read back: the 48 bytes strace shows without -v, and the size passed, not the one written back");
	strace_line_release(&l);
	sbuf_reset(&sb);
	decode_call_as(&sb, cat, sc, &o, 0, DECODE_VERBOSE);
	ok(strstr(sb.buf, ", wakeup_events=0, config1=0, config2=0, sample_regs_user=0, sample_regs_intr=0, aux_watermark=0, "
			  "sample_max_stack=0 /* bytes 110..111: 0x1 */, aux_sample_size=0, sig_data=0, config3=0, config4=0, ...}") != NULL,
	   "with -v: the rest by type, a nonzero reserved byte as strace's comment, the fields past its struct as later straces write them: %s",
	   sb.buf);
	ok(strace_line_parse(cat, sb.buf, &l) == 0 && l.b && !memcmp(l.b->data, attr, 110) && !memcmp(l.b->data + 112, attr + 112, 32),
	   "read back with -v: every byte but the reserved ones strace shows only in a comment");
	strace_line_release(&l);
	o.before = o.after = NULL;
	outcome_release(&o);
	sbuf_release(&sb);
}

int main(void)
{
	cat = catalog_load("data");
	if (!cat || !catalog_find_syscall(cat, "openat2")) {
		printf("Bail out! no catalogue\n");
		return 1;
	}
	test_fields();
	test_statx();
	test_perf();
	static const char *const files[][2] = {
		{ "xsc-openat2", "openat2" }, { "xsc-clone3", "clone3" }, { "xsc-sched_setattr", "sched_setattr" },
		{ "xsc-sched_getattr", "sched_getattr" }, { "xsc-landlock_create_ruleset", "landlock_create_ruleset" },
		{ "xsc-mount_setattr", "mount_setattr" }, { "python3-thread", "clone3" },
	};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[256];
		snprintf(path, sizeof(path), "tests/fixtures/strace/%s.strace", files[i][0]);
		test_file(path, files[i][1]);
	}
	catalog_free(cat);
	return tap_done();
}
