#include "teach/lesson.h"
#include <dirent.h>
#include <errno.h>
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

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
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
	qsort(*paths, *n, sizeof(**paths), cmp_str);
	return 0;
}

void lesson_files_free(char **paths, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

static const char *const directives[] = { "expect", "ran", "called", "target", "buffer", "designed", NULL };

int lesson_check_known(const char *check)
{
	size_t n = strcspn(check, " \t");
	for (int i = 0; directives[i]; i++)
		if (strlen(directives[i]) == n && !strncmp(check, directives[i], n))
			return 1;
	return 0;
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
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	l->number = (unsigned)atoi(base);
	l->path = xstrdup(path);
	struct sbuf prose = SBUF_INIT;
	size_t salloc = 0, calloc_ = 0;
	bool in_check = false, in_fence = false;
	unsigned long lineno = 0;
	int r = 0;
	struct lesson_step *cur = NULL;
	for (char *p = text; *p && !r;) {
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
				else if (!lesson_check_known(line))
					r = err("%s:%lu: unknown check '%s' (expect, ran, called, target, buffer, designed)", path,
						lineno, line);
				else {
					ALLOC_GROW(cur->checks, cur->nchecks + 1, calloc_);
					cur->checks[cur->nchecks++] = xstrdup(line);
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
	free(text);
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
