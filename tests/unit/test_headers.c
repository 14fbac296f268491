/* Untrusted input to the header engines: URL credentials redacted, #include directives
 * checked before libclang opens them, and the model a child parse sends back equal to the
 * one parsed in process. */
#include "tap.h"
#include <stdlib.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "base/diag.h"
#include "base/sbuf.h"
#include "base/util.h"
#include "model/kver.h"
#include "headers/fetch.h"
#include "headers/header.h"
#include "headers/hinclude.h"
#include "headers/hmacro.h"
#include "headers/lint.h"
#include "base/landlock.h"

static void redact(void)
{
	static const char *const cases[][2] = {
		{ "https://user:hunter2@example.org/x.h", "https://user:***@example.org/x.h" },
		{ "https://ghp_token@example.org/x.h", "https://***@example.org/x.h" },
		{ "http://u:p@h", "http://u:***@h" },
		{ "http://example.org/a@b/x.h", "http://example.org/a@b/x.h" },
		{ "http://example.org?q=a@b", "http://example.org?q=a@b" },
		{ "lint http://a:b@h/x.h http://c:d@h/y.h", "lint http://a:***@h/x.h http://c:***@h/y.h" },
		{ "http://a:b:c@h/", "http://a:***@h/" },
		{ "http://a@b@h/", "http://***@h/" },
		{ "no URL at all", "no URL at all" },
		{ "file:///etc/passwd", "file:///etc/passwd" },
		{ "x ://u:p@h", "x ://u:***@h" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct sbuf sb = SBUF_INIT;
		fetch_redact(cases[i][0], &sb);
		is_str(sb.buf, cases[i][1], "redacted: %s", cases[i][0]);
		sbuf_release(&sb);
	}
}

static int check(const char *text)
{
	static const char *const dirs[] = { ".", "/usr/include" };
	return hinclude_check("t.h", ".", text, strlen(text), dirs, ARRAY_SIZE(dirs), NULL);
}

static void includes(void)
{
	struct diag_sink was = diag_swap_sink(DIAG_DISCARD);
	ok(check("#include <linux/types.h>\n#include \"missing-xsc.h\"\n") == 0, "system and missing includes pass");
	ok(check("#include \"/dev/zero\"\n") < 0, "/dev/zero refused");
	ok(check("  #  include   </dev/null>\n") < 0, "spaces around # and the keyword");
	ok(check("#/* c */include \"/dev/zero\"\n") < 0, "a comment between # and include");
	ok(check("#inc\\\nlude \"/dev/zero\"\n") < 0, "a splice inside the keyword");
	ok(check("#include \\\n\"/dev/zero\"\n") < 0, "a splice before the name");
	ok(check("#include_next \"/dev/zero\"\n") < 0, "include_next");
	ok(check("#import \"/dev/zero\"\n") < 0, "import");
	ok(check("#include </dev/zero/*>\n") == 0, "a header name holding a comment opener, which names nothing");
	ok(check("#include </proc/self/status>\n") < 0, "/proc");
	ok(check("#include </usr/include/../../proc/self/status>\n") < 0, "/proc reached through ..");
	ok(check("#define F \"x.h\"\n#include F\n") < 0, "a name made by a macro");
	ok(check("/* #include \"/dev/zero\" */\n") == 0, "a directive inside a comment is none");
	ok(check("char *s = \"/* \";\n#include \"/dev/zero\"\n") < 0, "a comment opener inside a string");
	ok(check("// \\\n#include \"/dev/zero\"\n") == 0, "a line comment continued by a splice");
	/* what the compiler reads as an include, or as opening a file, however it is spelled */
	ok(check("%:include \"/dev/zero\"\n") < 0, "the digraph %%:");
	ok(check("\xef\xbb\xbf#include \"/dev/zero\"\n") < 0, "a UTF-8 byte order mark");
	ok(check("\xc2\xa0#include \"/dev/zero\"\n") < 0, "a no-break space before #");
	ok(check("struct a;\r#include \"/dev/zero\"\r") < 0, "carriage returns as newlines");
	ok(check("#inc\\  \r\nlude \"/dev/zero\"\n") < 0, "a splice with blanks and CRLF");
	ok(check("#if __has_include(\"/dev/zero\")\n#endif\n") < 0, "__has_include");
	ok(check("#if __has_include_next(</dev/zero>)\n#endif\n") < 0, "__has_include_next");
	ok(check("#define H __has_include\n") < 0, "__has_include without a literal");
	ok(check("#pragma GCC dependency \"/dev/zero\"\n") < 0, "#pragma GCC dependency");
	ok(check("#pragma clang dependency \"/dev/zero\"\n") < 0, "#pragma clang dependency");
	ok(check("_Pragma(\"GCC dependency \\\"/dev/zero\\\"\")\n") < 0, "_Pragma(\"GCC dependency\")");
	ok(check("#define P(x) _Pragma(#x)\n") < 0, "_Pragma without a literal");
	ok(check("_Pragma(\"pack(1)\")\n#pragma once\n#if __has_include(<linux/types.h>)\n#endif\n") == 0,
	   "harmless pragmas and __has_include of a system header pass");
	diag_swap_sink(was);
}

/* The same header through the child and in process: equal exports and findings. */
static void child_equals_here(const char *path)
{
	char *text;
	size_t len;
	if (read_file_max(path, (size_t)4 << 20, &text, &len) < 0) {
		ok(1, "# skip %s: cannot read it", path);
		return;
	}
	struct header a, b;
	struct diag_sink was = diag_swap_sink(DIAG_DISCARD);
	int ra = header_parse(&a, path, text, len), rb = header_parse_here(&b, path, text, len);
	diag_swap_sink(was);
	ok(ra == rb, "%s: both parses %s", path, ra ? "fail" : "succeed");
	if (!ra && !rb) {
		struct sbuf ja = SBUF_INIT, jb = SBUF_INIT;
		header_export_json(&a, "x.h", KVER(6, 1, 0), &ja);
		header_export_json(&b, "x.h", KVER(6, 1, 0), &jb);
		ok(ja.len > 20 && !strcmp(ja.buf, jb.buf), "%s: the child's model exports as the in-process one", path);
		struct lint_result la, lb;
		lint_run(&a, &la);
		lint_run(&b, &lb);
		bool same = la.n == lb.n && la.suppressed == lb.suppressed;
		for (size_t i = 0; same && i < la.n; i++)
			same = !strcmp(la.f[i].rule, lb.f[i].rule) && !strcmp(la.f[i].msg, lb.f[i].msg) &&
			       la.f[i].line == lb.f[i].line && la.f[i].col == lb.f[i].col;
		ok(same, "%s: the same %zu findings", path, la.n);
		lint_result_release(&la), lint_result_release(&lb);
		sbuf_release(&ja), sbuf_release(&jb);
	}
	header_release(&a), header_release(&b);
	free(text);
}

/* In a child, under hinclude_confine with one accepted file: bits of what it could do
 * (1 the accepted file read, 2 another file read, 4 a FIFO opened, 8 a file written in the
 * scratch directory, 16 one written beside it). */
static int confined_can(const char *dir, const char *accepted)
{
	struct hinclude_files f = { 0 };
	struct stat st;
	if (stat(accepted, &st) < 0)
		return -1;
	ALLOC_GROW(f.v, 1, f.alloc);
	f.v[f.n++] = (struct hinclude_file){ xstrdup(accepted), st.st_dev, st.st_ino };
	struct sbuf p = SBUF_INIT;
	sbuf_addf(&p, "%s/scratch", dir);
	pid_t pid = fork();
	if (pid == 0) {
		struct diag_sink was = diag_swap_sink(DIAG_DISCARD);
		if (hinclude_confine(&f, p.buf, NULL, 0, landlock_usable_abi()) < 0)
			_exit(64);
		diag_swap_sink(was);
		static const char *const reads[] = { "accepted.h", "other.h", "fifo" };
		int bits = 0, fd;
		for (size_t i = 0; i < ARRAY_SIZE(reads); i++) {
			sbuf_reset(&p);
			sbuf_addf(&p, "%s/%s", dir, reads[i]);
			if ((fd = open(p.buf, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) >= 0)
				bits |= 1 << i, close(fd);
		}
		static const char *const writes[] = { "scratch/w", "w" };
		for (size_t i = 0; i < ARRAY_SIZE(writes); i++) {
			sbuf_reset(&p);
			sbuf_addf(&p, "%s/%s", dir, writes[i]);
			if ((fd = open(p.buf, O_WRONLY | O_CREAT | O_CLOEXEC, 0600)) >= 0)
				bits |= 8 << i, close(fd);
		}
		_exit(bits);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	hinclude_files_release(&f);
	sbuf_release(&p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The boundary itself, whatever the scan saw: only accepted files are read, only the
 * scratch directory written. */
static void confinement(void)
{
	if (!landlock_usable_abi()) {
		ok(1, "# skip the confinement: no Landlock");
		return;
	}
	char dir[] = "/tmp/xsc-test-confine-XXXXXX";
	if (!mkdtemp(dir)) {
		ok(0, "mkdtemp");
		return;
	}
	struct sbuf p = SBUF_INIT;
	static const char *const files[] = { "accepted.h", "other.h" };
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		sbuf_reset(&p);
		sbuf_addf(&p, "%s/%s", dir, files[i]);
		write_file_scratch(p.buf, "struct a;\n", 10);
	}
	sbuf_reset(&p);
	sbuf_addf(&p, "%s/fifo", dir);
	mkfifo(p.buf, 0600);
	sbuf_reset(&p);
	sbuf_addf(&p, "%s/scratch", dir);
	mkdir(p.buf, 0700);
	sbuf_reset(&p);
	sbuf_addf(&p, "%s/accepted.h", dir);
	int bits = confined_can(dir, p.buf);
	ok(bits == (1 | 8), "confined: the accepted file is read and the scratch directory written, nothing else (%d)",
	   bits);
	sbuf_reset(&p);
	sbuf_addf(&p, "rm -rf '%s'", dir);
	ok(system(p.buf) == 0, "cleaned up");
	sbuf_release(&p);
}

/* The macros of a made-up header, grouped with no libclang: the size versions go to their
 * struct (by its exact name, and by the words of a shorter prefix), in n order; the other
 * macros become flag sets by their common prefix, bits when most values are powers of two. */
static void macros_without_clang(void)
{
	static const struct { const char *name; uint64_t value; } defs[] = {
		{ "OPEN_HOW_SIZE_VER1", 32 }, { "RESOLVE_NO_XDEV", 1 }, { "RESOLVE_NO_MAGICLINKS", 2 },
		{ "RESOLVE_BENEATH", 8 }, { "OPEN_HOW_SIZE_VER0", 24 }, { "PERF_ATTR_SIZE_VER0", 64 },
		{ "SCHED_NORMAL", 0 }, { "SCHED_FIFO", 1 }, { "SCHED_RR", 2 }, { "SCHED_BATCH", 3 },
		{ "SCHED_IDLE", 5 }, { "SCHED_DEADLINE", 6 },
	};
	static const char *const structs[] = { "open_how", "perf_event_attr" };
	struct header h;
	memset(&h, 0, sizeof(h));
	h.text = "";
	h.structs = xcalloc(ARRAY_SIZE(structs), sizeof(*h.structs));
	for (size_t i = 0; i < ARRAY_SIZE(structs); i++)
		h.structs[h.nstructs++].name = structs[i];
	h.macros = xcalloc(ARRAY_SIZE(defs), sizeof(*h.macros));
	for (size_t i = 0; i < ARRAY_SIZE(defs); i++)
		h.macros[h.nmacros++] = (struct hmacro){ .name = defs[i].name, .value = defs[i].value, .line = (unsigned)i + 1 };
	header_index(&h);
	header_collect_versions(&h);
	const struct hstruct *how = header_find_struct(&h, "open_how"), *attr = header_find_struct(&h, "perf_event_attr");
	ok(how && how->nversions == 2 && how->versions[0].size == 24 && how->versions[1].size == 32,
	   "open_how's two size versions, in n order");
	ok(attr && attr->nversions == 1 && attr->versions[0].size == 64, "PERF_ATTR_SIZE_VER0 goes to perf_event_attr");
	ok(h.nflagsets == 2, "two flag sets (%zu)", h.nflagsets);
	if (h.nflagsets == 2) {
		is_str(h.flagsets[0].name, "resolve", "the first set is named by its prefix");
		ok(h.flagsets[0].nflags == 3 && h.flagsets[0].bits, "RESOLVE_*: three bits");
		is_str(h.flagsets[1].prefix, "SCHED_", "the second set's prefix");
		ok(h.flagsets[1].nflags == 6 && !h.flagsets[1].bits, "SCHED_*: an enum of six (two powers of two in six values)");
	}
	char **names = NULL;
	size_t n = 0;
	static const char text[] = "#define A 1\n# define  B_2 (3)\n#define F(x) x\n#define EMPTY\n#define C\t4\n";
	header_scan_macro_names(text, sizeof(text) - 1, &names, &n);
	ok(n == 3 && !strcmp(names[0], "A") && !strcmp(names[1], "B_2") && !strcmp(names[2], "C"),
	   "object-like macros with a body, in order (%zu)", n);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	header_release(&h);
}

int main(void)
{
	redact();
	macros_without_clang();
	includes();
	confinement();
	struct diag_sink was = diag_swap_sink(DIAG_DISCARD);
	bool clang = header_load_clang() == 0;
	diag_swap_sink(was);
	if (clang) {
		static const char *const files[] = { "tests/headers/lint/multiplexer.h", "tests/headers/lint/ver_mismatch.h",
						     "tests/headers/lint/suppressed.h", "tests/headers/diff/clone_v2.h",
						     "/usr/include/linux/perf_event.h", "/usr/include/linux/openat2.h",
						     "/usr/include/linux/sched/types.h" };
		for (size_t i = 0; i < ARRAY_SIZE(files); i++)
			child_equals_here(files[i]);
	} else {
		ok(1, "# skip the parses: libclang is not available");
	}
	return tap_done();
}
