/* session: the state one run of xsc keeps between commands (sqlite's ShellState):
 * the catalogue (loaded on first use), the buffers, output mode and options. */
#ifndef XSC_SESSION_H
#define XSC_SESSION_H
#include <stdbool.h>
#include <stdio.h>
#include "base/out.h"
#include "model/catalog.h"
#include "model/outcome.h"
#include "model/structbuf.h"

enum color_mode { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };

struct session {
	const char *data_dir;      /* --data / XSC_DATA, or NULL for the default */
	struct catalog *cat;
	bool cat_failed;
	struct structbuf **bufs;
	size_t nbufs, bufs_alloc;
	struct structbuf *cur;
	bool json, keep_going, quit;
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
	struct out out;            /* set up for each command */
	const bool *quoted;        /* per argv entry of the running command: was it quoted? */
	struct design *design;     /* syscalls designed in this session (teach/design.h), or NULL */
	char *transcript_path;     /* --transcript FILE.md: every command and its output, or NULL */
	int transcript_fd;         /* appended to after each command; -1 when not recording */
	bool force;                /* --force: files the session writes may replace existing ones */
	struct lesson_state *lesson; /* the lesson in progress (cmd_lesson.c), or NULL */
	bool checking;             /* runs a solution for lesson --check, which it may not start again */
	unsigned scripted;         /* > 0 while commands come from a script, -c or standard input */
};

void session_init(struct session *s);
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
/* Runs one tokenized command (command_run), recording it in the transcript when one is
 * kept and letting a lesson in progress check it. text is the command as typed. */
int session_run_command(struct session *s, int argc, char **argv, const char *text);
/* Stops recording (the file is synced once, here) and starts recording to path (NULL: none).
 * An existing path is refused unless force; a replaced file keeps its mode. 0, or -1
 * (reported; not recording then). */
int session_set_transcript(struct session *s, const char *path, bool force);
/* May the running command write path (a file or an output directory)? A script is someone
 * else's: it writes only beneath the current directory unless the user's own command line
 * says --unsafe, and a solution run by lesson --check writes nothing. 0, or -1 (reported). */
int session_may_write(struct session *s, const char *path);
/* OF_BENEATH while that rule holds: the checked path is also written through descriptors,
 * so a link swapped in after the check is not followed. */
unsigned session_write_flags(const struct session *s);
/* Was argv[i] of the running command written in double quotes? */
bool session_arg_quoted(const struct session *s, int i);

/* Runs one line: commands separated by ';', shell-like quoting, '#' comments.
 * Returns 0, -1 (a command failed) or CMD_USAGE. With keep_going false, stops at the
 * first failure. */
int session_run_line(struct session *s, const char *line);
/* The longest script line: a longer one ends the script with an error ("/dev/zero"). */
#define SCRIPT_LINE_MAX 65536
/* path opened as a script: a regular file or a pipe, not a device, socket or directory.
 * NULL after an error. */
FILE *session_open_script(const char *path);
/* Runs every line of fp (a script or stdin); name is used in FILE:LINE: messages. */
int session_run_stream(struct session *s, FILE *fp, const char *name);
/* Tokenizes one command into argv (heap; free with free_argv). Returns argc, or -1 with an
 * error. *rest is set past a ';' that ends the command, or to NULL at the end of line. */
int session_tokenize(const char *line, const char **rest, char ***argv, bool **quoted);
void free_argv(int argc, char **argv, bool *quoted);
#endif
