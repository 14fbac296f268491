/* flagset new: start designing a flag set. */
#include <string.h>
#include "cmd/commands.h"
#include "teach/design.h"
#include "base/banned.h"

static int flagset_new(struct session *s, int argc, char **argv)
{
	if (argc != 3)
		return cmd_usage(s);
	if (design_flagset_new(session_design(s), s->cat, argv[2]) < 0)
		return -1;
	out_text(&s->out, "designing flag set %s: add flags with 'flag add NAME VALUE'\n", argv[2]);
	return 0;
}

int cmd_flagset(struct session *s, int argc, char **argv)
{
	static const struct verb verbs[] = { { "new", flagset_new, 0 }, { NULL, NULL, 0 } };
	return cmd_select(s, verbs, "verb", argc, argv);
}
