/* transcript: record the session as Markdown. */
#include <string.h>
#include "cmd/commands.h"
#include "base/banned.h"

int cmd_transcript(struct session *s, int argc, char **argv)
{
	if (argc > 2)
		return command_usage(command_find("transcript"));
	if (argc == 1) {
		if (s->transcript_path)
			out_text(&s->out, "recording to %s\n", s->transcript_path);
		else
			out_text(&s->out, "not recording; 'transcript FILE.md' starts\n");
		return 0;
	}
	if (!strcmp(argv[1], "off")) {
		session_set_transcript(s, NULL);
		return 0;
	}
	if (s->no_effects)
		return err("'transcript' is disabled in this session");
	session_set_transcript(s, argv[1]);
	if (write_file_atomic(argv[1], s->transcript.buf, s->transcript.len) < 0) {
		int r = err("cannot write the transcript '%s': %m", argv[1]);
		session_set_transcript(s, NULL);
		return r;
	}
	return 0;
}
