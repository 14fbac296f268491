/* run: commands from text (sqlite shell's process_input): tokenizing, one command with its
 * transcript entry and its observers, a line of commands separated by ';', a stream of lines
 * (a script, -c, standard input). The front ends (main, repl) and the fuzzer run through it;
 * the commands that run commands themselves reach it through the session's runner
 * (session.h), which run_attach fills in. */
#ifndef XSC_RUN_H
#define XSC_RUN_H
#include <stdbool.h>
#include <stdio.h>
#include "session.h"

/* Lends s (and the sessions made from it with session_init_child) this module's runner. */
void run_attach(struct session *s);
/* Runs one tokenized command (command_run), recording it in the transcript when one is
 * kept and telling the session's observer. text is the command as typed. */
int run_command(struct session *s, int argc, char **argv, const char *text);
/* Runs one line: commands separated by ';', shell-like quoting, '#' comments.
 * Returns 0, -1 (a command failed) or CMD_USAGE. With keep_going false, stops at the
 * first failure. */
int run_line(struct session *s, const char *line);
/* Runs every line of fp (a script or stdin); name is used in FILE:LINE: messages. */
int run_stream(struct session *s, FILE *fp, const char *name);
/* The longest script line: a longer one ends the script with an error ("/dev/zero"). */
#define SCRIPT_LINE_MAX 65536
/* Tokenizes one command into argv (heap; free with free_argv). Returns argc, or -1 with an
 * error. *rest is set past a ';' that ends the command, or to NULL at the end of line. */
int run_tokenize(const char *line, const char **rest, char ***argv, bool **quoted);
void free_argv(int argc, char **argv, bool *quoted);
#endif
