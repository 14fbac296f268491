/* site: the static site (build/site/ by default) from the catalogue and docs/. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include "cmd/commands.h"
#include "cmd/docbundle.h"
#include "docs/site.h"
#include "kernel/features.h"
#include "base/banned.h"

static uint64_t now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* Is out (trailing slashes aside, which would make lstat follow it) a symbolic link? */
static bool out_is_link(const char *out)
{
	size_t len = strlen(out);
	while (len > 1 && out[len - 1] == '/')
		len--;
	char *p = xstrndup(out, len);
	struct stat st;
	bool link = lstat(p, &st) == 0 && S_ISLNK(st.st_mode);
	free(p);
	return link;
}

int cmd_site(struct session *s, int argc, char **argv)
{
	const char *out = "build/site", *measured = NULL;
	const char *templates = NULL;
	bool probe = false;
	enum { O_TEMPLATES = 256, O_PROBE, O_MEASURED };
	static const struct cmd_opt opts[] = {
		{ NULL, 'o', "DIR" }, { "templates", O_TEMPLATES, "DIR" }, { "probe", O_PROBE, NULL },
		{ "measured", O_MEASURED, "DIR" }, { 0 },
	};
	struct cmd_opt_iter it = CMD_OPT_ITER(s, argc, argv);
	int k;
	while ((k = cmd_opt_next(&it, opts)) != CMD_OPT_END) {
		if (k == 'o')
			out = it.value;
		else if (k == O_TEMPLATES)
			templates = it.value;
		else if (k == O_PROBE)
			probe = true;
		else if (k == O_MEASURED)
			measured = it.value;
		else
			return k < 0 ? k : cmd_usage(s);
	}
	if (!*out)
		return err("site: the output directory name is empty");
	if (session_may_write(s, out) < 0)
		return -1;
	if (out_is_link(out))
		return err("site: '%s' is a symbolic link; refusing to write through it", out);
	uint64_t t0 = now_us();
	const struct catalog *cat = session_catalog(s);
	if (!cat)
		return -1;
	struct probe_run run;
	memset(&run, 0, sizeof(run));
	if (probe && features_probe(cat, NULL, 0, false, s->timeout_ms, &run))
		return -1;
	struct docbundle b;
	if (docbundle_init_measured(&b, s, probe ? &run : NULL, NULL, measured)) {
		if (probe)
			probe_run_release(&run);
		return -1;
	}
	/* home, guide, reference, lessons, pictures */
	size_t cap = 1 + b.nfiles + b.ref.n;
	struct site_page *pages = xcalloc(cap, sizeof(*pages));
	struct sbuf *paths = xcalloc(cap, sizeof(*paths));
	struct sbuf home = SBUF_INIT;
	docgen_home(&b.in, &home);
	size_t n = 0;
	pages[n++] = (struct site_page){ "index.md", "xsc", "", home.buf, home.len, true };
	for (size_t i = 0; i < b.nfiles; i++)
		pages[n++] = (struct site_page){ b.files[i].path, b.files[i].title, i < b.nguide ? "Guide" : "Lessons",
						 b.files[i].text, b.files[i].len, true };
	for (size_t i = 0; i < b.ref.n; i++) {
		const struct doc_page *pg = &b.ref.pages[i];
		sbuf_init(&paths[i]);
		sbuf_addf(&paths[i], "reference/%s", pg->path);
		pages[n++] = (struct site_page){ paths[i].buf, pg->title, pg->section, pg->text.buf, pg->text.len, pg->markdown };
	}
	struct sbuf assets = SBUF_INIT;
	sbuf_adds(&assets, templates ? templates : b.site_dir);
	struct site_stats st;
	int r = site_build(out, assets.buf, pages, n, &st);
	if (!r)
		out_text(&s->out, "site: %zu pages, %zu files, %zu bytes, %zu search entries in %s (%.1f ms)%s\n", st.pages,
			 st.files, st.bytes, st.index_entries, out, (double)(now_us() - t0) / 1000.0,
			 probe ? " with this kernel's probe results" : "");
	for (size_t i = 0; i < b.ref.n; i++)
		sbuf_release(&paths[i]);
	free(paths);
	free(pages);
	sbuf_release(&home);
	sbuf_release(&assets);
	docbundle_release(&b);
	if (probe)
		probe_run_release(&run);
	return r;
}
