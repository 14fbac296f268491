/* The loader: accepts the bundled catalogue, refuses bad input whole and says where. */
#include <stdlib.h>
#include "tap.h"
#include "model/dataload.h"
#include "model/kver.h"

static struct catalog *load1(const char *text)
{
	const char *names[] = { "t.json" };
	const char *texts[] = { text };
	size_t lens[] = { strlen(text) };
	return catalog_load_buffers(names, texts, lens, 1);
}

#define STRUCT(fields, versions) \
	"{\"structs\": [{\"name\": \"s\", \"header\": \"h\", \"doc\": \"d\", \"fields\": [" fields "], \"versions\": [" versions "]}]}"
#define F(name, type, off, since) "{\"name\": \"" name "\", \"type\": \"" type "\", \"offset\": " #off ", \"since\": \"" since "\", \"zero\": \"z\"}"

int main(void)
{
	struct catalog *cat = catalog_load(getenv("XSC_TEST_DATA") ? getenv("XSC_TEST_DATA") : "data");
	ok(cat != NULL, "the bundled catalogue loads");
	if (cat) {
		const struct syscall *o2 = catalog_find_syscall(cat, "openat2");
		ok(o2 && o2->nr_x86_64 == 437 && o2->nr_aarch64 == 437, "openat2 is 437 on both");
		ok(o2 && o2->st && o2->st->size == 24 && o2->st->nversions == 1, "open_how is 24 bytes, one version");
		const struct cstruct *ca = catalog_find_struct(cat, "clone_args");
		ok(ca && ca->nversions == 3 && ca->versions[2].size == 88 && ca->versions[1].since == KVER(5, 5, 0),
		   "clone_args: 64/80/88, VER1 in 5.5");
		ok(catalog_find_struct(cat, "struct open_how") != NULL, "'struct NAME' finds the struct");
		const struct flagset *in;
		const struct flag *f = catalog_find_flag(cat, NULL, "RESOLVE_CACHED", &in);
		ok(f && f->value == 0x20 && f->since == KVER(5, 12, 0), "RESOLVE_CACHED = 0x20 since 5.12");
		catalog_free(cat);
	}
	struct catalog *good = load1(STRUCT(F("a", "u64", 0, "5.6") "," F("b", "u32", 8, "5.6") "," F("c", "u32", 12, "5.6"), "{\"size\": 16, \"since\": \"5.6\"}"));
	ok(good != NULL, "a good struct loads");
	catalog_free(good);
	ok(!load1(STRUCT(F("a", "u64", 0, "5.6") "," F("b", "u32", 4, "5.6"), "")), "overlap refused");
	ok(!load1(STRUCT(F("a", "u32", 0, "5.6") "," F("b", "u64", 8, "5.6"), "")), "hole refused");
	ok(!load1(STRUCT(F("a", "u32", 0, "5.6") "," F("b", "u64", 4, "5.6"), "")), "misaligned field refused");
	ok(!load1(STRUCT(F("a", "u64", 0, "5.6") "," F("b", "u32", 8, "5.6"), "")), "implicit tail padding refused");
	ok(!load1(STRUCT(F("a", "u64", 0, "5.6") "," F("b", "u64", 8, "5.6"), "{\"size\": 12, \"since\": \"5.6\"}")), "version inside a field refused");
	ok(!load1(STRUCT(F("a", "u64", 0, "5.6") "," F("b", "u64", 8, "5.6"), "{\"size\": 16, \"since\": \"5.6\"}, {\"size\": 8, \"since\": \"5.7\"}")),
	   "shrinking versions refused");
	ok(!load1(STRUCT(F("a", "u64", 0, "5.7") "," F("b", "u64", 8, "5.6"), "{\"size\": 8, \"since\": \"5.7\"}, {\"size\": 16, \"since\": \"5.8\"}")),
	   "a field older than its version refused");
	ok(!load1(STRUCT(F("a", "u65", 0, "5.6"), "")), "unknown type refused");
	ok(!load1("{\"structs\": [], \"extra\": 1}"), "unknown top-level key refused");
	ok(!load1("{\"structs\": [{\"name\": 5}]}"), "wrong type refused");
	ok(!load1("{\"flagsets\": [{\"name\": \"x\", \"kind\": \"bits\", \"header\": \"h\", \"doc\": \"d\", \"flags\": [{\"name\": \"A\", \"value\": \"0x1\", \"since\": \"5.6\"}, {\"name\": \"A\", \"value\": \"0x2\", \"since\": \"5.6\"}]}]}"),
	   "duplicate flag refused");
	ok(!load1("{\"flagsets\": [{\"name\": \"x\", \"kind\": \"bits\", \"header\": \"h\", \"doc\": \"d\", \"flags\": [{\"name\": \"A\", \"value\": \"0x1g\", \"since\": \"5.6\"}]}]}"),
	   "bad flag literal refused");
	ok(!load1("{\"syscalls\": [{\"name\": \"x\"}]}"), "incomplete syscall refused");
	ok(!load1("{\"structs\": [ "), "truncated JSON refused");
	ok(!load1("[1, 2]"), "a top-level array refused");
	return tap_done();
}
