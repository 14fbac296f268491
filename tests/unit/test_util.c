/* The bounded edit distance and the "did you mean" built on it. */
#include "tap.h"
#include <stdlib.h>
#include "base/util.h"

/* every position of one set byte around the block boundaries, against a byte loop */
static void scans(void)
{
	enum { N = 1100 };
	unsigned char *a = calloc(N, 1), *b = calloc(N, 1);
	int bad = 0;
	ok(mem_nonzero(a, 0, N) == N && mem_all_zero(a, N), "all zero: none found");
	ok(mem_diff(a, b, 0, N) == N, "equal: no difference");
	for (size_t at = 0; at < N; at++) {
		a[at] = 1;
		for (size_t from = 0; from < N; from += 97) {
			size_t want = from <= at ? at : N;
			bad += mem_nonzero(a, from, N) != want;
			bad += mem_diff(a, b, from, N) != want;
			bad += mem_nonzero(a, from, at) != (from < at ? at : from); /* the end is exclusive */
		}
		a[at] = 0;
	}
	ok(bad == 0, "one set byte at every offset of %d, from every 97th: %d wrong", N, bad);
	ok(mem_nonzero(a, 5, 3) == 5, "from past n: from");
	free(a);
	free(b);
}

static void dist(const char *a, const char *b, size_t max, size_t want)
{
	size_t got = levenshtein(a, b, max);
	ok(got == want, "levenshtein('%s', '%s', %zu) = %zu (got %zu)", a, b, max, want, got);
}

int main(void)
{
	dist("", "", 3, 0);
	dist("openat2", "openat2", 3, 0);
	dist("openat", "openat2", 3, 1);
	dist("kitten", "sitting", 3, 3);
	dist("kitten", "sitting", 2, 3); /* farther than max: max + 1 */
	dist("sitting", "kitten", 64, 3);
	dist("a", "abcdefgh", 3, 4);     /* lengths alone rule it out */
	dist("abcd", "dcba", 10, 4);
	dist("flaw", "lawn", 2, 2);
	dist("RESOLVE_NO_XDEV", "RESOLVE_NO_XDEW", 1, 1);
	dist("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "x", 500, 65); /* over 64 */
	dist("abc", "xyz", 0, 1);

	struct suggest sg = SUGGEST_INIT("opnat2");
	suggest_add(&sg, "clone3");
	suggest_add(&sg, "openat2");
	suggest_add(&sg, "openat");
	is_str(suggest_best(&sg, 2) ? suggest_best(&sg, 2) : "(none)", "openat2", "nearest wins, first of equals kept");
	ok(sg.bestd == 1, "its distance is 1 (got %zu)", sg.bestd);

	struct suggest far = SUGGEST_INIT("zzzzzz");
	suggest_add(&far, "openat2");
	ok(suggest_best(&far, 3) == NULL, "nothing within 3 of zzzzzz");

	struct suggest bias = SUGGEST_INIT("O_PATHX");
	suggest_add(&bias, "O_PATHY");           /* 1 */
	suggest_add_biased(&bias, "O_PATHZ", 1); /* 1, counted as 0: the field's own set */
	is_str(suggest_best(&bias, 2), "O_PATHZ", "the biased candidate wins a tie");
	scans();
	return tap_done();
}
