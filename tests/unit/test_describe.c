/* describe: each fact of the catalogue described once, as items show, the reference and the
 * decoder read: the size rules in their order, a flag's value, which way a struct travels. */
#include <stdio.h>
#include "tap.h"
#include "model/dataload.h"
#include "model/describe.h"

static struct catalog *cat;

static void test_size(void)
{
	struct describe d;
	describe_size(catalog_find_syscall(cat, "sched_getattr"), &d);
	ok(d.n > 2 && d.items[0].rule == DR_WHERE && !strcmp(d.items[0].value, "size"),
	   "sched_getattr's size travels in its size argument, the first item");
	const struct describe_item *cap = describe_find(&d, DR_CAP);
	ok(cap && cap->num == 4096 && !strcmp(cap->value, "EINVAL"), "its cap is a page, refused with EINVAL (not E2BIG)");
	ok(!describe_find(&d, DR_DIRECTION), "a direction is no size rule");
}

static void test_direction(void)
{
	const struct cstruct *attr = catalog_find_struct(cat, "sched_attr");
	struct describe_item it = describe_direction(catalog_find_syscall(cat, "sched_getattr"), attr);
	ok(it.kind == FD_OUT && !strcmp(it.value, "out") && it.num == 1,
	   "sched_getattr uses the in/out sched_attr as output, and says it narrows it");
	it = describe_direction(catalog_find_syscall(cat, "sched_setattr"), attr);
	ok(it.kind == FD_IN && !strcmp(it.value, "in") && it.num == 1, "sched_setattr uses it as input");
	it = describe_direction(NULL, attr);
	ok(it.kind == FD_INOUT && !strcmp(it.value, "inout") && it.num == 0, "without a call: the struct's own way");
	it = describe_direction(catalog_find_syscall(cat, "openat2"), catalog_find_struct(cat, "open_how"));
	ok(it.kind == FD_IN && it.num == 0 && !strcmp(it.key, "direction"), "openat2's open_how goes in, as the struct says");
	it = describe_direction(catalog_find_syscall(cat, "sched_getattr"), catalog_find_struct(cat, "open_how"));
	ok(it.kind == FD_IN && it.num == 0, "a call's own way is for its own struct only");
}

static void test_flag_value(void)
{
	char buf[24];
	const struct flagset *fs = catalog_find_flagset(cat, "open_flags"), *in;
	const struct flag *f = catalog_find_flag(cat, fs, "O_CLOEXEC", &in);
	ok(fs && f && !strcmp(describe_flag_value(fs, f, buf), "0x80000"), "a flag's value in hex: %s", f ? buf : "?");
}

int main(void)
{
	cat = catalog_load("data");
	ok(cat != NULL, "the bundled catalogue loads");
	if (cat) {
		test_size();
		test_direction();
		test_flag_value();
	}
	catalog_free(cat);
	return tap_done();
}
