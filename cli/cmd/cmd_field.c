/* field add: append a field to the struct being designed. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/commands.h"
#include "model/kver.h"
#include "teach/design.h"
#include "base/banned.h"

static int field_add(struct session *s, int argc, char **argv)
{
	if (argc < 4 || argc % 2)
		return cmd_usage(s);
	uint32_t since = 0;
	const char *zero = NULL, *flagset = NULL;
	long at = -1;
	for (int i = 4; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "since")) {
			if (parse_since(argv[i + 1], &since) < 0)
				return -1;
		} else if (!strcmp(argv[i], "zero")) {
			zero = argv[i + 1];
		} else if (!strcmp(argv[i], "flagset")) {
			flagset = argv[i + 1];
		} else if (!strcmp(argv[i], "at")) {
			char *end;
			at = strtol(argv[i + 1], &end, 0);
			if (*end || at < 0 || at > (long)UINT32_MAX)
				return err("field add: 'at' takes a byte offset, not '%s'", argv[i + 1]);
		} else {
			return usage_err("field add: unknown option '%s' (since V, zero MEANING, flagset NAME, at OFFSET)", argv[i]);
		}
	}
	struct design *d = session_design(s);
	if (design_field_add(d, argv[2], argv[3], since, zero, flagset, at) < 0)
		return -1;
	const struct cstruct *st = session_find_struct(s, design_current_struct(d));
	const struct field *f = st ? cstruct_find_field(st, argv[3]) : NULL;
	if (f)
		out_text(&s->out, "%s.%s: %s at offset %u, %u bytes; the struct is now %u bytes\n", st->name, f->name,
			 f->type_text, f->offset, f->size, st->size);
	return 0;
}

int cmd_field(struct session *s, int argc, char **argv)
{
	static const struct verb verbs[] = { { "add", field_add, 0 }, { NULL, NULL, 0 } };
	return cmd_select(s, verbs, "verb", argc, argv);
}
