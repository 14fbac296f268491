/* sim: sim_call through the real catalogue (data/) on a handful of calls: each step of the
 * size convention at the version that changed it, a check firing (with its source), ENOSYS
 * before the call existed, and an answer the sandbox's world cannot decide (uncertain, with
 * its possible outcomes). The figures are the ones tests/cli/0029-sim and the live batteries
 * (tests/live) agree on. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "model/dataload.h"
#include "model/kver.h"
#include "model/request.h"
#include "model/structbuf.h"
#include "sim/sim.h"
#include "base/sbuf.h"

static struct catalog *cat;

struct answer {
	long ret;
	int err;
	const char *source; /* the check that fired, or "" */
	bool uncertain;
	bool possible_enoent;
	char why[512];
};

/* One simulated call of name at kernel kv: the struct at size, its fields set from
 * "FIELD=VALUE" pairs (raw numbers), the arguments from "ARG=VALUE" overrides. */
static struct answer sim(const char *name, uint32_t kv, uint64_t size, const char *fields[], int nover, char **over)
{
	struct answer a = { 0, 0, "", false, false, "" };
	const struct syscall *sc = catalog_find_syscall(cat, name);
	struct structbuf *b = structbuf_new(sc->st->name, sc->st, sc);
	structbuf_set_size(b, size);
	for (size_t i = 0; fields && fields[i]; i++) {
		char fname[64];
		const char *eq = strchr(fields[i], '=');
		snprintf(fname, sizeof(fname), "%.*s", (int)(eq - fields[i]), fields[i]);
		const struct field *f = cstruct_find_field(sc->st, fname);
		uint64_t v = strtoull(eq + 1, NULL, 0);
		unsigned char le[8];
		for (int k = 0; k < 8; k++)
			le[k] = (unsigned char)(v >> (8 * k));
		structbuf_poke(b, f->offset, le, f->size);
	}
	struct call_request req;
	if (request_build(cat, sc, b, NULL, nover, over, &request_heap, &req) < 0) {
		a.ret = -2;
	} else {
		struct sim_opts so = { kv, false, false };
		struct outcome o;
		struct sbuf why = SBUF_INIT;
		sim_call(cat, &req, &so, &o, &why);
		a.ret = o.ret;
		a.err = o.ret == -1 ? o.err : 0;
		a.source = o.check && o.check->source ? o.check->source : "";
		a.uncertain = o.uncertain;
		for (size_t i = 0; i < o.npossible; i++)
			a.possible_enoent |= o.possible[i] == ENOENT;
		snprintf(a.why, sizeof(a.why), "%s", why.buf ? why.buf : "");
		sbuf_release(&why);
		outcome_release(&o);
	}
	request_release(&req);
	structbuf_free(b);
	return a;
}

#define V(a, b) KVER(a, b, 0)

static void test_versions(void)
{
	struct answer a = sim("openat2", V(5, 4), 24, NULL, 0, NULL);
	ok(a.ret == -1 && a.err == ENOSYS, "openat2 on 5.4: ENOSYS, it came in 5.6");
	a = sim("openat2", V(5, 6), 24, NULL, 0, NULL);
	ok(a.err != ENOSYS, "on 5.6 it exists");
	a = sim("clone3", V(5, 2), 64, NULL, 0, NULL);
	ok(a.ret == -1 && a.err == ENOSYS, "clone3 on 5.2: ENOSYS, it came in 5.3");
	a = sim("landlock_create_ruleset", V(5, 12), 8, NULL, 0, NULL);
	ok(a.ret == -1 && a.err == ENOSYS, "landlock_create_ruleset on 5.12: ENOSYS, it came in 5.13");
}

static void test_size_steps(void)
{
	struct answer a = sim("openat2", V(6, 18), 16, NULL, 0, NULL);
	ok(a.ret == -1 && a.err == EINVAL, "openat2 size 16, below OPEN_HOW_SIZE_VER0: EINVAL");
	a = sim("openat2", V(6, 18), 0, NULL, 0, NULL);
	ok(a.ret == -1 && a.err == EINVAL, "size 0: EINVAL");
	a = sim("openat2", V(6, 18), 24, NULL, 0, NULL);
	ok(a.ret >= 0, "size 24: accepted (returned %ld)", a.ret);
	a = sim("openat2", V(6, 11), 1 << 20, NULL, 0, NULL);
	ok(a.ret >= 0, "a zero tail of a megabyte on 6.11: accepted");
	a = sim("openat2", V(6, 12), 1 << 20, NULL, 0, NULL);
	ok(a.ret == -1 && a.err == E2BIG, "on 6.12: E2BIG, the page cap came in 6.12");
	a = sim("openat2", V(6, 12), 4096, NULL, 0, NULL);
	ok(a.ret >= 0, "a page is not above the cap");
	const char *tail[] = { "resolve=0", NULL };
	(void)tail;
	a = sim("sched_setattr", V(5, 2), 40, NULL, 0, NULL);
	ok(a.ret == -1 && a.err == E2BIG, "sched_setattr size 40, below its first version: E2BIG");
	a = sim("sched_setattr", V(5, 2), 0, NULL, 0, NULL);
	ok(a.ret == 0, "size 0 is read as the first version (an old-ABI quirk)");
	a = sim("clone3", V(5, 5), 88, (const char *[]){ "cgroup=3", NULL }, 0, NULL);
	ok(a.ret == -1 && a.err == E2BIG, "clone3 at 88 bytes with cgroup set on 5.5: E2BIG, the field came in 5.7");
	a = sim("clone3", V(5, 5), 88, NULL, 0, NULL);
	ok(a.err != E2BIG, "the same 88 bytes, all zero past 80: not E2BIG");
}

static void test_checks(void)
{
	struct answer a = sim("openat2", V(5, 6), 24, (const char *[]){ "resolve=0x20", NULL }, 0, NULL);
	ok(a.ret == -1 && a.err == EINVAL, "RESOLVE_CACHED on 5.6: EINVAL, it came in 5.12");
	ok(strstr(a.source, "build_open_flags") != NULL, "the check that fired names its source: '%s'", a.source);
	a = sim("openat2", V(6, 18), 24, (const char *[]){ "mode=0644", NULL }, 0, NULL);
	ok(a.ret == -1 && a.err == EINVAL, "a mode without O_CREAT or O_TMPFILE: EINVAL");
	ok(strstr(a.source, "build_open_flags") != NULL, "from fs/open.c build_open_flags");
	a = sim("openat2", V(6, 18), 24, (const char *[]){ "resolve=0x18", NULL }, 0, NULL);
	ok(a.ret == -1 && a.err == EINVAL, "RESOLVE_BENEATH|RESOLVE_IN_ROOT: EINVAL");
	a = sim("openat2", V(6, 18), 24, (const char *[]){ "flags=0300100", NULL }, 0, NULL);
	ok(a.ret == -1 && a.err == EINVAL, "O_DIRECTORY|O_CREAT on 6.18: EINVAL (since 6.4)");
	a = sim("clone3", V(6, 18), 80, (const char *[]){ "flags=0x200000000", NULL }, 0, NULL);
	ok(a.ret == -1 && a.err == EINVAL, "CLONE_INTO_CGROUP at size 80: EINVAL (ret %ld err %d: %s)", a.ret, a.err, a.why);
	ok(strstr(a.source, "copy_clone_args_from_user") != NULL, "kernel/fork.c copy_clone_args_from_user: '%s'", a.source);
	a = sim("sched_setattr", V(6, 18), 56, NULL, 1, (char *[]){ "flags=1" });
	ok(a.ret == -1 && a.err == EINVAL, "sched_setattr's flags argument nonzero: EINVAL");
}

static void test_world(void)
{
	struct answer a = sim("openat2", V(6, 18), 24, NULL, 1, (char *[]){ "pathname=\"no-such-file\"" });
	ok(a.ret == -1 && a.err == ENOENT && !a.uncertain,
	   "a name the sandbox's world does not have: ENOENT, certain (ret %ld err %d)", a.ret, a.err);
	a = sim("openat2", V(6, 18), 24, (const char *[]){ "resolve=0x20", NULL }, 0, NULL);
	ok(a.uncertain, "RESOLVE_CACHED on 6.18: uncertain (the dentry cache is not the arguments')");
}

int main(void)
{
	cat = catalog_load("data");
	if (!cat || !catalog_find_syscall(cat, "openat2")) {
		printf("Bail out! no catalogue\n");
		return 1;
	}
	test_versions();
	test_size_steps();
	test_checks();
	test_world();
	catalog_free(cat);
	return tap_done();
}
