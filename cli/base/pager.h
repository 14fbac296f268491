/* pager: long output on a terminal goes through $PAGER (default less -FRX, which leaves at
 * once when the text fits the screen and keeps colour), as git's USE_PAGER commands do. */
#ifndef XSC_PAGER_H
#define XSC_PAGER_H
#include <stdbool.h>
#include <sys/types.h>

struct pager {
	pid_t pid;     /* 0: not paging */
	int saved_out; /* standard output before the pager took it */
};

/* When standard output is a terminal and a pager is configured ($PAGER; empty or "cat": none),
 * points standard output at a new pager process. Returns whether it did; nothing to undo when
 * not. SIGPIPE is ignored while paging: leaving the pager early ends the command's output, not
 * xsc. */
bool pager_start(struct pager *p);
/* Gives standard output back and waits for the pager to end (the user reads to the end or
 * quits it). */
void pager_stop(struct pager *p);
/* The terminal's width in columns on standard output, or 0 when it is not a terminal. */
unsigned term_columns(void);
/* Appends text, which starts at column col, wrapped to width: lines break at spaces and after
 * '|' or ',' (a flag list), never inside a word (a word wider than a line stays whole);
 * continuation lines start with indent spaces. width 0 or text that fits: appended as is. */
struct sbuf;
void term_wrap(struct sbuf *out, const char *text, size_t col, size_t indent, unsigned width);
#endif
