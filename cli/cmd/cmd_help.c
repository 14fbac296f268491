/* help, quit. */
#include <string.h>
#include "cmd/commands.h"
#include "base/banned.h"

int cmd_help(struct session *s, int argc, char **argv)
{
	struct out *o = &s->out;
	if (argc == 1) {
		out_text(o, "xsc commands (help COMMAND for more):\n");
		for (const struct command *c = commands; c->name; c++) {
			struct sbuf head = SBUF_INIT;
			sbuf_addf(&head, "%s %s", c->name, c->synopsis);
			if (head.len > 48) /* a long synopsis: the summary on a line of its own */
				out_text(o, "  %s\n  %-48s %s\n", head.buf, "", c->summary);
			else
				out_text(o, "  %-48s %s\n", head.buf, c->summary);
			sbuf_release(&head);
		}
		return 0;
	}
	if (argc != 2)
		return cmd_usage(s);
	const struct command *c = command_find(argv[1]);
	if (!c) {
		struct suggest sg = SUGGEST_INIT(argv[1], 2);
		for (const struct command *k = commands; k->name; k++)
			suggest_add(&sg, k->name);
		return suggest_err(&sg, "'help' lists them", "no command '%s'", argv[1]);
	}
	out_text(o, "usage: %s%s%s\n%s.\n", c->name, *c->synopsis ? " " : "", c->synopsis, c->summary);
	if (*c->help)
		out_text(o, "\n%s\n", c->help);
	return 0;
}

int cmd_quit(struct session *s, int argc, char **argv)
{
	(void)argv;
	if (argc != 1)
		return cmd_usage(s);
	s->quit = true;
	return 0;
}
