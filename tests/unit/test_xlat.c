/* xlat: flag words written as strace writes them (first the combinations that hold a bit no
 * single flag names, then single bits in the catalogue's order, then the unknown remainder
 * in hex),
 * enums by name or as a number with the prefix's comment, and errno names both ways. */
#include "tap.h"
#include "model/dataload.h"
#include "model/xlat.h"
#include "base/sbuf.h"

static struct catalog *cat;

/* fs's words for v; *rest gets the bits no flag names */
static const char *words(const char *set, uint64_t v, uint64_t *rest)
{
	static struct sbuf sb = SBUF_INIT;
	sbuf_reset(&sb);
	uint64_t r = xlat_flags(&sb, set ? catalog_find_flagset(cat, set) : NULL, v);
	if (rest)
		*rest = r;
	return sb.buf;
}

static void test_bits(void)
{
	uint64_t rest;
	is_str(words("resolve_flags", 0x01 | 0x20, &rest), "RESOLVE_NO_XDEV|RESOLVE_CACHED", "two bits");
	ok(rest == 0, "nothing left over");
	is_str(words("resolve_flags", 0x20 | 0x08 | 0x01, NULL), "RESOLVE_NO_XDEV|RESOLVE_BENEATH|RESOLVE_CACHED",
	       "in the catalogue's order, not the order they were set in");
	is_str(words("resolve_flags", 0, &rest), "0", "no bit: 0");
	is_str(words("resolve_flags", 0x08 | 0x80000000ULL, &rest), "RESOLVE_BENEATH|0x80000000",
	       "an unknown bit follows the names in hex");
	ok(rest == 0x80000000ULL, "and is returned");
	is_str(words("resolve_flags", 0xffffffff80000000ULL, &rest), "0xffffffff80000000 /* RESOLVE_??? */",
	       "unknown bits alone carry strace's comment");
	ok(rest == 0xffffffff80000000ULL, "the sign-extended int's 33 bits are all left over");
	is_str(words("resolve_flags", 0x40, NULL), "0x40 /* RESOLVE_??? */", "one unknown bit");
}

static void test_masks(void)
{
	/* O_SYNC is __O_SYNC|O_DSYNC: named, as it holds a bit no single flag names */
	is_str(words("open_flags", 04010000, NULL), "O_SYNC", "a combination holding an unnamed bit");
	is_str(words("open_flags", 010000, NULL), "O_DSYNC", "its named part alone");
	is_str(words("open_flags", 020200000, NULL), "O_TMPFILE",
	       "O_TMPFILE (__O_TMPFILE|O_DIRECTORY) takes its O_DIRECTORY bit: combinations come first");
	is_str(words("open_flags", 020200000 | 02, NULL), "O_TMPFILE|O_RDWR", "then the single bits");
	is_str(words("open_flags", 02 | 0100 | 02000000, NULL), "O_RDWR|O_CREAT|O_CLOEXEC", "access mode and bits");
	/* pure aliases never decode: SCHED_FLAG_ALL is the union of the single flags */
	is_str(words("sched_flags", 0x18, NULL), "SCHED_FLAG_KEEP_POLICY|SCHED_FLAG_KEEP_PARAMS",
	       "KEEP_ALL is an alias, written as its parts");
	is_str(words("mount_attr_flags", 0x70, NULL), "MOUNT_ATTR_NOATIME|MOUNT_ATTR_STRICTATIME|0x40",
	       "a kernel-internal mask (MOUNT_ATTR__ATIME) is not a name: its bits are");
}

static void test_enum(void)
{
	uint64_t rest;
	is_str(words("perf_type_id", 1, &rest), "PERF_TYPE_SOFTWARE", "an enum value by name");
	ok(rest == 0, "a named value leaves nothing");
	is_str(words("perf_type_id", 0, &rest), "PERF_TYPE_HARDWARE", "0 is a value like any other");
	is_str(words("perf_type_id", 42, &rest), "0x2a /* PERF_TYPE_??? */", "an unknown value in hex with the prefix");
	ok(rest == 42, "and it is returned whole");
	is_str(words("perf_type_id", (uint64_t)-2, NULL), "-2 /* PERF_TYPE_??? */", "a small negative value in decimal");
}

static void test_numbers(void)
{
	is_str(words(NULL, 9, NULL), "9", "no flagset: below 10 in decimal");
	is_str(words(NULL, 10, NULL), "0xa", "from 10 in hex");
	is_str(words(NULL, ~0ULL, NULL), "0xffffffffffffffff", "all 64 bits");
}

static int counted;
static void count(const char *name, void *ctx)
{
	(void)ctx;
	if (errno_from_name(name) > 0)
		counted++;
}

static void test_errnos(void)
{
	is_str(errno_name(7), "E2BIG", "7 is E2BIG");
	ok(errno_from_name("E2BIG") == 7, "and back");
	ok(errno_from_name("EWOULDBLOCK") == errno_from_name("EAGAIN"), "EWOULDBLOCK is EAGAIN");
	ok(errno_from_name("ENOTSUP") == errno_from_name("EOPNOTSUPP"), "ENOTSUP is EOPNOTSUPP");
	ok(errno_from_name("EBOGUS") == -1, "an unknown name is -1");
	ok(errno_from_name("E") == -1, "so is a prefix");
	ok(errno_name(100000) == NULL, "an unknown number has no name");
	errno_each(count, NULL);
	ok(counted > 100, "every listed name maps to its number (%d names)", counted);
}

int main(void)
{
	cat = catalog_load("data");
	if (!cat || !catalog_find_flagset(cat, "resolve_flags")) {
		printf("Bail out! no catalogue\n");
		return 1;
	}
	test_bits();
	test_masks();
	test_enum();
	test_numbers();
	test_errnos();
	catalog_free(cat);
	return tap_done();
}
