/* diag: the one way errors reach the user.
 * err() prints "WHERE: message" to stderr and evaluates to -1, so a caller writes
 * `return err("cannot open '%s'", path);`. WHERE is "xsc", or "FILE:LINE" while a script
 * line runs (diag_set_where). usage_err() is the same for usage errors and returns -2. */
#ifndef XSC_DIAG_H
#define XSC_DIAG_H
#include <stdbool.h>
#include <stdio.h>
#include "base/util.h"

#define CMD_USAGE (-2)
int err(const char *fmt, ...) PRINTF_LIKE(1, 2);
int usage_err(const char *fmt, ...) PRINTF_LIKE(1, 2);
void warning(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* file == NULL restores the plain "xsc" prefix. file is not copied. */
void diag_set_where(const char *file, unsigned long line);
/* err() for a name that names nothing: "MESSAGE (did you mean 'BEST'?)" when sg holds a
 * candidate near enough, else "MESSAGE; OTHERWISE" (MESSAGE alone for NULL). -1. */
struct suggest;
int suggest_err(const struct suggest *sg, const char *otherwise, const char *fmt, ...) PRINTF_LIKE(3, 4);
/* Untrusted text made safe for a terminal or a text file: the one sanitiser for catalogue
 * strings, header lines, file names, cache contents and quoted input. Control characters
 * (C0, DEL, C1, ESC always), bytes that are not UTF-8 and the bidirectional overrides are
 * written as \xNN, one per byte; keep lets newlines, tabs or the colour sequences xsc writes
 * itself (term_colors, and no other escape, much as git's sideband and less -R allow colour)
 * through. */
enum { SAFE_NL = 1, SAFE_TAB = 2, SAFE_SGR = 4 };
/* Those colours: reset, bold, dim, red, green, yellow, cyan (out_color's order). */
#define TERM_NCOLORS 7
extern const char *const term_colors[TERM_NCOLORS];
struct sbuf;
void safe_text(struct sbuf *sb, const char *s, size_t n, unsigned keep);
/* The same judgement one character at a time, for writers with escapes of their own
 * (Markdown): the length of the character at s (1 for a byte that is not UTF-8; n > 0) and
 * whether it may be written as it is. */
size_t safe_char(const char *s, size_t n, bool *raw);
/* Where messages are printed (NULL: stderr); returns the stream before. The session points
 * it at its own diagnostics stream while it runs commands, so catching a command's
 * messages is swapping that stream. */
FILE *diag_set_stream(FILE *fp);
/* Under --json an error is a JSON document, not a line of text: while keeping (returns the
 * setting before), err() and usage_err() are kept here and printed by nobody; warnings are
 * printed as ever. diag_kept lists them (where is "FILE:LINE" or "xsc"); diag_kept_print
 * prints those from index from on as text after all, and forgets them; diag_kept_clear
 * forgets them. */
struct diag_error {
	char *where, *msg;
};
bool diag_keep_errors(bool keep);
const struct diag_error *diag_kept(size_t *n);
void diag_kept_print(size_t from);
void diag_kept_clear(size_t from);
/* A forked helper (header parsing) hands its messages to its parent instead of printing
 * them: with a sink, err(), usage_err() and warning() pass kind ("", "usage: ", "warning: ")
 * and the formatted message to it and print nothing (errors are counted all the same). NULL
 * prints again. diag_swap_sink returns the sink before, to put back. */
struct diag_sink {
	void (*fn)(const char *kind, const char *msg, void *arg);
	void *arg;
};
void diag_set_sink(void (*sink)(const char *kind, const char *msg, void *arg), void *arg);
struct diag_sink diag_swap_sink(struct diag_sink to);
/* The sink that drops every message: fuzzing, and a caller for which an error is an answer. */
void diag_discard(const char *kind, const char *msg, void *arg);
#define DIAG_DISCARD ((struct diag_sink){ diag_discard, NULL })
/* The number of errors reported so far (tests and batch mode use it). */
unsigned long diag_error_count(void);
#endif
