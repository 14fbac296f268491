/* Replays a fuzz target over files or directories without libFuzzer: make test runs the
 * regression corpus (fuzz/corpus/TARGET/) through it. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return 1;
	size_t cap = 1 << 16, n = 0;
	uint8_t *buf = malloc(cap);
	size_t got;
	if (!buf) {
		fclose(f);
		return 1;
	}
	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			uint8_t *bigger = realloc(buf, cap *= 2);
			if (!bigger) {
				free(buf);
				fclose(f);
				return 1;
			}
			buf = bigger;
		}
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int count = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) < 0)
			return 2;
		if (!S_ISDIR(st.st_mode)) {
			count += !run_file(argv[i]);
			continue;
		}
		DIR *d = opendir(argv[i]);
		struct dirent *de;
		while (d && (de = readdir(d))) {
			char path[4096];
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i], de->d_name);
			count += !run_file(path);
		}
		if (d)
			closedir(d);
	}
	fprintf(stderr, "replayed %d inputs\n", count);
	return 0;
}
