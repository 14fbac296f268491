/* diff OLD NEW: extensions and ABI breaks between two headers or catalogues (engine: headers/hdiff.c). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cmd/commands.h"
#include "headers/fetch.h"
#include "headers/hdiff.h"
#include "headers/header.h"
#include "model/dataload.h"
#include "base/banned.h"

/* A header (path or URL) or a catalogue (directory or .json file) as a header model. */
static int load_side(const char *src, const struct fetch_opts *fo, struct header *h, struct catalog **cat)
{
	struct stat st;
	size_t n = strlen(src);
	*cat = NULL;
	bool isdir = !fetch_is_url(src) && !stat(src, &st) && S_ISDIR(st.st_mode);
	if (isdir || (!fetch_is_url(src) && n > 5 && !strcmp(src + n - 5, ".json"))) {
		if (isdir) {
			*cat = catalog_load(src);
		} else {
			char *data;
			size_t len;
			if (read_file_max(src, CATALOG_FILE_MAX, &data, &len) < 0)
				return err("cannot read '%s'", src);
			const char *names[] = { src };
			const char *texts[] = { data };
			*cat = catalog_load_buffers(names, texts, &len, 1);
			free(data);
		}
		if (!*cat)
			return err("'%s': the catalogue does not load", src);
		header_from_catalog(h, *cat, src);
		return 0;
	}
	struct sbuf text = SBUF_INIT;
	char *name = NULL;
	int r = fetch_source(src, fo, &text, &name);
	if (!r)
		r = header_parse(h, name, text.buf, text.len);
	if (!r)
		for (size_t i = 0; i < h->ndiags; i++)
			if (h->diags[i].sev == HD_ERROR) {
				r = err("%s:%u:%u: %s", name, h->diags[i].line, h->diags[i].col, h->diags[i].msg);
				break;
			}
	sbuf_release(&text);
	free(name);
	return r;
}

/* The changes as text, grouped by scope, and as one JSON document; the count of ABI breaks. */
static size_t print_diff(struct out *o, const char *const src[2], const struct hdiff *d)
{
	size_t count[3] = { 0, 0, 0 };
	static const char *const label[] = { "compatible extension", "undocumented extension (warning)",
					     "ABI break (error)" };
	struct sbuf shown[2] = { SBUF_INIT, SBUF_INIT }; /* a URL's password is never printed */
	fetch_redact(src[0], &shown[0]);
	fetch_redact(src[1], &shown[1]);
	out_obj(o, NULL);
	out_str(o, "old", shown[0].buf);
	out_str(o, "new", shown[1].buf);
	sbuf_release(&shown[0]);
	sbuf_release(&shown[1]);
	out_arr(o, "changes");
	const char *scope = NULL;
	for (size_t i = 0; i < d->n; i++) {
		const struct hchange *c = &d->c[i];
		count[c->verdict]++;
		if (!scope || strcmp(scope, c->scope))
			out_text(o, "%s%s:\n", scope ? "\n" : "", c->scope);
		scope = c->scope;
		const char *col = c->verdict == HV_BREAK ? out_color(o, OC_RED)
			: c->verdict == HV_UNDOCUMENTED ? out_color(o, OC_YELLOW) : out_color(o, OC_GREEN);
		out_text(o, "  %s%s%s: %s\n", col, label[c->verdict], out_color(o, OC_RESET), c->detail);
		out_obj(o, NULL);
		out_str(o, "scope", c->scope);
		out_str(o, "kind", c->kind);
		out_str(o, "name", c->name);
		if (c->offset >= 0)
			out_u64(o, "offset", (uint64_t)c->offset);
		if (c->size >= 0)
			out_u64(o, "size", (uint64_t)c->size);
		out_str(o, "verdict", hverdict_name(c->verdict));
		out_str(o, "message", c->detail);
		out_end(o);
	}
	out_end(o);
	out_u64(o, "compatible", count[HV_COMPATIBLE]);
	out_u64(o, "undocumented", count[HV_UNDOCUMENTED]);
	out_u64(o, "breaks", count[HV_BREAK]);
	out_end(o);
	if (!d->n)
		out_text(o, "no changes\n");
	else
		out_text(o, "%s%zu compatible, %zu undocumented, %zu breaking\n", "\n", count[HV_COMPATIBLE],
			 count[HV_UNDOCUMENTED], count[HV_BREAK]);
	return count[HV_BREAK];
}

int cmd_diff(struct session *s, int argc, char **argv)
{
	struct fetch_opts fo = FETCH_OPTS_INIT;
	const char *src[2] = { NULL, NULL };
	int n = 0, k;
	static const struct cmd_opt opts[] = { { 0 } };
	struct cmd_opt_iter it = CMD_OPT_ITER(s, argc, argv);
	it.fetch = &fo;
	while ((k = cmd_opt_next(&it, opts)) == CMD_OPT_OPERAND) {
		if (n == 2)
			return cmd_usage(s);
		src[n++] = it.value;
	}
	if (k < 0)
		return k;
	if (n != 2)
		return cmd_usage(s);
	if (fo.cache_dir && session_may_write(s, fo.cache_dir) < 0) /* the cache is files written */
		return -1;
	struct header oh, nh;
	struct catalog *oc = NULL, *nc = NULL;
	memset(&oh, 0, sizeof(oh));
	memset(&nh, 0, sizeof(nh));
	int ret = -1;
	if (load_side(src[0], &fo, &oh, &oc) < 0 || load_side(src[1], &fo, &nh, &nc) < 0)
		goto out;
	struct hdiff d;
	hdiff_run(&oh, &nh, &d);
	size_t breaks = print_diff(&s->out, src, &d);
	hdiff_release(&d);
	ret = 0;
	if (breaks) {
		fflush(s->out.fp);
		ret = err("diff: %zu ABI break%s", breaks, breaks == 1 ? "" : "s");
	}
out:
	header_release(&oh);
	header_release(&nh);
	catalog_free(oc);
	catalog_free(nc);
	return ret;
}
