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
	for (const struct global_option *g = global_options; g->flag; g++) {
		char head[32];
		snprintf(head, sizeof(head), "%s%s%s", g->flag, g->arg ? " " : "", g->arg ? g->arg : "");
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

int main(int argc, char **argv)
{
	enum { OPT_DATA = 256, OPT_JSON, OPT_COLOR, OPT_KEEP, OPT_VERSION, OPT_UNSAFE, OPT_TIMEOUT, OPT_TRANSCRIPT, OPT_FORCE,
	       OPT_NO_PAGER, OPT_WIDTH };
	static const struct option opts[] = {
		{ "data", required_argument, NULL, OPT_DATA },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "color", required_argument, NULL, OPT_COLOR },
		{ "keep-going", no_argument, NULL, OPT_KEEP },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "unsafe", no_argument, NULL, OPT_UNSAFE },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "transcript", required_argument, NULL, OPT_TRANSCRIPT },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "no-pager", no_argument, NULL, OPT_NO_PAGER },
		{ "width", required_argument, NULL, OPT_WIDTH },
		{ "verbose", no_argument, NULL, 'v' },
		{ NULL, 0, NULL, 0 },
	};
	struct session s;
	const char *cmds = NULL, *transcript = NULL;
	int c, r;
	session_init(&s);
	run_attach(&s);
	s.pager = true; /* on a terminal only (pager_start) */
	sig_install();
	s.data_dir = getenv("XSC_DATA");
	if (s.data_dir && !*s.data_dir)
		s.data_dir = NULL;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+c:hv", opts, NULL)) != -1) {
		switch (c) {
		case OPT_DATA: s.data_dir = optarg; break;
		case OPT_JSON: s.json = true; break;
		case OPT_KEEP: s.keep_going = true; break;
		case OPT_UNSAFE: s.unsafe = true; break;
		case OPT_TIMEOUT: {
			char *end;
			unsigned long ms = strtoul(optarg, &end, 10);
			if (*end || !ms || ms > 600000) {
				usage_err("--timeout takes milliseconds, 1..600000, not '%s'", optarg);
				return 2;
			}
			s.timeout_ms = (unsigned)ms;
			break;
		}
		case OPT_TRANSCRIPT: transcript = optarg; break; /* opened once --force is known */
		case OPT_FORCE: s.force = true; break;
		case OPT_NO_PAGER: s.pager = false; break;
		case OPT_WIDTH: {
			char *end;
			unsigned long w = strtoul(optarg, &end, 10);
			if (*end || !*optarg || (w && (w < 20 || w > 1000))) {
				usage_err("--width takes columns, 20..1000 (0: never wrap), not '%s'", optarg);
				return 2;
			}
			s.width = (int)w;
			break;
		}
		case 'c': cmds = optarg; break;
		case 'v': s.verbose = true; break;
		case 'h': usage(stdout); return 0;
		case OPT_VERSION: printf("xsc %s\n", XSC_VERSION); return 0;
		case OPT_COLOR:
			if (!strcmp(optarg, "auto")) s.color = COLOR_AUTO;
			else if (!strcmp(optarg, "always")) s.color = COLOR_ALWAYS;
			else if (!strcmp(optarg, "never")) s.color = COLOR_NEVER;
			else {
				usage_err("--color takes auto, always or never, not '%s'", optarg);
				return 2;
			}
			break;
		default:
			if (optopt == 'c')
				usage_err("-c needs a command string");
			else
				usage_err("unknown option '%s'", argv[optind - 1]);
			usage(stderr);
			return 2;
		}
	}
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
