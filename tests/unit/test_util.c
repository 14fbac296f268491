/* The bounded edit distance and the "did you mean" built on it. */
#include "tap.h"
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/diag.h"
#include "base/dynlib.h"
#include "base/pager.h"
#include "base/sbuf.h"
#include "base/util.h"

/* the banded, bounded distance against the whole table, on random short strings */
static size_t full_table(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), t[20][20];
	for (size_t i = 0; i <= la; i++)
		for (size_t j = 0; j <= lb; j++) {
			if (!i || !j) {
				t[i][j] = i + j;
				continue;
			}
			size_t best = t[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (t[i - 1][j] + 1 < best)
				best = t[i - 1][j] + 1;
			if (t[i][j - 1] + 1 < best)
				best = t[i][j - 1] + 1;
			t[i][j] = best;
		}
	return t[la][lb];
}

static void random_pairs(void)
{
	unsigned seed = 12345, bad = 0;
	char a[20], b[20];
	for (int n = 0; n < 20000; n++) {
		size_t la = (seed = seed * 1103515245 + 12345) >> 16 & 15, lb = (seed = seed * 1103515245 + 12345) >> 16 & 15;
		for (size_t i = 0; i < la; i++)
			a[i] = "abc"[((seed = seed * 1103515245 + 12345) >> 16) % 3];
		for (size_t i = 0; i < lb; i++)
			b[i] = "abc"[((seed = seed * 1103515245 + 12345) >> 16) % 3];
		a[la] = b[lb] = '\0';
		size_t want = full_table(a, b), max = ((seed = seed * 1103515245 + 12345) >> 16) % 8;
		bad += levenshtein(a, b, max) != (want <= max ? want : max + 1);
	}
	ok(bad == 0, "20000 random pairs agree with the whole table: %u wrong", bad);
}

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

/* remove_tree: everything under it goes, nothing a symbolic link points at does */
static void trees(void)
{
	char top[] = "/tmp/xsc-test-tree-XXXXXX";
	if (!mkdtemp(top)) {
		ok(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	char p[128];
	const char *dirs[] = { "keep", "t", "t/a", "t/a/b", "t/c" };
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		snprintf(p, sizeof(p), "%s/%s", top, dirs[i]), mkdir(p, 0700);
	const char *files[] = { "keep/x", "t/f", "t/a/b/g", "t/c/h" };
	for (size_t i = 0; i < ARRAY_SIZE(files); i++)
		snprintf(p, sizeof(p), "%s/%s", top, files[i]), write_file_scratch(p, "z", 1);
	char target[128];
	snprintf(target, sizeof(target), "%s/keep", top);
	snprintf(p, sizeof(p), "%s/t/a/link", top), symlink(target, p);
	struct stat st;
	snprintf(p, sizeof(p), "%s/t/m/n/o/file", top);
	ok(mkdir_parents(p, 0700) == 0 && mkdir_parents(p, 0700) == 0 && (p[strlen(p) - 5] = 0, stat(p, &st) == 0) &&
		   S_ISDIR(st.st_mode) && (st.st_mode & 0777) == 0700,
	   "mkdir_parents makes the directories of a path, again without error");
	snprintf(p, sizeof(p), "%s/t/f/x/file", top); /* t/f is a file */
	errno = 0;
	ok(mkdir_parents(p, 0700) < 0 && errno == ENOTDIR, "and says when one cannot be made (%s)", strerror(errno));
	snprintf(p, sizeof(p), "%s/t", top);
	remove_tree(p);
	ok(lstat(p, &st) < 0 && errno == ENOENT, "remove_tree removes the tree");
	snprintf(p, sizeof(p), "%s/keep/x", top);
	ok(lstat(p, &st) == 0, "and not what a symbolic link in it points at");
	unlink(p);
	rmdir(target);
	ok(rmdir(top) == 0, "nothing else was made");
	remove_tree(p); /* a missing path: nothing to do, no crash */
}

/* The one sanitiser: what reaches a terminal is never an instruction to it. */
static void sanitiser(void)
{
	static const struct { const char *in; unsigned keep; const char *want; } cases[] = {
		{ "plain text", 0, "plain text" },
		{ "\033[2J\033]0;title\007", SAFE_NL, "\\x1b[2J\\x1b]0;title\\x07" },
		{ "a\nb\tc\rd", SAFE_NL | SAFE_TAB, "a\nb\tc\\x0dd" },
		{ "a\nb\tc", 0, "a\\x0ab\\x09c" },
		{ "del\177", 0, "del\\x7f" },
		{ "c1 \x9b" "6n raw", 0, "c1 \\x9b6n raw" },
		{ "c1 \xc2\x9b" "6n coded", 0, "c1 \\xc2\\x9b6n coded" },
		{ "bidi \xe2\x80\xae and \xe2\x81\xa6", 0, "bidi \\xe2\\x80\\xae and \\xe2\\x81\\xa6" },
		{ "caf\xc3\xa9 \xe2\x94\x82 \xf0\x9f\x98\x80", 0, "caf\xc3\xa9 \xe2\x94\x82 \xf0\x9f\x98\x80" },
		{ "bad \xc3 \xed\xa0\x80 \xc0\xaf", 0, "bad \\xc3 \\xed\\xa0\\x80 \\xc0\\xaf" },
		{ "\033[1;31mred\033[0m", SAFE_SGR, "\033[1;31mred\033[0m" },
		{ "\033[1;31mred\033[0m", 0, "\\x1b[1;31mred\\x1b[0m" },
		{ "\033[2J\033[?25l", SAFE_SGR, "\\x1b[2J\\x1b[?25l" },
		{ "\033[8mhidden\033[30;40m", SAFE_SGR, "\\x1b[8mhidden\\x1b[30;40m" },
		{ "cut \033[", SAFE_SGR, "cut \\x1b[" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct sbuf sb = SBUF_INIT;
		safe_text(&sb, cases[i].in, strlen(cases[i].in), cases[i].keep);
		is_str(sb.buf, cases[i].want, "safe_text case %zu", i);
		sbuf_release(&sb);
	}
}

/* term_wrap: breaks at spaces and after '|' or ',', never inside a word or a comment */
static void test_term_wrap(void)
{
	static const struct { const char *text; size_t col, indent; unsigned width; const char *want; } cases[] = {
		{ "short", 10, 10, 80, "short" },
		{ "a b c d", 0, 2, 0, "a b c d" },
		{ "one two three", 0, 2, 8, "one two\n  three" },
		{ "O_RDWR|O_CREAT|O_EXCL", 0, 0, 12, "O_RDWR|\nO_CREAT|\nO_EXCL" },
		{ "0x1 /* RESOLVE_??? */ <- x", 0, 0, 10, "0x1\n/* RESOLVE_??? */\n<- x" },
		{ "averyveryverylongword x", 0, 4, 10, "averyveryverylongword\n    x" },
		{ "ab cd", 8, 4, 10, "ab\n    cd" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sbuf sb = SBUF_INIT;
		term_wrap(&sb, cases[i].text, cases[i].col, cases[i].indent, cases[i].width);
		is_str(sb.buf, cases[i].want, "term_wrap case %zu", i);
		sbuf_release(&sb);
	}
}

/* dynlib: a library that is not there and a symbol a library lacks are each one message
 * naming them; a symbol that is there lands in its slot. */
static void test_dynlib(void)
{
	static const char *const none[] = { "libxsc-no-such-library.so.9", NULL };
	static const struct dynlib absent = { "libnothing", "nothing-pkg", none, 0 };
	ok(!dynlib_open(&absent, NULL), "a missing library does not open");
	ok(!strncmp(dynlib_error(), "cannot load libnothing (libxsc-no-such-library.so.9): ", 54) &&
	   strstr(dynlib_error(), "; install nothing-pkg"), "and says which and what to install: %s", dynlib_error());
	static const char *const libc[] = { "libc.so.6", NULL };
	static const struct dynlib c = { "libc", "libc6", libc, 0 };
	void *h = dynlib_open(&c, "/nonexistent/libc.so.6"); /* a path given first, the list after it */
	size_t (*len)(const char *) = NULL;
	int (*nothing)(void) = NULL;
	const struct dynlib_sym have[] = { DYNLIB_SYM("strlen", len) };
	const struct dynlib_sym lack[] = { DYNLIB_SYM("strlen", len), DYNLIB_SYM("xsc_no_such_symbol", nothing) };
	ok(h && !dynlib_resolve(&c, h, have, 1) && len && len("abc") == 3, "a symbol lands in its slot");
	ok(h && dynlib_resolve(&c, h, lack, 2) && !strcmp(dynlib_error(), "libc lacks 'xsc_no_such_symbol'"),
	   "a missing symbol is named: %s", dynlib_error());
}

int main(void)
{
	test_term_wrap();
	test_dynlib();
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

	struct suggest sg = SUGGEST_INIT("opnat2", 2);
	suggest_add(&sg, "clone3");
	suggest_add(&sg, "openat2");
	suggest_add(&sg, "openat");
	is_str(suggest_best(&sg) ? suggest_best(&sg) : "(none)", "openat2", "nearest wins, first of equals kept");
	ok(sg.bestd == 1, "its distance is 1 (got %zu)", sg.bestd);

	struct suggest far = SUGGEST_INIT("zzzzzz", 3);
	suggest_add(&far, "openat2");
	ok(suggest_best(&far) == NULL, "nothing within 3 of zzzzzz");

	struct suggest bias = SUGGEST_INIT("O_PATHX", 2);
	suggest_add(&bias, "O_PATHY");           /* 1 */
	suggest_add_biased(&bias, "O_PATHZ", 1); /* 1, counted as 0: the field's own set */
	is_str(suggest_best(&bias), "O_PATHZ", "the biased candidate wins a tie");
	const char *names[] = { "openat2", "clone3", "Z", "open" };
	qsort(names, ARRAY_SIZE(names), sizeof(*names), cmp_strp);
	ok(!strcmp(names[0], "Z") && !strcmp(names[1], "clone3") && !strcmp(names[3], "openat2"),
	   "cmp_strp sorts strings as strcmp does");
	scans();
	random_pairs();
	/* scratch files: written whole, never over an existing file */
	char dir[] = "/tmp/xsc-test-util-XXXXXX";
	if (mkdtemp(dir)) {
		char path[64], *text = NULL;
		size_t len = 0;
		snprintf(path, sizeof(path), "%s/f", dir);
		ok(write_file_scratch(path, "abc", 3) == 0 && read_file_max(path, 16, &text, &len) == 0 && len == 3 &&
			   !memcmp(text, "abc", 3),
		   "write_file_scratch writes the file");
		free(text), text = NULL;
		errno = 0;
		ok(write_file_scratch(path, "xy", 2) < 0 && errno == EEXIST && read_file_max(path, 16, &text, &len) == 0 &&
			   len == 3,
		   "write_file_scratch refuses an existing file and leaves it alone");
		free(text);
		unlink(path);
		rmdir(dir);
	}
	trees();
	sanitiser();
	return tap_done();
}
