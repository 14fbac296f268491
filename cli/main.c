/* xsc: the extensible-syscall explorer. Options, then one of: a command (one-shot), a script
 * file, -c 'commands', commands on stdin, or the REPL. The only place exit codes are made:
 * 0 success, 1 a command failed, 2 usage error; interrupted by SIGINT, SIGTERM or SIGHUP, xsc
 * cleans up and then dies of that signal (a shell shows 128 + N). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/diag.h"
#include "base/sig.h"
#include "cmd/commands.h"
#include "repl.h"
#include "run.h"
#include "session.h"
#include "base/banned.h"

static void usage(FILE *fp)
{
	fputs("usage: xsc [OPTIONS] [COMMAND [ARGS...] | FILE.xsc | -c 'CMD; CMD']\n", fp);
	for (const struct global_option *g = global_options; g->help; g++) {
		char head[48], flag[32];
		snprintf(head, sizeof(head), "%s%s%s", global_option_flag(g, flag), g->arg ? " " : "", g->arg ? g->arg : "");
		fprintf(fp, "  %-18s %s\n", head, g->help);
	}
	fputs("With no command, xsc reads commands from the terminal (a REPL) or from standard input.\n", fp);
}

static int exit_code(int r)
{
	return r == 0 ? 0 : r == CMD_USAGE ? 2 : 1;
}

static int run_script(struct session *s, const char *path)
{
	FILE *fp = session_open_script(path);
	if (!fp)
		return -1;
	int r = run_stream(s, fp, path);
	fclose(fp);
	return r;
}

#define GLOBAL_OPTIONS_MAX 32

/* getopt_long's tables, made from global_options: the long options and the short string
 * ("+c:hv": '+' stops at the first word that is no option, the command's). */
static void getopt_tables(struct option *longs, char *shorts)
{
	size_t n = 0;
	char *p = shorts;
	*p++ = '+';
	for (const struct global_option *g = global_options; g->help; g++) {
		if (g - global_options == GLOBAL_OPTIONS_MAX)
			BUG("more global options than GLOBAL_OPTIONS_MAX");
		if (g->name)
			longs[n++] = (struct option){ g->name, g->arg ? required_argument : no_argument, NULL, g->key };
		if (g->key < 256) {
			*p++ = (char)g->key;
			if (g->arg)
				*p++ = ':';
		}
	}
	*p = '\0';
	longs[n] = (struct option){ NULL, 0, NULL, 0 };
}

/* A number option's value, lo..hi (or 0 when zero_ok); -1 after a usage error. */
static long number_arg(const char *opt, const char *what, const char *arg, unsigned long lo, unsigned long hi,
		       bool zero_ok)
{
	char *end;
	unsigned long v = strtoul(arg, &end, 10);
	if (*end || !*arg || *arg == '-' || ((v < lo || v > hi) && !(zero_ok && v == 0))) {
		usage_err("%s takes %s, not '%s'", opt, what, arg);
		return -1;
	}
	return (long)v;
}

struct front_opts {
	const char *cmds, *transcript;
	bool help, version;
};

/* One global option into the session (or fo); 0, or -1 after a usage error. */
static int take_option(struct session *s, struct front_opts *fo, int key, const char *arg)
{
	long v;
	switch (key) {
	case GO_DATA: s->data_dir = arg; break;
	case GO_JSON: s->json = true; break;
	case GO_KEEP_GOING: s->keep_going = true; break;
	case GO_UNSAFE: s->unsafe = true; break;
	case GO_TIMEOUT:
		if ((v = number_arg("--timeout", "milliseconds, 1..600000", arg, 1, 600000, false)) < 0)
			return -1;
		s->timeout_ms = (unsigned)v;
		break;
	case GO_TRANSCRIPT: fo->transcript = arg; break; /* opened once --force is known */
	case GO_FORCE: s->force = true; break;
	case GO_NO_PAGER: s->pager = false; break;
	case GO_WIDTH:
		if ((v = number_arg("--width", "columns, 20..1000 (0: never wrap)", arg, 20, 1000, true)) < 0)
			return -1;
		s->width = (int)v;
		break;
	case GO_CMDS: fo->cmds = arg; break;
	case GO_VERBOSE: s->verbose = true; break;
	case GO_HELP: fo->help = true; break;
	case GO_VERSION: fo->version = true; break;
	case GO_COLOR:
		if (!strcmp(arg, "auto")) s->color = COLOR_AUTO;
		else if (!strcmp(arg, "always")) s->color = COLOR_ALWAYS;
		else if (!strcmp(arg, "never")) s->color = COLOR_NEVER;
		else {
			usage_err("--color takes auto, always or never, not '%s'", arg);
			return -1;
		}
		break;
	default:
		return -1;
	}
	return 0;
}

/* The global options of argv; 0, 1 (--help or --version answered: exit 0) or 2 (usage). */
static int parse_options(struct session *s, struct front_opts *fo, int argc, char **argv)
{
	struct option longs[GLOBAL_OPTIONS_MAX + 1];
	char shorts[2 * GLOBAL_OPTIONS_MAX + 2];
	int c;
	getopt_tables(longs, shorts);
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		if (c == '?' || c == ':') {
			if (optopt == 'c')
				usage_err("-c needs a command string");
			else
				usage_err("unknown option '%s'", argv[optind - 1]);
			usage(stderr);
			return 2;
		}
		if (take_option(s, fo, c, optarg) < 0)
			return 2;
		if (fo->help || fo->version)
			break;
	}
	if (fo->help)
		usage(stdout);
	else if (fo->version)
		printf("xsc %s\n", XSC_VERSION);
	return fo->help || fo->version ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct session s;
	struct front_opts fo = { 0 };
	int r;
	session_init(&s);
	run_attach(&s);
	s.pager = true; /* on a terminal only (pager_start) */
	sig_install();
	s.data_dir = getenv("XSC_DATA");
	if (s.data_dir && !*s.data_dir)
		s.data_dir = NULL;
	int pr = parse_options(&s, &fo, argc, argv);
	if (pr)
		return pr == 1 ? 0 : 2;
	const char *cmds = fo.cmds, *transcript = fo.transcript;
	if (transcript && session_set_transcript(&s, transcript, s.force, NULL) < 0) {
		session_release(&s);
		return 1;
	}
	if (cmds) {
		if (optind < argc) {
			usage_err("-c takes no further arguments");
			return 2;
		}
		s.scripted = 1; /* -c is a script: it may have come from anywhere */
		r = run_line(&s, cmds);
	} else if (optind < argc && !command_find(argv[optind]) &&
		   (!access(argv[optind], F_OK) || strstr(argv[optind], ".xsc") || strchr(argv[optind], '/'))) {
		if (optind + 1 < argc) {
			usage_err("a script takes no arguments");
			return 2;
		}
		r = run_script(&s, argv[optind]);
	} else if (optind < argc) {
		/* one-shot: the dispatcher owns and may rearrange argv, so give it a heap copy */
		int n = argc - optind;
		char **av = xcalloc((size_t)n + 1, sizeof(*av));
		bool *q = xcalloc((size_t)n + 1, sizeof(*q));
		for (int i = 0; i < n; i++)
			av[i] = xstrdup(argv[optind + i]);
		struct sbuf text = SBUF_INIT;
		for (int i = 0; i < n; i++)
			sbuf_addf(&text, "%s%s", i ? " " : "", av[i]);
		r = run_command(&s, n, av, text.buf);
		sbuf_release(&text);
		free_argv(n, av, q);
	} else if (isatty(STDIN_FILENO)) {
		r = repl_run(&s);
	} else {
		r = run_stream(&s, stdin, "<stdin>");
	}
	session_release(&s);
	if (sig_interrupted()) {
		fflush(stdout);
		sig_reraise();
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		err("cannot write the output: %m");
		return 1;
	}
	return exit_code(r);
}
