/* Times catalog_load over the bundled catalogue: prints the median of N loads in µs. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "model/dataload.h"

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "data";
	int n = argc > 2 ? atoi(argv[2]) : 200;
	double *t = malloc(sizeof(*t) * (size_t)n);
	for (int i = 0; i < n; i++) {
		struct timespec a, b;
		clock_gettime(CLOCK_MONOTONIC, &a);
		struct catalog *c = catalog_load(dir);
		clock_gettime(CLOCK_MONOTONIC, &b);
		if (!c)
			return 1;
		catalog_free(c);
		t[i] = (double)(b.tv_sec - a.tv_sec) * 1e6 + (double)(b.tv_nsec - a.tv_nsec) / 1e3;
	}
	qsort(t, (size_t)n, sizeof(*t), cmp);
	printf("%.1f\n", t[n / 2]);
	free(t);
	return 0;
}
