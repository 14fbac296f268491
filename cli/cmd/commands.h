/* commands: the one command table behind the REPL, scripts and one-shot use.
 * A command is one row here and one handler `int cmd_NAME(struct session *, int, char **)`.
 * Handlers return 0, -1 (failed; already reported with err()) or CMD_USAGE. */
#ifndef XSC_COMMANDS_H
#define XSC_COMMANDS_H
#include "base/diag.h"
#include "session.h"

enum cmd_flags {
	CMD_CATALOG = 1 << 0, /* loads the catalogue before running */
	CMD_BUFFER = 1 << 1,  /* needs a current buffer */
	CMD_JSON = 1 << 2,    /* understands --json */
	CMD_EFFECTS = 1 << 3, /* calls the kernel, writes files or fetches URLs: refused when the session forbids it */
	CMD_DESIGN = 1 << 5,  /* designs a syscall: recorded, when it succeeds, for 'save' */
	CMD_PAGE = 1 << 4,    /* output that can be long: through the pager on a terminal (base/pager.h) */
};

/* What the REPL completes for each argument position. */
enum completer {
	COMP_NONE, COMP_COMMAND, COMP_ENTITY /* syscall, struct or flag set */, COMP_FIELD,
	COMP_VALUE /* flag and constant names for the field typed before */, COMP_BUFFER,
	COMP_VERSION /* VERn names of the current struct */, COMP_FILE, COMP_EXPECT,
};

struct command {
	const char *name;
	int (*fn)(struct session *s, int argc, char **argv);
	const char *synopsis; /* arguments, after the name */
	const char *summary;  /* one line */
	const char *help;     /* paragraphs shown by `help NAME` */
	unsigned flags;
	enum completer comp[3]; /* argument 1, 2, and every later one */
};

extern const struct command commands[];

/* The global options: one table feeding main's getopt, --help, the man page and the bash
 * completion. key is what getopt_long answers: the short letter, or a GO_ value above 255
 * for an option with a long name only. */
enum global_key {
	GO_CMDS = 'c', GO_HELP = 'h', GO_VERBOSE = 'v',
	GO_DATA = 256, GO_JSON, GO_COLOR, GO_KEEP_GOING, GO_TIMEOUT, GO_UNSAFE, GO_TRANSCRIPT, GO_NO_PAGER,
	GO_WIDTH, GO_FORCE, GO_VERSION,
};
struct global_option {
	const char *name; /* the long name without "--", or NULL: a short option only */
	int key;
	const char *arg, *help; /* arg: its argument's name, or NULL for none */
};
extern const struct global_option global_options[]; /* ends with a NULL help */
/* How --help and the man page write it: "-v, --verbose", "--data", "-c". */
const char *global_option_flag(const struct global_option *g, char buf[32]);
const struct command *command_find(const char *name);
/* Dispatches argv[0]: exact names only; an unknown name suggests the nearest. */
int command_run(struct session *s, int argc, char **argv);
/* Prints "usage: NAME SYNOPSIS" for a command and returns CMD_USAGE. */
int command_usage(const struct command *c);
/* The same for the running command (its row is the session's while its handler runs). */
int cmd_usage(const struct session *s);
/* A verb of a command ('expect ok', 'target sim'), as bpftool's cmd_select: its word, its
 * handler (given the command's own argc and argv, the verb at argv[1]), CMD_BUFFER when
 * it needs a current buffer and CMD_EFFECTS when it has effects the command's other verbs
 * lack ('kernels fetch', not 'kernels'). A table ends with a NULL name; that row's handler, if any,
 * takes any other word (a lesson's number, a transcript's file). */
struct verb {
	const char *name;
	int (*fn)(struct session *s, int argc, char **argv);
	unsigned flags;
};
/* Runs the verb argv[1] names; a missing one is a usage error, an unknown one too, with the
 * nearest verb or naming them ("expect: unknown assertion 'frob' (ok, errno, ...)", noun
 * "assertion"). */
int cmd_select(struct session *s, const struct verb *verbs, const char *noun, int argc, char **argv);
/* The row of verbs whose word is word, or NULL. */
const struct verb *cmd_verb_find(const struct verb *verbs, const char *word);
/* That usage error for word, with the nearest verb ("did you mean 'stop'?") or, far from all,
 * the verbs: for a handler of other words that finds word is none (not a lesson's number). */
int cmd_unknown_verb(const struct session *s, const struct verb *verbs, const char *noun, const char *word);

/* A command's option for cmd_opt_next: "--name" (NULL: none), and "-k" when key is a
 * letter; arg names its value ("--name V", "--name=V", "-k V"), NULL for a flag. A table
 * ends with a 0 key. */
struct cmd_opt {
	const char *name;
	int key;
	const char *arg;
};
struct fetch_opts;
struct cmd_opt_iter {
	struct session *s;
	int argc, i;
	char **argv;
	bool front_only; /* options only before the first operand ('call --unsafe SYSCALL ARG...') */
	bool ended;      /* "--" seen (or the first operand, front_only): the rest are operands */
	const char *value; /* the option's value, or the operand */
	struct fetch_opts *fetch; /* non-NULL: the fetch options (headers/fetch.h) are taken into it */
	bool loose;      /* a word like an option that is none is an operand (explain's line: = -1 EPERM) */
};
#define CMD_OPT_ITER(s, argc, argv) { (s), (argc), 1, (argv), false, false, NULL, NULL }
enum { CMD_OPT_END = 0, CMD_OPT_OPERAND = 1 }; /* the keys are letters, or 256 and above */
/* The next word of the running command: an option's key (its value in it->value),
 * CMD_OPT_OPERAND (the word in it->value: after "--", "-" alone, a quoted word),
 * CMD_OPT_END, or CMD_USAGE after a usage error naming the word (an unknown option, a
 * missing value, a value given to a flag). */
int cmd_opt_next(struct cmd_opt_iter *it, const struct cmd_opt *opts);

/* Shared by the buffer commands (cmd_set.c). */
struct value;
const struct field *find_field_or_err(struct session *s, const char *name);
int parse_field_value(struct session *s, const struct field *f, int argc, char **argv, int from,
		      struct value *v);

/* Shared by the design commands (cmd_struct.c): a kernel version argument. */
int parse_since(const char *text, uint32_t *v);

#define DECLARE_CMD(name) int cmd_##name(struct session *s, int argc, char **argv)
DECLARE_CMD(list);
DECLARE_CMD(show);
DECLARE_CMD(new);
DECLARE_CMD(buffers);
DECLARE_CMD(use);
DECLARE_CMD(set);
DECLARE_CMD(unset);
DECLARE_CMD(size);
DECLARE_CMD(poke);
DECLARE_CMD(dump);
DECLARE_CMD(expect);
DECLARE_CMD(call);
DECLARE_CMD(target);
DECLARE_CMD(matrix);
DECLARE_CMD(measure);
DECLARE_CMD(explain);
DECLARE_CMD(probe);
DECLARE_CMD(kernels);
DECLARE_CMD(features);
DECLARE_CMD(docs);
DECLARE_CMD(site);
DECLARE_CMD(doc);
DECLARE_CMD(import);
DECLARE_CMD(lint);
DECLARE_CMD(diff);
/* "linux/openat2.h" for a path or URL of a uapi header (cmd_import.c). */
const char *header_short_name(const char *src);
DECLARE_CMD(demo);
DECLARE_CMD(lesson);
DECLARE_CMD(transcript);
DECLARE_CMD(struct);
DECLARE_CMD(field);
DECLARE_CMD(flagset);
DECLARE_CMD(flag);
DECLARE_CMD(version);
DECLARE_CMD(syscall);
DECLARE_CMD(export);
DECLARE_CMD(handout);
DECLARE_CMD(save);
DECLARE_CMD(load);
/* cmd_save.c: the session as commands that rebuild it (target, designs, buffers), and a
 * design command recorded for it. */
void session_state_script(struct session *s, struct sbuf *sb);
void design_log_add(struct session *s, int argc, char **argv);
DECLARE_CMD(help);
DECLARE_CMD(quit);
#endif
