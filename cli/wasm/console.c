/* The site's console (make wasm): what the page's JavaScript calls in xsc.wasm, a WASI reactor
 * whose main is also exported (cli/wasm/loader.mjs runs a script through it). One session
 * lives from xsc_console_start on; each line typed runs as a line of a script would, with
 * --keep-going, so a failed command leaves the session as it was. The command table is
 * exported from here, so the console completes the names the dispatcher knows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/diag.h"
#include "base/sbuf.h"
#include "base/util.h"
#include "cmd/commands.h"
#include "run.h"
#include "session.h"

static struct session console;
static bool started;
static struct sbuf names = SBUF_INIT;

#define EXPORT(name) __attribute__((export_name(#name))) name

/* The catalogue from data_dir; 0, or -1 when it cannot load (said on stderr). */
int EXPORT(xsc_console_start)(const char *data_dir)
{
	if (started)
		return 0;
	session_init(&console);
	run_attach(&console);
	console.data_dir = xstrdup(data_dir);
	console.keep_going = true;
	console.pager = false;
	started = true;
	int r = session_catalog(&console) ? 0 : -1;
	fflush(stdout);
	return r;
}

/* One line as typed: its answer on stdout and stderr (fd_write), 0 or the command's failure */
int EXPORT(xsc_console_line)(const char *line)
{
	if (!started)
		return -1;
	int r = run_line(&console, line);
	fflush(stdout);
	return r;
}

/* The command names, one a line: the dispatcher's table, for TAB completion */
const char *EXPORT(xsc_console_commands)(void)
{
	if (!names.len)
		for (const struct command *c = commands; c->name; c++)
			sbuf_addf(&names, "%s\n", c->name);
	return names.buf;
}

/* A string for the page to fill (the line it passes), freed with xsc_console_free */
char *EXPORT(xsc_console_alloc)(size_t n)
{
	return xcalloc(n + 1, 1);
}

void EXPORT(xsc_console_free)(char *p)
{
	free(p);
}
