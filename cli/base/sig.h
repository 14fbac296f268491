/* sig: what SIGINT, SIGTERM and SIGHUP do to xsc. The handlers only set flags; the places
 * that wait (the prompt, a live call waiting for its child, a script reading its next line)
 * notice them, so a command stops through its own clean-up path: its child killed, its
 * sandbox and scratch directories removed. SIGINT stops the running command; SIGTERM and
 * SIGHUP also end xsc once it has cleaned up. */
#ifndef XSC_SIG_H
#define XSC_SIG_H
#include <poll.h>
#include <stdbool.h>

/* Installs the handlers, without SA_RESTART so that blocking calls return EINTR. A signal
 * ignored when xsc started (nohup, a background job) stays ignored. */
void sig_install(void);
/* In a forked child that runs a system call for the user (the sandbox's): the signals
 * sig_install and sig_catch_prompt catch take their default action again, as in a fresh
 * process, so that a signal the call brings (clone3's exit_signal) acts as it would there
 * rather than run xsc's handler. Async-signal-safe. */
void sig_default(void);
/* Has SIGINT, SIGTERM or SIGHUP arrived since the last sig_clear()? */
bool sig_interrupted(void);
/* SIGTERM or SIGHUP if one arrived (xsc cleans up and leaves), else 0. */
int sig_fatal(void);
/* The error of an interrupted command: reports "interrupted" once per interrupt; -1. */
int sig_interrupt_err(void);
/* Forgets a SIGINT: at the prompt, the next command starts afresh. A fatal signal stays. */
void sig_clear(void);
/* poll(2) that an interrupt ends without a race: -1 with errno ECANCELED when one arrived
 * before or during the wait, -1 with EINTR for any other signal (^Z or ^\ at the prompt). */
int sig_poll(struct pollfd *fds, nfds_t n, int timeout_ms);
/* After clean-up: removes any scratch directory still tracked, then ends the process by the
 * signal that interrupted it, as if it had not been caught, so that a parent shell sees it
 * (status 128 + N; a loop stops). Returns if no signal came. */
void sig_reraise(void);
/* At the prompt, ^Z (SIGTSTP) and ^\ (SIGQUIT) are noticed instead of obeyed, so that the
 * REPL can first give the terminal its own modes back; sig_obey then takes the signal's
 * default action: stop (returning once continued) or quit. */
void sig_catch_prompt(bool on);
int sig_prompt_asked(void); /* the signal, or 0 */
void sig_obey(void);
/* The scratch directories alive now (scratch_mkdtemp tracks them, remove_tree forgets
 * them): removed by a second SIGTERM or SIGHUP at once, and by sig_reraise. */
void sig_track_dir(const char *dir);
void sig_untrack_dir(const char *dir);
#endif
