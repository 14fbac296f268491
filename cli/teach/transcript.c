#include "teach/transcript.h"
#include <string.h>
#include "base/diag.h"
#include "base/banned.h"

static void fenced(struct sbuf *md, const char *info, const char *text);

void transcript_start(struct sbuf *md, const char *about, const char *state)
{
	sbuf_adds(md, "# xsc session\n\n");
	if (about)
		sbuf_addf(md, "%s\n\n", about);
	sbuf_adds(md, "Every command of the session, then what it printed; 'load' with this file runs the\n"
		      "commands again.\n");
	if (state && *state) {
		sbuf_adds(md, "\nThe session before recording began:\n");
		struct sbuf safe = SBUF_INIT;
		safe_text(&safe, state, strlen(state), SAFE_NL | SAFE_TAB);
		fenced(md, "xsc", safe.buf);
		sbuf_release(&safe);
	}
}

/* A fence longer than any run of backticks in text. */
static void fenced(struct sbuf *md, const char *info, const char *text)
{
	size_t run = 0, best = 2;
	for (const char *p = text; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		if (run > best)
			best = run;
	}
	size_t n = strlen(text);
	sbuf_addch(md, '\n');
	for (size_t i = 0; i <= best; i++)
		sbuf_addch(md, '`');
	sbuf_addf(md, "%s\n%s%s", info, text, n && text[n - 1] != '\n' ? "\n" : "");
	for (size_t i = 0; i <= best; i++)
		sbuf_addch(md, '`');
	sbuf_addch(md, '\n');
}

void transcript_add(struct sbuf *md, const char *command, const char *out, const char *err, int result)
{
	const char *b = command, *e = command + strlen(command);
	while (*b == ' ' || *b == '\t')
		b++;
	while (e > b && strchr(" \t\r\n", e[-1]))
		e--;
	/* a transcript is shared and read in terminals: what it quotes is made safe, as output is */
	struct sbuf cmd = SBUF_INIT, o = SBUF_INIT, e2 = SBUF_INIT;
	safe_text(&cmd, b, (size_t)(e - b), SAFE_TAB);
	safe_text(&o, out, strlen(out), SAFE_NL | SAFE_TAB);
	safe_text(&e2, err, strlen(err), SAFE_NL | SAFE_TAB);
	fenced(md, "xsc", cmd.buf);
	if (o.len)
		fenced(md, "text", o.buf);
	if (e2.len)
		fenced(md, "text", e2.buf);
	if (result)
		sbuf_addf(md, "\n(the command failed%s)\n", result == -2 ? ": usage" : "");
	sbuf_release(&cmd);
	sbuf_release(&o);
	sbuf_release(&e2);
}
