/* libFuzzer target: a measured report (model/measured.h), as 'matrix --reports' and 'site
 * --measured' read one from another machine. A report that parses must write back to a
 * document that parses again and writes the same bytes, and its view must find every
 * case it holds. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/diag.h"
#include "base/out.h"
#include "model/measured.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *written(const struct measured_report *r, size_t *len)
{
	char *buf = NULL;
	FILE *fp = open_memstream(&buf, len);
	struct out o;
	if (!fp)
		abort();
	out_init(&o, fp, true, false);
	measured_write(&o, r);
	out_done(&o);
	fclose(fp);
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct measured_report r, again;
	diag_swap_sink(DIAG_DISCARD);
	if (measured_parse("fuzz.json", (const char *)data, size, &r) < 0)
		return 0;
	size_t n1, n2;
	char *one = written(&r, &n1);
	if (measured_parse("again.json", one, n1, &again) < 0)
		abort();
	char *two = written(&again, &n2);
	if (n1 != n2 || memcmp(one, two, n1))
		abort();
	for (size_t i = 0; i < r.nifaces; i++) {
		struct measured_view v;
		measured_view_build(&r, 1, r.ifaces[i].name, &v);
		for (size_t c = 0; c < v.ncols; c++)
			for (size_t k = 0; k < r.ifaces[i].ncases; k++)
				if (!measured_view_outcome(&v, c, r.ifaces[i].cases[k].row, r.ifaces[i].cases[k].size))
					abort();
		measured_view_release(&v);
	}
	free(one);
	free(two);
	measured_release(&again);
	measured_release(&r);
	return 0;
}
