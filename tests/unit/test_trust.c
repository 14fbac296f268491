/* What a live call may run: the build's table agrees with the bundled catalogue, and a plan
 * is refused for each argument the sandbox cannot vouch for, whatever its source. Nothing
 * here runs a call. */
#include <stdlib.h>
#include "tap.h"
#include "kernel/invoke.h"
#include "kernel/trust.h"
#include "model/dataload.h"
#include "model/structbuf.h"

static struct catalog *cat;

/* Plans sc with the overrides (NULL-terminated) on a zeroed buffer of its struct;
 * returns invoke_plan's answer and leaves the plan in *p (release it). */
static int plan(const char *name, unsigned flags, struct call_plan *p, const char **over)
{
	const struct syscall *sc = catalog_find_syscall(cat, name);
	if (!sc)
		return -2;
	int n = 0;
	while (over[n])
		n++;
	struct structbuf *sb = sc->st ? structbuf_new(sc->st->name, sc->st, sc) : NULL;
	int r = invoke_plan(cat, sc, sb, NULL, n, (char **)over, flags, 1000, p);
	structbuf_free(sb);
	return r;
}

static bool refused(const char *name, const char **over)
{
	struct call_plan p;
	int r = plan(name, 0, &p, over);
	invoke_plan_release(&p);
	return r == -1;
}

#define OVER(...) ((const char *[]){ __VA_ARGS__, NULL })

static void test_table_matches_catalogue(void)
{
	size_t callable = 0, agree = 0;
	for (size_t i = 0; i < cat->nsyscalls; i++) {
		const struct syscall *sc = &cat->syscalls[i];
		const char *why;
		const struct sysent *se;
		if (!invoke_supported(sc, &why))
			continue;
		callable++;
		if (trust_interface(sc, &se) == 0)
			agree++;
		else
			printf("# %s: the build and the catalogue disagree\n", sc->name);
	}
	ok(callable > 20 && agree == callable, "the build's table agrees with all %zu callable catalogue entries", callable);
}

static void test_catalogue_cannot_renumber(void)
{
	const struct syscall *statx = catalog_find_syscall(cat, "statx");
	struct syscall copy = *statx;
	const struct sysent *se;
	copy.nr_x86_64 = 263;
	copy.nr_aarch64 = 35; /* unlinkat */
	ok(trust_interface(&copy, &se) == -1, "statx numbered as unlinkat is refused");
	copy = *statx;
	copy.name = "unlinkat";
	ok(trust_interface(&copy, &se) == -1, "a call the build does not know is refused");
	const struct syscall *pidfd = catalog_find_syscall(cat, "PIDFD_GET_INFO");
	copy = *pidfd;
	copy.ioctl_type = 0x54;
	copy.ioctl_nr = 0x12;
	ok(trust_interface(&copy, &se) == -1, "an ioctl re-encoded as TIOCSTI is refused");
	struct sarg args[4];
	const struct syscall *openat2 = catalog_find_syscall(cat, "openat2");
	copy = *openat2;
	memcpy(args, openat2->args, sizeof(args));
	args[0].role = AR_INT;
	copy.args = args;
	ok(trust_interface(&copy, &se) == -1, "openat2 with dirfd made an int is refused");
	/* the fields the build judges by (systable's guard) are the catalogue's of that name */
	const struct syscall *clone3 = catalog_find_syscall(cat, "clone3");
	struct cstruct st = *clone3->st;
	struct field fields[16];
	ok(st.nfields <= 16, "clone_args fits the test's copy");
	memcpy(fields, st.fields, sizeof(*fields) * st.nfields);
	for (size_t i = 0; i < st.nfields; i++)
		if (!strcmp(fields[i].name, "cgroup"))
			fields[i].name = "cgroup_fd";
	st.fields = fields;
	copy = *clone3;
	copy.st = &st;
	ok(trust_interface(&copy, &se) == -1, "clone3 whose cgroup field is renamed is refused");
	const struct syscall *ota = catalog_find_syscall(cat, "open_tree_attr");
	copy = *ota;
	struct sarg oargs[5];
	memcpy(oargs, ota->args, sizeof(oargs));
	oargs[2].name = "attr_flags";
	copy.args = oargs;
	ok(trust_interface(&copy, &se) == -1, "open_tree_attr whose flags argument is renamed is refused");
}

/* cl_args="..." with cgroup 5 at offset 80, and CLONE_INTO_CGROUP (bit 33) or not */
static const char *clone_args_bytes(bool into_cgroup)
{
	static char text[16 + 88 * 4];
	char *p = text + snprintf(text, sizeof(text), "cl_args=\"");
	for (int i = 0; i < 88; i++)
		p += snprintf(p, 5, "\\x%02x", i == 4 && into_cgroup ? 2 : i == 80 ? 5 : 0);
	snprintf(p, 2, "\"");
	return text;
}

static void test_arguments(void)
{
	ok(!refused("openat2", OVER("dirfd=AT_FDCWD")), "AT_FDCWD is fine");
	ok(refused("openat2", OVER("dirfd=5")), "dirfd=5 is refused");
	ok(refused("openat2", OVER("dirfd=0x100000005")), "dirfd=5 in 64 bits is refused");
	ok(refused("openat2", OVER("dirfd=0")), "dirfd=0 is refused");
	ok(!refused("perf_event_open", OVER("group_fd=-1")), "group_fd -1 (none) is fine");
	ok(!refused("PIDFD_GET_INFO", OVER("info=0")), "PIDFD_GET_INFO's own pidfd is fine");
	ok(refused("PIDFD_GET_INFO", OVER("pidfd=0")), "pidfd=0 is refused");
	ok(refused("PIDFD_GET_INFO", OVER("request=0x5412")), "request TIOCSTI is refused");
	ok(!refused("PIDFD_GET_INFO", OVER("request=0xc010ff0b")), "PIDFD_GET_INFO at another size is fine");
	ok(refused("sched_setattr", OVER("pid=1")), "sched_setattr pid 1 is refused");
	ok(refused("sched_getattr", OVER("pid=1")), "sched_getattr pid 1 is refused");
	ok(!refused("sched_getattr", OVER("pid=0")), "pid 0 is fine");
	ok(!refused("perf_event_open", OVER("pid=-1", "cpu=0")), "perf_event_open pid -1 (count-only) is fine");
	ok(refused("sched_setattr", OVER("pid=-1")), "sched_setattr pid -1 is refused");
	ok(refused("bpf", OVER("cmd=BPF_PROG_LOAD")), "bpf BPF_PROG_LOAD is refused");
	ok(!refused("bpf", OVER("cmd=BPF_MAP_GET_NEXT_ID")), "bpf BPF_MAP_GET_NEXT_ID is fine");
	ok(refused("IORING_REGISTER_QUERY", OVER("opcode=0x80000023")), "an opcode with USE_REGISTERED_RING is refused");
	ok(refused("openat2", OVER("how=0x7f0000000000")), "a raw address for how is refused");
	ok(!refused("openat2", OVER("how=0")), "NULL for how is fine");
	ok(refused("setxattrat", OVER("name=0x1000")), "a raw address for name is refused");
	ok(refused("openat2", OVER("pathname=/etc/x", "how=\"\\x41\\x02\"")), "how= bytes opening for writing outside are refused");
	ok(!refused("openat2", OVER("pathname=/etc/x", "how=\"\\0\\0\"")), "how= bytes opening for reading outside are fine");
	ok(refused("openat2", OVER("dirfd=\"x\"")), "a string for a descriptor is refused");
	ok(refused("clone3", OVER(clone_args_bytes(true))), "CLONE_INTO_CGROUP with cgroup 5, given as bytes, is refused");
	ok(!refused("clone3", OVER(clone_args_bytes(false))), "cgroup 5 without CLONE_INTO_CGROUP is not used, and fine");
	ok(!refused("clone3", OVER(clone_args_bytes(true), "size=80")),
	   "CLONE_INTO_CGROUP with cgroup 5 at size 80 is fine: the kernel zero-fills cgroup and never uses it");
	ok(refused("clone3", OVER(clone_args_bytes(true), "size=88")), "and at size 88 it is refused again");
	ok(refused("openat2", OVER("pathname=/dev/tty")), "opening a terminal outside is refused");
	ok(!refused("openat2", OVER("pathname=/dev/null")), "opening /dev/null is fine");
	ok(!refused("openat2", OVER("pathname=/etc/passwd")), "reading a file outside is fine");
	ok(refused("openat2", OVER("pathname=../../etc/passwd")), "reading through .. is refused");
	ok(!refused("openat2", OVER("pathname=/dev/tty", "how=\"\\0\\0\\x20\\0\"")), "O_PATH on a terminal is fine");
}

static void test_override_is_the_buffer(void)
{
	struct call_plan p;
	int r = plan("openat2", 0, &p, OVER("how=\"\\x01\\x02\\x03\""));
	ok(r == 0 && p.req.buf_override && p.req.buf_arg == 2 && p.req.buflen == 24 && p.req.args[2] == (uintptr_t)p.req.buf,
	   "how= bytes become the guarded buffer, zero-filled to the buffer's length");
	ok(r == 0 && p.req.buf[0] == 1 && p.req.buf[2] == 3 && !p.req.buf[3] && !p.req.buf[23], "with the bytes given");
	invoke_plan_release(&p);
	r = plan("setxattrat", PLAN_UNSAFE, &p, OVER("dirfd=5", "name=0x1000"));
	ok(r == 0 && p.unsafe && (p.raw_addresses & (1u << 3)) && strstr(p.lifted.buf, "'dirfd' = 5") &&
		   strstr(p.lifted.buf, "'name' = 0x1000"),
	   "--unsafe keeps each lifted check, and marks the raw address never to be read");
	invoke_plan_release(&p);
	r = plan("lsm_get_self_attr", 0, &p, OVER("size=8"));
	ok(r == 0 && p.req.size_cell == 8 && p.req.args[2] == (uintptr_t)&p.req.size_cell, "size=8 of a size pointer is what it points at");
	invoke_plan_release(&p);
	r = plan("openat2", PLAN_PROBE, &p, OVER("pathname=/etc/passwd"));
	ok(r == -1, "a probe's path outside the sandbox is refused, even for reading (its next calls set O_TRUNC)");
	invoke_plan_release(&p);
	r = plan("openat2", PLAN_SIM, &p, OVER("dirfd=5"));
	ok(r == 0 && !p.unsafe, "the simulator checks nothing and lifts nothing");
	invoke_plan_release(&p);
}

int main(void)
{
	cat = catalog_load(getenv("XSC_TEST_DATA") ? getenv("XSC_TEST_DATA") : "data");
	ok(cat != NULL, "the bundled catalogue loads");
	if (!cat)
		return tap_done();
	test_table_matches_catalogue();
	test_catalogue_cannot_renumber();
	test_arguments();
	test_override_is_the_buffer();
	catalog_free(cat);
	return tap_done();
}
