/* diag: the one way errors reach the user.
 * err() prints "WHERE: message" to stderr and evaluates to -1, so a caller writes
 * `return err("cannot open '%s'", path);`. WHERE is "xsc", or "FILE:LINE" while a script
 * line runs (diag_set_where). usage_err() is the same for usage errors and returns -2. */
#ifndef XSC_DIAG_H
#define XSC_DIAG_H
#include <stdbool.h>
#include "base/util.h"

#define CMD_USAGE (-2)
int err(const char *fmt, ...) PRINTF_LIKE(1, 2);
int usage_err(const char *fmt, ...) PRINTF_LIKE(1, 2);
void warning(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* file == NULL restores the plain "xsc" prefix. file is not copied. */
void diag_set_where(const char *file, unsigned long line);
/* Fuzzing: count errors but print nothing. */
bool diag_set_quiet(bool quiet); /* returns the previous setting */
/* The number of errors reported so far (tests and batch mode use it). */
unsigned long diag_error_count(void);
#endif
