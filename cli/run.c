#include "run.h"
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/diag.h"
#include "base/sbuf.h"
#include "base/sig.h"
#include "cmd/commands.h"
#include "headers/fetch.h"
#include "teach/transcript.h"
#include "base/banned.h"

/* One command's Markdown, appended in one write. */
static void transcript_append(struct session *s, const char *text, const char *out, const char *errs, int r)
{
	struct sbuf md = SBUF_INIT;
	transcript_add(&md, text, out, errs, r);
	const char *p = md.buf;
	size_t len = md.len;
	while (len) {
		ssize_t n = write(s->transcript_fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			warning("cannot write the transcript '%s': %s", s->transcript_path, strerror(errno));
			break;
		}
		p += n;
		len -= (size_t)n;
	}
	sbuf_release(&md);
}

/* An error of the text itself, not of a command in it (a quote left open, a NUL byte, a line
 * too long): under --json a document, as a command's error is. */
static int text_err(struct session *s, const char *fmt, ...) PRINTF_LIKE(2, 3);
static int text_err(struct session *s, const char *fmt, ...)
{
	struct sbuf msg = SBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sbuf_vaddf(&msg, fmt, ap); /* NOLINT(clang-analyzer-valist.Uninitialized): clang 14 false positive */
	va_end(ap);
	struct session_errors e = session_errors_begin(s, s->json);
	int r = err("%s", msg.buf);
	session_errors_end(s, e, r, false);
	sbuf_release(&msg);
	return r;
}

int run_command(struct session *s, int argc, char **argv, const char *text)
{
	struct session_capture cap;
	if (sig_interrupted()) /* the rest of an interrupted line or script does not run */
		return sig_interrupt_err();
	bool record = s->transcript_fd >= 0 && argc > 0 && argv && strcmp(argv[0], "transcript");
	if (record && session_capture_begin(s, &cap) < 0)
		record = false;
	int r = command_run(s, argc, argv);
	if (sig_interrupted())
		r = sig_interrupt_err();
	if (record) {
		struct sbuf out = SBUF_INIT, errs = SBUF_INIT;
		session_capture_end(s, &cap, &out, &errs);
		fwrite(out.buf, 1, out.len, s->out_fp);
		fflush(s->out_fp);
		fwrite(errs.buf, 1, errs.len, s->err_fp);
		if (s->transcript_fd >= 0) { /* the command may have been 'transcript off' */
			struct sbuf shown = SBUF_INIT; /* a URL's password never reaches the transcript */
			fetch_redact(text ? text : "", &shown);
			transcript_append(s, shown.buf, out.buf, errs.buf, r);
			sbuf_release(&shown);
		}
		sbuf_release(&out);
		sbuf_release(&errs);
	}
	if (s->observer)
		s->observer->after_command(s, s->observer_state, text, r);
	return r;
}

void free_argv(int argc, char **argv, bool *quoted)
{
	for (int i = 0; argv && i < argc; i++)
		free(argv[i]);
	free(argv);
	free(quoted);
}

/* Shell-like words: 'single' quotes are literal; inside "double" quotes backslash escapes are
 * kept as written (the value parser decodes them, knowing the word was quoted); a backslash
 * escapes one character outside quotes. */
int run_tokenize(const char *line, const char **rest, char ***argvp, bool **quotedp)
{
	char **argv = NULL;
	bool *quoted = NULL;
	size_t argc = 0, alloc = 0, qalloc = 0;
	const char *p = line;
	*rest = NULL;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		if (!*p || *p == '#')
			break;
		if (*p == ';') {
			*rest = p + 1;
			break;
		}
		struct sbuf w = SBUF_INIT;
		bool dq = false, other = false;
		while (*p && !strchr(" \t\r\n;", *p)) {
			if (*p == '\'') {
				const char *e = strchr(p + 1, '\'');
				if (!e) {
					sbuf_release(&w);
					free_argv((int)argc, argv, quoted);
					return err("unterminated ' quote");
				}
				sbuf_add(&w, p + 1, (size_t)(e - p - 1));
				p = e + 1;
				other = true;
			} else if (*p == '"') {
				/* escapes stay as written: the value parser decodes them as C does */
				for (p++; *p && *p != '"'; p++) {
					if (*p == '\\' && p[1])
						sbuf_addch(&w, *p++);
					sbuf_addch(&w, *p);
				}
				if (*p != '"') {
					sbuf_release(&w);
					free_argv((int)argc, argv, quoted);
					return err("unterminated \" quote");
				}
				p++;
				dq = true;
			} else if (*p == '\\' && p[1]) {
				sbuf_addch(&w, p[1]);
				p += 2;
				other = true;
			} else {
				sbuf_addch(&w, *p++);
				other = true;
			}
		}
		ALLOC_GROW(argv, argc + 2, alloc);
		ALLOC_GROW(quoted, argc + 2, qalloc);
		quoted[argc] = dq && !other;
		argv[argc++] = sbuf_detach(&w);
	}
	ALLOC_GROW(argv, argc + 1, alloc);
	argv[argc] = NULL;
	*argvp = argv;
	*quotedp = quoted;
	return (int)argc;
}

static int run_commands(struct session *s, const char *line)
{
	int result = 0;
	const char *p = line;
	while (p) {
		char **argv = NULL;
		bool *quoted = NULL;
		const char *rest = NULL;
		struct session_errors e = session_errors_begin(s, s->json);
		int argc = run_tokenize(p, &rest, &argv, &quoted);
		session_errors_end(s, e, argc < 0 ? -1 : 0, false);
		if (argc < 0)
			return -1;
		int r = 0;
		if (argc > 0) {
			char *text = xstrndup(p, rest ? (size_t)(rest - 1 - p) : strlen(p));
			s->quoted = quoted;
			r = run_command(s, argc, argv, text);
			s->quoted = NULL;
			free(text);
		}
		free_argv(argc > 0 ? argc : 0, argv, quoted);
		if (r && !result)
			result = r;
		if ((r && !s->keep_going) || s->quit || sig_interrupted())
			break;
		p = rest;
	}
	return result;
}

int run_line(struct session *s, const char *line)
{
	FILE *was = diag_set_stream(s->err_fp);
	int r = run_commands(s, line);
	diag_set_stream(was);
	return r;
}

/* One line of fp into line (its '\n' kept), at most SCRIPT_LINE_MAX bytes: 1, 0 at the end,
 * -1 for a read error (errno), -2 for a longer line (the rest of the script is not read). */
static int read_line(FILE *fp, struct sbuf *line)
{
	int c;
	sbuf_reset(line);
	while ((c = getc(fp)) != EOF) {
		if (line->len == SCRIPT_LINE_MAX)
			return -2;
		sbuf_addch(line, (char)c);
		if (c == '\n')
			break;
	}
	if (c == EOF && ferror(fp))
		return -1;
	return line->len ? 1 : 0;
}

/* A solution checked by lesson --check is read up to this many bytes: it is someone else's,
 * and with --keep-going a stream of short garbage lines would otherwise never end. */
#define CHECK_SCRIPT_MAX (1 << 20)

static int read_stream(struct session *s, FILE *fp, const char *name)
{
	struct sbuf line = SBUF_INIT;
	unsigned long lineno = 0;
	size_t total = 0;
	int result = 0, n = 0;
	while (!s->quit && !sig_interrupted() && (n = read_line(fp, &line)) > 0) {
		lineno++;
		total += line.len;
		diag_set_where(name, lineno);
		int r = s->checking && total > CHECK_SCRIPT_MAX
			? text_err(s, "a solution longer than %d bytes", CHECK_SCRIPT_MAX)
			: memchr(line.buf, '\0', line.len) ? text_err(s, "line contains a NUL byte")
			: run_commands(s, line.buf);
		diag_set_where(NULL, 0);
		if (r && !result)
			result = r;
		if ((r && !s->keep_going) || (s->checking && total > CHECK_SCRIPT_MAX))
			break;
	}
	if (sig_interrupted()) /* a read cut short by the signal is no read error */
		result = sig_interrupt_err();
	else if (n == -2) {
		diag_set_where(name, lineno + 1);
		result = text_err(s, "line longer than %d bytes", SCRIPT_LINE_MAX);
		diag_set_where(NULL, 0);
	} else if (n == -1 && !result)
		result = text_err(s, "%s: read error: %s", name, strerror(errno));
	sbuf_release(&line);
	return result;
}


/* Scripts run scripts only through lesson --check; a bound keeps any other way finite. */
#define STREAM_DEPTH_MAX 4

int run_stream(struct session *s, FILE *fp, const char *name)
{
	static unsigned depth;
	FILE *was = diag_set_stream(s->err_fp);
	int result;
	if (depth >= STREAM_DEPTH_MAX) {
		result = text_err(s, "%s: scripts nested more than %d deep", name, STREAM_DEPTH_MAX);
	} else {
		depth++;
		s->scripted++;
		result = read_stream(s, fp, name);
		s->scripted--;
		depth--;
	}
	diag_set_stream(was);
	return result;
}

/* One command as typed, bare: no transcript entry, no observer told (a lesson's own checks). */
static int run_bare(struct session *s, const char *command)
{
	char **argv = NULL;
	bool *quoted = NULL;
	const char *rest = NULL;
	int argc = run_tokenize(command, &rest, &argv, &quoted);
	if (argc <= 0) {
		if (argc == 0)
			free_argv(0, argv, quoted);
		return -1;
	}
	const bool *q = s->quoted;
	s->quoted = quoted;
	int r = command_run(s, argc, argv);
	s->quoted = q;
	free_argv(argc, argv, quoted);
	return r;
}

static const struct session_runner runner = { run_line, run_stream, run_bare };

void run_attach(struct session *s)
{
	s->runner = &runner;
}
