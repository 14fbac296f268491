/* decode: a call and its struct written as strace writes them, so xsc's line can be set
 * beside strace's: open(2) flags with their access mode, fields up to the size passed, a
 * size below the first version as the address (or just the size field), a nonzero tail as
 * its bytes, what the kernel wrote back, and a simulated answer's uncertainty. */
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include "tap.h"
#include "model/dataload.h"
#include "model/decode.h"
#include "model/structbuf.h"
#include "base/sbuf.h"

static struct catalog *cat;
static struct sbuf sb = SBUF_INIT;

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static const char *field_of(const char *st_name, const char *field, const unsigned char *data)
{
	const struct cstruct *st = catalog_find_struct(cat, st_name);
	sbuf_reset(&sb);
	decode_field(&sb, cat, cstruct_find_field(st, field), data);
	return sb.buf;
}

static const char *struct_of(const char *st_name, const unsigned char *data, size_t len, uint64_t size)
{
	sbuf_reset(&sb);
	decode_struct(&sb, cat, catalog_find_struct(cat, st_name), data, len, size, 0x7f0000001000ULL);
	return sb.buf;
}

static void test_fields(void)
{
	unsigned char how[24] = { 0 };
	is_str(field_of("open_how", "flags", how), "O_RDONLY", "open flags 0 are O_RDONLY, as strace names the access mode");
	put64(how, 02 | 0100 | 02000000);
	is_str(field_of("open_how", "flags", how), "O_RDWR|O_CREAT|O_CLOEXEC", "the access mode first, then the bits");
	put64(how + 8, 0644);
	is_str(field_of("open_how", "mode", how), "0644", "a mode in octal");
	put64(how + 16, 0x80000000 | 0x08);
	is_str(field_of("open_how", "resolve", how), "RESOLVE_BENEATH|0x80000000", "resolve: names and the unknown rest");
	unsigned char ca[88] = { 0 };
	put64(ca + 32, 17);
	is_str(field_of("clone_args", "exit_signal", ca), "SIGCHLD", "exit_signal by its signal name");
	put64(ca + 32, 32);
	is_str(field_of("clone_args", "exit_signal", ca), "SIGRTMIN", "32 is SIGRTMIN, as strace 6.1 names it");
	put64(ca + 32, 64);
	is_str(field_of("clone_args", "exit_signal", ca), "SIGRT_32", "33 to 64 are SIGRT_1 to SIGRT_32");
	put64(ca + 32, 65);
	is_str(field_of("clone_args", "exit_signal", ca), "65", "a signal without a name as its number");
	unsigned char caps[24] = { 0 };
	caps[0] = 0x21;  /* CAP_CHOWN, CAP_KILL */
	caps[12] = 0x01; /* effective_hi: CAP_MAC_OVERRIDE */
	is_str(field_of("cap_user_data_v3", "effective", caps), "1<<CAP_CHOWN|1<<CAP_KILL|1<<CAP_MAC_OVERRIDE",
	       "a capability set joins its two words, each bit as strace's 1<<CAP_X");
	is_str(field_of("cap_user_data_v3", "permitted", caps), "0", "an empty set is 0");
	caps[7] = 0x80;  /* permitted bit 31: CAP_SETFCAP; then bit 63 of the joined value */
	caps[19] = 0x80;
	is_str(field_of("cap_user_data_v3", "permitted", caps), "1<<CAP_SETFCAP|0x8000000000000000",
	       "a bit no capability names stays in hex");
	is_str(field_of("clone_args", "stack", ca), "NULL", "a NULL pointer");
}

/* The same fields in a buffer's look, as dump and expect show them beside the bytes. */
static const char *buffer_field_of(struct structbuf *b, const char *field)
{
	sbuf_reset(&sb);
	decode_field_buffer(&sb, b, cstruct_find_field(b->st, field));
	return sb.buf;
}

static void test_buffer_look(void)
{
	struct structbuf *b = structbuf_new("p", catalog_find_struct(cat, "io_uring_params"), NULL);
	put64(b->data + 12, 4096); /* sq_thread_cpu (hex), sq_thread_idle 0 */
	is_str(buffer_field_of(b, "sq_thread_cpu"), "4096 (0x1000)", "a number from 256 on with its hex, whatever its format");
	is_str(field_of("io_uring_params", "sq_thread_cpu", b->data), "0x1000", "strace's look writes a hex field in hex");
	is_str(buffer_field_of(b, "resv"), "all zero", "a zero array summed up");
	b->data[32] = 1;
	is_str(buffer_field_of(b, "resv"), "nonzero", "an array with a byte set: the bytes show which");
	is_str(field_of("io_uring_params", "resv", b->data), "[0, 0x1, 0]", "strace's look lists the elements");
	structbuf_free(b);
	b = structbuf_new("h", catalog_find_struct(cat, "open_how"), NULL);
	is_str(buffer_field_of(b, "mode"), "0", "a zero mode as chmod writes it");
	is_str(field_of("open_how", "mode", b->data), "000", "and as strace's PRINT_VAL_03O");
	put64(b->data, 02);
	is_str(buffer_field_of(b, "flags"), "O_RDWR", "flags named as the call line names them");
	structbuf_free(b);
	b = structbuf_new("a", catalog_find_struct(cat, "bpf_attr_prog_load"), NULL);
	memcpy(b->data + 48, "ab\001", 3);
	is_str(buffer_field_of(b, "prog_name"), "\"ab\\x01\"", "a char array as text, a control byte in hex");
	memcpy(b->data + 48, "x\"y", 3);
	is_str(field_of("bpf_attr_prog_load", "prog_name", b->data), "\"x\\x22y\"", "strace's look escapes the quote");
	structbuf_free(b);
}

static void test_structs(void)
{
	unsigned char how[40] = { 0 };
	put64(how + 16, 0x20);
	is_str(struct_of("open_how", how, sizeof(how), 24), "{flags=O_RDONLY, resolve=RESOLVE_CACHED}",
	       "fields up to the size, strace's way (mode 0 without O_CREAT or O_TMPFILE is left out)");
	is_str(struct_of("open_how", how, sizeof(how), 16), "0x7f0000001000",
	       "a size below the first version: the address, as strace shows it");
	is_str(struct_of("open_how", how, sizeof(how), 32), "{flags=O_RDONLY, resolve=RESOLVE_CACHED}",
	       "a zero tail is not shown");
	how[28] = 1;
	is_str(struct_of("open_how", how, sizeof(how), 32),
	       "{flags=O_RDONLY, resolve=RESOLVE_CACHED, /* bytes 24..31 */ \"\\x00\\x00\\x00\\x00\\x01\\x00\\x00\\x00\"}",
	       "a nonzero tail as its bytes");
	unsigned char ca[88] = { 0 };
	put64(ca + 72, 1);
	ca[78] = 0xff; /* past size 78: not passed */
	is_str(struct_of("clone_args", ca, sizeof(ca), 78),
	       "{flags=0, exit_signal=0, stack=NULL, stack_size=0, set_tid=NULL, set_tid_size=1}",
	       "clone3: a field the size cuts shows the bytes it holds, as strace's zeroed struct does");
	unsigned char *big = calloc(1, 4096);
	big[4000] = 7;
	const char *s = struct_of("open_how", big, 4096, 4096);
	ok(strstr(s, "/* bytes 24..4095 */") && strstr(s, "\"...}"), "a long tail is cut at strace's 32 bytes: %s", s);
	ok(strlen(s) < 200, "and stays short");
	free(big);
	unsigned char attr[56] = { 0 };
	attr[0] = 40; /* sched_attr.size */
	is_str(struct_of("sched_attr", attr, sizeof(attr), 40), "{size=40}",
	       "a struct carrying its size, below the first version: the size field alone");
	is_str(struct_of("open_how", NULL, 0, 24), "0x7f0000001000", "no bytes: the address");
}

static void test_call(void)
{
	const struct syscall *sc = catalog_find_syscall(cat, "openat2");
	struct outcome o;
	outcome_init(&o);
	unsigned char how[24] = { 0 };
	put64(how, 0100);
	put64(how + 8, 0600);
	o.stage = OS_CALLED;
	o.args[0] = (uint64_t)-100;
	o.args[1] = (uint64_t)(uintptr_t)"f\"x";
	o.args[2] = 0x7f0000002000ULL;
	o.args[3] = 24;
	o.size = 24;
	o.before = how;
	o.after = how;
	o.len = sizeof(how);
	o.ret = 3;
	sbuf_reset(&sb);
	decode_call(&sb, cat, sc, &o, 2);
	is_str(sb.buf, "openat2(AT_FDCWD, \"f\\\"x\", {flags=O_RDONLY|O_CREAT, mode=0600, resolve=0}, 24) = 3",
	       "a whole line: AT_FDCWD, the quoted path, the struct, the size and the result");
	o.ret = -1;
	o.err = E2BIG;
	sbuf_reset(&sb);
	decode_call(&sb, cat, sc, &o, 2);
	ok(strstr(sb.buf, ") = -1 E2BIG (Argument list too long)") != NULL, "an error by name and text: %s", sb.buf);
	o.simulated = true;
	o.uncertain = true;
	o.ret = 3;
	o.err = 0;
	outcome_add_possible(&o, 0);
	outcome_add_possible(&o, ENOENT);
	o.depends_on = 1u << ENV_PATH;
	sbuf_reset(&sb);
	decode_call(&sb, cat, sc, &o, 2);
	ok(strstr(sb.buf, "= 3 (simulated; ENOENT is possible, depending on the path)") != NULL,
	   "an uncertain simulated answer says what else may happen: %s", sb.buf);
	o.before = o.after = NULL; /* not the outcome's own: outcome_release must not free them */
	outcome_release(&o);
	/* clone3 whose new process's exit_signal killed the caller after the call returned */
	const struct syscall *c3 = catalog_find_syscall(cat, "clone3");
	unsigned char ca[88] = { 0 };
	put64(ca + 32, 1);
	outcome_init(&o);
	o.stage = OS_SIGNALED;
	o.signal = 1;
	o.ret = 4242;
	o.args[0] = 0x7f0000002000ULL;
	o.args[1] = o.size = 88;
	o.before = o.after = ca;
	o.len = sizeof(ca);
	sbuf_reset(&sb);
	decode_call(&sb, cat, c3, &o, 0);
	is_str(sb.buf, "clone3({flags=0, exit_signal=SIGHUP, stack=NULL, stack_size=0}, 88) = 4242",
	       "a caller killed after clone3 returned: the line ends in the return, as strace's");
	o.ret = 0;
	sbuf_reset(&sb);
	decode_call(&sb, cat, c3, &o, 0);
	ok(strstr(sb.buf, ") = ?") != NULL, "killed with no return known: = ?: %s", sb.buf);
	o.before = o.after = NULL;
	outcome_release(&o);
}

int main(void)
{
	cat = catalog_load("data");
	if (!cat || !catalog_find_struct(cat, "open_how")) {
		printf("Bail out! no catalogue\n");
		return 1;
	}
	test_fields();
	test_structs();
	test_buffer_look();
	test_call();
	sbuf_release(&sb);
	catalog_free(cat);
	return tap_done();
}
