/* libFuzzer target: REPL lines through the tokenizer and the dispatcher, every command
 * but those that call the kernel or write files (the session refuses those). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/diag.h"
#include "model/dataload.h"
#include "run.h"

#define MAX_LINES 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	if (!null) {
		null = fopen("/dev/null", "w");
		if (!null || !freopen("/dev/null", "w", stdout))
			abort();
	}
	diag_swap_sink(DIAG_DISCARD);
	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	static struct catalog *cat;
	if (!cat) {
		cat = catalog_load(getenv("XSC_DATA") ? getenv("XSC_DATA") : "data");
		if (!cat)
			abort();
	}
	struct session s;
	session_init(&s);
	run_attach(&s);
	s.no_effects = true;
	s.keep_going = true;
	s.cat = cat; /* loaded once: the catalogue is read-only */
	/* lines as a script would give them; a few per input: enough for any sequence of
	 * commands to build state, and inputs stay fast (they had grown to 150 lines) */
	char *save = text, *line;
	for (int n = 0; n < MAX_LINES && (line = strsep(&save, "\n")) && !s.quit; n++)
		run_line(&s, line);
	s.cat = NULL;
	session_release(&s);
	free(text);
	return 0;
}
