/* The bounded edit distance and the "did you mean" built on it. */
#include "tap.h"
#include "base/util.h"

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
	return tap_done();
}
