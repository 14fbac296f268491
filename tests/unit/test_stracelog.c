/* A whole strace log read line by line: the pid and time columns, -T and -y decorations go;
 * an unfinished call waits for its resumed half (per pid, another pid's line between them);
 * signals, exits and strace's own lines are not calls; a resumed line without its start is
 * an orphan; an unfinished call at the end is counted. */
#include <stdlib.h>
#include <string.h>
#include "model/stracelog.h"
#include "tap.h"

static void feed(struct strace_log *lg, const char *raw, enum strace_log_kind want, const char *call)
{
	char *got;
	enum strace_log_kind k = strace_log_feed(lg, raw, &got);
	ok(k == want, "kind %d of: %s", (int)k, raw);
	if (call) { /* is_str is two statements */
		is_str(got ? got : "(none)", call, "the call of: %s", raw);
	}
	free(got);
}

int main(void)
{
	struct strace_log lg;
	strace_log_init(&lg);
	feed(&lg, "2111  rseq(0x7f3e706dc960, 0x20, 0, 0x53053053) = 0\n", SL_CALL, "rseq(0x7f3e706dc960, 0x20, 0, 0x53053053) = 0");
	feed(&lg, "[pid  2112] 12:00:01.123456 vfork() = 7 <0.000123>", SL_CALL, "vfork() = 7");
	feed(&lg, "1796558459.183428 renameat2(3</tmp/a b>, \"x\", AT_FDCWD</tmp>, \"y\", 0) = 0", SL_CALL,
	     "renameat2(3, \"x\", AT_FDCWD, \"y\", 0) = 0");
	feed(&lg, "27099      0.000000 statx(-100 /* AT_FDCWD */</tmp>, \"<x>\", 0, 0, NULL) = -1 EFAULT (Bad address)",
	     SL_CALL, "statx(-100 /* AT_FDCWD */, \"<x>\", 0, 0, NULL) = -1 EFAULT (Bad address)");
	feed(&lg, "10 clone3({flags=CLONE_VM, exit_signal=0, stack=NULL, stack_size=0} <unfinished ...>", SL_UNFINISHED, NULL);
	feed(&lg, "11 rseq(NULL, 0, 0, 0) = -1 EINVAL (Invalid argument)", SL_CALL, "rseq(NULL, 0, 0, 0) = -1 EINVAL (Invalid argument)");
	feed(&lg, "10 <... clone3 resumed> => {parent_tid=[11]}, 88) = 11", SL_CALL,
	     "clone3({flags=CLONE_VM, exit_signal=0, stack=NULL, stack_size=0} => {parent_tid=[11]}, 88) = 11");
	feed(&lg, "12 <... vfork resumed>) = 13", SL_ORPHAN, NULL);
	feed(&lg, "10 --- SIGCHLD {si_signo=SIGCHLD} ---", SL_OTHER, NULL);
	feed(&lg, "10 +++ exited with 0 +++", SL_OTHER, NULL);
	feed(&lg, "strace: Process 10 attached", SL_OTHER, NULL);
	feed(&lg, "", SL_OTHER, NULL);
	feed(&lg, "14 vfork( <unfinished ...>", SL_UNFINISHED, NULL);
	ok(strace_log_release(&lg) == 1, "one call left unfinished at the end");
	return tap_done();
}
