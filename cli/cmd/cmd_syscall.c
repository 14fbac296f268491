/* syscall new: a designed syscall taking a designed struct (and its size). */
#include <string.h>
#include "cmd/commands.h"
#include "teach/design.h"
#include "base/banned.h"

static int syscall_new(struct session *s, int argc, char **argv)
{
	if (argc < 4)
		return cmd_usage(s);
	const char *st = NULL, *flags = NULL;
	uint32_t since = 0;
	for (int i = 3; i < argc; i++) {
		if (!strncmp(argv[i], "struct=", 7))
			st = argv[i] + 7;
		else if (!strncmp(argv[i], "flags=", 6))
			flags = argv[i] + 6;
		else if (!strcmp(argv[i], "since") && i + 1 < argc) {
			if (parse_since(argv[++i], &since) < 0)
				return -1;
		} else
			return usage_err("syscall new: unknown argument '%s' (struct=STRUCT, flags=FLAGSET, since V)", argv[i]);
	}
	if (!st)
		return usage_err("syscall new: which struct? 'syscall new %s struct=STRUCT'", argv[2]);
	if (design_syscall_new(session_design(s), s->cat, argv[2], st, flags, since) < 0)
		return -1;
	const struct syscall *sc = session_find_syscall(s, argv[2]);
	if (sc)
		out_text(&s->out, "%s\n  answered by 'target sim VERSION' (never live); 'export %s DIR' writes it out\n",
			 sc->prototype, sc->name);
	return 0;
}

int cmd_syscall(struct session *s, int argc, char **argv)
{
	static const struct verb verbs[] = { { "new", syscall_new, 0 }, { NULL, NULL, 0 } };
	return cmd_select(s, verbs, "verb", argc, argv);
}
