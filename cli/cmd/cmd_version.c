/* version add: publish a size of the struct being designed. */
#include <stdlib.h>
#include <string.h>
#include "cmd/commands.h"
#include "teach/design.h"
#include "base/banned.h"

static int version_add(struct session *s, int argc, char **argv)
{
	if (argc != 4)
		return cmd_usage(s);
	char *end;
	unsigned long size = strtoul(argv[2], &end, 0);
	if (*end || !size || size > 1u << 20)
		return err("version add: '%s' is not a size in bytes", argv[2]);
	uint32_t since;
	if (parse_since(argv[3], &since) < 0)
		return -1;
	struct design *d = session_design(s);
	if (design_version_add(d, (unsigned)size, since) < 0)
		return -1;
	const struct cstruct *st = session_find_struct(s, design_current_struct(d));
	if (st && st->nversions)
		out_text(&s->out, "%s = %u (since %s)\n", st->versions[st->nversions - 1].name, (unsigned)size, argv[3]);
	return 0;
}

int cmd_version(struct session *s, int argc, char **argv)
{
	static const struct verb verbs[] = { { "add", version_add, 0 }, { NULL, NULL, 0 } };
	return cmd_select(s, verbs, "verb", argc, argv);
}
