/* new, buffers, use: making and choosing buffers. */
#include <string.h>
#include "cmd/commands.h"
#include "base/banned.h"

static bool valid_name(const char *n)
{
	if (!*n || strlen(n) > 64)
		return false;
	for (const char *p = n; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      *p == '_' || *p == '-'))
			return false;
	return true;
}

int cmd_new(struct session *s, int argc, char **argv)
{
	if (argc != 2 && !(argc == 4 && !strcmp(argv[2], "as")))
		return cmd_usage(s);
	const struct catalog *c = s->cat;
	const struct syscall *sc = session_find_syscall(s, argv[1]);
	const struct cstruct *st = sc ? sc->st : session_find_struct(s, argv[1]);
	if (sc && !st)
		return err("'%s' takes no struct (kind %s); nothing to build", sc->name, sc_kind_name(sc->kind));
	if (!st) {
		struct suggest sg = SUGGEST_INIT(argv[1], 3);
		for (size_t i = 0; i < c->nstructs; i++)
			suggest_add(&sg, c->structs[i].name);
		for (size_t i = 0; i < c->nsyscalls; i++)
			if (c->syscalls[i].st)
				suggest_add(&sg, c->syscalls[i].name);
		return suggest_err(&sg, NULL, "no struct or syscall named '%s'", argv[1]);
	}
	const char *name = argc == 4 ? argv[3] : st->name;
	if (!valid_name(name))
		return err("bad buffer name '%s': use letters, digits, '_' and '-' (at most 64)", name);
	struct structbuf *sb = structbuf_new(name, st, sc);
	session_add_buffer(s, sb);
	out_text(&s->out, "%s: struct %s, %llu bytes (newest known size)\n", sb->name, st->name,
		 (unsigned long long)sb->size);
	return 0;
}

int cmd_buffers(struct session *s, int argc, char **argv)
{
	(void)argv;
	if (argc != 1)
		return cmd_usage(s);
	struct out *o = &s->out;
	out_arr(o, NULL);
	if (!s->nbufs)
		out_text(o, "no buffers; make one with 'new STRUCT'\n");
	for (size_t i = 0; i < s->nbufs; i++) {
		const struct structbuf *b = s->bufs[i];
		out_text(o, "%c %-20s struct %-22s size %llu\n", b == s->cur ? '*' : ' ', b->name, b->st->name,
			 (unsigned long long)b->size);
		out_obj(o, NULL);
		out_str(o, "name", b->name);
		out_str(o, "struct", b->st->name);
		out_u64(o, "size", b->size);
		out_bool(o, "current", b == s->cur);
		out_end(o);
	}
	out_end(o);
	return 0;
}

int cmd_use(struct session *s, int argc, char **argv)
{
	if (argc != 2)
		return cmd_usage(s);
	struct structbuf *b = session_find_buffer(s, argv[1]);
	if (!b) {
		struct suggest sg = SUGGEST_INIT(argv[1], 3);
		for (size_t i = 0; i < s->nbufs; i++)
			suggest_add(&sg, s->bufs[i]->name);
		return suggest_err(&sg, "'buffers' lists them", "no buffer named '%s'", argv[1]);
	}
	s->cur = b;
	return 0;
}
