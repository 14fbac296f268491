/* lesson: guided lessons (teach/lesson.h); checks each step after every command. */
#include <stdlib.h>
#include <string.h>
#include "base/sig.h"
#include "cmd/commands.h"
#include "model/dataload.h"
#include "model/kver.h"
#include "teach/lesson.h"
#include "base/banned.h"

struct lesson_state {
	struct lesson l;
	size_t step;
	char **ran;        /* the commands typed during this step */
	size_t nran, ralloc;
	unsigned long calls_seen; /* the session's call count when last looked: a new one is a call */
	char *why;         /* why the step has not passed, as last judged, or NULL */
	bool quiet;        /* --check: no progress messages */
	bool save;         /* progress is kept in the state directory (not for a solution checked) */
};

static void lesson_state_free(struct lesson_state *ls)
{
	if (!ls)
		return;
	for (size_t i = 0; i < ls->nran; i++)
		free(ls->ran[i]);
	free(ls->ran);
	free(ls->why);
	lesson_release(&ls->l);
	free(ls);
}

static void lesson_after_command(struct session *s, void *state, const char *text, int result);
static void lesson_release_state(void *state)
{
	lesson_state_free(state);
}
/* A lesson in progress is the session's observer: it checks its step after every command. */
static const struct session_observer lesson_observer = { lesson_after_command, lesson_release_state };

/* The lesson in progress in s, or NULL. */
static struct lesson_state *lesson_of(const struct session *s)
{
	return s->observer == &lesson_observer ? s->observer_state : NULL;
}

/* ---- progress, kept under $XDG_STATE_HOME/xsc/lessons ----
 * "current N STEP" (the lesson in progress and its step, from 1) and "lesson N BEST TOTAL"
 * (the most steps ever passed of N's TOTAL): a text file, written whole by the state writer. */

#define LESSON_MAX 99
#define PROGRESS_MAX 4096

struct progress {
	unsigned current, current_step;
	unsigned best[LESSON_MAX + 1], total[LESSON_MAX + 1];
};

static char *progress_path(void)
{
	struct sbuf sb = SBUF_INIT;
	const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	if (state && *state == '/')
		sbuf_adds(&sb, state);
	else if (home && *home == '/')
		sbuf_addf(&sb, "%s/.local/state", home);
	else
		return NULL;
	sbuf_adds(&sb, "/xsc/lessons");
	return sbuf_detach(&sb);
}

/* What the file says; nothing when there is none or it is not the user's own. A line that
 * does not parse is skipped: the file is only a convenience. */
static void progress_read(struct progress *p)
{
	memset(p, 0, sizeof(*p));
	char *path = progress_path(), *text;
	size_t len;
	if (!path || safe_cache_read(path, PROGRESS_MAX, &text, &len) < 0) {
		free(path);
		return;
	}
	free(path);
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		unsigned a, b, c;
		if (sscanf(line, "current %u %u", &a, &b) == 2 && a && a <= LESSON_MAX && b)
			p->current = a, p->current_step = b;
		else if (sscanf(line, "lesson %u %u %u", &a, &b, &c) == 3 && a && a <= LESSON_MAX && b <= c)
			p->best[a] = b, p->total[a] = c;
		line = nl ? nl + 1 : NULL;
	}
	free(text);
}

/* Records where ls stands. A failure to write is a warning: the lesson goes on. */
static void progress_save(const struct lesson_state *ls)
{
	if (!ls->save)
		return;
	struct progress p;
	progress_read(&p);
	unsigned n = ls->l.number;
	bool done = ls->step >= ls->l.nsteps;
	p.current = done ? 0 : n;
	p.current_step = (unsigned)ls->step + 1;
	if (p.total[n] != ls->l.nsteps) /* the lesson changed since: its old count means nothing */
		p.best[n] = 0;
	p.total[n] = (unsigned)ls->l.nsteps;
	if (ls->step > p.best[n])
		p.best[n] = (unsigned)ls->step;
	struct sbuf sb = SBUF_INIT;
	sbuf_adds(&sb, "# xsc lesson progress: 'current LESSON STEP', 'lesson N STEPS-PASSED STEPS'\n");
	if (p.current)
		sbuf_addf(&sb, "current %u %u\n", p.current, p.current_step);
	for (unsigned i = 1; i <= LESSON_MAX; i++)
		if (p.total[i])
			sbuf_addf(&sb, "lesson %u %u %u\n", i, p.best[i], p.total[i]);
	char *path = progress_path();
	if (path && safe_cache_write(path, sb.buf, sb.len) < 0)
		warning("cannot save the lesson progress to '%s'", path);
	free(path);
	sbuf_release(&sb);
}

/* ---- the checks ---- */

/* Does the typed command start with the words of want? */
static bool starts_with_words(const char *typed, const char *want)
{
	while (*typed == ' ' || *typed == '\t')
		typed++;
	size_t n = strlen(want);
	return !strncmp(typed, want, n) && (!typed[n] || strchr(" \t;#\n", typed[n]));
}

static void keep_message(const char *kind, const char *msg, void *arg)
{
	struct sbuf *sb = arg;
	if (!sb->len)
		sbuf_addf(sb, "%s%s", kind, msg);
}

/* An 'expect' check, run quietly: its own message says what it saw and what it wanted. */
static bool expect_holds(struct session *s, const char *check, struct sbuf *why)
{
	struct session_capture cap;
	if (session_capture_begin(s, &cap) < 0)
		return false;
	struct sbuf msg = SBUF_INIT;
	bool json = s->json;
	s->json = false;
	diag_set_sink(keep_message, &msg);
	int r = s->runner->bare(s, check);
	diag_set_sink(NULL, NULL);
	s->json = json;
	session_capture_end(s, &cap, NULL, NULL);
	const char *m = msg.buf;
	if (!strncmp(m, "expectation failed: ", 20))
		m += 20;
	if (r)
		sbuf_addf(why, "%s: %s", check, *m ? m : "it does not hold");
	sbuf_release(&msg);
	return r == 0;
}

static void target_words(const struct session *s, struct sbuf *sb)
{
	char kv[16];
	if (s->sim)
		sbuf_addf(sb, "sim %s%s", kver_str(s->sim_kv, kv), s->check_fields ? " --check-fields" : "");
	else
		sbuf_adds(sb, "live");
}

static bool target_holds(const struct session *s, const char *arg)
{
	if (!strcmp(arg, "live"))
		return !s->sim;
	char v[32];
	bool cf = strstr(arg, "--check-fields") != NULL;
	uint32_t kv;
	if (sscanf(arg, "sim %31s", v) != 1 || kver_parse(v, &kv, 0) < 0)
		return false;
	return s->sim && s->sim_kv == kver_release(kv) && s->check_fields == cf;
}

static bool designed_holds(struct session *s, const char *arg, struct sbuf *why)
{
	const char *dot = strchr(arg, '.');
	char *name = xstrndup(arg, dot ? (size_t)(dot - arg) : strlen(arg));
	const struct syscall *sc = dot ? NULL : session_find_syscall(s, name);
	const struct cstruct *st = session_find_struct(s, name);
	bool st_designed = st && st->file && !strcmp(st->file, "(designed)");
	bool ok = (sc && sc->designed) || (st_designed && (!dot || cstruct_find_field(st, dot + 1)));
	if (!ok && dot && st_designed)
		sbuf_addf(why, "struct %s has no field %s yet", name, dot + 1);
	else if (!ok)
		sbuf_addf(why, "nothing named %s has been designed yet", name);
	free(name);
	return ok;
}

/* One check against the session, right after a command (a call when called). When it does
 * not hold, why says what was seen and what was wanted. */
static bool check_holds(struct session *s, struct lesson_state *ls, const char *check, bool called, struct sbuf *why)
{
	const char *arg = lesson_check_arg(check);
	bool judged = ls->l.steps[ls->step].judges_call;
	switch (lesson_check_kind(check)) {
	case LC_EXPECT:
		return expect_holds(s, check, why);
	case LC_RAN:
		for (size_t i = 0; i < ls->nran; i++)
			if (starts_with_words(ls->ran[i], arg))
				return true;
		sbuf_addf(why, "'%s' has not been run in this step", arg);
		return false;
	case LC_CALLED:
		if (called && !strcmp(s->last_sc->name, arg))
			return true;
		if (called)
			sbuf_addf(why, "the call was of %s, wanted %s", s->last_sc->name, arg);
		else
			sbuf_addf(why, "no call of %s in this step yet", arg);
		return false;
	case LC_BUFFER:
		if (s->cur && !strcmp(s->cur->st->name, arg))
			return true;
		if (s->cur)
			sbuf_addf(why, "the current buffer is a struct %s, wanted %s", s->cur->st->name, arg);
		else
			sbuf_addf(why, "there is no buffer yet, wanted a struct %s ('new %s')", arg, arg);
		return false;
	case LC_DESIGNED:
		return designed_holds(s, arg, why);
	case LC_SIZE:
		if (s->cur && lesson_size_holds(check, s->cur->size))
			return true;
		if (s->cur)
			sbuf_addf(why, "the buffer's size is %llu, wanted ", (unsigned long long)s->cur->size);
		else
			sbuf_adds(why, "there is no buffer yet, wanted a size ");
		lesson_size_words(check, why);
		return false;
	case LC_TARGET:
		if (target_holds(s, arg))
			return true;
		sbuf_adds(why, judged ? "the call went to " : "the target is ");
		target_words(s, why);
		sbuf_addf(why, ", wanted %s", arg);
		return false;
	}
	return false;
}

/* Do all the current step's checks hold? why gets the first that does not. */
static bool step_holds(struct session *s, struct lesson_state *ls, bool called, struct sbuf *why)
{
	const struct lesson_step *st = &ls->l.steps[ls->step];
	if (st->judges_call && !called) {
		sbuf_adds(why, "no call has been made in this step yet");
		return false;
	}
	for (size_t i = 0; i < st->nchecks; i++)
		if (!check_holds(s, ls, st->checks[i], called, why))
			return false;
	return true;
}

/* Lessons come with the catalogue, which may be anyone's: their text is shown safe. */
static char *safe_dup(const char *s, unsigned keep)
{
	struct sbuf sb = SBUF_INIT;
	safe_text(&sb, s, strlen(s), keep);
	return sbuf_detach(&sb);
}

/* text broken at spaces into lines of at most width columns (a projector shows 80) */
static void wrap(struct sbuf *sb, const char *text, size_t width)
{
	size_t col = 0;
	for (const char *p = text; *p;) {
		size_t w = strcspn(p, " ");
		if (col && col + 1 + w > width) {
			sbuf_addch(sb, '\n');
			col = 0;
		} else if (col) {
			sbuf_addch(sb, ' ');
			col++;
		}
		sbuf_add(sb, p, w);
		col += w;
		p += w + strspn(p + w, " ");
	}
}

static void show_step(struct out *o, struct lesson_state *ls)
{
	const struct lesson_step *st = &ls->l.steps[ls->step];
	struct sbuf words = SBUF_INIT, done = SBUF_INIT;
	sbuf_adds(&words, "(done when ");
	lesson_step_words(st, &words);
	sbuf_adds(&words, ")");
	wrap(&done, words.buf, 78);
	sbuf_release(&words);
	char *t = safe_dup(st->title, 0), *task = safe_dup(st->task, SAFE_NL | SAFE_TAB), *d = safe_dup(done.buf, SAFE_NL);
	out_text(o, "\n-- step %zu of %zu: %s --\n%s\n%s\n", ls->step + 1, ls->l.nsteps, t, task, d);
	free(t);
	free(task);
	free(d);
	sbuf_release(&done);
}

static void step_reset(struct lesson_state *ls)
{
	for (size_t i = 0; i < ls->nran; i++)
		free(ls->ran[i]);
	ls->nran = 0;
	free(ls->why);
	ls->why = NULL;
}

static void lesson_after_command(struct session *s, void *state, const char *text, int result)
{
	struct lesson_state *ls = state;
	(void)result;
	if (!ls || ls->step >= ls->l.nsteps || starts_with_words(text, "lesson"))
		return;
	bool called = s->calls != ls->calls_seen;
	ls->calls_seen = s->calls;
	ALLOC_GROW(ls->ran, ls->nran + 1, ls->ralloc);
	ls->ran[ls->nran++] = xstrdup(text);
	struct sbuf why = SBUF_INIT;
	bool quiet = ls->quiet || s->json;
	struct out o; /* after the command, in the session's stream: the lesson speaks as text */
	out_init(&o, s->out_fp, false, false);
	if (ls->l.steps[ls->step].judges_call && !called)
		return; /* only a call can pass it; why stays what the step's last call was told */
	if (!step_holds(s, ls, called, &why)) {
		if (called && !quiet) { /* an action was judged: say why it did not pass */
			char *w = safe_dup(why.buf, 0);
			out_text(&o, "\n(step %zu not passed: %s)\n", ls->step + 1, w);
			free(w);
			fflush(s->out_fp);
		}
		free(ls->why);
		ls->why = sbuf_detach(&why);
		return;
	}
	sbuf_release(&why);
	if (!quiet) {
		char *t = safe_dup(ls->l.steps[ls->step].title, 0);
		out_text(&o, "\n✓ step %zu passed: %s\n", ls->step + 1, t);
		free(t);
	}
	step_reset(ls);
	ls->step++;
	progress_save(ls);
	if (quiet)
		return;
	if (ls->step < ls->l.nsteps) {
		show_step(&o, ls);
	} else {
		char *t = safe_dup(ls->l.title, 0);
		out_text(&o, "\nlesson %u complete: %s\n", ls->l.number, t);
		free(t);
	}
	fflush(s->out_fp);
}

/* ---- finding and listing lessons ---- */

static int lesson_paths(struct session *s, char ***paths, size_t *np)
{
	char *dir = lesson_dir(s->data_dir ? s->data_dir : catalog_default_dir());
	if (!dir)
		return -1;
	int r = lesson_files(dir, paths, np);
	free(dir);
	return r;
}

static int find_lesson(struct session *s, unsigned n, struct lesson *l)
{
	char **paths;
	size_t np;
	if (lesson_paths(s, &paths, &np) < 0)
		return -1;
	const char *path = NULL;
	for (size_t i = 0; i < np; i++) {
		const char *base = strrchr(paths[i], '/') + 1;
		if ((unsigned)atoi(base) == n)
			path = paths[i];
	}
	int r = path ? lesson_load(path, l) : err("no lesson %u; 'lesson' lists them", n);
	lesson_files_free(paths, np);
	return r;
}

/* The lessons with the progress kept for each (progress: also where each stands). */
static int list_lessons(struct session *s, bool progress)
{
	struct out *o = &s->out;
	char **paths;
	size_t np;
	struct progress p;
	if (lesson_paths(s, &paths, &np) < 0)
		return -1;
	progress_read(&p);
	int r = 0;
	out_arr(o, NULL);
	for (size_t i = 0; i < np && !r; i++) {
		struct lesson l;
		if (lesson_load(paths[i], &l) < 0) {
			r = -1;
			break;
		}
		unsigned n = l.number <= LESSON_MAX ? l.number : 0;
		unsigned best = p.total[n] == l.nsteps ? p.best[n] : 0;
		struct sbuf st = SBUF_INIT;
		if (best == l.nsteps)
			sbuf_adds(&st, "done");
		else if (n && p.current == n)
			sbuf_addf(&st, "at step %u", p.current_step);
		else if (best)
			sbuf_addf(&st, "%u passed", best);
		if (progress)
			out_text(o, "  %2u  %-48s %u of %zu steps  %s\n", l.number, l.title, best, l.nsteps, st.buf);
		else
			out_text(o, "  %2u  %-48s %zu steps\n", l.number, l.title, l.nsteps);
		out_obj(o, NULL);
		out_u64(o, "number", l.number);
		out_str(o, "title", l.title);
		out_u64(o, "steps", l.nsteps);
		out_u64(o, "passed", best);
		out_bool(o, "current", n && p.current == n);
		out_end(o);
		sbuf_release(&st);
		lesson_release(&l);
	}
	out_end(o);
	if (!r && p.current)
		out_text(o, "lesson %u is in progress at step %u: 'lesson resume' goes on\n", p.current, p.current_step);
	else if (!r && !progress)
		out_text(o, "start one with 'lesson N'\n");
	lesson_files_free(paths, np);
	return r;
}

/* ---- grading a solution ---- */

/* --check: the solution script in a fresh session with the lesson attached. */
static int check_solution(struct session *s, struct lesson_state *ls, const char *file)
{
	FILE *fp = session_open_script(file);
	if (!fp) {
		lesson_state_free(ls);
		return -1;
	}
	struct session sub;
	session_init_child(&sub, s);
	session_observe(&sub, &lesson_observer, ls);
	sub.checking = true;
	ls->quiet = true;
	struct session_capture cap;
	struct sbuf errs = SBUF_INIT;
	bool captured = session_capture_begin(&sub, &cap) == 0;
	sub.runner->stream(&sub, fp, file);
	if (captured)
		session_capture_end(&sub, &cap, NULL, &errs);
	fclose(fp);
	if (sig_interrupted()) { /* no verdict on half a solution */
		sbuf_release(&errs);
		session_release(&sub);
		return sig_interrupt_err();
	}
	struct out *o = &s->out;
	bool ok = ls->step == ls->l.nsteps;
	struct sbuf why = SBUF_INIT;
	if (!ok && ls->why)
		sbuf_adds(&why, ls->why);
	else if (!ok && !step_holds(&sub, ls, false, &why) && !why.len)
		sbuf_adds(&why, "a check does not hold");
	out_obj(o, NULL);
	out_u64(o, "lesson", ls->l.number);
	out_str(o, "title", ls->l.title);
	out_u64(o, "steps", ls->l.nsteps);
	out_u64(o, "passed", ls->step);
	out_bool(o, "ok", ok);
	if (!ok)
		out_str(o, "why", why.buf);
	out_end(o);
	int r = 0;
	if (ok) {
		out_text(o, "lesson %u (%s): all %zu steps passed\n", ls->l.number, ls->l.title, ls->l.nsteps);
	} else {
		fputs(errs.buf, s->err_fp);
		r = err("lesson %u: step %zu ('%s') not passed by '%s': %s", ls->l.number, ls->step + 1,
			ls->l.steps[ls->step].title, file, why.buf);
	}
	sbuf_release(&why);
	sbuf_release(&errs);
	session_release(&sub); /* frees ls */
	return r;
}

/* ---- the command ---- */

static int print_solution(struct session *s, const struct lesson *l)
{
	char *path = lesson_solution_path(l), *text;
	size_t len;
	int r = 0;
	if (read_file_max(path, 1 << 16, &text, &len) < 0) {
		r = err("lesson %u has no solution file '%s'", l->number, path);
	} else {
		out_text(&s->out, "# lesson %u: %s (its solution, as 'lesson %u --check' grades it)\n", l->number, l->title,
			 l->number);
		out_puts(&s->out, text);
		out_obj(&s->out, NULL);
		out_u64(&s->out, "lesson", l->number);
		out_str(&s->out, "solution", text);
		out_end(&s->out);
		free(text);
	}
	free(path);
	return r;
}

/* lesson N in JSON: the lesson as the student meets it. */
static void lesson_json(struct out *o, const struct lesson_state *ls)
{
	out_obj(o, NULL);
	out_u64(o, "lesson", ls->l.number);
	out_str(o, "title", ls->l.title);
	out_str(o, "intro", ls->l.intro);
	out_u64(o, "step", ls->step + 1);
	out_arr(o, "steps");
	for (size_t i = 0; i < ls->l.nsteps; i++) {
		const struct lesson_step *st = &ls->l.steps[i];
		struct sbuf done = SBUF_INIT;
		lesson_step_words(st, &done);
		out_obj(o, NULL);
		out_str(o, "title", st->title);
		out_str(o, "task", st->task);
		out_str(o, "done_when", done.buf);
		out_bool(o, "judges_call", st->judges_call);
		out_arr(o, "checks");
		for (size_t k = 0; k < st->nchecks; k++)
			out_str(o, NULL, st->checks[k]);
		out_end(o);
		out_end(o);
		sbuf_release(&done);
	}
	out_end(o);
	out_end(o);
}

/* Makes ls the session's lesson, at step (0-based), and shows it. */
static int start_lesson(struct session *s, struct lesson_state *ls, size_t step)
{
	ls->step = step;
	ls->calls_seen = s->calls;
	ls->save = !s->no_effects;
	session_observe(s, &lesson_observer, ls);
	progress_save(ls);
	lesson_json(&s->out, ls);
	if (s->json)
		return 0;
	out_text(&s->out, "lesson %u: %s\n\n%s\n", ls->l.number, ls->l.title, ls->l.intro);
	if (step)
		out_text(&s->out, "\n(starting at step %zu of %zu)\n", step + 1, ls->l.nsteps);
	show_step(&s->out, ls);
	return 0;
}

static int parse_number(const char *what, const char *text, unsigned long max, unsigned long *n)
{
	char *end;
	*n = strtoul(text, &end, 10);
	if (*end || !*n || *n > max || *text == '-' || *text == '+')
		return usage_err("lesson: %s is a number from 1 to %lu, not '%s'", what, max, text);
	return 0;
}

/* What 'lesson' was given besides its verb: N and STEP, --check FILE or --solution. */
struct lesson_args {
	const char *check, *num, *stepw;
	bool solution;
};

static int refuse_in_check(const char *check)
{
	/* the solution being checked owns the lesson: it may not replace or end it */
	return check ? err("lesson --check cannot run inside a solution being checked ('%s')", check)
		     : err("'lesson' cannot run inside a solution being checked: it would replace the lesson graded");
}

/* Reads argv's options and operands into a; -1 or CMD_USAGE (reported) when they do not go together. */
static int lesson_args(struct session *s, int argc, char **argv, struct lesson_args *a)
{
	enum { O_CHECK = 256, O_SOLUTION };
	static const struct cmd_opt opts[] = { { "check", O_CHECK, "FILE.xsc" }, { "solution", O_SOLUTION, NULL }, { 0 } };
	struct cmd_opt_iter it = CMD_OPT_ITER(s, argc, argv);
	int k;
	*a = (struct lesson_args){ 0 };
	while ((k = cmd_opt_next(&it, opts)) != CMD_OPT_END) {
		if (k == O_CHECK)
			a->check = it.value;
		else if (k == O_SOLUTION)
			a->solution = true;
		else if (k == CMD_OPT_OPERAND && !a->num)
			a->num = it.value;
		else if (k == CMD_OPT_OPERAND && !a->stepw)
			a->stepw = it.value;
		else
			return k < 0 ? k : cmd_usage(s);
	}
	if (s->checking)
		return refuse_in_check(a->check);
	if ((a->check || a->solution) && (!a->num || a->stepw || (a->check && a->solution)))
		return cmd_usage(s);
	return 0;
}

/* Lesson n at step (1-based; STEP when given): started, its solution checked or printed. */
static int lesson_open(struct session *s, const struct lesson_args *a, unsigned long n, unsigned long step)
{
	struct lesson_state *ls = xcalloc(1, sizeof(*ls));
	if (find_lesson(s, (unsigned)n, &ls->l) < 0) {
		free(ls);
		return -1;
	}
	if (a->stepw && parse_number("STEP", a->stepw, ls->l.nsteps, &step) < 0) {
		lesson_state_free(ls);
		return CMD_USAGE;
	}
	if (step > ls->l.nsteps) /* the lesson lost steps since it was saved */
		step = 1;
	if (a->check)
		return check_solution(s, ls, a->check);
	if (a->solution) {
		int r = print_solution(s, &ls->l);
		lesson_state_free(ls);
		return r;
	}
	return start_lesson(s, ls, step - 1);
}

/* Whether a verb that takes nothing after it (stop, progress) may run: 0, or the refusal. */
static int bare_verb(struct session *s, int argc)
{
	if (s->checking)
		return refuse_in_check(NULL);
	return argc != 2 ? cmd_usage(s) : 0;
}

static int lesson_stop(struct session *s, int argc, char **argv)
{
	(void)argv;
	int r = bare_verb(s, argc);
	if (!r && lesson_of(s))
		session_observe(s, NULL, NULL);
	return r;
}

static int lesson_progress(struct session *s, int argc, char **argv)
{
	(void)argv;
	int r = bare_verb(s, argc);
	return r ? r : list_lessons(s, true);
}

/* lesson resume [--check FILE | --solution]: the lesson and step the progress file holds */
static int lesson_resume(struct session *s, int argc, char **argv)
{
	struct lesson_args a;
	int r = lesson_args(s, argc, argv, &a);
	if (r)
		return r;
	if (a.stepw)
		return cmd_usage(s);
	struct progress p;
	progress_read(&p);
	if (!p.current)
		return err("no lesson in progress to resume; 'lesson N' starts one");
	return lesson_open(s, &a, p.current, p.current_step);
}

static int lesson_number(struct session *s, int argc, char **argv);
static const struct verb lesson_verbs[] = {
	{ "stop", lesson_stop, 0 },
	{ "progress", lesson_progress, 0 },
	{ "resume", lesson_resume, 0 },
	{ NULL, lesson_number, 0 },
};

/* lesson N [STEP] [--check FILE | --solution], or options first (then the verb may follow
 * them: lesson --check FILE resume); a word that is not a number is an unknown verb */
static int lesson_number(struct session *s, int argc, char **argv)
{
	struct lesson_args a;
	unsigned long n;
	int r = lesson_args(s, argc, argv, &a);
	if (r)
		return r;
	if (!a.num)
		return cmd_usage(s);
	const struct verb *v = cmd_verb_find(lesson_verbs, a.num);
	if (v)
		return v->fn(s, argc, argv);
	if (*a.num < '0' || *a.num > '9')
		return cmd_unknown_verb(s, lesson_verbs, "verb", a.num);
	if (parse_number("N", a.num, LESSON_MAX, &n) < 0)
		return CMD_USAGE;
	return lesson_open(s, &a, n, 1);
}

/* Without a verb or N: the step the lesson under way is at, else the lessons. */
int cmd_lesson(struct session *s, int argc, char **argv)
{
	struct out *o = &s->out;
	if (argc > 1)
		return cmd_select(s, lesson_verbs, "verb", argc, argv);
	if (s->checking)
		return refuse_in_check(NULL);
	struct lesson_state *cur = lesson_of(s);
	if (cur && cur->step < cur->l.nsteps) {
		lesson_json(o, cur);
		out_text(o, "lesson %u: %s", cur->l.number, cur->l.title);
		show_step(o, cur);
		if (cur->why)
			out_text(o, "(not passed yet: %s)\n", cur->why);
		return 0;
	}
	return list_lessons(s, false);
}
