/* explain 'LINE': a strace line of a catalogue syscall, decoded and explained without
 * calling anything: which sizes the struct has had, and why a kernel answers as it did. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/commands.h"
#include "kernel/explain.h"
#include "model/decode.h"
#include "model/kver.h"
#include "model/value.h"
#include "model/xlat.h"
#include "sim/sim.h"
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

/* The ')' that closes the '(' at p, skipping quotes and comments. */
static char *matching_paren(char *p)
{
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
				return *p == ')' ? p : NULL;
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
		if (q[0] != '\\' || q[1] != 'x' || sscanf(q + 2, "%2x", &v) != 1)
			return err("explain: tail byte %u is not written as \\xNN", off);
		unsigned char byte = (unsigned char)v;
		structbuf_poke(b, off, &byte, 1);
		q += 4;
	}
	return 0;
}

static int parse_struct(struct session *s, struct structbuf *b, char *text)
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
			continue;
		}
		if (!strcmp(items[i], "...") || !*items[i])
			continue;
		char *eq = strchr(items[i], '=');
		if (!eq)
			return err("explain: '%s' is not field=value", items[i]);
		*eq = '\0';
		char *val = eq + 1;
		strip_comments(val);
		const struct field *f = find_field_or_err(s, items[i]);
		if (!f)
			return -1;
		if (!strcmp(val, "NULL"))
			val = (char *)"0";
		if (val[0] == '"') /* a string pointer: its address is not in the line */
			continue;
		struct value v;
		if (value_parse(s->cat, f->flagset, val, &v) < 0)
			return -1;
		int r = structbuf_set_field(b, f, &v);
		value_release(&v);
		if (r < 0)
			return -1;
	}
	return 0;
}

int cmd_explain(struct session *s, int argc, char **argv)
{
	uint32_t here = 0;
	int from = 1;
	if (argc >= 3 && !strcmp(argv[1], "--kernel")) {
		if (session_kernel_arg(s, "explain: --kernel", argv[2], &here) < 0)
			return -1;
		from = 3;
	}
	if (argc <= from)
		return command_usage(command_find("explain"));
	if (!here)
		here = running_kernel();
	struct sbuf line = SBUF_INIT;
	for (int i = from; i < argc; i++)
		sbuf_addf(&line, "%s%s", i > from ? " " : "", argv[i]);
	char *p = line.buf;
	int result = -1;
	struct structbuf *b = NULL, *saved_cur = s->cur;
	struct outcome o;
	outcome_init(&o);
	while (isspace((unsigned char)*p))
		p++;
	if (!strncmp(p, "[pid", 4) && strchr(p, ']'))
		p = strchr(p, ']') + 1;
	while (isspace((unsigned char)*p))
		p++;
	char *open = strchr(p, '(');
	char *close = open ? matching_paren(open) : NULL;
	if (!open || !close) {
		err("explain: expected a strace line such as 'openat2(AT_FDCWD, \"/\", {...}, 24) = 3'");
		goto out;
	}
	*open = '\0';
	*close = '\0';
	char *args[MAX_PARTS];
	int nargs = split_top(open + 1, args, MAX_PARTS);
	if (nargs < 0) {
		err("explain: unbalanced braces, quotes or comments in the arguments");
		goto out;
	}
	const char *name = p;
	int first = 0;
	if (!strcmp(name, "ioctl") && nargs >= 2) {
		name = args[1]; /* the request names the entry: ioctl(3, PIDFD_GET_INFO, {...}) */
		first = 0;
	}
	const struct syscall *sc = catalog_find_syscall(s->cat, name);
	if (!sc) {
		err("explain: '%s' is not in the catalogue", name);
		goto out;
	}
	if ((size_t)nargs != sc->nargs) {
		err("explain: %s takes %zu arguments, the line has %d", sc->name, sc->nargs, nargs);
		goto out;
	}
	int buf_arg = -1;
	for (size_t i = 0; i < sc->nargs; i++) {
		char *a = args[i + first];
		if ((sc->args[i].role == AR_STRUCT || sc->args[i].role == AR_PTR) && sc->args[i].st == sc->st && sc->st) {
			buf_arg = (int)i;
			/* the write-back part: "{size=40} => {size=56}" */
			char *wb = strstr(a, " => ");
			if (wb)
				*wb = '\0';
			b = structbuf_new("explained", sc->st, sc);
			memset(b->data, 0, b->len);
			s->cur = b;
			if (a[0] == '{') {
				if (parse_struct(s, b, a) < 0)
					goto out;
			}
			continue;
		}
		if (sc->args[i].role == AR_SIZE && sc->size_where == SW_ARG) {
			struct value v;
			if (value_parse(s->cat, NULL, a, &v) < 0)
				goto out;
			o.size = v.bits;
			o.args[i] = v.bits;
			value_release(&v);
		}
	}
	if (!b) {
		err("explain: %s has no struct to explain", sc->name);
		goto out;
	}
	if (sc->size_where == SW_FIELD)
		o.size = structbuf_kernel_size(b);
	else if (sc->size_where != SW_ARG)
		o.size = sc->st->size;
	if (o.size > b->size && o.size <= STRUCTBUF_MAX_BYTES)
		structbuf_set_size(b, o.size);

	/* the result: "= 3" or "= -1 E2BIG (Argument list too long)" */
	char *res = strstr(close + 1, "= ");
	o.stage = OS_NOT_RUN;
	if (res) {
		res += 2;
		if (!strncmp(res, "-1 ", 3)) {
			char en[32];
			if (sscanf(res + 3, "%31[A-Z0-9_]", en) != 1 || errno_from_name(en) < 0) {
				err("explain: unknown error in '%s'", res);
				goto out;
			}
			o.ret = -1;
			o.err = errno_from_name(en);
		} else {
			o.ret = strtol(res, NULL, 0);
		}
		o.stage = OS_CALLED;
	}
	o.len = b->len;
	o.before = xmalloc(b->len);
	o.after = xmalloc(b->len);
	memcpy(o.before, b->data, b->len);
	memcpy(o.after, b->data, b->len);

	struct out *out = &s->out;
	const struct cstruct *st = sc->st;
	char kv[16];
	struct sbuf decoded = SBUF_INIT;
	if (args[buf_arg + first][0] == '{')
		decode_struct(&decoded, s->cat, st, b->data, b->len, o.size, 0);
	else
		sbuf_addf(&decoded, "%s (an address: too small to decode)", args[buf_arg + first]);
	out_text(out, "%s: struct %s, size %llu: %s\n", sc->name, st->name, (unsigned long long)o.size, decoded.buf);
	out_text(out, "sizes of struct %s:", st->name);
	for (size_t i = 0; i < st->nversions; i++)
		out_text(out, " %u (%s%s%s)", st->versions[i].size, kver_str(st->versions[i].since, kv),
			 st->versions[i].name ? ", " : "", st->versions[i].name ? st->versions[i].name : "");
	out_text(out, "%s\n", st->nversions ? "" : " not size-versioned");
	out_obj(out, NULL);
	out_str(out, "syscall", sc->name);
	out_u64(out, "size", o.size);
	out_str(out, "decoded", decoded.buf);
	sbuf_release(&decoded);
	if (o.stage == OS_CALLED) {
		struct call_plan plan;
		memset(&plan, 0, sizeof(plan));
		sbuf_init(&plan.notes);
		plan.req.sc = sc;
		plan.req.buf = b->data;
		plan.req.buflen = b->len;
		plan.req.size = o.size;
		plan.req.buf_arg = buf_arg;
		plan.req.extra_arg = -1;
		plan.req.nargs = (int)sc->nargs;
		memcpy(plan.req.args, o.args, sizeof(plan.req.args));
		struct explanation ex;
		explanation_init(&ex);
		/* the simulator's check walk on the same call at that kernel names the check */
		struct sim_opts so = { here, false };
		struct outcome sim_out;
		struct sbuf sim_why = SBUF_INIT;
		sim_call(s->cat, &plan.req, &so, &sim_out, &sim_why);
		struct sim_verdict verdict = { &sim_out, sim_why.buf };
		explain_outcome(&ex, s->cat, &plan, &o, here, &verdict);
		outcome_release(&sim_out);
		sbuf_release(&sim_why);
		out_text(out, "on a %s kernel the answer means:\n", kver_str(here, kv));
		for (const char *q = ex.text.buf; *q;) {
			const char *nl = strchr(q, '\n');
			out_text(out, "  %.*s\n", (int)(nl - q), q);
			q = nl + 1;
		}
		out_s64(out, "ret", o.ret);
		out_str(out, "errno_name", o.ret == -1 ? errno_name(o.err) : NULL);
		out_str(out, "explanation", ex.text.buf);
		explanation_release(&ex);
		sbuf_release(&plan.notes);
	}
	out_end(out);
	result = 0;
out:
	s->cur = saved_cur;
	structbuf_free(b);
	outcome_release(&o);
	sbuf_release(&line);
	return result;
}
