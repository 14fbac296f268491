/* timeit [-c] N CMD ARGS...: runs CMD N times (fork+exec, output to /dev/null) and prints the
 * median wall time of one run in µs; with -c the median CPU time (user + system, CMD and the
 * children it waited for, from wait4's rusage), which a machine busy with other work
 * disturbs far less. Used by bench/run.sh so no timing tool is needed. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	int cpu = argc > 1 && !strcmp(argv[1], "-c");
	argv += cpu;
	argc -= cpu;
	if (argc < 3) {
		fprintf(stderr, "usage: timeit [-c] N CMD [ARGS...]\n");
		return 2;
	}
	int n = atoi(argv[1]);
	double *t = malloc(sizeof(*t) * (size_t)n);
	int devnull = open("/dev/null", O_RDWR);
	for (int i = 0; i < n; i++) {
		struct timespec a, b;
		clock_gettime(CLOCK_MONOTONIC, &a);
		pid_t p = fork();
		if (p == 0) {
			dup2(devnull, 0);
			dup2(devnull, 1);
			execvp(argv[2], argv + 2);
			_exit(127);
		}
		int st;
		struct rusage ru;
		wait4(p, &st, 0, &ru);
		clock_gettime(CLOCK_MONOTONIC, &b);
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			fprintf(stderr, "timeit: %s failed\n", argv[2]);
			return 1;
		}
		t[i] = cpu ? (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 + (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec)
			   : (double)(b.tv_sec - a.tv_sec) * 1e6 + (double)(b.tv_nsec - a.tv_nsec) / 1e3;
	}
	qsort(t, (size_t)n, sizeof(*t), cmp);
	printf("%.1f\n", t[n / 2]);
	free(t);
	return 0;
}
