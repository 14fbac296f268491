/* session: the state one run of xsc keeps between commands (sqlite's ShellState):
 * the catalogue (loaded on first use), the buffers, output mode and options. State and
 * lookups only: the session knows no command. Commands attach through the observer, and
 * running text is the front's run module (run.h), lent to commands as the runner. */
#ifndef XSC_SESSION_H
#define XSC_SESSION_H
#include <stdbool.h>
#include <stdio.h>
#include "base/out.h"
#include "base/sbuf.h"
#include "model/catalog.h"
#include "model/outcome.h"
#include "model/structbuf.h"

enum color_mode { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };
struct session;

/* How commands that run commands themselves (demo's scratch session, lesson --check's
 * solution, a lesson's expect checks) reach the front's run module without including it. */
struct session_runner {
	int (*line)(struct session *s, const char *line);
	int (*stream)(struct session *s, FILE *fp, const char *name);
	/* one command as typed, run with no transcript entry and no observer told */
	int (*bare)(struct session *s, const char *command);
};

/* A command that watches the session (a lesson in progress checks its step): told after
 * every command run from text, released with the session or when another takes its place. */
struct session_observer {
	void (*after_command)(struct session *s, void *state, const char *text, int result);
	void (*release)(void *state);
};

struct session {
	const char *data_dir;      /* --data / XSC_DATA, or NULL for the default */
	struct catalog *cat;
	bool cat_failed;
	bool cat_borrowed;         /* a child's: its parent's catalogue, not freed with it */
	struct structbuf **bufs;
	size_t nbufs, bufs_alloc;
	struct structbuf *cur;
	bool json, keep_going, quit;
	bool verbose;              /* -v/--verbose: call lines as strace -v writes them (no abbreviation) */
	bool no_effects;           /* fuzzing: refuse commands that call the kernel, write files or fetch */
	bool unsafe;               /* --unsafe: live calls may change things outside the sandbox */
	unsigned timeout_ms;       /* per live call */
	/* where 'call' goes: the running kernel, or a simulated one */
	bool sim;
	uint32_t sim_kv;
	bool check_fields;
	/* 'target vm VERSION': calls go to a real kernel of that version in qemu; one guest per
	 * version, started on first use (session_guest) and kept until 'target live', 'target
	 * sim' or the end of the session */
	char *vm_version;          /* NULL: not a guest */
	struct vm_guest *guests[8];
	char guest_version[8][16];
	/* the last call, for expect ok / errno / ret */
	bool have_last;
	const struct syscall *last_sc;
	struct outcome last;
	unsigned long calls;       /* calls made, live or simulated: a lesson judges those of its step */
	enum color_mode color;
	/* The session's one sink: results go to out_fp (through out, set up for each command)
	 * and messages to err_fp (diag prints there while the session runs commands); catching
	 * what commands print is swapping the two (session_capture_begin). */
	FILE *out_fp, *err_fp;
	struct out out;            /* set up for each command */
	const bool *quoted;        /* per argv entry of the running command: was it quoted? */
	const struct command *running; /* the running command's row (cmd/commands.h), or NULL */
	struct design *design;     /* syscalls designed in this session (teach/design.h), or NULL */
	struct sbuf design_log;    /* the design commands that succeeded, one a line: what 'save' replays */
	char *transcript_path;     /* --transcript FILE.md: every command and its output, or NULL */
	int transcript_fd;         /* appended to after each command; -1 when not recording */
	bool force;                /* --force: files the session writes may replace existing ones */
	const struct session_observer *observer; /* or NULL */
	void *observer_state;
	const struct session_runner *runner; /* the front's (run_attach), or NULL */
	bool checking;             /* runs a solution for lesson --check, which it may not start again */
	bool pager;                /* long output goes through a pager on a terminal (not --no-pager) */
	int width;                 /* --width N; -1: the terminal's */
	unsigned columns;          /* the running command's text width; 0: do not wrap */
	unsigned scripted;         /* > 0 while commands come from a script, -c or standard input */
};

void session_init(struct session *s);
/* A scratch session whose output its parent shows (demo, lesson --check): the parent's
 * catalogue (borrowed), data directory, timeout and runner; no colour; it goes on after a
 * failure, for the parent judges. */
void session_init_child(struct session *child, const struct session *parent);
void session_release(struct session *s);
/* The catalogue, loaded on first use; NULL (error reported) when it cannot load. */
const struct catalog *session_catalog(struct session *s);
struct structbuf *session_find_buffer(struct session *s, const char *name);
/* Adds (or replaces, by name) a buffer and makes it current. Takes ownership. */
void session_add_buffer(struct session *s, struct structbuf *sb);
/* The running guest of a kernel version ('target vm', 'probe --kernel'), started now if it
 * is not running (booting takes a few seconds); NULL (reported) when it cannot start. */
struct vm_guest *session_guest(struct session *s, const char *version);
/* Stops every guest (no qemu outlives the session). */
void session_stop_guests(struct session *s);
/* Parses a kernel version for WHAT ("target sim") that the catalogue or this session's
 * designs have facts for; reports and returns -1 otherwise (a simulated 7.5 would silently
 * answer as the newest kernel the catalogue knows). */
int session_kernel_arg(struct session *s, const char *what, const char *arg, uint32_t *kv);
/* Catalogue lookups that also see the entries designed in this session (struct new …). */
const struct syscall *session_find_syscall(struct session *s, const char *name);
const struct cstruct *session_find_struct(struct session *s, const char *name);
const struct flagset *session_find_flagset(struct session *s, const char *name);
/* What the session prints, caught: both streams swapped for memory until capture_end, which
 * puts them back and hands over what was written (out, err: NULL drops it). Nests. */
struct session_capture {
	FILE *out_fp, *err_fp, *saved_out, *saved_err, *saved_diag;
	char *out_buf, *err_buf;
	size_t out_len, err_len;
};
int session_capture_begin(struct session *s, struct session_capture *c);
void session_capture_end(struct session *s, struct session_capture *c, struct sbuf *out, struct sbuf *err);
/* Under --json an error is a JSON document in the output stream (bpftool's p_err): from
 * errors_begin (json: the command's mode) errors are kept, and errors_end writes those of
 * the command (result r) as one {"error", "where"} document when it failed and wrote no
 * document of its own (wrote), else prints them as text: one document a command. */
struct session_errors {
	bool was;
	size_t mark;
};
struct session_errors session_errors_begin(struct session *s, bool json);
void session_errors_end(struct session *s, struct session_errors e, int r, bool wrote);
/* Makes o (with its state) the session's observer, releasing the one before; NULL: none. */
void session_observe(struct session *s, const struct session_observer *o, void *state);
/* The session's design (teach/design.h), made on first use. */
struct design *session_design(struct session *s);
/* Stops recording (the file is synced once, here) and starts recording to path (NULL: none).
 * An existing path is refused unless force; a replaced file keeps its mode. The file starts
 * with the kernel, the target and the date, and state (the session so far as commands,
 * NULL: none) in a fence of its own, so that 'load FILE.md' replays the whole session.
 * 0, or -1 (reported; not recording then). */
int session_set_transcript(struct session *s, const char *path, bool force, const char *state);
/* May the running command write path (a file or an output directory)? A script is someone
 * else's: it writes only beneath the current directory unless the user's own command line
 * says --unsafe, and a solution run by lesson --check writes nothing. 0, or -1 (reported). */
int session_may_write(struct session *s, const char *path);
/* OF_BENEATH while that rule holds: the checked path is also written through descriptors,
 * so a link swapped in after the check is not followed. */
unsigned session_write_flags(const struct session *s);
/* Was argv[i] of the running command written in double quotes? */
bool session_arg_quoted(const struct session *s, int i);

/* path opened as a script: a regular file or a pipe, not a device, socket or directory.
 * NULL after an error. */
FILE *session_open_script(const char *path);
#endif
