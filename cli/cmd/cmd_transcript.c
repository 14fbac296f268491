/* transcript: record the session as Markdown. */
#include <string.h>
#include "cmd/commands.h"
#include "base/banned.h"

static int transcript_off(struct session *s, int argc, char **argv)
{
	(void)argv;
	if (argc != 2)
		return cmd_usage(s);
	return session_set_transcript(s, NULL, false, NULL);
}

/* transcript FILE.md [--force] */
static int transcript_to(struct session *s, int argc, char **argv)
{
	bool force = argc == 3 && !strcmp(argv[2], "--force");
	if (argc > 3 || (argc == 3 && !force) || !strcmp(argv[1], "--force"))
		return cmd_usage(s);
	if (s->no_effects)
		return err("'transcript' is disabled in this session");
	if (session_may_write(s, argv[1]) < 0)
		return -1;
	struct sbuf state = SBUF_INIT;
	session_state_script(s, &state);
	int r = session_set_transcript(s, argv[1], force || s->force, state.buf);
	sbuf_release(&state);
	return r;
}

int cmd_transcript(struct session *s, int argc, char **argv)
{
	static const struct verb verbs[] = {
		{ "off", transcript_off, 0 },
		{ NULL, transcript_to, 0 },
	};
	if (argc > 1)
		return cmd_select(s, verbs, "verb", argc, argv);
	if (s->transcript_path)
		out_text(&s->out, "recording to %s\n", s->transcript_path);
	else
		out_text(&s->out, "not recording; 'transcript FILE.md' starts\n");
	return 0;
}
