/* struct new: start designing a struct (teach/design.h). Also the version argument the other
 * design commands (field, flagset, flag, version, syscall, export) share. */
#include <string.h>
#include "cmd/commands.h"
#include "model/kver.h"
#include "teach/design.h"
#include "base/banned.h"

int parse_since(const char *text, uint32_t *v)
{
	/* 0 is the design's "not dated yet": 'since 0.0' would be dated by the next 'version add' */
	if (kver_parse(text, v, 0) < 0 || !*v)
		return err("'%s' is not a kernel version such as 6.18 or 7.0", text);
	return 0;
}

static int struct_new(struct session *s, int argc, char **argv)
{
	uint32_t since = 0;
	if (argc != 3 && !(argc == 5 && !strcmp(argv[3], "since")))
		return cmd_usage(s);
	if (argc == 5 && parse_since(argv[4], &since) < 0)
		return -1;
	if (design_struct_new(session_design(s), s->cat, argv[2], since) < 0)
		return -1;
	out_text(&s->out, "designing struct %s: add fields with 'field add TYPE NAME', publish sizes with 'version add SIZE SINCE'\n",
		 argv[2]);
	return 0;
}

int cmd_struct(struct session *s, int argc, char **argv)
{
	static const struct verb verbs[] = { { "new", struct_new, 0 }, { NULL, NULL, 0 } };
	return cmd_select(s, verbs, "verb", argc, argv);
}
