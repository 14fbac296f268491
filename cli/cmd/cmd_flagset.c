/* flagset new: start designing a flag set. */
#include <string.h>
#include "cmd/commands.h"
#include "teach/design.h"
#include "base/banned.h"

int cmd_flagset(struct session *s, int argc, char **argv)
{
	if (argc != 3 || strcmp(argv[1], "new"))
		return cmd_usage(s);
	if (design_flagset_new(session_design(s), s->cat, argv[2]) < 0)
		return -1;
	out_text(&s->out, "designing flag set %s: add flags with 'flag add NAME VALUE'\n", argv[2]);
	return 0;
}
