/* What does the running kernel support? The feature bits of openat2 and clone3, as a
 * sys_features(nr, map, mapsize) system call would return them, from xsc's probe.
 *
 *   cc -o sys_features docs/examples/sys_features.c -Icli/kernel/include build/libxsc.a -ljansson
 *   XSC_DATA=data ./sys_features
 * (installed: cc sys_features.c $(pkg-config --cflags --libs xsc))
 */
#include <stdio.h>
#include <sys/syscall.h>
#include <xsc/sys_features.h>

static int show(long nr, const char *name)
{
	uint32_t map[8];
	int n = xsc_sys_features(nr, map, 8);
	if (n < 0) {
		perror(name);
		return 1;
	}
	printf("%s: %d feature bits\n", name, n);
	for (int b = 0; b < n && b < 8 * 32; b++)
		printf("  %3d %-3s %s\n", b, map[b / 32] >> (b % 32) & 1 ? "yes" : "no", xsc_feature_name(nr, (unsigned)b));
	return 0;
}

int main(void)
{
	int bit = xsc_feature_bit(SYS_openat2, "resolve:RESOLVE_CACHED");
	uint32_t map[2];
	if (bit >= 0 && xsc_sys_features(SYS_openat2, map, 2) > bit)
		printf("RESOLVE_CACHED is %ssupported here\n", map[bit / 32] >> (bit % 32) & 1 ? "" : "not ");
	return show(SYS_openat2, "openat2") | show(SYS_clone3, "clone3");
}
