/* set, unset: fields of the current buffer. */
#include <stdlib.h>
#include <string.h>
#include "cmd/commands.h"
#include "model/value.h"
#include "base/banned.h"

const struct field *find_field_or_err(struct session *s, const char *name)
{
	return structbuf_field_or_err(s->cur, name);
}

/* Joins argv[from..] with spaces, so `set flags O_CREAT | O_EXCL` works unquoted. */
static char *join_args(int argc, char **argv, int from)
{
	struct sbuf sb = SBUF_INIT;
	for (int i = from; i < argc; i++)
		sbuf_addf(&sb, "%s%s", i > from ? " " : "", argv[i]);
	return sbuf_detach(&sb);
}

/* Parses argv[from..] as a value for f; a lone double-quoted word is a string. */
int parse_field_value(struct session *s, const struct field *f, int argc, char **argv, int from,
		      struct value *v)
{
	if (argc == from + 1 && session_arg_quoted(s, from)) {
		struct sbuf lit = SBUF_INIT;
		sbuf_addf(&lit, "\"%s\"", argv[from]);
		int r = value_parse(s->cat, NULL, lit.buf, v);
		sbuf_release(&lit);
		return r;
	}
	char *text = join_args(argc, argv, from);
	int r = value_parse(s->cat, f ? f->flagset : NULL, text, v);
	free(text);
	return r;
}

/* 'set mode 644' stores decimal 644, 01204 (the sticky bit): said at once, with the octal the
 * user meant when the digits are octal ones. A literal with a leading 0 or 0x is deliberate. */
static void warn_decimal_mode(struct out *o, const struct field *f, int argc, char **argv)
{
	const char *t = argc == 3 ? argv[2] : NULL;
	if (f->format != FF_OCTAL || !t || t[0] < '1' || t[0] > '9' || t[strspn(t, "0123456789")])
		return;
	unsigned long long v = strtoull(t, NULL, 10);
	if (v < 8)
		return;
	out_text(o, "%s: %s is decimal, %#llo in octal; a mode is octal", f->name, t, v);
	if (!t[strspn(t, "01234567")])
		out_text(o, ": did you mean 0%s?", t);
	out_text(o, "\n");
}

int cmd_set(struct session *s, int argc, char **argv)
{
	if (argc < 3)
		return cmd_usage(s);
	const struct field *f = find_field_or_err(s, argv[1]);
	if (!f)
		return -1;
	struct value v;
	if (parse_field_value(s, f, argc, argv, 2, &v) < 0)
		return -1;
	if (v.kind == VK_BUFREF && !session_find_buffer(s, v.text)) {
		int r = err("no buffer named '%s' to point at", v.text);
		value_release(&v);
		return r;
	}
	int r = structbuf_set_field(s->cur, f, &v);
	value_release(&v);
	if (r < 0)
		return r;
	warn_decimal_mode(&s->out, f, argc, argv);
	const char *note = s->cur->notes[f - s->cur->st->fields];
	if (note)
		out_text(&s->out, "%s: %s\n", f->name, note);
	if (f == s->cur->size_field && structbuf_kernel_size(s->cur) != s->cur->size)
		out_text(&s->out, "note: the size field now says %llu but the buffer holds %llu bytes\n",
			 (unsigned long long)structbuf_kernel_size(s->cur), (unsigned long long)s->cur->size);
	return 0;
}

int cmd_unset(struct session *s, int argc, char **argv)
{
	if (argc != 2)
		return cmd_usage(s);
	const struct field *f = find_field_or_err(s, argv[1]);
	if (!f)
		return -1;
	structbuf_unset_field(s->cur, f);
	return 0;
}
