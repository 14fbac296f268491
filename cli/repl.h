/* repl: the interactive front end (readline, completion, history). The only readline user. */
#ifndef XSC_REPL_H
#define XSC_REPL_H
#include "session.h"

/* Reads and runs lines until quit or end of input; returns the last command's status. */
int repl_run(struct session *s);
#endif
