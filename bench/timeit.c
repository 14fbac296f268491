/* timeit N CMD ARGS...: runs CMD N times (fork+exec, output to /dev/null) and prints the
 * median wall time of one run in µs. Used by bench/run.sh so no timing tool is needed. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
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
	if (argc < 3) {
		fprintf(stderr, "usage: timeit N CMD [ARGS...]\n");
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
		waitpid(p, &st, 0);
		clock_gettime(CLOCK_MONOTONIC, &b);
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			fprintf(stderr, "timeit: %s failed\n", argv[2]);
			return 1;
		}
		t[i] = (double)(b.tv_sec - a.tv_sec) * 1e6 + (double)(b.tv_nsec - a.tv_nsec) / 1e3;
	}
	qsort(t, (size_t)n, sizeof(*t), cmp);
	printf("%.1f\n", t[n / 2]);
	free(t);
	return 0;
}
