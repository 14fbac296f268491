#include "teach/lesson.h"
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/diag.h"
#include "base/banned.h"

char *lesson_dir(const char *data_dir)
{
	const char *env = getenv("XSC_LESSONS");
	struct sbuf sb = SBUF_INIT;
	if (env && *env)
		sbuf_adds(&sb, env);
	else if (data_dir)
		sbuf_addf(&sb, "%s/../docs/lessons", data_dir);
	else
		return NULL; /* no catalogue found, and catalog_default_dir said where it looked */
	return sbuf_detach(&sb);
}

int lesson_files(const char *dir, char ***paths, size_t *n)
{
	DIR *d = opendir(dir);
	*paths = NULL;
	*n = 0;
	if (!d)
		return err("cannot open the lessons directory '%s': %s", dir, strerror(errno));
	size_t alloc = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len < 6 || e->d_name[0] < '0' || e->d_name[0] > '9' || e->d_name[1] < '0' || e->d_name[1] > '9' ||
		    e->d_name[2] != '-' || strcmp(e->d_name + len - 3, ".md"))
			continue;
		struct sbuf p = SBUF_INIT;
		sbuf_addf(&p, "%s/%s", dir, e->d_name);
		ALLOC_GROW(*paths, *n + 1, alloc);
		(*paths)[(*n)++] = sbuf_detach(&p);
	}
	closedir(d);
	if (!*n)
		return err("no lessons (NN-name.md) in '%s'", dir);
	qsort(*paths, *n, sizeof(**paths), cmp_strp);
	return 0;
}

void lesson_files_free(char **paths, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

/* In the order of enum lesson_check_kind. */
static const char *const directives[] = { "expect", "ran", "called", "target", "buffer", "designed", "size", NULL };

int lesson_check_kind(const char *check)
{
	size_t n = strcspn(check, " \t");
	for (int i = 0; directives[i]; i++)
		if (strlen(directives[i]) == n && !strncmp(check, directives[i], n))
			return i;
	return -1;
}

const char *lesson_check_arg(const char *check)
{
	const char *arg = check + strcspn(check, " \t");
	return arg + strspn(arg, " \t");
}

/* 'size OP N': the operator's length (0 when there is none) and N. */
static size_t size_op(const char *check, uint64_t *n)
{
	const char *a = lesson_check_arg(check);
	size_t op = strspn(a, "<>=");
	if (!op || op > 2 || (op == 2 && a[1] != '='))
		return 0;
	const char *num = a + op + strspn(a + op, " ");
	char *end;
	if (*num < '0' || *num > '9')
		return 0;
	*n = strtoull(num, &end, 0);
	return *end ? 0 : op;
}

bool lesson_size_holds(const char *check, uint64_t have)
{
	uint64_t n;
	size_t op = size_op(check, &n);
	const char *a = lesson_check_arg(check);
	if (!op)
		return false;
	if (*a == '=')
		return have == n;
	bool eq = op == 2 && have == n;
	return eq || (*a == '<' ? have < n : have > n);
}

void lesson_size_words(const char *check, struct sbuf *sb)
{
	const char *op = lesson_check_arg(check), *n = op + strspn(op, "<>= ");
	sbuf_addf(sb, "%s %s",
		  *op == '=' ? "exactly" : *op == '<' ? (op[1] == '=' ? "at most" : "below") : (op[1] == '=' ? "at least" : "above"), n);
}

/* Does a check speak of a call (so the step judges one)? */
static bool check_about_call(const char *check)
{
	int k = lesson_check_kind(check);
	if (k == LC_CALLED)
		return true;
	if (k != LC_EXPECT)
		return false;
	const char *a = lesson_check_arg(check);
	size_t n = strcspn(a, " \t");
	return (n == 2 && !strncmp(a, "ok", 2)) || (n == 5 && !strncmp(a, "errno", 5)) || (n == 3 && !strncmp(a, "ret", 3));
}

/* A check line that the evaluator can read, or why not (for path:line). */
static const char *check_invalid(const char *check)
{
	uint64_t n;
	int k = lesson_check_kind(check);
	if (k < 0)
		return "unknown check (expect, ran, called, target, buffer, designed, size)";
	if (!*lesson_check_arg(check))
		return "the check names nothing";
	if (k == LC_SIZE && !size_op(check, &n))
		return "a size check is 'size OP N' with OP one of < <= = >= >";
	return NULL;
}

static char *trimmed(const struct sbuf *sb)
{
	const char *b = sb->buf, *e = sb->buf + sb->len;
	while (*b == '\n')
		b++;
	while (e > b && (e[-1] == '\n' || e[-1] == ' '))
		e--;
	return xstrndup(b, (size_t)(e - b));
}

int lesson_load(const char *path, struct lesson *l)
{
	char *text;
	size_t len;
	memset(l, 0, sizeof(*l));
	if (read_file_max(path, 1 << 20, &text, &len) < 0)
		return err("cannot read lesson '%s': %s", path, strerror(errno));
	int r = lesson_parse(path, text, l);
	free(text);
	return r;
}

int lesson_parse(const char *path, const char *text, struct lesson *l)
{
	memset(l, 0, sizeof(*l));
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	l->number = (unsigned)atoi(base);
	l->path = xstrdup(path);
	struct sbuf prose = SBUF_INIT;
	size_t salloc = 0, calloc_ = 0;
	bool in_check = false, in_fence = false;
	unsigned long lineno = 0;
	int r = 0;
	struct lesson_step *cur = NULL;
	for (const char *p = text; *p && !r;) {
		char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *line = xstrndup(p, n);
		p += n + (nl ? 1 : 0);
		lineno++;
		if (in_check) {
			if (!strncmp(line, "```", 3)) {
				in_check = false;
			} else if (*line && *line != '#') {
				if (!cur)
					r = err("%s:%lu: a check before the first step", path, lineno);
				else if (check_invalid(line))
					r = err("%s:%lu: '%s': %s", path, lineno, line, check_invalid(line));
				else {
					ALLOC_GROW(cur->checks, cur->nchecks + 1, calloc_);
					cur->checks[cur->nchecks++] = xstrdup(line);
					cur->judges_call |= check_about_call(line);
				}
			}
		} else if (!in_fence && !strcmp(line, "```xsc-check")) {
			if (!cur)
				r = err("%s:%lu: a check block before the first '## ' step", path, lineno);
			in_check = true;
		} else if (!in_fence && !strncmp(line, "# ", 2) && !l->title) {
			l->title = xstrdup(line + 2);
		} else if (!in_fence && !strncmp(line, "## ", 3)) {
			if (cur)
				cur->task = trimmed(&prose);
			else
				l->intro = trimmed(&prose);
			sbuf_reset(&prose);
			ALLOC_GROW(l->steps, l->nsteps + 1, salloc);
			cur = &l->steps[l->nsteps++];
			memset(cur, 0, sizeof(*cur));
			const char *t = line + 3;
			if (!strncmp(t, "Step ", 5) && strchr(t, ':'))
				t = strchr(t, ':') + 1 + (strchr(t, ':')[1] == ' ');
			cur->title = xstrdup(t);
			calloc_ = 0;
		} else {
			if (!strncmp(line, "```", 3))
				in_fence = !in_fence;
			sbuf_addf(&prose, "%s\n", line);
		}
		free(line);
	}
	if (!r && in_check)
		r = err("%s: the last check block is not closed", path);
	if (!r && !l->title)
		r = err("%s: no '# ' title", path);
	if (!r && !l->nsteps)
		r = err("%s: no '## ' steps", path);
	for (size_t i = 0; !r && i < l->nsteps; i++)
		if (!l->steps[i].nchecks)
			r = err("%s: step %zu ('%s') has no xsc-check block", path, i + 1, l->steps[i].title);
	if (cur && !cur->task)
		cur->task = trimmed(&prose);
	else if (!cur && !l->intro)
		l->intro = trimmed(&prose);
	sbuf_release(&prose);
	if (r)
		lesson_release(l);
	return r;
}

void lesson_release(struct lesson *l)
{
	for (size_t i = 0; i < l->nsteps; i++) {
		free(l->steps[i].title);
		free(l->steps[i].task);
		for (size_t k = 0; k < l->steps[i].nchecks; k++)
			free(l->steps[i].checks[k]);
		free(l->steps[i].checks);
	}
	free(l->steps);
	free(l->path);
	free(l->title);
	free(l->intro);
	memset(l, 0, sizeof(*l));
}

/* ---- the checks in words, and the pages ---- */

/* 'expect ...' in words. */
static void expect_words(const char *a, struct sbuf *sb)
{
	char what[16] = "", x[64] = "", y[128] = "";
	sscanf(a, "%15s %63s %127[^\n]", what, x, y);
	if (!strcmp(what, "ok"))
		sbuf_adds(sb, "the call succeeds");
	else if (!strcmp(what, "errno"))
		sbuf_addf(sb, "the call fails with %s", x);
	else if (!strcmp(what, "ret"))
		sbuf_addf(sb, "the call returns %s", x);
	else if (!strcmp(what, "size"))
		sbuf_addf(sb, "the buffer's size is %s", x);
	else if (!strcmp(what, "field"))
		sbuf_addf(sb, "its field %s holds %s", x, y);
	else if (!strcmp(what, "bytes"))
		sbuf_addf(sb, "the bytes from offset %s are %s", x, y);
	else
		sbuf_addf(sb, "'expect %s' holds", a);
}

void lesson_check_words(const char *check, struct sbuf *sb)
{
	const char *a = lesson_check_arg(check);
	switch (lesson_check_kind(check)) {
	case LC_EXPECT: expect_words(a, sb); break;
	case LC_RAN: sbuf_addf(sb, "you run `%s`", a); break;
	case LC_CALLED: sbuf_addf(sb, "you call %s", a); break;
	case LC_TARGET:
		if (!strcmp(a, "live"))
			sbuf_adds(sb, "on the running kernel (`target live`)");
		else
			sbuf_addf(sb, "on a simulated kernel (`target %s`)", a);
		break;
	case LC_BUFFER: sbuf_addf(sb, "the current buffer is a struct %s", a); break;
	case LC_DESIGNED:
		if (strchr(a, '.'))
			sbuf_addf(sb, "your struct %.*s has a field %s", (int)(strchr(a, '.') - a), a, strchr(a, '.') + 1);
		else
			sbuf_addf(sb, "you have designed %s", a);
		break;
	case LC_SIZE:
		sbuf_adds(sb, "the buffer's size is ");
		lesson_size_words(check, sb);
		break;
	default: sbuf_addf(sb, "'%s' holds", check);
	}
}

/* Calls first: "you call X on ..., and the call fails with E2BIG; the buffer's size ..." */
void lesson_step_words(const struct lesson_step *st, struct sbuf *sb)
{
	static const int order[] = { LC_CALLED, LC_TARGET, LC_EXPECT, LC_SIZE, LC_BUFFER, LC_DESIGNED, LC_RAN };
	size_t said = 0;
	for (size_t o = 0; o < sizeof(order) / sizeof(*order); o++)
		for (size_t i = 0; i < st->nchecks; i++) {
			if (lesson_check_kind(st->checks[i]) != order[o])
				continue;
			if (said)
				sbuf_adds(sb, order[o] == LC_TARGET ? " " : said + 1 == st->nchecks ? " and " : ", ");
			lesson_check_words(st->checks[i], sb);
			said++;
		}
}

char *lesson_solution_path(const struct lesson *l)
{
	struct sbuf sb = SBUF_INIT;
	const char *slash = strrchr(l->path, '/');
	if (slash)
		sbuf_add(&sb, l->path, (size_t)(slash - l->path + 1));
	sbuf_addf(&sb, "solutions/%02u.xsc", l->number);
	return sbuf_detach(&sb);
}

static const char *base_name(const char *path)
{
	return strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
}

static void link_line(const struct lesson *prev, const struct lesson *next, struct sbuf *md)
{
	sbuf_adds(md, "\n---\n\n");
	if (prev)
		sbuf_addf(md, "[← Lesson %u: %s](%s) · ", prev->number, prev->title, base_name(prev->path));
	sbuf_adds(md, "[All lessons](index.md)");
	if (next)
		sbuf_addf(md, " · [Lesson %u: %s →](%s)", next->number, next->title, base_name(next->path));
	sbuf_adds(md, "\n");
}

void lesson_page_md(const struct lesson *l, const struct lesson *prev, const struct lesson *next, struct sbuf *md)
{
	sbuf_addf(md, "# %s\n\n*Lesson %u: in xsc, `lesson %u` starts it and checks each step as you go.*\n\n%s\n",
		  l->title, l->number, l->number, l->intro ? l->intro : "");
	for (size_t i = 0; i < l->nsteps; i++) {
		const struct lesson_step *st = &l->steps[i];
		sbuf_addf(md, "\n## Step %zu: %s\n\n%s\n\n*Done when ", i + 1, st->title, st->task ? st->task : "");
		lesson_step_words(st, md);
		bool names_call = false;
		for (size_t k = 0; k < st->nchecks; k++)
			names_call |= lesson_check_kind(st->checks[k]) == LC_CALLED;
		sbuf_adds(md, st->judges_call && !names_call ? ", from a call made during this step.*\n" : ".*\n");
	}
	link_line(prev, next, md);
}

void lesson_index_md(const struct lesson *ls, size_t n, struct sbuf *md)
{
	sbuf_adds(md, "# Lessons\n\nGuided, self-checking lessons on extensible syscalls. In xsc, `lesson` lists them,\n"
		      "`lesson N` starts one and moves on when a step's conditions hold, `lesson resume` returns\n"
		      "to where you stopped and `lesson progress` shows how far you got. The calls go to a\n"
		      "simulated kernel, so every machine gives the same answers.\n\n"
		      "| lesson | title | steps |\n|---:|---|---:|\n");
	for (size_t i = 0; i < n; i++)
		sbuf_addf(md, "| %u | [%s](%s) | %zu |\n", ls[i].number, ls[i].title, base_name(ls[i].path), ls[i].nsteps);
	sbuf_adds(md, "\nFor teachers: [the solutions and what each step checks](teacher.md).\n");
}

void lesson_teacher_md(const struct lesson *ls, size_t n, struct sbuf *md)
{
	sbuf_adds(md, "# Lessons: the teacher's page\n\nEach lesson's solution, as xsc checks it in its tests, and the conditions of each\n"
		      "step. `xsc lesson N --solution` prints a solution; `xsc lesson N --check FILE.xsc` grades\n"
		      "a student's script and names the first step it does not pass, with what it saw.\n"
		      "A step that checks a call passes only on a call made during that step, judged right\n"
		      "after it: its target and buffer are the call's own.\n");
	for (size_t i = 0; i < n; i++) {
		const struct lesson *l = &ls[i];
		sbuf_addf(md, "\n## Lesson %u: %s\n\n", l->number, l->title);
		for (size_t k = 0; k < l->nsteps; k++) {
			sbuf_addf(md, "%zu. %s: ", k + 1, l->steps[k].title);
			lesson_step_words(&l->steps[k], md);
			sbuf_adds(md, ".\n");
		}
		char *sol = lesson_solution_path(l), *text;
		size_t len;
		if (read_file_max(sol, 1 << 16, &text, &len) == 0) {
			sbuf_addf(md, "\nSolution (`%s`):\n\n```xsc\n%s%s```\n", base_name(sol), text,
				  len && text[len - 1] == '\n' ? "" : "\n");
			free(text);
		} else {
			sbuf_adds(md, "\nNo solution file.\n");
		}
		free(sol);
	}
	sbuf_adds(md, "\n---\n\n[All lessons](index.md)\n");
}
