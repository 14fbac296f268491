/* hinclude: every #include checked before libclang opens it. See hinclude.h. */
#include "headers/hinclude.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/diag.h"
#include "base/sbuf.h"
#include "base/util.h"
#include "base/landlock.h"
#include "base/banned.h"

struct scan {
	const char *const *dirs;
	size_t ndirs;
	struct hinclude_files *accepted; /* or NULL */
	struct stat *seen; /* local files read so far (dev, ino) */
	size_t nseen, aseen;
};

static bool under(const char *p, const char *dir)
{
	size_t n = strlen(dir);
	return !strncmp(p, dir, n) && (p[n] == '/' || !p[n]);
}

/* Is p in place (/dev, /proc, /sys), whose files are not files? /dev/shm is a memory file
 * system of ordinary files (xsc's own scratch copies live there). */
static bool special_place(const char *p, const char *place)
{
	return under(p, place) && !(!strcmp(place, "/dev") && under(p, "/dev/shm"));
}

/* "a//b/./c/../d" -> "a/b/d", without touching the file system (.. of / is /) */
static void normalize(const char *in, struct sbuf *out)
{
	sbuf_reset(out);
	for (const char *p = in; *p;) {
		size_t n = strcspn(p, "/");
		if (n == 2 && !strncmp(p, "..", 2)) {
			char *sl = out->len ? strrchr(out->buf, '/') : NULL;
			out->len = sl ? (size_t)(sl - out->buf) : 0;
			out->buf[out->len] = '\0';
		} else if (n && !(n == 1 && *p == '.')) {
			sbuf_addch(out, '/');
			sbuf_add(out, p, n);
		}
		p += n;
		while (*p == '/')
			p++;
	}
	if (!out->len)
		sbuf_addch(out, '/');
}

/* NULL when path (found, st its stat) may be read as a header, else why not. */
static const char *refusal(const char *path, const struct stat *st, struct sbuf *real)
{
	if (S_ISCHR(st->st_mode))
		return "a character device";
	if (S_ISBLK(st->st_mode))
		return "a block device";
	if (S_ISFIFO(st->st_mode))
		return "a FIFO";
	if (S_ISSOCK(st->st_mode))
		return "a socket";
	if (!S_ISREG(st->st_mode))
		return "not a regular file";
	char *r = realpath(path, NULL);
	if (!r)
		return "a path that does not resolve";
	sbuf_reset(real);
	sbuf_adds(real, r);
	free(r);
	struct sbuf lex = SBUF_INIT;
	normalize(path, &lex);
	const char *why = NULL;
	static const char *const places[] = { "/dev", "/proc", "/sys" };
	for (size_t i = 0; i < ARRAY_SIZE(places) && !why; i++)
		if (special_place(real->buf, places[i]) || (path[0] == '/' && special_place(lex.buf, places[i])))
			why = i == 0 ? "in /dev" : i == 1 ? "in /proc" : "in /sys";
	sbuf_release(&lex);
	if (!why && (uint64_t)st->st_size > HINCLUDE_MAX_SIZE)
		why = "larger than 16 MiB";
	return why;
}

struct directive {
	const char *what;  /* "#include", "__has_include", "#pragma dependency", for messages */
	const char *where; /* the including file, for messages */
	unsigned line;
	char open;         /* '"' or '<' */
	const char *name;
};

static int scan_text(struct scan *s, const char *where, const char *here, const char *text, size_t len,
		     unsigned depth);

/* Reads a local header (already checked: a regular file) and scans it. */
static int scan_file(struct scan *s, const char *path, const struct stat *st, unsigned depth)
{
	for (size_t i = 0; i < s->nseen; i++)
		if (s->seen[i].st_dev == st->st_dev && s->seen[i].st_ino == st->st_ino)
			return 0; /* read already: a guarded header, or a cycle the compiler reports */
	if (s->nseen >= HINCLUDE_MAX_FILES)
		return err("'%s': more than %d local headers are included", path, HINCLUDE_MAX_FILES);
	ALLOC_GROW(s->seen, s->nseen + 1, s->aseen);
	s->seen[s->nseen++] = *st;
	/* O_NONBLOCK: should it have become a FIFO since the stat, the open does not hang */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat now;
	if (fd < 0 || fstat(fd, &now) < 0 || !S_ISREG(now.st_mode) || now.st_ino != st->st_ino) {
		if (fd >= 0)
			close(fd);
		return err("'%s': changed while it was being checked", path);
	}
	struct sbuf text = SBUF_INIT;
	char buf[65536];
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0 && text.len <= HINCLUDE_MAX_SIZE)
		sbuf_add(&text, buf, (size_t)n);
	close(fd);
	struct sbuf dir = SBUF_INIT;
	const char *sl = strrchr(path, '/');
	sbuf_add(&dir, path, sl ? (size_t)(sl - path) : 0);
	if (!sl)
		sbuf_adds(&dir, ".");
	int r = text.len > HINCLUDE_MAX_SIZE ? err("'%s': larger than 16 MiB", path)
					     : scan_text(s, path, dir.buf, text.buf, text.len, depth);
	sbuf_release(&text), sbuf_release(&dir);
	return r;
}

/* Notes a file the scan let through (once), for hinclude_confine. */
static void accept(struct scan *s, const char *real, const struct stat *st)
{
	struct hinclude_files *f = s->accepted;
	if (!f)
		return;
	for (size_t i = 0; i < f->n; i++)
		if (f->v[i].dev == st->st_dev && f->v[i].ino == st->st_ino)
			return;
	ALLOC_GROW(f->v, f->n + 1, f->alloc);
	f->v[f->n++] = (struct hinclude_file){ xstrdup(real), st->st_dev, st->st_ino };
}

/* The file a directive names, as the compiler looks for it: an absolute name as it is; a
 * quoted one in the includer's directory first; then the -I and system directories. The
 * first that exists and is not a directory is the one. */
static int resolve(struct scan *s, const struct directive *d, const char *here, unsigned depth)
{
	struct sbuf path = SBUF_INIT, real = SBUF_INIT;
	int r = 0;
	size_t ncand = d->name[0] == '/' ? 1 : s->ndirs + (d->open == '"');
	for (size_t i = 0; i < ncand; i++) {
		sbuf_reset(&path);
		if (d->name[0] == '/')
			sbuf_adds(&path, d->name);
		else
			sbuf_addf(&path, "%s/%s", d->open == '"' && i == 0 ? here : s->dirs[i - (d->open == '"')], d->name);
		struct stat st;
		if (stat(path.buf, &st) < 0 || S_ISDIR(st.st_mode))
			continue;
		const char *why = refusal(path.buf, &st, &real);
		if (why) {
			r = err("%s:%u: %s %c%s%c refused: '%s' is %s (a header includes regular files only)",
				d->where, d->line, d->what, d->open, d->name, d->open == '<' ? '>' : '"',
				real.len ? real.buf : path.buf, why);
			break;
		}
		accept(s, real.buf, &st);
		if (!under(real.buf, "/usr/include") && !under(real.buf, "/usr/lib"))
			r = scan_file(s, path.buf, &st, depth + 1);
		break;
	}
	sbuf_release(&path), sbuf_release(&real);
	return r;
}

/* Past blanks as the compiler's lexer skips them: spaces, tabs, form feeds, vertical tabs,
 * and in UTF-8 the byte order mark and the Unicode spaces clang 14 takes for whitespace
 * (U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F, U+3000). */
static const char *skip_space(const char *l)
{
	for (;;) {
		const unsigned char *u = (const unsigned char *)l;
		if (*l == ' ' || *l == '\t' || *l == '\f' || *l == '\v')
			l++;
		else if (u[0] == 0xc2 && u[1] == 0xa0)
			l += 2;
		else if ((u[0] == 0xef && u[1] == 0xbb && u[2] == 0xbf) || (u[0] == 0xe1 && u[1] == 0x9a && u[2] == 0x80) ||
			 (u[0] == 0xe2 && u[1] == 0x80 && (u[2] <= 0x8a || u[2] == 0xa8 || u[2] == 0xa9 || u[2] == 0xaf)) ||
			 (u[0] == 0xe2 && u[1] == 0x81 && u[2] == 0x9f) || (u[0] == 0xe3 && u[1] == 0x80 && u[2] == 0x80))
			l += 3;
		else
			return l;
	}
}

/* A directive's keyword after '#' or its digraph '%:', or NULL when the line is none. */
static const char *directive_keyword(const char *l)
{
	l = skip_space(l);
	if (*l == '#')
		l++;
	else if (l[0] == '%' && l[1] == ':')
		l += 2;
	else
		return NULL;
	return skip_space(l);
}

/* The header name at l ("x" or <x>): 1 with *d filled, 0 when malformed (the compiler
 * says so and opens nothing), -1 when there is none: a name a macro makes. */
static int header_name(const char *l, struct directive *d, struct sbuf *name)
{
	l = skip_space(l);
	if (*l != '"' && *l != '<')
		return -1;
	const char *e = strchr(l + 1, *l == '"' ? '"' : '>');
	if (!e)
		return 0;
	d->open = *l;
	sbuf_reset(name);
	sbuf_add(name, l + 1, (size_t)(e - l - 1));
	d->name = name->buf;
	return 1;
}

/* Part of an identifier? (UTF-8 bytes may be.) */
static bool is_ident(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (unsigned char)c >= 0x80;
}

/* Where the identifier id next stands alone in l, or NULL. */
static const char *find_ident(const char *l, const char *id)
{
	size_t n = strlen(id);
	for (const char *p = strstr(l, id); p; p = strstr(p + 1, id))
		if ((p == l || !is_ident(p[-1])) && !is_ident(p[n]))
			return p;
	return NULL;
}

/* The directive in one logical line (comments gone, splices joined), if it is an include:
 * 1 with *d filled, 0 when it is none, -1 for a file name made by a macro. */
static int directive(const char *l, struct directive *d, struct sbuf *name)
{
	if (!(l = directive_keyword(l)))
		return 0;
	size_t kw = strspn(l, "abcdefghijklmnopqrstuvwxyz_");
	if (!((kw == 7 && !strncmp(l, "include", 7)) || (kw == 12 && !strncmp(l, "include_next", 12)) ||
	      (kw == 6 && !strncmp(l, "import", 6))))
		return 0;
	d->what = "#include";
	return header_name(l + kw, d, name);
}

/* A pragma that opens a file (GCC's or clang's "dependency"), text after "pragma": as
 * directive() answers. */
static int pragma_text(const char *l, struct directive *d, struct sbuf *name)
{
	const char *dep = find_ident(l, "dependency");
	d->what = "#pragma dependency";
	return dep ? header_name(dep + strlen("dependency"), d, name) : 0;
}

static int pragma(const char *l, struct directive *d, struct sbuf *name)
{
	if (!(l = directive_keyword(l)) || strncmp(l, "pragma", 6) || is_ident(l[6]))
		return 0;
	return pragma_text(l + 6, d, name);
}

/* The string literal of _Pragma("..."), destringized, into *text; false when the operand
 * is no literal (a macro makes it). */
static bool pragma_operand(const char *p, struct sbuf *text)
{
	p = skip_space(p + strlen("_Pragma"));
	if (*p++ != '(')
		return false;
	p = skip_space(p);
	p += *p == 'L' || *p == 'U' ? 1 : *p == 'u' ? (p[1] == '8' ? 2 : 1) : 0;
	if (*p++ != '"')
		return false;
	sbuf_reset(text);
	for (; *p && *p != '"'; p++)
		sbuf_addch(text, *p == '\\' && (p[1] == '"' || p[1] == '\\') ? *++p : *p);
	return *p == '"';
}

/* One answer of directive(), pragma() or an operator (k): resolved, or refused. */
static int take(struct scan *s, int k, struct directive *d, const char *here, unsigned depth)
{
	if (k < 0)
		return err("%s:%u: %s of a name made by a macro refused: it cannot be checked before the parse",
			   d->where, d->line, d->what);
	if (k > 0 && depth >= HINCLUDE_MAX_DEPTH)
		return err("%s:%u: #include nested deeper than %d", d->where, d->line, HINCLUDE_MAX_DEPTH);
	return k > 0 ? resolve(s, d, here, depth) : 0;
}

/* __has_include, __has_include_next and _Pragma open files too, and may stand anywhere in a
 * line (in a macro's body, expanded where the scan cannot tell): each names its file as a
 * literal, or is refused. */
static int check_operators(struct scan *s, struct directive *d, const char *l, const char *here, unsigned depth)
{
	static const char *const has[] = { "__has_include", "__has_include_next" };
	struct sbuf name = SBUF_INIT, text = SBUF_INIT;
	int r = 0;
	for (size_t i = 0; i < ARRAY_SIZE(has); i++)
		for (const char *p = find_ident(l, has[i]); p && !r; p = find_ident(p + 1, has[i])) {
			const char *q = skip_space(p + strlen(has[i]));
			d->what = has[i];
			r = take(s, *q == '(' ? header_name(q + 1, d, &name) : -1, d, here, depth);
		}
	for (const char *p = find_ident(l, "_Pragma"); p && !r; p = find_ident(p + 1, "_Pragma")) {
		d->what = "_Pragma";
		r = take(s, pragma_operand(p, &text) ? pragma_text(text.buf, d, &name) : -1, d, here, depth);
	}
	sbuf_release(&name), sbuf_release(&text);
	return r;
}

/* One logical line: checked as the compiler sees it (comments removed) and as written (a
 * header name may hold what looks like a comment: a slash and a star in <...>). */
static int check_line(struct scan *s, const char *where, const char *here, unsigned line, const char *stripped,
		      const char *raw, unsigned depth)
{
	struct sbuf name = SBUF_INIT;
	struct directive d = { "#include", where, line, 0, NULL };
	int r = take(s, directive(stripped, &d, &name), &d, here, depth);
	if (!r && directive(raw, &d, &name) > 0)
		r = resolve(s, &d, here, depth);
	if (!r)
		r = take(s, pragma(stripped, &d, &name), &d, here, depth);
	if (!r)
		r = check_operators(s, &d, stripped, here, depth);
	sbuf_release(&name);
	return r;
}

/* A splice at t[i] (a backslash, blanks clang tolerates, then a newline: LF, CRLF or CR):
 * the index of its last byte, else 0. */
static size_t splice_end(const char *t, size_t len, size_t i)
{
	size_t j = i + 1;
	while (j < len && (t[j] == ' ' || t[j] == '\t' || t[j] == '\f' || t[j] == '\v'))
		j++;
	if (j < len && t[j] == '\n')
		return j;
	if (j < len && t[j] == '\r')
		return j + 1 < len && t[j + 1] == '\n' ? j + 1 : j;
	return 0;
}

enum lex_state { LX_CODE, LX_BLOCK, LX_LINE, LX_STRING };

static int scan_text(struct scan *s, const char *where, const char *here, const char *t, size_t len, unsigned depth)
{
	struct sbuf st = SBUF_INIT, raw = SBUF_INIT;
	enum lex_state ls = LX_CODE;
	char quote = 0;
	unsigned line = 1, first = 1;
	int r = 0;
	for (size_t i = 0; i <= len && !r; i++) {
		char c = i < len ? t[i] : '\n';
		size_t sp = c == '\\' ? splice_end(t, len, i) : 0;
		if (sp) { /* a splice joins the lines everywhere */
			i = sp, line++;
			continue;
		}
		if (c == '\r' && i + 1 < len && t[i + 1] == '\n')
			continue; /* CRLF is one newline */
		if (c == '\r')
			c = '\n'; /* and so is a lone CR */
		char nx = i + 1 < len ? t[i + 1] : '\0';
		if (c == '\n' && ls != LX_BLOCK) {
			r = check_line(s, where, here, first, st.buf, raw.buf, depth);
			sbuf_reset(&st), sbuf_reset(&raw);
			ls = LX_CODE;
			first = ++line;
			continue;
		}
		if (c == '\n')
			line++;
		sbuf_addch(&raw, c);
		if (ls == LX_CODE && c == '/' && (nx == '*' || nx == '/')) {
			ls = nx == '*' ? LX_BLOCK : LX_LINE;
			sbuf_addch(&st, ' ');
			sbuf_addch(&raw, nx);
			i++;
		} else if (ls == LX_BLOCK && c == '*' && nx == '/') {
			ls = LX_CODE;
			sbuf_addch(&raw, nx);
			i++;
		} else if (ls == LX_CODE || ls == LX_STRING) {
			sbuf_addch(&st, c);
			if (ls == LX_CODE && (c == '"' || c == '\''))
				ls = LX_STRING, quote = c;
			else if (ls == LX_STRING && c == '\\' && nx && nx != '\n')
				sbuf_addch(&st, nx), sbuf_addch(&raw, nx), i++;
			else if (ls == LX_STRING && c == quote)
				ls = LX_CODE;
		}
	}
	sbuf_release(&st), sbuf_release(&raw);
	return r;
}

int hinclude_check(const char *shown, const char *here, const char *text, size_t len, const char *const *dirs,
		   size_t ndirs, struct hinclude_files *accepted)
{
	struct scan s = { dirs, ndirs, accepted, NULL, 0, 0 };
	int r = scan_text(&s, shown, here, text, len, 0);
	free(s.seen);
	return r;
}

void hinclude_files_release(struct hinclude_files *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->v[i].path);
	FREE_AND_NULL(f->v);
	f->n = f->alloc = 0;
}

/* Allows reading path (its inode now: the rule binds it, whatever the name means later)
 * when it is a regular file and, with want, that very inode. 0, or -1 with errno. */
static int allow_file(int rs, const char *path, const struct hinclude_file *want)
{
	int fd = open(path, O_PATH | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		errno = e;
		return -1;
	}
	int r = 0;
	if (!S_ISREG(st.st_mode) || (want && (st.st_dev != want->dev || st.st_ino != want->ino)))
		errno = ESTALE, r = -1;
	else
		r = landlock_allow(rs, LL_FS_READ_FILE, fd);
	close(fd);
	return r;
}

/* Allows access beneath a directory; one that does not exist needs no rule. */
static int allow_dir(int rs, const char *dir, uint64_t access)
{
	int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR ? 0 : -1;
	int r = landlock_allow(rs, access, fd);
	close(fd);
	return r;
}

/* The rules, one failure ends them: the scratch directory read and written, the read-only
 * directories, each accepted file, and what clang's driver reads to learn the distribution
 * (its answer does not change a parse, but an unconfined parse reads them too). */
static int add_rules(int rs, int abi, const struct hinclude_files *f, const char *scratch, const char *const *dirs,
		     size_t ndirs, const char **what)
{
	static const char *const driver[] = { "/etc/os-release", "/usr/lib/os-release", "/etc/lsb-release",
					      "/etc/debian_version", "/etc/redhat-release" };
	*what = scratch;
	if (allow_dir(rs, scratch, LL_FS_READ_FILE | landlock_write_access(abi)) < 0)
		return -1;
	/* the directory holding scratch: only to remove scratch itself (an empty directory)
	 * should xsc die and leave it to the child (hchild.c) */
	const char *sl = strrchr(scratch, '/');
	if (sl && sl != scratch) {
		char *parent = xstrndup(scratch, (size_t)(sl - scratch));
		int r = allow_dir(rs, parent, LL_FS_REMOVE_DIR);
		free(parent);
		if (r < 0)
			return -1;
	}
	for (size_t i = 0; i < ndirs; i++)
		if ((*what = dirs[i]), allow_dir(rs, dirs[i], LL_FS_READ_FILE) < 0)
			return -1;
	for (size_t i = 0; i < f->n; i++)
		if ((*what = f->v[i].path), allow_file(rs, f->v[i].path, &f->v[i]) < 0)
			return -1;
	for (size_t i = 0; i < ARRAY_SIZE(driver); i++)
		allow_file(rs, driver[i], NULL); /* absent, or not a file: not read */
	return 0;
}

int hinclude_confine(const struct hinclude_files *f, const char *scratch, const char *const *dirs, size_t ndirs,
		     int abi)
{
	if (abi <= 0)
		return 0;
	int rs = landlock_ruleset(abi, LL_FS_READ_FILE | landlock_write_access(abi), 0);
	if (rs < 0)
		return err("cannot confine the header parse (landlock_create_ruleset): %s", strerror(errno));
	const char *what = "";
	int r = add_rules(rs, abi, f, scratch, dirs, ndirs, &what);
	if (r < 0 && errno == ESTALE)
		r = err("'%s': changed while it was being checked", what);
	else if (r < 0)
		r = err("cannot confine the header parse (a rule for '%s'): %s", what, strerror(errno));
	else if (landlock_restrict(rs) < 0)
		r = err("cannot confine the header parse (landlock_restrict_self): %s", strerror(errno));
	close(rs);
	return r;
}
