/* The sys_features C API (<xsc/sys_features.h>) over build/libxsc.a.
 *   capi NAME...   prints "NAME WORD..." (hex, as probe --format=bitmap) for each NAME from
 *                  xsc_sys_features_by_name, and "ok"/"not ok" lines for the API's edges. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <xsc/sys_features.h>

static int failed;

static void check(int cond, const char *what)
{
	printf("%s - %s\n", cond ? "ok" : "not ok", what);
	failed |= !cond;
}

int main(int argc, char **argv)
{
	uint32_t map[16];
	for (int i = 1; i < argc; i++) {
		memset(map, 0xa5, sizeof(map));
		int n = xsc_sys_features_by_name(argv[i], map, 16);
		if (n < 0) {
			printf("%s error %s\n", argv[i], strerror(errno));
			failed = 1;
			continue;
		}
		printf("%-24s", argv[i]);
		for (int w = 0; w < (n + 31) / 32; w++)
			printf(" %08x", map[w]);
		printf("\n");
		check(n <= 16 * 32 && map[(n + 31) / 32] == 0, "words past the syscall's bits are zeroed");
	}

	errno = 0;
	int r = xsc_sys_features(999999, map, 16);
	check(r == -1 && errno == ENOENT, "an unknown number: -1, ENOENT");
	errno = 0;
	r = xsc_sys_features(-1, map, 16);
	check(r == -1 && errno == ENOENT, "number -1: -1, ENOENT");
	errno = 0;
	r = xsc_sys_features_by_name("no_such_syscall", map, 16);
	check(r == -1 && errno == ENOENT, "an unknown name: -1, ENOENT");
	errno = 0;
	r = xsc_sys_features(SYS_open, map, 16); /* legacy: in the catalogue or not, never probed */
	check(r == -1 && errno == ENOENT, "a legacy syscall without feature bits: -1, ENOENT");

	/* openat2 by number and by name agree */
	uint32_t a[4] = { 0 }, b[4] = { 0 };
	int na = xsc_sys_features(SYS_openat2, a, 4), nb = xsc_sys_features_by_name("openat2", b, 4);
	check(na > 0 && na == nb && !memcmp(a, b, sizeof(a)), "openat2 by number equals by name");
	check(na > 0 && (a[0] & 1), "openat2: bit 0 (available) set");
	int bit = xsc_feature_bit(SYS_openat2, "resolve:RESOLVE_CACHED");
	check(bit > 0 && bit < na, "xsc_feature_bit finds resolve:RESOLVE_CACHED");
	check(bit > 0 && xsc_feature_name(SYS_openat2, (unsigned)bit) && !strcmp(xsc_feature_name(SYS_openat2, (unsigned)bit), "resolve:RESOLVE_CACHED"),
	      "xsc_feature_name is its inverse");
	check(xsc_feature_name(SYS_openat2, (unsigned)na) == NULL, "xsc_feature_name past the last bit: NULL");
	check(xsc_feature_bit(SYS_openat2, "flags:NO_SUCH_FLAG") == -1, "xsc_feature_bit of an unknown feature: -1");
	check(xsc_feature_bit(999999, "available") == -1, "xsc_feature_bit of an unknown syscall: -1");

	/* a short map: bits past mapsize * 32 are not written */
	uint32_t p[3] = { 0, 0xdeadbeef, 0xdeadbeef };
	int np = xsc_sys_features(SYS_perf_event_open, p, 1);
	check(np > 32 && p[1] == 0xdeadbeef, "perf_event_open with mapsize 1: only one word written, the bit count returned");
	uint32_t z = 0xdeadbeef;
	check(xsc_sys_features(SYS_openat2, &z, 0) == na && z == 0xdeadbeef, "mapsize 0: nothing written, the bit count returned");
	return failed;
}
