/* docs: the Markdown reference generated from the catalogue (docs/reference/ by default),
 * the man page and the bash completion. Also what site and doc share (docbundle.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cmd/commands.h"
#include "base/outfile.h"
#include "cmd/docbundle.h"
#include "cmd/measuring.h"
#include "docs/owndir.h"
#include "docs/site.h"
#include "model/dataload.h"
#include "sim/matrix.h"
#include "teach/lesson.h"
#include "base/banned.h"

#define DOC_FILE_MAX (1u << 20)
#define DOCS_MARKER ".xsc-docs"

static const char *comp_word(enum completer c)
{
	switch (c) {
	case COMP_COMMAND: return "command";
	case COMP_ENTITY: return "entity";
	case COMP_FILE: return "file";
	default: return "";
	}
}

/* Rendered text as the matrix command's out_puts shows it: sanitised, no colour. */
static void add_shown(struct sbuf *out, struct sbuf *raw)
{
	safe_text(out, raw->buf, raw->len, SAFE_NL | SAFE_TAB);
	sbuf_reset(raw);
}

/* The matrix of sc, with the measured columns of the reports in the catalogue's measured/
 * (what 'make measure' writes) and in the bundle's extra directory (site --measured DIR),
 * from sim/matrix.h and the measurements' renderer (cmd/measuring.h). */
static int matrix_cb(void *ctx, const struct syscall *sc, struct sbuf *md, struct sbuf *svg)
{
	struct docbundle *b = ctx;
	struct session *s = b->s;
	struct matrix m;
	if (!sc->st || !sc->st->nversions || sc->size_where == SW_NONE)
		return -1; /* only calls whose size is a version have a matrix */
	if (matrix_build(s->cat, sc, &m) < 0)
		return -1;
	struct sbuf own = SBUF_INIT, raw = SBUF_INIT;
	sbuf_addf(&own, "%s/measured", s->cat->dir);
	const char *dirs[2];
	size_t ndirs = 0, nreps = 0;
	if (access(own.buf, F_OK) == 0)
		dirs[ndirs++] = own.buf;
	if (b->measured_extra)
		dirs[ndirs++] = b->measured_extra;
	struct measured_report *reps = NULL;
	struct measured_view v = { 0 };
	int r = 0;
	for (size_t i = 0; !r && i < ndirs; i++)
		r = measured_load_dir(dirs[i], false, &reps, &nreps);
	if (!r && ndirs)
		measured_view_build(reps, nreps, sc->name, &v);
	if (!r && md) {
		measuring_markdown(s, &m, ndirs ? &v : NULL, &raw);
		add_shown(md, &raw);
	}
	if (!r && svg) {
		measuring_svg(s, &m, ndirs ? &v : NULL, &raw);
		add_shown(svg, &raw);
	}
	sbuf_release(&raw);
	sbuf_release(&own);
	measured_view_release(&v);
	measured_release_all(reps, nreps);
	matrix_release(&m);
	return r ? -1 : 0;
}

/* DIR/..SUFFIX for the catalogue in dir when DIR/../probe exists (a source tree, or the
 * installed share/xsc), else the same beside the default catalogue (the build's or the
 * installed one): a catalogue of one's own (--data MYDIR) still has the templates. */
static char *resource_dir(const char *dir, const char *probe, const char *suffix)
{
	struct sbuf p = SBUF_INIT;
	const char *def = NULL;
	for (int i = 0; i < 2; i++) {
		const char *base = i ? def : dir;
		if (!base)
			break;
		sbuf_reset(&p);
		sbuf_addf(&p, "%s/../%s", base, probe);
		if (access(p.buf, R_OK) == 0) {
			sbuf_reset(&p);
			sbuf_addf(&p, "%s/..%s", base, suffix);
			return sbuf_detach(&p);
		}
		if (!i) {
			struct diag_sink was = diag_swap_sink(DIAG_DISCARD); /* no default catalogue is no error here */
			def = catalog_default_dir();
			diag_swap_sink(was);
		}
	}
	sbuf_reset(&p);
	sbuf_addf(&p, "%s/..%s", dir, suffix); /* as before: what is missing is said when read */
	return sbuf_detach(&p);
}

/* Every *.md of root/docs/sub, in byte order. */
static void read_pages(struct docbundle *b, const char *sub, size_t *alloc)
{
	struct sbuf dir = SBUF_INIT;
	sbuf_addf(&dir, "%s/docs/%s", b->root, sub);
	DIR *d = opendir(dir.buf);
	char **names = NULL;
	size_t n = 0, nalloc = 0;
	struct dirent *e;
	while (d && (e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (l > 3 && !strcmp(e->d_name + l - 3, ".md") && e->d_name[0] != '.') {
			ALLOC_GROW(names, n + 1, nalloc);
			names[n++] = xstrdup(e->d_name);
		}
	}
	if (d)
		closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), cmp_strp);
	for (size_t i = 0; i < n; i++) {
		struct sbuf p = SBUF_INIT, rel = SBUF_INIT;
		sbuf_addf(&p, "%s/%s", dir.buf, names[i]);
		sbuf_addf(&rel, "%s/%s", sub, names[i]);
		char *text;
		size_t len;
		if (read_file_max(p.buf, DOC_FILE_MAX, &text, &len)) {
			warning("cannot read '%s': %m", p.buf);
		} else {
			ALLOC_GROW(b->files, b->nfiles + 1, *alloc);
			struct doc_file *f = &b->files[b->nfiles++];
			f->path = sbuf_detach(&rel);
			f->text = text;
			f->len = len;
			/* the title: the first "# " line, else the file name */
			const char *t = text;
			while (t && strncmp(t, "# ", 2)) {
				t = strchr(t, '\n');
				t = t ? t + 1 : NULL;
			}
			f->title = t ? xstrndup(t + 2, strcspn(t + 2, "\n")) : xstrndup(names[i], strlen(names[i]) - 3);
		}
		sbuf_release(&p);
		sbuf_release(&rel);
		free(names[i]);
	}
	free(names);
	sbuf_release(&dir);
}

static void doc_file_set(struct doc_file *f, const char *path, const char *title, struct sbuf *md)
{
	f->path = xstrdup(path);
	f->title = xstrdup(title);
	f->len = md->len;
	f->text = sbuf_detach(md);
}

/* The lesson pages as students read them (teach/lesson.h): the files from first on are
 * lessons, rendered without the grader's check blocks and linked to their neighbours; an
 * index goes before them and the teacher's page, with the solutions, after. A file that does
 * not parse stays as it is (the error says why). */
static void render_lessons(struct docbundle *b, size_t first, size_t *alloc)
{
	size_t n = b->nfiles - first;
	struct lesson *ls = xcalloc(n + 1, sizeof(*ls));
	bool *ok = xcalloc(n + 1, sizeof(*ok));
	size_t nok = 0;
	for (size_t i = 0; i < n; i++) {
		struct doc_file *f = &b->files[first + i];
		struct sbuf full = SBUF_INIT;
		sbuf_addf(&full, "%s/docs/%s", b->root, f->path);
		const char *base = strchr(f->path, '/') + 1;
		ok[i] = base[0] >= '0' && base[0] <= '9' && lesson_parse(full.buf, f->text, &ls[i]) == 0;
		nok += ok[i];
		sbuf_release(&full);
	}
	for (size_t i = 0; i < n; i++) {
		if (!ok[i])
			continue;
		const struct lesson *prev = NULL, *next = NULL;
		for (size_t k = i; k-- > 0 && !prev;)
			prev = ok[k] ? &ls[k] : NULL;
		for (size_t k = i + 1; k < n && !next; k++)
			next = ok[k] ? &ls[k] : NULL;
		struct sbuf md = SBUF_INIT;
		lesson_page_md(&ls[i], prev, next, &md);
		free(b->files[first + i].text);
		b->files[first + i].len = md.len;
		b->files[first + i].text = sbuf_detach(&md);
	}
	if (nok) {
		struct lesson *good = xcalloc(nok, sizeof(*good));
		size_t g = 0;
		for (size_t i = 0; i < n; i++)
			if (ok[i])
				good[g++] = ls[i];
		struct sbuf md = SBUF_INIT;
		ALLOC_GROW(b->files, b->nfiles + 2, *alloc);
		memmove(&b->files[first + 1], &b->files[first], n * sizeof(*b->files));
		lesson_index_md(good, nok, &md);
		doc_file_set(&b->files[first], "lessons/index.md", "Lessons", &md);
		lesson_teacher_md(good, nok, &md);
		doc_file_set(&b->files[first + 1 + n], "lessons/teacher.md", "Lessons: the teacher's page", &md);
		b->nfiles += 2;
		free(good);
	}
	for (size_t i = 0; i < n; i++)
		if (ok[i])
			lesson_release(&ls[i]);
	free(ls);
	free(ok);
}

int docbundle_init(struct docbundle *b, struct session *s, const struct probe_run *probe, const char *topic)
{
	return docbundle_init_measured(b, s, probe, topic, NULL);
}

int docbundle_init_measured(struct docbundle *b, struct session *s, const struct probe_run *probe, const char *topic,
			    const char *measured)
{
	memset(b, 0, sizeof(*b));
	b->s = s;
	b->measured_extra = measured;
	const struct catalog *cat = session_catalog(s);
	if (!cat)
		return -1;
	struct sbuf root = SBUF_INIT; /* the pages document the catalogue beside them: never another's */
	sbuf_addf(&root, "%s/..", cat->dir);
	b->root = sbuf_detach(&root);
	b->site_dir = resource_dir(cat->dir, "site/template.html", "/site");
	struct sbuf cpath = SBUF_INIT, why = SBUF_INIT;
	sbuf_addf(&cpath, "%s/census/census.json", cat->dir);
	int r = census_load(&b->census, cpath.buf, &why);
	if (r < 0)
		err("%s", why.buf);
	sbuf_release(&cpath);
	sbuf_release(&why);
	if (r < 0) {
		free(b->root);
		free(b->site_dir);
		return -1;
	}

	size_t n = 0;
	for (const struct command *c = commands; c->name; c++)
		n++;
	b->cmds = xcalloc(n, sizeof(*b->cmds));
	for (size_t i = 0; i < n; i++) {
		const struct command *c = &commands[i];
		b->cmds[i] = (struct doc_command){ c->name, c->synopsis, c->summary, c->help,
						   { comp_word(c->comp[0]), comp_word(c->comp[1]), comp_word(c->comp[2]) } };
	}
	size_t alloc = 0;
	read_pages(b, "guide", &alloc);
	b->nguide = b->nfiles;
	read_pages(b, "lessons", &alloc);
	render_lessons(b, b->nguide, &alloc);
	b->guide = xcalloc(b->nfiles + 1, sizeof(*b->guide));
	for (size_t i = 0; i < b->nfiles; i++)
		b->guide[i] = (struct doc_link){ b->files[i].path, b->files[i].title };
	b->lessons = b->guide + b->nguide;

	size_t nopts = 0;
	while (global_options[nopts].help)
		nopts++;
	b->opts = xcalloc(nopts + 1, sizeof(*b->opts));
	for (size_t i = 0; i < nopts; i++) {
		char flag[32];
		const struct global_option *g = &global_options[i];
		b->opts[i] = (struct doc_option){ xstrdup(global_option_flag(g, flag)), g->arg, g->help };
	}
	b->in = (struct docgen_input){ .cat = cat, .cmds = b->cmds, .ncmds = n, .guide = b->guide,
				       .opts = b->opts, .nopts = nopts,
				       .nguide = b->nguide, .lessons = b->lessons, .nlessons = b->nfiles - b->nguide,
				       .matrix = matrix_cb, .ctx = b, .probe = probe,
				       .census = &b->census };
	if (topic)
		docgen_reference_topic(&b->in, topic, &b->ref);
	else
		docgen_reference(&b->in, &b->ref);
	return 0;
}

void docbundle_release(struct docbundle *b)
{
	for (size_t i = 0; b->opts && b->opts[i].flag; i++)
		free((char *)b->opts[i].flag);
	free(b->opts);
	doc_set_release(&b->ref);
	census_release(&b->census);
	for (size_t i = 0; i < b->nfiles; i++) {
		free(b->files[i].path);
		free(b->files[i].title);
		free(b->files[i].text);
	}
	free(b->files);
	free(b->guide);
	free(b->cmds);
	free(b->root);
	free(b->site_dir);
	memset(b, 0, sizeof(*b));
}

/* The man page or the completion: whole or not at all, never through a link, an existing
 * file replaced (keeping its mode) only with --force. */
static int write_text(const char *path, const struct sbuf *sb, unsigned flags)
{
	if (!outfile_put(path, sb->buf, sb->len, flags))
		return 0;
	if (errno == EEXIST)
		return err("'%s' exists; --force replaces it", path);
	return err("cannot write '%s': %s", path, errno == ELOOP ? "a symbolic link" : strerror(errno));
}

/* The reference into out, a directory marked as xsc's: only files the marker says an
 * earlier run wrote are ever removed, nothing is written through a symbolic link. */
static int write_reference(struct session *s, struct docbundle *b, const char *out)
{
	const char **planned = xcalloc(b->ref.n + 1, sizeof(*planned));
	size_t bytes = 0;
	for (size_t i = 0; i < b->ref.n; i++)
		planned[i] = b->ref.pages[i].path;
	struct owndir d;
	int r = owndir_begin(&d, out, DOCS_MARKER, "docs", planned, b->ref.n);
	for (size_t i = 0; !r && i < b->ref.n; i++) {
		const struct doc_page *pg = &b->ref.pages[i];
		r = owndir_put(&d, pg->path, pg->text.buf, pg->text.len);
		bytes += pg->text.len;
	}
	if (!r)
		r = owndir_finish(&d);
	if (!r)
		out_text(&s->out, "docs: %zu files, %zu bytes in %s%s\n", b->ref.n, bytes, out,
			 b->in.matrix ? "" : " (no compatibility matrices: this build has no 'matrix' command)");
	owndir_release(&d);
	free(planned);
	return r;
}

int cmd_docs(struct session *s, int argc, char **argv)
{
	const char *out = NULL, *man = NULL, *comp = NULL;
	bool force = s->force;
	enum { O_FORCE = 256, O_MAN, O_COMPLETION };
	static const struct cmd_opt opts[] = {
		{ "force", O_FORCE, NULL }, { NULL, 'o', "DIR" }, { "man", O_MAN, "FILE" }, { "completion", O_COMPLETION, "FILE" },
		{ 0 },
	};
	struct cmd_opt_iter it = CMD_OPT_ITER(s, argc, argv);
	int k;
	while ((k = cmd_opt_next(&it, opts)) != CMD_OPT_END) {
		if (k == O_FORCE)
			force = true;
		else if (k == 'o')
			out = it.value;
		else if (k == O_MAN)
			man = it.value;
		else if (k == O_COMPLETION)
			comp = it.value;
		else
			return k < 0 ? k : cmd_usage(s);
	}
	struct docbundle b;
	if (docbundle_init(&b, s, NULL, NULL))
		return -1;
	int r = 0;
	struct sbuf def = SBUF_INIT;
	if (!out && !man && !comp) {
		sbuf_addf(&def, "%s/docs/reference", b.root);
		out = def.buf;
	}
	const char *targets[] = { out, man, comp };
	for (size_t i = 0; !r && i < 3; i++)
		r = targets[i] ? session_may_write(s, targets[i]) : 0;
	if (!r && out)
		r = write_reference(s, &b, out);
	if (!r && man) {
		struct sbuf md = SBUF_INIT, roff = SBUF_INIT;
		docgen_man(&b.in, &md);
		const char *epoch = getenv("SOURCE_DATE_EPOCH");
		char date[32] = "";
		if (epoch && *epoch) {
			time_t t = (time_t)strtoll(epoch, NULL, 10);
			struct tm tm;
			if (gmtime_r(&t, &tm))
				strftime(date, sizeof(date), "%Y-%m-%d", &tm);
		}
		r = site_render_man(md.buf, md.len, "XSC", date, &roff);
		if (!r)
			r = write_text(man, &roff, (force ? OF_FORCE : 0) | session_write_flags(s));
		sbuf_release(&md);
		sbuf_release(&roff);
	}
	if (!r && comp) {
		struct sbuf sh = SBUF_INIT;
		docgen_bash_completion(&b.in, &sh);
		r = write_text(comp, &sh, (force ? OF_FORCE : 0) | session_write_flags(s));
		sbuf_release(&sh);
	}
	sbuf_release(&def);
	docbundle_release(&b);
	return r;
}
