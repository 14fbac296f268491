/* The error tables come from the checks, and an explanation names the check's unknown bits. */
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "base/sbuf.h"
#include "model/checkwhy.h"
#include "model/dataload.h"
#include "model/errtable.h"
#include "model/kver.h"

/* Whether every condition check of sc is a row of its table, in the kernel's order. */
static int rows_follow_checks(const struct syscall *sc)
{
	struct errtable t;
	errtable_build(&t, sc);
	size_t k = 0, n = 0;
	for (size_t i = 0; i < sc->nchecks; i++)
		n += sc->checks[i].step == CS_COND;
	const struct check *last = NULL;
	bool ordered = true;
	for (size_t i = 0; i < t.n; i++) { /* the size steps are rows of their own words */
		const struct check *ck = t.rows[i].check;
		if (!ck || ck->step != CS_COND)
			continue;
		ordered &= ck >= sc->checks && ck < sc->checks + sc->nchecks && (!last || ck > last);
		last = ck;
		k++;
	}
	errtable_release(&t);
	return ordered && k == n;
}

int main(void)
{
	struct catalog *cat = catalog_load(getenv("XSC_TEST_DATA") ? getenv("XSC_TEST_DATA") : "data");
	ok(cat != NULL, "the bundled catalogue loads");
	if (!cat)
		return tap_done();
	size_t good = 0;
	for (size_t i = 0; i < cat->nsyscalls; i++)
		good += rows_follow_checks(&cat->syscalls[i]);
	ok(good == cat->nsyscalls, "every call's checks are rows of its error table, in order (%zu of %zu)", good, cat->nsyscalls);

	const struct syscall *sg = catalog_find_syscall(cat, "sched_getattr");
	struct errtable t;
	errtable_build(&t, sg);
	const char *cap = NULL;
	for (size_t i = 0; i < t.n; i++)
		if (t.rows[i].kind == ER_SIZE && strstr(t.rows[i].why, "above 4096"))
			cap = t.rows[i].errno_name;
	ok(cap && !strcmp(cap, "EINVAL"), "sched_getattr's cap gives EINVAL, as the simulator says");
	ok(t.n && t.rows[0].kind == ER_SYSCALL && !strcmp(t.rows[0].errno_name, "ENOSYS"), "the table opens with ENOSYS");
	errtable_release(&t);

	/* openat2 with resolve = (int)0x80000000: 33 bits, a sign-extended int */
	const struct syscall *oa = catalog_find_syscall(cat, "openat2");
	const struct check *ck = NULL;
	for (size_t i = 0; i < oa->nchecks; i++)
		if (!strcmp(oa->checks[i].text, "unknown(resolve)"))
			ck = &oa->checks[i];
	unsigned char buf[24] = { 0 };
	uint64_t resolve = 0xffffffff80000000ULL, args[6] = { 0 };
	memcpy(buf + 16, &resolve, 8);
	struct expr_env env = { cat, oa, oa->st, buf, sizeof(buf), args, 24, KVER(6, 18, 0) };
	struct sbuf sb = SBUF_INIT;
	if (ck)
		check_why(&sb, ck, &env);
	ok(ck && strstr(sb.buf, "33 bits") && strstr(sb.buf, "bits 31..63") && strstr(sb.buf, "sign-extended"),
	   "unknown(resolve) names 33 bits of a sign-extended int");
	ok(strstr(sb.buf, "source: fs/open.c") != NULL, "and the check's source");
	sbuf_release(&sb);
	catalog_free(cat);
	return tap_done();
}
