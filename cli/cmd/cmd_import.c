/* import SRC [-o FILE]: a uapi header (path or URL) as catalogue JSON, checked by loading it. */
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include "cmd/commands.h"
#include "base/outfile.h"
#include "headers/fetch.h"
#include "headers/header.h"
#include "model/dataload.h"
#include "model/kver.h"
#include "base/banned.h"

/* "linux/openat2.h" from /usr/include/linux/openat2.h or …/include/uapi/linux/openat2.h */
const char *header_short_name(const char *src)
{
	const char *p;
	if (!strncmp(src, "file://", 7))
		src += 7;
	if (!strncmp(src, "/usr/include/", 13))
		return src + 13;
	if ((p = strstr(src, "/uapi/")))
		return p + 6;
	if ((p = strstr(src, "/include/")))
		return p + 9;
	p = strrchr(src, '/');
	return p ? p + 1 : src;
}

/* The header at src as catalogue JSON (since: the version its structs date from, 0: the
 * header's LINUX_VERSION_CODE), which the catalogue loader must accept. 0, or -1 (reported). */
static int import_json(const char *src, const struct fetch_opts *fo, uint32_t since, struct sbuf *js)
{
	struct sbuf text = SBUF_INIT;
	char *name = NULL;
	struct header h;
	int ret = -1;
	memset(&h, 0, sizeof(h));
	if (fetch_source(src, fo, &text, &name) < 0 || header_parse(&h, name, text.buf, text.len) < 0)
		goto out;
	for (size_t i = 0; i < h.ndiags; i++)
		if (h.diags[i].sev == HD_ERROR) {
			err("%s:%u:%u: %s", name, h.diags[i].line, h.diags[i].col, h.diags[i].msg);
			goto out;
		} else {
			warning("%s:%u:%u: %s", name, h.diags[i].line, h.diags[i].col, h.diags[i].msg);
		}
	for (size_t i = 0; i < h.nstructs; i++)
		if (h.structs[i].is_union)
			warning("%s:%u: union %s left out: the catalogue has no unions (describe its members as structs)",
				name, h.structs[i].line, h.structs[i].name);
	if (!since)
		since = h.kernel_version ? KVER(h.kernel_version >> 16, (h.kernel_version >> 8) & 255, 0) : KVER(1, 0, 0);
	header_export_json(&h, header_short_name(name), since, js);
	/* what import writes must load: the catalogue loader is the judge */
	const char *names[] = { "import.json" };
	const char *texts[] = { js->buf };
	size_t lens[] = { js->len };
	struct catalog *c = catalog_load_buffers(names, texts, lens, 1);
	if (!c) {
		err("'%s': the imported catalogue does not load (above); the header breaks a catalogue rule", name);
		goto out;
	}
	catalog_free(c);
	ret = 0;
out:
	header_release(&h);
	sbuf_release(&text);
	free(name);
	return ret;
}

/* Whole or not at all, never through a link, an existing file only with --force. */
static int import_write(struct session *s, const char *outfile, bool force, const struct sbuf *js)
{
	if (outfile_put(outfile, js->buf, js->len, (force ? OF_FORCE : 0) | session_write_flags(s)) >= 0)
		return 0;
	if (errno == EEXIST)
		return err("'%s' exists; --force replaces it", outfile);
	return err("cannot write '%s': %s", outfile, errno == ELOOP ? "a symbolic link" : strerror(errno));
}

int cmd_import(struct session *s, int argc, char **argv)
{
	struct fetch_opts fo = FETCH_OPTS_INIT;
	const char *src = NULL, *outfile = NULL, *since = NULL, *incdir = NULL;
	bool force = s->force;
	enum { O_FORCE = 256, O_SINCE, O_INCLUDE };
	static const struct cmd_opt opts[] = {
		{ NULL, 'o', "FILE" }, { "force", O_FORCE, NULL }, { "since", O_SINCE, "V" }, { "include", O_INCLUDE, "DIR" },
		{ 0 },
	};
	struct cmd_opt_iter it = CMD_OPT_ITER(s, argc, argv);
	int k;
	it.fetch = &fo;
	while ((k = cmd_opt_next(&it, opts)) > 0) {
		if (k == 'o')
			outfile = it.value;
		else if (k == O_FORCE)
			force = true;
		else if (k == O_SINCE)
			since = it.value;
		else if (k == O_INCLUDE)
			incdir = it.value;
		else if (k == CMD_OPT_OPERAND && !src)
			src = it.value;
		else if (k == CMD_OPT_OPERAND)
			return cmd_usage(s);
	}
	if (k < 0)
		return k;
	if (!src)
		return cmd_usage(s);
	if ((outfile && session_may_write(s, outfile) < 0) || (fo.cache_dir && session_may_write(s, fo.cache_dir) < 0))
		return -1; /* the cache is files written too, named by the URL, holding what the server sent */
	uint32_t kv = 0;
	if (since && kver_parse(since, &kv, 0) < 0)
		return usage_err("--since: '%s' is not a kernel version such as 6.1", since);
	/* a kernel's installed headers (make headers-ref), searched before the system's */
	char *increal = incdir ? realpath(incdir, NULL) : NULL;
	if (incdir && !increal)
		return err("--include: '%s': %s", incdir, strerror(errno));
	header_set_include_dir(increal);
	struct sbuf js = SBUF_INIT;
	int ret = import_json(src, &fo, kv, &js);
	if (!ret && outfile)
		ret = import_write(s, outfile, force, &js);
	else if (!ret)
		fwrite(js.buf, 1, js.len, s->out.fp); /* the JSON itself, in --json runs too */
	header_set_include_dir(NULL);
	free(increal);
	sbuf_release(&js);
	return ret;
}
