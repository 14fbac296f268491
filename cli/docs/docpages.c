/* The pages docgen makes from the command table and the site's lists rather than from one
 * catalogue entry: the commands page, the site's home page, the man page's source (with
 * every call's error table) and the bash completion. */
#include "docs/docgen.h"
#include <stdlib.h>
#include <string.h>
#include "model/errtable.h"
#include "model/kver.h"
#include "base/banned.h"

void docgen_commands_page(const struct docgen_input *in, struct doc_set *set)
{
	struct doc_page *pg = doc_set_add(set, "commands.md", DOCGEN_COMMANDS_TITLE, "Reference", true);
	struct sbuf *sb = &pg->text;
	sbuf_adds(sb, "# Commands\n\nEvery command works the same way in the REPL (`xsc`), in a script "
		      "(`xsc FILE.xsc`, `xsc -c 'CMD; CMD'`, standard input) and one-shot (`xsc COMMAND ARGS...`). "
		      "This page is generated from the command table, as are `help`, tab completion and the man page.\n\n"
		      "| command | does |\n|---|---|\n");
	for (size_t i = 0; i < in->ncmds; i++) {
		const struct doc_command *c = &in->cmds[i];
		sbuf_adds(sb, "| [");
		md_code(sb, c->name, true);
		sbuf_adds(sb, "](#");
		md_anchor_id(sb, "", c->name);
		sbuf_adds(sb, ") | ");
		md_text(sb, c->summary);
		sbuf_adds(sb, " |\n");
	}
	for (size_t i = 0; i < in->ncmds; i++) {
		const struct doc_command *c = &in->cmds[i];
		sbuf_adds(sb, "\n## ");
		md_text(sb, c->name);
		sbuf_adds(sb, "\n\n```\n");
		sbuf_addf(sb, "%s%s%s\n", c->name, *c->synopsis ? " " : "", c->synopsis);
		sbuf_adds(sb, "```\n\n");
		md_text(sb, c->summary);
		sbuf_adds(sb, ".\n");
		if (c->help && *c->help) {
			sbuf_adds(sb, "\n");
			/* help text: paragraphs of lines; indented lines are examples */
			const char *p = c->help;
			bool in_code = false;
			while (*p) {
				const char *e = strchr(p, '\n');
				size_t len = e ? (size_t)(e - p) : strlen(p);
				char *line = xstrndup(p, len);
				bool code = line[0] == ' ' && line[1] == ' ';
				if (code != in_code)
					sbuf_adds(sb, code ? "\n```\n" : "```\n\n");
				in_code = code;
				if (code) {
					for (char *q = line + 2; *q; q++)
						sbuf_addch(sb, (unsigned char)*q < 0x20 ? ' ' : *q);
					sbuf_adds(sb, "\n");
				} else {
					md_text(sb, line);
					sbuf_adds(sb, "\n");
				}
				free(line);
				p += len + (e ? 1 : 0);
			}
			if (in_code)
				sbuf_adds(sb, "```\n");
		}
	}
}

void docgen_home(const struct docgen_input *in, struct sbuf *sb)
{
	sbuf_adds(sb, "# xsc\n\nLinux grows system calls such as `openat2`, `clone3` and `sched_setattr` by passing a "
		      "struct together with its size: the size is the version. These pages explain that convention "
		      "and document every interface in xsc's catalogue.\n\n");
	if (in->nguide) {
		sbuf_adds(sb, "## Guide\n\n");
		doc_link_list(sb, in->guide, in->nguide, "");
		sbuf_adds(sb, "\n");
	}
	sbuf_addf(sb, "## Reference\n\n- [The reference index](reference/index.md): %zu system calls and %zu structs\n"
		      "- [Commands](reference/commands.md): every command of xsc\n",
		  in->cat->nsyscalls, in->cat->nstructs);
	if (in->nlessons) {
		sbuf_adds(sb, "\n## Lessons\n\n");
		doc_link_list(sb, in->lessons, in->nlessons, "");
	}
}

/* ---- man page and completion ---- */

/* A source's file and function, without its notes (what follows " (" or "; "): the man
 * page is read at 80 columns, where the notes' long macro names cannot be set. */
static void source_head(struct sbuf *md, const char *source)
{
	size_t n = strlen(source);
	const char *a = strstr(source, " ("), *b = strstr(source, "; ");
	if (a && (size_t)(a - source) < n)
		n = (size_t)(a - source);
	if (b && (size_t)(b - source) < n)
		n = (size_t)(b - source);
	char *head = xstrndup(source, n);
	md_text(md, head);
	free(head);
}

/* Each call's error table, one line a row: errno, the condition in words, kernels, source. */
static void man_errors(const struct docgen_input *in, struct sbuf *md)
{
	sbuf_adds(md, "\n# ERRORS OF THE SYSTEM CALLS\n\nGenerated from each call's size steps and checks, in the "
		      "kernel's order (the first that holds is the answer); what depends on the world, and the "
		      "catalogue's prose where no check exists yet, are marked. **xsc show** *NAME* adds each "
		      "check's condition as written and the notes of its source.\n\n");
	for (size_t i = 0; i < in->cat->nsyscalls; i++) {
		const struct syscall *sc = &in->cat->syscalls[i];
		struct errtable t;
		errtable_build(&t, sc);
		sbuf_adds(md, "## ");
		md_text(md, sc->name);
		sbuf_adds(md, "\n\n");
		for (size_t k = 0; k < t.n; k++) {
			const struct errrow *r = &t.rows[k];
			struct sbuf kv = SBUF_INIT;
			errrow_kernels(&kv, r);
			sbuf_adds(md, "- **");
			md_text(md, r->errno_name);
			sbuf_adds(md, "** ");
			md_text(md, r->errnos + strlen(r->errno_name));
			sbuf_adds(md, r->errnos[strlen(r->errno_name)] ? " " : "");
			md_text(md, r->why);
			if (r->kind == ER_PROSE) {
				sbuf_adds(md, " (prose, not yet a check)");
			} else {
				sbuf_adds(md, " (");
				if (r->depends) {
					sbuf_adds(md, "depends on ");
					md_text(md, r->depends);
					sbuf_adds(md, "; ");
				}
				md_text(md, kv.buf);
				sbuf_adds(md, "; ");
				source_head(md, r->source);
				sbuf_adds(md, ")");
			}
			sbuf_adds(md, "\n");
			sbuf_release(&kv);
		}
		sbuf_adds(md, "\n");
		errtable_release(&t);
	}
}

void docgen_man(const struct docgen_input *in, struct sbuf *md)
{
	sbuf_adds(md, "# NAME\n\nxsc - explore, probe and document Linux extensible-struct system calls\n\n"
		      "# SYNOPSIS\n\n**xsc** \\[*OPTIONS*\\] \\[*COMMAND* \\[*ARGS*...\\] | *FILE*.xsc | **-c** '*CMD*; *CMD*'\\]\n\n"
		      "# DESCRIPTION\n\nLinux grows system calls such as openat2, clone3 and sched\\_setattr by passing a "
		      "struct together with its size: the size is the version. **xsc** shows that convention byte by "
		      "byte: it builds structs, calls the running kernel in a sandbox, simulates older kernels, probes "
		      "what the kernel supports and documents every interface of its catalogue.\n\n"
		      "With no command, **xsc** reads commands from the terminal (a REPL with history and completion) "
		      "or from standard input. A script stops at the first failing command and names it as "
		      "*FILE*:*LINE*.\n\n"
		      "# OPTIONS\n\n");
	for (size_t i = 0; i < in->nopts; i++) {
		const struct doc_option *g = &in->opts[i];
		sbuf_adds(md, "- **");
		md_text(md, g->flag);
		sbuf_adds(md, "**");
		if (g->arg) {
			sbuf_adds(md, " *");
			md_text(md, g->arg);
			sbuf_adds(md, "*");
		}
		sbuf_adds(md, ": ");
		md_text(md, g->help);
		sbuf_adds(md, "\n\n");
	}
	sbuf_adds(md, 		      "# COMMANDS\n\n");
	for (size_t i = 0; i < in->ncmds; i++) {
		const struct doc_command *c = &in->cmds[i];
		sbuf_adds(md, "- **");
		md_text(md, c->name);
		sbuf_adds(md, "**");
		if (*c->synopsis) {
			sbuf_adds(md, " ");
			md_text(md, c->synopsis);
		}
		sbuf_adds(md, ": ");
		md_text(md, c->summary);
		sbuf_adds(md, "\n");
	}
	man_errors(in, md);
	sbuf_adds(md, "\n# EXIT STATUS\n\n0 success, 1 a command failed, 2 a usage error. A system call that returns an "
		      "error is a successful **call**: the error is the answer. Stopped by SIGINT, SIGTERM or SIGHUP, "
		      "xsc dies of that signal once it has cleaned up (a shell shows 128 + N: 130 for ^C).\n\n"
		      "# SIGNALS\n\n^C at the prompt drops the line; during a command it stops that command (a live "
		      "call's child is killed and its sandbox removed) and the REPL goes on; a script stops. SIGTERM "
		      "and SIGHUP stop the command, remove xsc's temporary directories and end xsc; a second one "
		      "does not wait for the command. The history file gets each command as it runs.\n\n"
		      "# ENVIRONMENT\n\n`XSC_DATA` the catalogue directory (else the one installed beside the binary, "
		      "or the source tree's whose build directory holds it; never the current directory's); "
		      "`NO_COLOR` no colour; `XDG_STATE_HOME` where "
		      "the history is kept; `XDG_CACHE_HOME` where the parsed catalogue and probe results are cached "
		      "(used only when the user alone owns and can write them; `XSC_NO_CACHE=1` parses every time); "
		      "`XSC_SITE_URL` the base of the hyperlinks **doc** prints.\n\n"
		      "# SEE ALSO\n\n");
	sbuf_addf(md, "The reference (%zu system calls, %zu structs) is generated by **xsc docs**; the site by "
		      "**xsc site**. syscall(2), openat2(2), clone3(2), sched\\_setattr(2), perf\\_event\\_open(2)\n",
		  in->cat->nsyscalls, in->cat->nstructs);
}

static void sh_words(struct sbuf *sh, const char *s)
{
	for (const char *p = s; *p; p++)
		if (md_is_alnum((unsigned char)*p) || strchr("_-.:", *p))
			sbuf_addch(sh, *p);
}

void docgen_bash_completion(const struct docgen_input *in, struct sbuf *sh)
{
	sbuf_adds(sh, "# bash completion for xsc; generated by 'xsc docs --completion' from the command table\n"
		      "_xsc()\n{\n\tlocal cur=${COMP_WORDS[COMP_CWORD]} i cmd= pos=0\n"
		      "\tlocal cmds='");
	for (size_t i = 0; i < in->ncmds; i++) {
		sbuf_adds(sh, i ? " " : "");
		sh_words(sh, in->cmds[i].name);
	}
	sbuf_adds(sh, "'\n\tlocal opts='");
	struct sbuf takes_arg = SBUF_INIT; /* "--data|--timeout|-c": the words after them are theirs */
	for (size_t i = 0; i < in->nopts; i++) {
		const char *flag = in->opts[i].flag, *last = strrchr(flag, ' ');
		sbuf_adds(sh, i ? " " : "");
		sh_words(sh, last ? last + 1 : flag);
		for (const char *w = flag; in->opts[i].arg && *w; w += strspn(w, ", ")) {
			char *word = xstrndup(w, strcspn(w, ", "));
			sbuf_adds(&takes_arg, takes_arg.len ? "|" : "");
			sh_words(&takes_arg, word);
			w += strlen(word);
			free(word);
		}
	}
	sbuf_adds(sh, "'\n\tlocal names='");
	bool first = true;
	for (size_t i = 0; i < in->cat->nsyscalls; i++, first = false) {
		sbuf_adds(sh, first ? "" : " ");
		sh_words(sh, in->cat->syscalls[i].name);
	}
	for (size_t i = 0; i < in->cat->nstructs; i++) {
		sbuf_adds(sh, first ? "" : " ");
		sh_words(sh, in->cat->structs[i].name);
		first = false;
	}
	for (size_t i = 0; i < in->cat->nflagsets; i++) {
		sbuf_adds(sh, first ? "" : " ");
		sh_words(sh, in->cat->flagsets[i].name);
		first = false;
	}
	sbuf_adds(sh, "'\n\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
		      "\t\tcase ${COMP_WORDS[i]} in\n\t\t");
	sbuf_add(sh, takes_arg.buf, takes_arg.len);
	sbuf_release(&takes_arg);
	sbuf_adds(sh, ") ((i++)) ;;\n"
		      "\t\t-*) ;;\n"
		      "\t\t*) if [[ -z $cmd ]]; then cmd=${COMP_WORDS[i]}; else ((pos++)); fi ;;\n"
		      "\t\tesac\n\tdone\n"
		      "\tif [[ -z $cmd ]]; then\n"
		      "\t\tif [[ $cur == -* ]]; then COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"));\n"
		      "\t\telse COMPREPLY=($(compgen -W \"$cmds\" -- \"$cur\") $(compgen -f -X '!*.xsc' -- \"$cur\")); fi\n"
		      "\t\treturn\n\tfi\n"
		      "\tlocal kind=\n\tcase $cmd in\n");
	for (size_t i = 0; i < in->ncmds; i++) {
		const struct doc_command *c = &in->cmds[i];
		sbuf_adds(sh, "\t");
		sh_words(sh, c->name);
		sbuf_addf(sh, ") case $pos in 0) kind=%s ;; 1) kind=%s ;; *) kind=%s ;; esac ;;\n",
			  *c->comp[0] ? c->comp[0] : "none", *c->comp[1] ? c->comp[1] : "none",
			  *c->comp[2] ? c->comp[2] : "none");
	}
	sbuf_adds(sh, "\tesac\n\tcase $kind in\n"
		      "\tcommand) COMPREPLY=($(compgen -W \"$cmds\" -- \"$cur\")) ;;\n"
		      "\tentity) COMPREPLY=($(compgen -W \"$names\" -- \"$cur\")) ;;\n"
		      "\tfile) COMPREPLY=($(compgen -f -- \"$cur\")) ;;\n"
		      "\tesac\n}\ncomplete -F _xsc xsc\n");
}
