#include "model/stracelog.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "base/sbuf.h"
#include "base/util.h"
#include "base/banned.h"

struct strace_pending {
	long pid;
	char *text;
};

void strace_log_init(struct strace_log *lg)
{
	memset(lg, 0, sizeof(*lg));
}

size_t strace_log_release(struct strace_log *lg)
{
	size_t n = lg->n;
	for (size_t i = 0; i < lg->n; i++)
		free(lg->p[i].text);
	free(lg->p);
	memset(lg, 0, sizeof(*lg));
	return n;
}

/* Skips a token of digits (and the time's ':' and '.') followed by blanks; returns where it
 * ends, or p itself when there is none. time: the token may hold ':' or '.'. */
static const char *skip_column(const char *p, bool time, long *num)
{
	const char *q = p;
	bool sep = false;
	while (isdigit((unsigned char)*q) || (time && (*q == ':' || *q == '.'))) {
		sep |= *q == ':' || *q == '.';
		q++;
	}
	if (q == p || *q != ' ' || (time && !sep))
		return p;
	if (num)
		*num = strtol(p, NULL, 10);
	while (*q == ' ')
		q++;
	return q;
}

/* The pid and time columns: "1234  ", "[pid 1234] ", then "12:00:01.123456 ", "1700000000.1 "
 * or -r's "     0.000123 ". */
static const char *skip_prefix(const char *p, long *pid)
{
	*pid = -1;
	while (*p == ' ')
		p++;
	const char *e;
	if (!strncmp(p, "[pid", 4) && (e = strchr(p, ']'))) {
		*pid = strtol(p + 4, NULL, 10);
		p = e + 1;
	} else {
		p = skip_column(p, false, pid);
	}
	while (*p == ' ')
		p++;
	return skip_column(p, true, NULL);
}

/* Copies s without -y/-yy decorations: "<...>" right after a descriptor's digits, AT_FDCWD or
 * -X verbose's comment ("-100 /\* AT_FDCWD *\/</tmp>"), and after the result, outside strings. */
static char *strip_decorations(const char *s)
{
	struct sbuf sb = SBUF_INIT;
	bool quote = false;
	for (const char *p = s; *p; p++) {
		if (quote) {
			if (*p == '\\' && p[1])
				sbuf_addch(&sb, *p++);
			else if (*p == '"')
				quote = false;
		} else if (*p == '"') {
			quote = true;
		} else if (*p == '<' && p > s && (isdigit((unsigned char)p[-1]) || p[-1] == 'D' ||
						   (p - s > 1 && p[-1] == '/' && p[-2] == '*')) && strchr(p, '>')) {
			/* a path may hold '>' only in -yy's socket forms, which end in ">]>" or ">" */
			int depth = 0;
			const char *q = p;
			for (; *q; q++) {
				depth += *q == '<';
				depth -= *q == '>';
				if (!depth)
					break;
			}
			if (*q) {
				p = q;
				continue;
			}
		}
		sbuf_addch(&sb, *p);
	}
	return sbuf_detach(&sb);
}

static struct strace_pending *pending_of(struct strace_log *lg, long pid)
{
	for (size_t i = 0; i < lg->n; i++)
		if (lg->p[i].pid == pid)
			return &lg->p[i];
	return NULL;
}

/* Drops -T's " <0.000012>" from the end of s. */
static void strip_duration(char *s)
{
	size_t n = strlen(s);
	if (n < 3 || s[n - 1] != '>')
		return;
	char *lt = strrchr(s, '<');
	if (!lt || lt == s || lt[-1] != ' ')
		return;
	for (char *q = lt + 1; q < s + n - 1; q++)
		if (!isdigit((unsigned char)*q) && *q != '.')
			return;
	lt[-1] = '\0';
}

enum strace_log_kind strace_log_feed(struct strace_log *lg, const char *raw, char **call)
{
	*call = NULL;
	long pid;
	const char *p = skip_prefix(raw, &pid);
	char *line = xstrndup(p, strcspn(p, "\r\n"));
	strip_duration(line);
	if (!*line || !strncmp(line, "---", 3) || !strncmp(line, "+++", 3) || !strncmp(line, "strace:", 7) ||
	    (!strchr(line, '(') && strncmp(line, "<...", 4))) {
		free(line);
		return SL_OTHER;
	}
	static const char unfinished[] = " <unfinished ...>";
	size_t n = strlen(line), un = sizeof(unfinished) - 1;
	if (!strncmp(line, "<... ", 5)) {
		/* "<... clone3 resumed> => {parent_tid=[7]}, 88) = 7": the rest of the kept half */
		char *r = strstr(line, " resumed>");
		struct strace_pending *pd = pending_of(lg, pid);
		if (!r || !pd) {
			free(line);
			return SL_ORPHAN;
		}
		struct sbuf j = SBUF_INIT;
		sbuf_addf(&j, "%s%s", pd->text, r + 9);
		char *joined = sbuf_detach(&j);
		free(pd->text);
		lg->n--;
		*pd = lg->p[lg->n]; /* the last takes its place; the vacated slot holds nothing */
		lg->p[lg->n].text = NULL;
		free(line);
		line = joined;
		n = strlen(line);
	}
	if (n > un && !strcmp(line + n - un, unfinished)) {
		line[n - un] = '\0';
		struct strace_pending *pd = pending_of(lg, pid);
		if (!pd) {
			ALLOC_GROW(lg->p, lg->n + 1, lg->alloc);
			pd = &lg->p[lg->n++];
			pd->pid = pid;
		} else {
			free(pd->text);
		}
		pd->text = line;
		return SL_UNFINISHED;
	}
	*call = strip_decorations(line);
	free(line);
	return SL_CALL;
}
