/* lesson: guided lessons (teach/lesson.h); checks each step after every command. */
#include <stdlib.h>
#include <string.h>
#include "base/sig.h"
#include "cmd/commands.h"
#include "model/dataload.h"
#include "model/kver.h"
#include "teach/lesson.h"
#include "teach/transcript.h"
#include "base/banned.h"

struct lesson_state {
	struct lesson l;
	size_t step;
	char **ran;        /* the commands typed during this step */
	size_t nran, ralloc;
	bool quiet;        /* --check: no progress messages */
};

void lesson_state_free(struct lesson_state *ls)
{
	if (!ls)
		return;
	for (size_t i = 0; i < ls->nran; i++)
		free(ls->ran[i]);
	free(ls->ran);
	lesson_release(&ls->l);
	free(ls);
}

/* Does the typed command start with the words of want? */
static bool starts_with_words(const char *typed, const char *want)
{
	while (*typed == ' ' || *typed == '\t')
		typed++;
	size_t n = strlen(want);
	return !strncmp(typed, want, n) && (!typed[n] || strchr(" \t;#\n", typed[n]));
}

/* One check against the session. */
static bool check_holds(struct session *s, struct lesson_state *ls, const char *check)
{
	const char *arg = check + strcspn(check, " \t");
	while (*arg == ' ' || *arg == '\t')
		arg++;
	if (!strncmp(check, "expect", 6)) {
		char **argv;
		bool *quoted;
		const char *rest;
		int argc = session_tokenize(check, &rest, &argv, &quoted);
		if (argc <= 0)
			return false;
		struct capture cap;
		if (capture_begin(&cap) < 0) {
			free_argv(argc, argv, quoted);
			return false;
		}
		bool json = s->json;
		s->json = false;
		const bool *q = s->quoted;
		s->quoted = quoted;
		bool was_quiet = diag_set_quiet(true);
		int r = command_run(s, argc, argv);
		diag_set_quiet(was_quiet);
		s->quoted = q;
		s->json = json;
		capture_end(&cap, NULL, NULL);
		free_argv(argc, argv, quoted);
		return r == 0;
	}
	if (!strncmp(check, "ran", 3)) {
		for (size_t i = 0; i < ls->nran; i++)
			if (starts_with_words(ls->ran[i], arg))
				return true;
		return false;
	}
	if (!strncmp(check, "called", 6))
		return s->have_last && s->last_sc && !strcmp(s->last_sc->name, arg);
	if (!strncmp(check, "buffer", 6))
		return s->cur && !strcmp(s->cur->st->name, arg);
	if (!strncmp(check, "designed", 8)) {
		const struct syscall *sc = session_find_syscall(s, arg);
		const struct cstruct *st = session_find_struct(s, arg);
		return (sc && sc->designed) || (st && st->file && !strcmp(st->file, "(designed)"));
	}
	if (!strncmp(check, "target", 6)) {
		if (!strcmp(arg, "live"))
			return !s->sim;
		char v[32];
		bool cf = strstr(arg, "--check-fields") != NULL;
		uint32_t kv;
		if (sscanf(arg, "sim %31s", v) != 1 || kver_parse(v, &kv, 0) < 0)
			return false;
		return s->sim && s->sim_kv == kver_release(kv) && s->check_fields == cf;
	}
	return false;
}

/* The first check of the current step that does not hold, or NULL. */
static const char *first_failing(struct session *s, struct lesson_state *ls)
{
	const struct lesson_step *st = &ls->l.steps[ls->step];
	for (size_t i = 0; i < st->nchecks; i++)
		if (!check_holds(s, ls, st->checks[i]))
			return st->checks[i];
	return NULL;
}

/* Lessons come with the catalogue, which may be anyone's: their text is shown safe. */
static char *safe_dup(const char *s, unsigned keep)
{
	struct sbuf sb = SBUF_INIT;
	safe_text(&sb, s, strlen(s), keep);
	return sbuf_detach(&sb);
}

static void show_step(struct lesson_state *ls)
{
	const struct lesson_step *st = &ls->l.steps[ls->step];
	char *t = safe_dup(st->title, 0), *task = safe_dup(st->task, SAFE_NL | SAFE_TAB);
	printf("\n-- step %zu of %zu: %s --\n%s\n", ls->step + 1, ls->l.nsteps, t, task);
	free(t);
	free(task);
}

void lesson_after_command(struct session *s, const char *text, int result)
{
	struct lesson_state *ls = s->lesson;
	(void)result;
	if (!ls || ls->step >= ls->l.nsteps || starts_with_words(text, "lesson"))
		return;
	ALLOC_GROW(ls->ran, ls->nran + 1, ls->ralloc);
	ls->ran[ls->nran++] = xstrdup(text);
	if (first_failing(s, ls))
		return;
	if (!ls->quiet) {
		char *t = safe_dup(ls->l.steps[ls->step].title, 0);
		printf("\n✓ step %zu passed: %s\n", ls->step + 1, t);
		free(t);
	}
	for (size_t i = 0; i < ls->nran; i++)
		free(ls->ran[i]);
	ls->nran = 0;
	ls->step++;
	if (ls->quiet)
		return;
	if (ls->step < ls->l.nsteps) {
		show_step(ls);
	} else {
		char *t = safe_dup(ls->l.title, 0);
		printf("\nlesson %u complete: %s\n", ls->l.number, t);
		free(t);
	}
	fflush(stdout);
}

static int find_lesson(struct session *s, unsigned n, struct lesson *l)
{
	char *dir = lesson_dir(s->data_dir ? s->data_dir : catalog_default_dir());
	char **paths;
	size_t np;
	if (!dir)
		return -1;
	int r = lesson_files(dir, &paths, &np);
	free(dir);
	if (r < 0)
		return -1;
	const char *path = NULL;
	for (size_t i = 0; i < np; i++) {
		const char *base = strrchr(paths[i], '/') + 1;
		if ((unsigned)atoi(base) == n)
			path = paths[i];
	}
	r = path ? lesson_load(path, l) : err("no lesson %u; 'lesson' lists them", n);
	lesson_files_free(paths, np);
	return r;
}

static int list_lessons(struct session *s)
{
	struct out *o = &s->out;
	char *dir = lesson_dir(s->data_dir ? s->data_dir : catalog_default_dir());
	char **paths;
	size_t np;
	if (!dir)
		return -1;
	int r = lesson_files(dir, &paths, &np);
	free(dir);
	if (r < 0)
		return -1;
	out_arr(o, NULL);
	for (size_t i = 0; i < np && !r; i++) {
		struct lesson l;
		if (lesson_load(paths[i], &l) < 0) {
			r = -1;
			break;
		}
		out_text(o, "  %2u  %-48s %zu steps\n", l.number, l.title, l.nsteps);
		out_obj(o, NULL);
		out_u64(o, "number", l.number);
		out_str(o, "title", l.title);
		out_u64(o, "steps", l.nsteps);
		out_end(o);
		lesson_release(&l);
	}
	out_end(o);
	if (!r)
		out_text(o, "start one with 'lesson N'\n");
	lesson_files_free(paths, np);
	return r;
}

/* --check: the solution script in a fresh session with the lesson attached. */
static int check_solution(struct session *s, struct lesson_state *ls, const char *file)
{
	if (s->checking) { /* a solution that checks itself would never end */
		lesson_state_free(ls);
		return err("lesson --check cannot run inside a solution being checked ('%s')", file);
	}
	FILE *fp = session_open_script(file);
	if (!fp) {
		lesson_state_free(ls);
		return -1;
	}
	struct session sub;
	session_init(&sub);
	sub.cat = s->cat;
	sub.data_dir = s->data_dir;
	sub.timeout_ms = s->timeout_ms;
	sub.color = COLOR_NEVER;
	sub.keep_going = true;
	sub.lesson = ls;
	sub.checking = true;
	ls->quiet = true;
	struct capture cap;
	struct sbuf errs = SBUF_INIT;
	bool captured = capture_begin(&cap) == 0;
	session_run_stream(&sub, fp, file);
	if (captured)
		capture_end(&cap, NULL, &errs);
	fclose(fp);
	if (sig_interrupted()) { /* no verdict on half a solution */
		sbuf_release(&errs);
		sub.cat = NULL;
		session_release(&sub);
		return sig_interrupt_err();
	}
	struct out *o = &s->out;
	const char *failing = ls->step < ls->l.nsteps ? first_failing(&sub, ls) : NULL;
	out_obj(o, NULL);
	out_u64(o, "lesson", ls->l.number);
	out_str(o, "title", ls->l.title);
	out_u64(o, "steps", ls->l.nsteps);
	out_u64(o, "passed", ls->step);
	out_bool(o, "ok", ls->step == ls->l.nsteps);
	out_end(o);
	int r = 0;
	if (ls->step == ls->l.nsteps) {
		out_text(o, "lesson %u (%s): all %zu steps passed\n", ls->l.number, ls->l.title, ls->l.nsteps);
	} else {
		fputs(errs.buf, stderr);
		r = err("lesson %u: step %zu ('%s') not passed by '%s': '%s' does not hold", ls->l.number, ls->step + 1,
			ls->l.steps[ls->step].title, file, failing ? failing : "(a check)");
	}
	sbuf_release(&errs);
	sub.cat = NULL;
	session_release(&sub); /* frees ls */
	return r;
}

int cmd_lesson(struct session *s, int argc, char **argv)
{
	struct out *o = &s->out;
	const char *check = NULL, *num = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--check") && i + 1 < argc)
			check = argv[++i];
		else if (!num)
			num = argv[i];
		else
			return command_usage(command_find("lesson"));
	}
	if (!num) {
		if (check)
			return command_usage(command_find("lesson"));
		if (s->lesson && s->lesson->step < s->lesson->l.nsteps) {
			out_text(o, "lesson %u: %s", s->lesson->l.number, s->lesson->l.title);
			show_step(s->lesson);
			return 0;
		}
		return list_lessons(s);
	}
	if (!strcmp(num, "stop")) {
		lesson_state_free(s->lesson);
		s->lesson = NULL;
		return 0;
	}
	char *end;
	unsigned long n = strtoul(num, &end, 10);
	if (*end || !n || n > 99)
		return usage_err("lesson: N is a lesson number, not '%s'", num);
	struct lesson_state *ls = xcalloc(1, sizeof(*ls));
	if (find_lesson(s, (unsigned)n, &ls->l) < 0) {
		free(ls);
		return -1;
	}
	if (check)
		return check_solution(s, ls, check);
	lesson_state_free(s->lesson);
	s->lesson = ls;
	out_text(o, "lesson %u: %s\n\n%s\n", ls->l.number, ls->l.title, ls->l.intro);
	fflush(stdout);
	show_step(ls);
	return 0;
}
