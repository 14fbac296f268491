/* stracelog: a whole strace log read line by line into call lines straceline can parse: the
 * pid column ("1234 ", "[pid 1234] ") and the time column (-t, -tt, -ttt, -r) dropped, -T's
 * "<0.000012>" and -y/-yy's "3</path>" decorations removed, an "<unfinished ...>" call kept
 * until its "<... NAME resumed>" line completes it, signal, exit and strace's own lines
 * skipped. Text only: no catalogue, no session. */
#ifndef XSC_STRACELOG_H
#define XSC_STRACELOG_H
#include <stddef.h>

struct strace_pending;

struct strace_log {
	struct strace_pending *p; /* unfinished calls, by pid */
	size_t n, alloc;
};

enum strace_log_kind {
	SL_CALL,       /* *call holds a whole call line */
	SL_UNFINISHED, /* half a call, kept until it resumes */
	SL_OTHER,      /* a signal, an exit, strace's own message or a blank line */
	SL_ORPHAN,     /* a "resumed" line whose start the log does not hold */
};

void strace_log_init(struct strace_log *lg);
/* Calls left unfinished at the end of the log: how many. */
size_t strace_log_release(struct strace_log *lg);
/* Reads one raw line. For SL_CALL, *call is the call line (the caller frees it), else NULL. */
enum strace_log_kind strace_log_feed(struct strace_log *lg, const char *raw, char **call);
#endif
