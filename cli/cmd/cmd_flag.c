/* flag add: add a flag to the flag set being designed. */
#include <string.h>
#include "cmd/commands.h"
#include "model/value.h"
#include "teach/design.h"
#include "base/banned.h"

static int flag_add(struct session *s, int argc, char **argv)
{
	if ((argc != 4 && argc != 6) || (argc == 6 && strcmp(argv[4], "since")))
		return cmd_usage(s);
	uint32_t since = 0;
	if (argc == 6 && parse_since(argv[5], &since) < 0)
		return -1;
	struct value v;
	if (value_parse(s->cat, NULL, argv[3], &v) < 0)
		return -1;
	bool ok = v.kind == VK_INT && !(v.is_signed && (int64_t)v.bits < 0);
	uint64_t bits = v.bits;
	value_release(&v);
	if (!ok)
		return err("flag add: '%s' is not a flag value (a positive number such as 0x4 or 1<<2)", argv[3]);
	struct design *d = session_design(s);
	if (design_flag_add(d, argv[2], bits, since) < 0)
		return -1;
	out_text(&s->out, "%s: %s = %#llx\n", design_current_flagset(d), argv[2], (unsigned long long)bits);
	return 0;
}

int cmd_flag(struct session *s, int argc, char **argv)
{
	static const struct verb verbs[] = { { "add", flag_add, 0 }, { NULL, NULL, 0 } };
	return cmd_select(s, verbs, "verb", argc, argv);
}
