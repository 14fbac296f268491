/* export: a designed syscall as catalogue JSON, uapi header, kernel and selftest skeletons. */
#include <string.h>
#include "cmd/commands.h"
#include "base/outfile.h"
#include "teach/design.h"
#include "base/banned.h"

int cmd_export(struct session *s, int argc, char **argv)
{
	bool force = argc == 4 && !strcmp(argv[3], "--force");
	if (argc != 3 && !force)
		return cmd_usage(s);
	if (!s->design)
		return err("nothing is designed in this session; start with 'struct new NAME'");
	if (session_may_write(s, argv[2]) < 0)
		return -1;
	struct sbuf written = SBUF_INIT;
	int r = design_export(s->design, argv[1], argv[2], (force || s->force ? OF_FORCE : 0) | session_write_flags(s), &written);
	if (!r) {
		out_text(&s->out, "wrote:\n");
		for (const char *p = written.buf; *p;) {
			const char *nl = strchr(p, '\n');
			out_text(&s->out, "  %.*s\n", (int)(nl - p), p);
			p = nl + 1;
		}
	}
	sbuf_release(&written);
	return r;
}
