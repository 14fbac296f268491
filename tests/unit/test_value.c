/* The value language: C literal typing, casts, sign extension, range errors. */
#include <stdlib.h>
#include "tap.h"
#include "base/sbuf.h"
#include "model/dataload.h"
#include "model/value.h"

static const struct catalog *cat;

static int parse(const char *fsname, const char *text, struct value *v)
{
	return value_parse(cat, fsname ? catalog_find_flagset(cat, fsname) : NULL, text, v);
}

static void check(const char *text, unsigned long long bits, unsigned width, int is_signed)
{
	struct value v;
	int r = parse(NULL, text, &v);
	ok(r == 0 && v.bits == bits && v.width == width && v.is_signed == is_signed,
	   "%s = %#llx %s%u (got %#llx %s%u)", text, bits, is_signed ? "s" : "u", width,
	   (unsigned long long)v.bits, v.is_signed ? "s" : "u", v.width);
	value_release(&v);
}

static void store(const char *text, unsigned bits, int is_signed, int want_ok, unsigned long long want, int want_ext)
{
	struct value v;
	uint64_t out = 0;
	bool ext = false;
	struct sbuf why = SBUF_INIT;
	int r = parse(NULL, text, &v);
	if (r == 0)
		r = value_convert(&v, bits, is_signed, &out, &ext, &why);
	if (want_ok)
		ok(r == 0 && out == want && ext == want_ext, "%s into %s%u stores %#llx%s", text,
		   is_signed ? "s" : "u", bits, want, want_ext ? " (sign-extended)" : "");
	else
		ok(r < 0, "%s into %s%u is refused (%s)", text, is_signed ? "s" : "u", bits, why.buf);
	sbuf_release(&why);
	value_release(&v);
}

static void bad(const char *text)
{
	struct value v;
	ok(parse(NULL, text, &v) < 0, "'%s' is an error", text);
}

int main(void)
{
	cat = catalog_load(getenv("XSC_TEST_DATA") ? getenv("XSC_TEST_DATA") : "data");
	ok(cat != NULL, "the catalogue loads");
	if (!cat)
		return tap_done();
	/* literal typing as in C11 6.4.4.1 */
	check("42", 42, 32, 1);
	check("0x2a", 42, 32, 1);
	check("052", 42, 32, 1);
	check("0b101", 5, 32, 1);
	check("0", 0, 32, 1);
	check("0x80000000", 0x80000000, 32, 0);
	check("2147483648", 0x80000000, 64, 1);
	check("0xffffffffffffffff", ~0ULL, 64, 0);
	check("18446744073709551615", ~0ULL, 64, 0);
	check("-1", ~0ULL, 32, 1);
	check("~0", ~0ULL, 32, 1);
	check("42u", 42, 32, 0);
	check("1L", 1, 64, 1);
	/* casts */
	check("(int)0x80000000", 0xffffffff80000000ULL, 32, 1);
	check("(u32)-1", 0xffffffff, 32, 0);
	check("(unsigned)-1", 0xffffffff, 32, 0);
	check("(s8)255", ~0ULL, 8, 1);
	check("(u64)(int)-2", 0xfffffffffffffffeULL, 64, 0);
	check("(size_t)24", 24, 64, 0);
	/* operators */
	check("1<<63|24", 0x8000000000000018ULL, 64, 0);
	check("1<<4", 16, 32, 1);
	check("0x10 | 0x1 & 0x3", 0x11, 32, 1);
	check("(1 + 2) << 2", 12, 32, 1);
	check("0xff ^ 0x0f", 0xf0, 32, 1);
	/* names */
	check("O_RDWR|O_CREAT", 0x42, 32, 1);
	check("AT_FDCWD", (unsigned long long)-100, 32, 1);
	check("SIGCHLD", 17, 32, 1);
	check("CLONE_CLEAR_SIGHAND", 0x100000000ULL, 64, 1);
	/* storage */
	store("-1", 64, 0, 1, ~0ULL, 1);
	store("(int)0x80000000", 64, 0, 1, 0xffffffff80000000ULL, 1);
	store("(u32)0x80000000", 64, 0, 1, 0x80000000, 0);
	store("0x100000000", 32, 0, 0, 0, 0);
	store("-1", 32, 0, 1, 0xffffffff, 0);
	store("-2147483649", 32, 0, 0, 0, 0);
	store("0x80000000", 32, 1, 0, 0, 0);
	store("(int)0x80000000", 32, 1, 1, 0x80000000, 0);
	store("255", 8, 0, 1, 255, 0);
	store("256", 8, 0, 0, 0, 0);
	store("-129", 8, 1, 0, 0, 0);
	store("1<<63", 64, 0, 1, 1ULL << 63, 0);
	/* strings and buffers */
	struct value v;
	ok(parse(NULL, "\"a\\tb\\x41\"", &v) == 0 && v.kind == VK_STRING && v.text_len == 4 && !memcmp(v.text, "a\tbA", 4),
	   "a string literal with escapes");
	value_release(&v);
	ok(parse(NULL, "&other", &v) == 0 && v.kind == VK_BUFREF && !strcmp(v.text, "other"), "&NAME is a buffer reference");
	value_release(&v);
	/* errors */
	bad("");
	bad("0x");
	bad("09");
	bad("12abc");
	bad("O_CRAET");
	bad("1 <<");
	bad("(int)");
	bad("1 << 64");
	bad("\"unterminated");
	bad("99999999999999999999999");
	bad("1 2");
	bad("&");
	bad("(1");
	catalog_free((struct catalog *)cat);
	return tap_done();
}
