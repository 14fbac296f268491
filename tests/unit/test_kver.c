/* kver: release numbers parsed strictly (and leniently for uname's "6.18.44-amd64"), ordered
 * as integers, printed back the way they were written, and a release's patch levels
 * accepted where a command takes a version within the catalogue's span. */
#include "tap.h"
#include "model/kver.h"
#include "base/diag.h"

static uint32_t parsed(const char *s, int lenient)
{
	uint32_t v = 0xdeadbeef;
	return kver_parse(s, &v, lenient) < 0 ? 0xdeadbeef : v;
}

static void test_parse(void)
{
	ok(parsed("5.6", 0) == KVER(5, 6, 0), "5.6");
	ok(parsed("2.6.31", 0) == KVER(2, 6, 31), "2.6.31");
	ok(parsed("6.18.44", 0) == KVER(6, 18, 44), "6.18.44");
	ok(parsed("255.255.255", 0) == KVER(255, 255, 255), "each part up to 255");
	ok(parsed("6.256", 0) == 0xdeadbeef, "a part above 255 is refused");
	ok(parsed("6", 0) == 0xdeadbeef, "one part is not a version");
	ok(parsed("6.", 0) == 0xdeadbeef, "a trailing dot without a number is refused");
	ok(parsed(".6", 0) == 0xdeadbeef, "a leading dot is refused");
	ok(parsed("", 0) == 0xdeadbeef, "the empty string is refused");
	ok(parsed("v6.1", 0) == 0xdeadbeef, "a prefix is refused");
	ok(parsed("6.1.2.3", 0) == 0xdeadbeef, "four parts are refused");
	ok(parsed("6.18.44-amd64", 0) == 0xdeadbeef, "a suffix is refused when strict");
	ok(parsed("6.18.44-amd64", 1) == KVER(6, 18, 44), "uname's suffix is ignored when lenient");
	ok(parsed("6.1+", 1) == KVER(6, 1, 0), "a '+' suffix too");
	ok(parsed("6.1.2.3", 1) == KVER(6, 1, 2), "and a fourth part");
	ok(parsed("6.1x", 1) == 0xdeadbeef, "other suffixes are refused even when lenient");
}

static void test_compare(void)
{
	ok(KVER(2, 6, 31) < KVER(3, 0, 0), "2.6.31 comes before 3.0");
	ok(KVER(5, 9, 0) < KVER(5, 10, 0), "5.9 before 5.10 (numbers, not strings)");
	ok(KVER(6, 18, 0) < KVER(6, 18, 1), "a patch level after its release");
	ok(parsed("6.18.44", 1) > parsed("6.18", 0), "6.18.44 after 6.18");
}

static void test_str(void)
{
	char b[16];
	is_str(kver_str(KVER(6, 18, 0), b), "6.18", "the third part is left out when 0");
	is_str(kver_str(KVER(2, 6, 31), b), "2.6.31", "and written when not");
	is_str(kver_str(KVER(6, 18, 44), b), "6.18.44", "a patch level");
	is_str(kver_str(KVER(255, 255, 255), b), "255.255.255", "the widest fits in 16 bytes");
	is_str(kver_str(parsed("5.10", 0), b), "5.10", "parse and str are inverses");
}

/* widening: a version stands for its release, except before 3.0, when the third number
 * was the release */
static void test_widen(void)
{
	ok(kver_release(KVER(6, 18, 44)) == KVER(6, 18, 0), "6.18.44 belongs to 6.18");
	ok(kver_release(KVER(3, 0, 101)) == KVER(3, 0, 0), "3.0.101 belongs to 3.0");
	ok(kver_release(KVER(2, 6, 31)) == KVER(2, 6, 31), "2.6.31 is a release of its own");
	uint32_t kv;
	diag_swap_sink(DIAG_DISCARD);
	ok(kver_parse_within("target sim", "6.18.44", KVER(3, 0, 0), KVER(6, 18, 0), &kv) == 0 &&
		   kv == KVER(6, 18, 44), "a patch level of the newest release is within the span");
	ok(kver_parse_within("target sim", "6.19", KVER(3, 0, 0), KVER(6, 18, 0), &kv) < 0,
	   "the next release is not");
	ok(kver_parse_within("target sim", "2.6.39", KVER(3, 0, 0), KVER(6, 18, 0), &kv) < 0,
	   "nor one before the oldest");
	ok(kver_parse_within("target sim", "0.0", 0, KVER(6, 18, 0), &kv) < 0, "0.0 is never a kernel");
	ok(kver_parse_within("target sim", "6.18-rc1", KVER(3, 0, 0), KVER(6, 18, 0), &kv) < 0,
	   "a suffix is refused");
	diag_swap_sink((struct diag_sink){ NULL, NULL });
}

/* A change backported to a stable series is in that series from the release named on, and
 * in every release from its mainline one; a bare release (6.1) is the first, without them. */
static void test_backports(void)
{
	const uint32_t bp[KVER_NBACKPORTS] = { KVER(5, 10, 223), KVER(6, 1, 192), 0, 0 };
	ok(kver_has(KVER(6, 12, 0), KVER(6, 12, 0), bp) && kver_has(KVER(7, 3, 4), KVER(6, 12, 0), bp),
	   "from its release on");
	ok(kver_has(KVER(6, 1, 192), KVER(6, 12, 0), bp) && kver_has(KVER(6, 1, 200), KVER(6, 12, 0), bp),
	   "in 6.1.192 and later 6.1 releases");
	ok(!kver_has(KVER(6, 1, 0), KVER(6, 12, 0), bp) && !kver_has(KVER(6, 1, 191), KVER(6, 12, 0), bp),
	   "not in the first 6.1 nor in 6.1.191");
	ok(!kver_has(KVER(6, 6, 200), KVER(6, 12, 0), bp), "not in a series it was not backported to");
	ok(kver_has(KVER(5, 10, 223), KVER(6, 12, 0), bp) && !kver_has(KVER(5, 15, 0), KVER(6, 12, 0), bp),
	   "each series on its own");
}

int main(void)
{
	test_backports();
	test_parse();
	test_compare();
	test_str();
	test_widen();
	return tap_done();
}
