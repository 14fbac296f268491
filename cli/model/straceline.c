#include "model/straceline.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/value.h"
#include "model/xlat.h"
#include "base/diag.h"
#include "base/sbuf.h"
#include "base/util.h"
#include "base/banned.h"

#define MAX_PARTS 64

/* Splits s (modified in place) at top-level ", " outside {} [] () quotes and comments. */
static int split_top(char *s, char **parts, int max)
{
	int n = 0, depth = 0;
	bool quote = false;
	char *start = s;
	for (char *p = s; *p; p++) {
		if (quote) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == '"')
				quote = false;
			continue;
		}
		if (*p == '/' && p[1] == '*') {
			char *e = strstr(p + 2, "*/");
			if (!e)
				return -1;
			p = e + 1;
			continue;
		}
		if (*p == '"')
			quote = true;
		else if (strchr("{[(", *p))
			depth++;
		else if (strchr("}])", *p))
			depth--;
		else if (*p == ',' && depth == 0) {
			if (n == max)
				return -1;
			*p = '\0';
			parts[n++] = start;
			start = p + 1;
		}
		if (depth < 0)
			return -1;
	}
	if (quote || depth)
		return -1;
	if (n == max)
		return -1;
	parts[n++] = start;
	for (int i = 0; i < n; i++) {
		while (isspace((unsigned char)*parts[i]))
			parts[i]++;
		char *e = parts[i] + strlen(parts[i]);
		while (e > parts[i] && isspace((unsigned char)e[-1]))
			*--e = '\0';
	}
	return n;
}

/* The bracket that closes the one at p ('(', '{' or '['), skipping quotes and comments, or
 * NULL when the text ends first or a bracket of another kind closes it. */
static char *matching_close(char *p)
{
	static const char pairs[] = "(){}[]";
	const char *kind = strchr(pairs, *p);
	int depth = 0;
	for (; *p; p++) {
		if (*p == '"') {
			for (p++; *p && *p != '"'; p++)
				if (*p == '\\' && p[1])
					p++;
			if (!*p)
				return NULL;
		} else if (*p == '/' && p[1] == '*') {
			char *e = strstr(p + 2, "*/");
			if (!e)
				return NULL;
			p = e + 1;
		} else if (*p == '(' || *p == '{' || *p == '[') {
			depth++;
		} else if (*p == ')' || *p == '}' || *p == ']') {
			if (--depth == 0)
				return kind && *p == kind[1] ? p : NULL;
		}
	}
	return NULL;
}

/* Drops C comments from a value: "0 /\* MS_??? *\/" → "0". */
static void strip_comments(char *s)
{
	char *c;
	while ((c = strstr(s, "/*"))) {
		char *e = strstr(c + 2, "*/");
		if (!e) {
			*c = '\0';
			break;
		}
		memmove(c, e + 2, strlen(e + 2) + 1);
	}
	char *e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
}

/* A nonzero tail: /\* bytes A..B *\/ "\xNN…" poked into b at A. */
static int parse_tail(struct structbuf *b, const char *item)
{
	unsigned a, z;
	const char *q = strstr(item, "*/");
	if (sscanf(item, "/* bytes %u..%u */", &a, &z) != 2 || z < a || !q || z >= STRUCTBUF_MAX_BYTES)
		return err("explain: cannot read '%s' (expected /* bytes A..B */ \"\\x..\")", item);
	q = strchr(q, '"');
	if (!q)
		return err("explain: the tail bytes of '%s' are missing", item);
	q++;
	for (unsigned off = a; off <= z; off++) {
		unsigned v;
		if (q[0] == '"' && off > a) /* strace's -s cut the string short: "\x00…"... */
			return err("explain: the line shows only bytes %u..%u of the tail; trace with a larger "
				   "-s (strace -s %u) to see them all", a, off - 1, z - a + 1);
		if (q[0] != '\\' || q[1] != 'x' || sscanf(q + 2, "%2x", &v) != 1)
			return err("explain: tail byte %u is not written as \\xNN", off);
		unsigned char byte = (unsigned char)v;
		structbuf_poke(b, off, &byte, 1);
		q += 4;
	}
	return 0;
}

/* A mode as strace writes it: S_IFDIR|S_ISUID|0755, or the octal number alone. */
static int parse_mode(struct structbuf *b, const struct field *f, const char *val)
{
	static const struct { const char *name; unsigned v; } bits[] = {
		{ "S_IFSOCK", 0140000 }, { "S_IFLNK", 0120000 }, { "S_IFREG", 0100000 }, { "S_IFBLK", 0060000 },
		{ "S_IFDIR", 0040000 }, { "S_IFCHR", 0020000 }, { "S_IFIFO", 0010000 },
		{ "S_ISUID", 04000 }, { "S_ISGID", 02000 }, { "S_ISVTX", 01000 },
	};
	uint64_t mode = 0;
	for (const char *p = val; *p;) {
		size_t n = strcspn(p, "|");
		size_t k = 0;
		while (k < ARRAY_SIZE(bits) && (strlen(bits[k].name) != n || strncmp(p, bits[k].name, n)))
			k++;
		char *end;
		if (k < ARRAY_SIZE(bits))
			mode |= bits[k].v;
		else if (isdigit((unsigned char)*p) && (mode |= strtoull(p, &end, 8), end == p + n))
			;
		else
			return err("explain: '%.*s' in %s=%s is not a mode (S_IFDIR|0755)", (int)n, p, f->name, val);
		p += n + !!p[n];
	}
	struct value v = { .kind = VK_INT, .bits = mode };
	return structbuf_set_field(b, f, &v);
}

static int parse_item(const struct catalog *cat, struct structbuf *b, char *item);

/* A realtime signal as strace names it (src/signal.c signame): SIGRTMIN is 32, SIGRT_1 to
 * SIGRT_32 are 33 to 64. */
static int parse_rt_signal(struct structbuf *b, const struct field *f, const char *val)
{
	unsigned n = 0;
	if (strcmp(val, "SIGRTMIN")) {
		const char *p = val + 6;
		for (; *p >= '0' && *p <= '9' && n <= 32; p++)
			n = n * 10 + (unsigned)(*p - '0');
		if (p == val + 6 || val[6] == '0' || *p || !n || n > 32)
			return err("explain: '%s' is no realtime signal strace names (SIGRT_1 to SIGRT_32)", val);
	}
	struct value v = { .kind = VK_INT, .bits = 32 + n, .width = 64 };
	return structbuf_set_field(b, f, &v);
}

/* Whether strace printed f on the call's exit, from what the kernel wrote (io_uring_params'
 * sq_entries .. cq_off): not what the caller passed, so not rebuilt. */
static bool printed_on_exit(const struct cstruct *st, const struct field *f)
{
	for (size_t k = 0; k < st->nstrace_exit; k++)
		if (&st->fields[st->strace_exit[k]] == f)
			return true;
	return false;
}

/* A struct inside the struct, as strace -v writes it: name={a=1, b=2} sets name.a and name.b. */
static int parse_nested(const struct catalog *cat, struct structbuf *b, const char *name, char *val)
{
	val[strlen(val) - 1] = '\0';
	char *items[MAX_PARTS];
	int n = split_top(val + 1, items, MAX_PARTS);
	if (n < 0)
		return err("explain: unbalanced braces in %s", name);
	for (int i = 0; i < n; i++) {
		if (!*items[i] || !strcmp(items[i], "..."))
			continue;
		struct sbuf full = SBUF_INIT;
		sbuf_addf(&full, "%s.%s", name, items[i]);
		int r = parse_item(cat, b, full.buf);
		sbuf_release(&full);
		if (r < 0)
			return -1;
	}
	return 0;
}

/* The item of the struct's strace view (perf_event_attr's) that name is, or NULL. */
static const struct strace_item *view_item(const struct cstruct *st, const char *name)
{
	for (size_t i = 0; i < st->nview; i++)
		if (!st->view[i].as_comment && !strcmp(st->view[i].name, name))
			return &st->view[i];
	return NULL;
}

/* An item of the struct's strace view into its field's bits: disabled=1, config=
 * PERF_COUNT_HW_CACHE_RESULT_MISS<<16|..., size=PERF_ATTR_SIZE_VER4 or 0x90 (what the kernel
 * rewrote, after " => ", is not what was passed). */
static int parse_view_item(const struct catalog *cat, struct structbuf *b, const struct strace_item *it,
			   const char *val)
{
	uint64_t x = 0;
	bool found = false;
	for (size_t i = 0; it->version_name && i < b->st->nversions && !found; i++)
		if (b->st->versions[i].name && !strcmp(b->st->versions[i].name, val)) {
			x = b->st->versions[i].size;
			found = true;
		}
	struct value v;
	if (!found) {
		if (value_parse(cat, it->table ? it->table : it->field->flagset, val, &v) < 0)
			return -1;
		x = v.bits;
		value_release(&v);
	}
	if (it->mask) {
		unsigned shift = (unsigned)__builtin_ctzll(it->mask);
		if (shift && x > it->mask >> shift)
			return err("explain: %s=%s does not fit its %u bits", it->name, val, __builtin_popcountll(it->mask));
		x = (structbuf_get(b, it->field) & ~it->mask) | ((x << shift) & it->mask);
	}
	struct value nv = { .kind = VK_INT, .bits = x, .width = it->field->elem_size * 8 };
	return structbuf_set_field(b, it->field, &nv);
}

/* An array field as strace writes it, [0, 0x42, 0] (print_xint_array_member), element by
 * element; "..." (more than strace shows) ends it. */
static int parse_array(const struct catalog *cat, struct structbuf *b, const struct field *f, char *val)
{
	val[strlen(val) - 1] = '\0';
	char *items[MAX_PARTS];
	int n = split_top(val + 1, items, MAX_PARTS);
	if (n < 0 || (unsigned)n > f->count)
		return err("explain: %s holds %u elements, not the line's", f->name, f->count);
	for (int i = 0; i < n && strcmp(items[i], "..."); i++) {
		struct value v;
		uint64_t bits;
		bool ext;
		struct sbuf why = SBUF_INIT;
		if (value_parse(cat, f->flagset, items[i], &v) < 0)
			return -1;
		int r = value_convert(&v, f->elem_size * 8, ftype_signed(f->type), &bits, &ext, &why);
		value_release(&v);
		if (r < 0) {
			err("explain: %s[%d]: %s", f->name, i, why.buf);
			sbuf_release(&why);
			return -1;
		}
		sbuf_release(&why);
		unsigned char bytes[8];
		le_store(bytes, f->elem_size, bits);
		if (structbuf_poke(b, f->offset + (uint64_t)i * f->elem_size, bytes, f->elem_size) < 0)
			return -1;
	}
	return 0;
}

/* One "field=value" of the struct into b. */
static int parse_item(const struct catalog *cat, struct structbuf *b, char *item)
{
	char *eq = strchr(item, '=');
	if (!eq)
		return err("explain: '%s' is not field=value", item);
	*eq = '\0';
	char *val = eq + 1;
	strip_comments(val);
	char *rewritten = strstr(val, " => "); /* perf's size=0x90 => 0x88: the kernel's, on E2BIG */
	if (rewritten && val[0] != '{')
		*rewritten = '\0';
	strip_comments(val);
	const struct strace_item *it = view_item(b->st, item);
	if (it)
		return parse_view_item(cat, b, it, val);
	size_t vlen = strlen(val);
	if (val[0] == '{' && vlen > 1 && val[vlen - 1] == '}') /* strace -v: stx_atime={tv_sec=1, tv_nsec=2} */
		return parse_nested(cat, b, item, val);
	const struct field *f = structbuf_field_or_err(b, item);
	if (!f)
		return -1;
	if (printed_on_exit(b->st, f))
		return 0;
	if (!strcmp(val, "NULL"))
		val = (char *)"0";
	if (val[0] == '"') /* a string pointer: its address is not in the line */
		return 0;
	if (f->format == FF_MODE)
		return parse_mode(b, f, val);
	if (f->format == FF_SIGNAL && (!strcmp(val, "SIGRTMIN") || !strncmp(val, "SIGRT_", 6)))
		return parse_rt_signal(b, f, val);
	if (f->count && f->type != FT_CHAR && val[0] == '[' && val[strlen(val) - 1] == ']')
		return parse_array(cat, b, f, val);
	struct value v;
	if (value_parse(cat, f->flagset, val, &v) < 0)
		return -1;
	int r = structbuf_set_field(b, f, &v);
	value_release(&v);
	return r;
}

/* {field=value, …, /\* bytes A..B *\/ "…"} into b. */
static int parse_struct(const struct catalog *cat, struct structbuf *b, char *text)
{
	size_t len = strlen(text);
	if (len < 2 || text[0] != '{' || text[len - 1] != '}')
		return err("explain: expected {field=value, ...}, not '%s'", text);
	text[len - 1] = '\0';
	char *items[MAX_PARTS];
	int n = len > 2 ? split_top(text + 1, items, MAX_PARTS) : 0;
	if (n < 0)
		return err("explain: unbalanced braces, quotes or comments in the struct");
	for (int i = 0; i < n; i++) {
		if (!strncmp(items[i], "/* bytes", 8)) {
			if (parse_tail(b, items[i]) < 0)
				return -1;
		} else if (strcmp(items[i], "...") && *items[i] && parse_item(cat, b, items[i]) < 0) {
			return -1;
		}
	}
	return 0;
}

/* The struct argument a (its write-back part " => {…}" dropped) into a zeroed buffer. */
static int parse_struct_arg(const struct catalog *cat, struct strace_line *l, int i, char *a)
{
	/* the write-back after the struct: " => {size=56}" (perf's "size=0x90 => 0x88" is inside) */
	char *end = a[0] == '{' ? matching_close(a) : NULL;
	char *wb = strstr(end ? end : a, " => ");
	if (wb)
		*wb = '\0';
	l->buf_arg = i;
	free(l->struct_text); /* a call with two struct arguments keeps the last, as the kernel's size is its */
	structbuf_free(l->b);
	l->struct_text = xstrdup(a);
	l->b = structbuf_new("explained", l->sc->st, l->sc);
	memset(l->b->data, 0, l->b->len);
	return a[0] == '{' ? parse_struct(cat, l->b, a) : 0;
}

/* Bytes a shown pointer stands for when the catalogue knows no struct for it: strace read at
 * least what it printed, and a check that reads further reads zeros, as for a struct. */
#define SHOWN_BYTES 4096

/* Argument i printed as what it points to ({off=0, len=0}, [1, 2], "text"): strace could read
 * it, so the pointer was non-NULL and readable. Its bytes are kept in l->shown[i]; a struct the
 * catalogue knows for the argument is read field by field (a field it does not know is an
 * error, as in the call's own struct). */
static int parse_shown_pointer(const struct catalog *cat, struct strace_line *l, size_t i, const char *a)
{
	const struct sarg *sa = &l->sc->args[i];
	l->shown[i] = xcalloc(1, SHOWN_BYTES);
	/* an out argument's struct is what the kernel wrote (capget's dataptr, on exit): its values
	 * are no part of the call, and strace's joined forms of them (1<<CAP_BPF in one word) need
	 * not fit the caller's fields */
	if (!sa->st || a[0] != '{' || sa->direction == FD_OUT)
		return 0;
	struct structbuf *b = structbuf_new(sa->name, sa->st, l->sc);
	memset(b->data, 0, b->len);
	char *text = xstrdup(a);
	char *end = matching_close(text);
	if (end)
		end[1] = '\0'; /* a write-back " => {…}" after it is the kernel's, not the caller's */
	int r = parse_struct(cat, b, text);
	if (r == 0)
		memcpy(l->shown[i], b->data, b->len < SHOWN_BYTES ? b->len : SHOWN_BYTES);
	free(text);
	structbuf_free(b);
	return r;
}

/* Whether text is written as a number or flags are: names, digits, | - + ~ and blanks. */
static bool plain_value(const char *text)
{
	for (const char *p = text; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_|-+~ ", *p))
			return false;
	return *text != 0;
}

/* Argument i that is neither the struct nor the size, as the checks read it: a number or
 * flags (strace's trailing comment dropped: "0x100 /\* RESOLVE_??? *\/"), NULL, or a string.
 * What is none of these (an address's array, a descriptor shown with its path) stays 0:
 * the checks then read it as strace did not show it. */
static int parse_other_arg(const struct catalog *cat, struct strace_line *l, size_t i, const char *a)
{
	const struct sarg *sa = &l->sc->args[i];
	size_t len = strcspn(a, "/");
	while (len && a[len - 1] == ' ')
		len--;
	char *text = xstrndup(a, a[0] == '"' ? strlen(a) : len);
	struct value v;
	if (a[0] == '{' || a[0] == '[' || (a[0] == '"' && sa->role != AR_PATH)) {
		int r = parse_shown_pointer(cat, l, i, a);
		free(text);
		return r;
	}
	if (!strcmp(text, "NULL")) {
		l->args[i] = 0;
	} else if (text[0] == '"' || plain_value(text)) {
		if (value_parse_why(cat, text[0] == '"' ? NULL : sa->flagset, text, &v, NULL) == 0) {
			if (v.kind == VK_STRING && !l->strings[i] && sa->role == AR_PATH)
				l->strings[i] = xstrndup(v.text, v.text_len);
			else if (v.kind == VK_INT)
				l->args[i] = v.bits;
			value_release(&v);
		}
	}
	free(text);
	return 0;
}

/* The arguments: the struct, the size and the others the checks read. args holds nargs,
 * the count the syscall takes (the caller has checked), so only nargs are read. */
static int parse_args(const struct catalog *cat, struct strace_line *l, char **args, size_t nargs)
{
	const struct syscall *sc = l->sc;
	const struct cstruct *st = sc->st;
	for (size_t i = 0; i < nargs; i++) {
		if ((sc->args[i].role == AR_STRUCT || sc->args[i].role == AR_PTR) && sc->args[i].st == st && st) {
			if (parse_struct_arg(cat, l, (int)i, args[i]) < 0)
				return -1;
			l->struct_null = !strcmp(args[i], "NULL");
			if (!strncmp(args[i], "0x", 2) && i < 6) /* an address strace did not decode */
				l->args[i] = strtoull(args[i], NULL, 16);
		} else if (i < 6 && !(sc->args[i].role == AR_SIZE && sc->size_where == SW_ARG)) {
			if (parse_other_arg(cat, l, i, args[i]) < 0)
				return -1;
		} else if (sc->args[i].role == AR_SIZE && sc->size_where == SW_ARG) {
			struct value v;
			if (value_parse(cat, NULL, args[i], &v) < 0)
				return -1;
			l->size = v.bits;
			l->args[i] = v.bits;
			value_release(&v);
		}
	}
	if (!st) /* a flags-only call (renameat2, clone): its arguments are the whole story */
		return 0;
	if (!l->b) /* l->b is set only for an argument of sc's struct */
		return err("explain: the line of %s shows no %s", sc->name, st->name);
	if (sc->size_where == SW_FIELD)
		l->size = structbuf_kernel_size(l->b);
	else if (sc->size_where != SW_ARG)
		l->size = st->size;
	if (l->size > l->b->size && l->size <= STRUCTBUF_MAX_BYTES)
		structbuf_set_size(l->b, l->size);
	return 0;
}

/* Whether a names argument k of sc as strace writes it: its own name, or one holding it
 * (clone's child_stack for stack, child_tidptr for child_tid). */
static bool arg_named(const struct sarg *a, const char *name, size_t len)
{
	char *n = xstrndup(name, len);
	bool yes = strstr(n, a->name) != NULL;
	free(n);
	return yes;
}

/* clone(child_stack=NULL, flags=…, child_tidptr=0x…): strace names clone's arguments and
 * writes them in its own order; put each where the catalogue has it, "0" for those it left
 * out. Lines without names are left as they are. */
static int name_args(const struct syscall *sc, char **args, int *nargs)
{
	static char zero[] = "0";
	char *placed[MAX_PARTS] = { 0 };
	size_t len0 = strspn(args[0], "abcdefghijklmnopqrstuvwxyz_");
	if (!len0 || args[0][len0] != '=' || !sc->nargs || sc->nargs > MAX_PARTS)
		return 0;
	for (int i = 0; i < *nargs; i++) {
		size_t len = strspn(args[i], "abcdefghijklmnopqrstuvwxyz_");
		size_t k = 0;
		while (args[i][len] == '=' && k < sc->nargs && !arg_named(&sc->args[k], args[i], len))
			k++;
		if (args[i][len] != '=' || k == sc->nargs || placed[k])
			return err("explain: %s has no argument named '%.*s'", sc->name, (int)strcspn(args[i], "="), args[i]);
		placed[k] = args[i] + len + 1;
	}
	for (size_t k = 0; k < sc->nargs; k++)
		args[k] = placed[k] ? placed[k] : zero;
	*nargs = (int)sc->nargs;
	return 0;
}

/* The answer after the closing parenthesis: "= 3" or "= -1 E2BIG (Argument list too long)". */
static int parse_result(struct strace_line *l, const char *rest)
{
	const char *res = strstr(rest, "= ");
	if (!res)
		return 0;
	res += 2;
	if (*res == '?') /* "= ? <unavailable>", "= ?": the process went away; no answer */
		return 0;
	if (!strncmp(res, "-1 ", 3)) {
		char en[32];
		if (sscanf(res + 3, "%31[A-Z0-9_]", en) != 1 || errno_from_name(en) < 0)
			return err("explain: unknown error in '%s'", res);
		l->ret = -1;
		l->err = errno_from_name(en);
	} else {
		l->ret = strtol(res, NULL, 0);
	}
	l->answered = true;
	return 0;
}

int strace_line_parse(const struct catalog *cat, const char *text, struct strace_line *l)
{
	memset(l, 0, sizeof(*l));
	l->buf_arg = -1;
	char *line = xstrdup(text), *p = line;
	int result = -1;
	while (isspace((unsigned char)*p))
		p++;
	if (!strncmp(p, "[pid", 4) && strchr(p, ']'))
		p = strchr(p, ']') + 1;
	while (isspace((unsigned char)*p))
		p++;
	char *open = strchr(p, '(');
	char *close = open ? matching_close(open) : NULL;
	if (!open || !close) {
		err("explain: expected a strace line such as 'openat2(AT_FDCWD, \"/\", {...}, 24) = 3'");
		goto out;
	}
	*open = '\0';
	*close = '\0';
	char *args[MAX_PARTS];
	char *inner = open + 1;
	while (isspace((unsigned char)*inner))
		inner++;
	int nargs = *inner ? split_top(open + 1, args, MAX_PARTS) : 0; /* vfork() */
	if (nargs < 0) {
		err("explain: unbalanced braces, quotes or comments in the arguments");
		goto out;
	}
	/* an ioctl's request names the entry: ioctl(3, PIDFD_GET_INFO, {...}) */
	const char *name = !strcmp(p, "ioctl") && nargs >= 2 ? args[1] : p;
	l->sc = catalog_find_syscall(cat, name);
	if (!l->sc) {
		err("explain: '%s' is not in the catalogue", name);
		goto out;
	}
	if (nargs > 0 && name_args(l->sc, args, &nargs) < 0)
		goto out;
	if ((size_t)nargs != l->sc->nargs) {
		err("explain: %s takes %zu arguments, the line has %d", l->sc->name, l->sc->nargs, nargs);
		goto out;
	}
	if (parse_args(cat, l, args, (size_t)nargs) < 0 || parse_result(l, close + 1) < 0)
		goto out;
	result = 0;
out:
	free(line);
	return result;
}

void strace_line_release(struct strace_line *l)
{
	structbuf_free(l->b);
	free(l->struct_text);
	for (size_t i = 0; i < 6; i++) {
		free(l->strings[i]);
		l->strings[i] = NULL;
		free(l->shown[i]);
		l->shown[i] = NULL;
	}
	l->b = NULL;
	l->struct_text = NULL;
}
