#include "repl.h"
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <readline/history.h>
#include <readline/readline.h>
#include "base/diag.h"
#include "base/sbuf.h"
#include "base/sig.h"
#include "run.h"
#include "cmd/commands.h"
#include "headers/fetch.h"
#include "kernel/kimage.h"
#include "model/dataload.h"
#include "model/kver.h"
#include "base/banned.h"

#define HISTORY_MAX 1000

static struct session *repl_session;

/* ---- the prompt: where 'call' goes, so that a room sees which kernel answers ---- */

static char prompt[64] = "xsc> ";

/* "xsc> " for the running kernel (the default, named by the banner), "xsc[sim 5.4]> " or
 * "xsc[vm 6.1]> " when calls go elsewhere. */
static void prompt_update(const struct session *s)
{
	char kv[16];
	if (s->vm_version)
		snprintf(prompt, sizeof(prompt), "xsc[vm %.16s]> ", s->vm_version);
	else if (s->sim)
		snprintf(prompt, sizeof(prompt), "xsc[sim %s%s]> ", kver_str(s->sim_kv, kv),
			 s->check_fields ? " --check-fields" : "");
	else
		snprintf(prompt, sizeof(prompt), "xsc> ");
}

/* One line on start: what this is, the kernel it runs on, where calls go, how to get help. */
static void banner(const struct session *s)
{
	char kv[16];
	struct utsname u;
	/* one line of a projector's 80 columns: uname's release is sanitised and cut at 30 */
	struct sbuf rel = SBUF_INIT;
	const char *release = uname(&u) == 0 ? u.release : "(unknown)";
	safe_text(&rel, release, strnlen(release, 30), 0);
	printf("xsc %s, Linux %s, target ", XSC_VERSION, rel.buf);
	if (s->vm_version)
		printf("vm %s", s->vm_version);
	else if (s->sim)
		printf("sim %s", kver_str(s->sim_kv, kv));
	else
		printf("live");
	printf("; type help, lesson or quit\n");
	sbuf_release(&rel);
	fflush(stdout);
}

/* ---- completion ---- */

struct cands {
	const char *prefix;
	size_t plen;
	char **v;
	size_t n, alloc;
};

static void cand(struct cands *c, const char *name)
{
	if (strncmp(name, c->prefix, c->plen))
		return;
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i], name))
			return;
	ALLOC_GROW(c->v, c->n + 2, c->alloc);
	c->v[c->n++] = xstrdup(name);
}

static void cand_flagset(struct cands *c, const struct flagset *fs)
{
	for (size_t i = 0; fs && i < fs->nflags; i++)
		cand(c, fs->flags[i].name);
}

static const struct field *field_named(const char *name)
{
	struct session *s = repl_session;
	return s->cur ? cstruct_find_field(s->cur->st, name) : NULL;
}

/* The literal words of a command's synopsis ("[live | sim VERSION [--check-fields]]": live,
 * sim, --check-fields; "--format=md|svg": --format=md, --format=svg), from the command table. */
static void cand_literal(struct cands *c, const char *stem, size_t stemlen, const char *a, size_t n)
{
	bool literal = n > 0;
	for (size_t i = 0; i < n && !stemlen; i++)
		literal &= (a[i] >= 'a' && a[i] <= 'z') || a[i] == '-' || (i && a[i] >= '0' && a[i] <= '9');
	if (!literal)
		return;
	struct sbuf w = SBUF_INIT;
	sbuf_addf(&w, "%.*s%.*s", (int)stemlen, stem, (int)n, a);
	cand(c, w.buf);
	sbuf_release(&w);
}

static void cand_synopsis(struct cands *c, const char *syn)
{
	for (const char *p = syn; *p;) {
		p += strspn(p, " []");
		size_t n = strcspn(p, " []");
		const char *eq = memchr(p, '=', n);
		size_t stemlen = eq && p[0] == '-' ? (size_t)(eq - p) + 1 : 0; /* --format=md|svg */
		for (size_t i = stemlen; i < n;) {
			size_t k = strcspn(p + i, "|");
			if (i + k > n)
				k = n - i;
			cand_literal(c, p, stemlen, p + i, k);
			i += k + 1;
		}
		p += n;
	}
}

/* "ARG=" for each argument of the syscall, or, after "ARG=", that argument's flag names. */
static void cand_call_args(struct cands *c, const char *scname, const char *text)
{
	const struct syscall *sc = session_find_syscall(repl_session, scname);
	const char *eq = strchr(text, '=');
	for (size_t i = 0; sc && i < sc->nargs; i++) {
		const struct sarg *a = &sc->args[i];
		struct sbuf w = SBUF_INIT;
		if (!eq) {
			sbuf_addf(&w, "%s=", a->name);
			cand(c, w.buf);
		} else if (strlen(a->name) == (size_t)(eq - text) && !strncmp(a->name, text, (size_t)(eq - text))) {
			for (size_t k = 0; a->flagset && k < a->flagset->nflags; k++) {
				sbuf_reset(&w);
				sbuf_addf(&w, "%s=%s", a->name, a->flagset->flags[k].name);
				cand(c, w.buf);
			}
			sbuf_reset(&w);
			sbuf_addf(&w, "%s=NULL", a->name);
			if (a->role == AR_STRUCT || a->role == AR_PTR)
				cand(c, w.buf);
		}
		sbuf_release(&w);
	}
}

/* doc's topics besides syscall and struct names: the pages of the guide and the lessons
 * (docs/ beside the catalogue, in the source tree as where make install puts them). */
static void cand_doc_pages(struct cands *c)
{
	static const char *const dirs[] = { "guide", "lessons" };
	cand(c, "reference");
	cand(c, "commands");
	cand(c, "lessons");
	const char *data = repl_session->data_dir ? repl_session->data_dir : catalog_default_dir();
	for (size_t d = 0; data && d < 2; d++) {
		struct sbuf path = SBUF_INIT;
		sbuf_addf(&path, "%s/../docs/%s", data, dirs[d]);
		DIR *dir = opendir(path.buf);
		for (struct dirent *e; dir && (e = readdir(dir));) {
			size_t n = strlen(e->d_name);
			if (n > 3 && !strcmp(e->d_name + n - 3, ".md") && strcmp(e->d_name, "index.md")) {
				char *name = xstrndup(e->d_name, n - 3);
				cand(c, name);
				free(name);
			}
		}
		if (dir)
			closedir(dir);
		sbuf_release(&path);
	}
}

/* Kernel versions: the catalogue's for a simulated kernel (every version that changed
 * something), the images' for a real one. */
static void cand_versions(struct cands *c, bool real)
{
	char kv[16];
	if (real) {
		struct kimages ks;
		const char *data = repl_session->data_dir ? repl_session->data_dir : catalog_default_dir();
		if (data && kimages_load(data, &ks) == 0) {
			for (size_t i = 0; i < ks.n; i++)
				cand(c, ks.k[i].version);
			kimages_release(&ks);
		}
		return;
	}
	const struct catalog *cat = repl_session->cat;
	for (size_t i = 0; cat && i < cat->nstructs; i++)
		for (size_t v = 0; v < cat->structs[i].nversions; v++)
			cand(c, kver_str(cat->structs[i].versions[v].since, kv));
	for (size_t i = 0; cat && i < cat->nsyscalls; i++)
		cand(c, kver_str(cat->syscalls[i].since, kv));
}

/* Completions that depend on the words before, beyond the command table's completer:
 * call's arguments, doc's pages, kernel versions. true when they answer alone. */
static bool collect_special(struct cands *c, const struct command *cmd, char **words, int nwords, const char *text)
{
	const char *prev = words[nwords - 1];
	if (!strcmp(cmd->name, "call") && nwords >= 2 && strcmp(prev, "--unsafe")) {
		const char *scname = strcmp(words[1], "--unsafe") ? words[1] : nwords >= 3 ? words[2] : NULL;
		if (scname && (nwords > 2 || strcmp(words[1], "--unsafe"))) {
			cand_call_args(c, scname, text);
			return strchr(text, '=') != NULL;
		}
	}
	if (!strcmp(cmd->name, "doc") && nwords == 1)
		cand_doc_pages(c);
	if (!strcmp(prev, "sim") || !strcmp(prev, "vm") || !strcmp(prev, "--kernel")) {
		if (!repl_session->cat && !repl_session->cat_failed)
			session_catalog(repl_session);
		cand_versions(c, strcmp(prev, "sim") != 0);
		return true;
	}
	return false;
}

/* Candidates for the word being completed, given the words before it. */
static void collect(struct cands *c, char **words, int nwords)
{
	struct session *s = repl_session;
	if (nwords == 0) {
		for (const struct command *k = commands; k->name; k++)
			cand(c, k->name);
		return;
	}
	const struct command *cmd = command_find(words[0]);
	if (!cmd)
		return;
	if (collect_special(c, cmd, words, nwords, c->prefix))
		return;
	cand_synopsis(c, cmd->synopsis);
	enum completer what = cmd->comp[nwords - 1 < 2 ? nwords - 1 : 2];
	const struct catalog *cat = NULL;
	if (what == COMP_ENTITY || what == COMP_VALUE)
		cat = s->cat ? s->cat : (s->cat_failed ? NULL : session_catalog(s));
	switch (what) {
	case COMP_COMMAND:
		for (const struct command *k = commands; k->name; k++)
			cand(c, k->name);
		break;
	case COMP_ENTITY:
		for (size_t i = 0; cat && i < cat->nsyscalls; i++)
			cand(c, cat->syscalls[i].name);
		for (size_t i = 0; cat && i < cat->nstructs; i++)
			cand(c, cat->structs[i].name);
		if (strcmp(cmd->name, "new"))
			for (size_t i = 0; cat && i < cat->nflagsets; i++)
				cand(c, cat->flagsets[i].name);
		break;
	case COMP_FIELD:
		for (size_t i = 0; s->cur && i < s->cur->st->nfields; i++)
			cand(c, s->cur->st->fields[i].name);
		break;
	case COMP_VALUE: {
		const struct field *f = NULL;
		for (int i = nwords - 1; i > 0 && !f; i--)
			f = field_named(words[i]);
		if (f)
			cand_flagset(c, f->flagset);
		if (cat)
			cand_flagset(c, catalog_find_flagset(cat, "constants"));
		break;
	}
	case COMP_BUFFER:
		for (size_t i = 0; i < s->nbufs; i++)
			cand(c, s->bufs[i]->name);
		break;
	case COMP_VERSION:
		for (size_t i = 0; s->cur && i < s->cur->st->nversions; i++) {
			char v[24];
			snprintf(v, sizeof(v), "VER%zu", i);
			cand(c, v);
			if (s->cur->st->versions[i].name)
				cand(c, s->cur->st->versions[i].name);
		}
		break;
	case COMP_EXPECT:
		cand(c, "ok");
		cand(c, "errno");
		cand(c, "ret");
		cand(c, "size");
		cand(c, "field");
		cand(c, "bytes");
		break;
	case COMP_FILE:
	case COMP_NONE:
		break;
	}
}

static char **complete(const char *text, int start, int end)
{
	(void)end;
	rl_attempted_completion_over = 1;
	/* words before the one under the cursor, within the current ';'-separated command */
	char *head = xstrndup(rl_line_buffer, (size_t)start);
	char *cmdstart = strrchr(head, ';');
	char **words = NULL;
	int nwords = 0;
	size_t alloc = 0;
	for (char *p = cmdstart ? cmdstart + 1 : head; *p;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		char *w = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
		ALLOC_GROW(words, (size_t)nwords + 1, alloc);
		words[nwords++] = xstrndup(w, (size_t)(p - w));
	}
	/* inside a value (after | & or '('), complete as a value of the same field */
	bool in_value = start > 0 && strchr("|&(", rl_line_buffer[start - 1]);
	struct cands c = { text, strlen(text), NULL, 0, 0 };
	const struct command *cmd = nwords ? command_find(words[0]) : NULL;
	if (cmd && cmd->comp[nwords - 1 < 2 ? nwords - 1 : 2] == COMP_FILE) {
		for (int i = 0; i < nwords; i++)
			free(words[i]);
		free(words);
		free(head);
		rl_attempted_completion_over = 0;
		return NULL; /* readline's own file-name completion */
	}
	if (in_value && nwords >= 2) {
		const struct field *f = NULL;
		for (int i = nwords - 1; i > 0 && !f; i--)
			f = field_named(words[i]);
		/* the word before the cursor may itself be a partial value like O_CREAT| */
		if (f)
			cand_flagset(&c, f->flagset);
		if (repl_session->cat)
			cand_flagset(&c, catalog_find_flagset(repl_session->cat, "constants"));
	} else {
		collect(&c, words, nwords);
	}
	for (int i = 0; i < nwords; i++)
		free(words[i]);
	free(words);
	free(head);
	if (!c.n) {
		free(c.v);
		return NULL;
	}
	/* "flags=" goes on with the value: no space after it */
	rl_completion_append_character = c.n == 1 && c.v[0][strlen(c.v[0]) - 1] == '=' ? '\0' : ' ';
	/* matches[0] is the longest common prefix, as readline expects */
	char **m = xmalloc((c.n + 2) * sizeof(*m));
	size_t lcp = strlen(c.v[0]);
	for (size_t i = 1; i < c.n; i++) {
		size_t k = 0;
		while (k < lcp && c.v[i][k] == c.v[0][k])
			k++;
		lcp = k;
	}
	m[0] = xstrndup(c.v[0], lcp);
	memcpy(m + 1, c.v, c.n * sizeof(*m));
	m[c.n + 1] = NULL;
	free(c.v);
	return m;
}

/* ---- history ---- */

static char *history_path(bool create_dir)
{
	struct sbuf sb = SBUF_INIT;
	const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	if (state && *state == '/')
		sbuf_adds(&sb, state);
	else if (home && *home)
		sbuf_addf(&sb, "%s/.local/state", home);
	else
		return NULL;
	sbuf_adds(&sb, "/xsc/history");
	if (create_dir)
		mkdir_parents(sb.buf, 0700);
	return sbuf_detach(&sb);
}

/* The file gets each command as it runs (as bash's histappend), so a crash, a signal or a
 * second REPL loses none; it is cut to HISTORY_MAX lines when the REPL ends. */
static void history_append(const char *path)
{
	static bool warned;
	if (!path)
		return;
	/* append_history only appends to a file that exists */
	int e = access(path, F_OK) ? write_history(path) : append_history(1, path);
	if (e && !warned)
		warning("cannot save the history to '%s': %s", path, strerror(e));
	warned |= e != 0;
}

/* Leaving is not worth recalling. */
static bool is_quit(const char *line)
{
	size_t n = strspn(line, " \t");
	size_t len = strcspn(line + n, " \t");
	return len == 4 && !strncmp(line + n, "quit", 4) && !line[n + len + strspn(line + n + len, " \t")];
}

static void remember(const char *hist, const char *line)
{
	struct sbuf shown = SBUF_INIT; /* a URL's password is never recorded (headers/fetch.h) */
	fetch_redact(line, &shown);
	HIST_ENTRY *last = history_length ? history_get(history_base + history_length - 1) : NULL;
	if (!is_quit(shown.buf) && !(last && !strcmp(last->line, shown.buf))) {
		add_history(shown.buf);
		history_append(hist);
	}
	sbuf_release(&shown);
}

/* ---- reading a line: readline's callback interface, so that xsc's own loop waits and sees
 * the signals (readline's own handlers clean up and send the signal on to xsc, which would
 * end it; a readline() call cannot be left for a fresh prompt without longjmp) ---- */

static char *line_read;
static bool line_done;

static void on_line(char *line)
{
	line_read = line;
	line_done = true;
	rl_callback_handler_remove(); /* the terminal is the command's until the next prompt */
}

/* Ctrl-C at the prompt: drop the line and prompt afresh, as bash and python do. */
static void drop_line(void)
{
	rl_free_line_state();
	rl_callback_sigcleanup(); /* leaves a search (C-r) or a numeric argument */
	rl_point = rl_end;        /* the ^C goes after the whole line, not over it */
	rl_redisplay();
	fputs("^C", rl_outstream);
	rl_crlf();
	rl_replace_line("", 0);
	rl_on_new_line();
	rl_redisplay();
}

/* ^Z or ^\ at the prompt: the shell gets the terminal in its own modes, and after ^Z and
 * fg the line is as it was. */
static void obey(void)
{
	char *text = xstrdup(rl_line_buffer);
	int point = rl_point;
	bool quit = sig_prompt_asked() == SIGQUIT;
	fputs(quit ? "^\\" : "^Z", rl_outstream);
	if (quit) /* the shell's "Quit" goes on a line of its own; on ^Z it adds one */
		rl_crlf();
	rl_callback_handler_remove();
	sig_obey();
	rl_callback_handler_install(prompt, on_line);
	rl_replace_line(text, 0);
	rl_point = point;
	rl_redisplay();
	free(text);
}

/* One line from the terminal; NULL at the end of input or on SIGTERM/SIGHUP. */
static char *read_line(void)
{
	line_read = NULL;
	line_done = false;
	sig_catch_prompt(true);
	prompt_update(repl_session);
	rl_callback_handler_install(prompt, on_line);
	while (!line_done && !sig_fatal()) {
		if (sig_prompt_asked()) {
			obey();
			continue;
		}
		struct pollfd p = { STDIN_FILENO, POLLIN, 0 };
		int r = sig_poll(&p, 1, -1);
		if (r > 0) {
			rl_callback_read_char();
		} else if (r < 0 && errno == ECANCELED && !sig_fatal()) {
			sig_clear();
			drop_line();
		} else if (r < 0 && errno != EINTR && errno != ECANCELED) {
			break;
		}
	}
	if (!line_done)
		rl_callback_handler_remove();
	if (sig_prompt_asked()) /* came as the line ended; the terminal is already back */
		sig_obey();
	sig_catch_prompt(false); /* a command stops or quits as any program does */
	return line_read;
}

int repl_run(struct session *s)
{
	repl_session = s;
	rl_readline_name = "xsc";
	rl_catch_signals = 0; /* sig.c's handlers stay; read_line notices them */
	rl_attempted_completion_function = complete;
	rl_basic_word_break_characters = " \t;|&(";
	rl_completer_word_break_characters = (char *)" \t;|&(";
	char *hist = history_path(true);
	using_history();
	stifle_history(HISTORY_MAX);
	if (hist)
		read_history(hist); /* a missing or odd file just means no history */
	int result = 0;
	banner(s);
	while (!s->quit && !sig_fatal()) {
		sig_clear();
		char *line = read_line();
		if (!line) {
			fputc('\n', stdout);
			break;
		}
		const char *p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p) {
			remember(hist, line);
			result = run_line(s, line);
			if (sig_interrupted()) /* a write the signal cut short is no lasting error */
				clearerr(stdout);
		}
		free(line);
	}
	if (hist)
		history_truncate_file(hist, HISTORY_MAX);
	free(hist);
	rl_clear_history();
	return result;
}
