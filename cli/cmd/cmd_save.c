/* save, load: a session handed to a neighbour. 'save FILE' writes the target, the designs
 * and every buffer as a replayable script; 'load FILE' runs a script, or the commands of a
 * transcript (FILE.md), in this session. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include "base/outfile.h"
#include "cmd/commands.h"
#include "model/kver.h"
#include "base/banned.h"

/* A word the tokenizer reads back as it is: bare when it is plain, else single-quoted
 * (literal); NULL when it holds a single quote too (nothing would read it back). */
static int add_word(struct sbuf *sb, const char *w)
{
	if (*w && !w[strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-+:/,=|&()<>")]) {
		sbuf_adds(sb, w);
		return 0;
	}
	if (strchr(w, '\'') || strpbrk(w, "\n\r"))
		return -1;
	sbuf_addf(sb, "'%s'", w);
	return 0;
}

void design_log_add(struct session *s, int argc, char **argv)
{
	struct sbuf line = SBUF_INIT;
	for (int i = 0; i < argc; i++) {
		if (i)
			sbuf_addch(&line, ' ');
		if (add_word(&line, argv[i]) < 0) {
			warning("'%s' holds a quote and a newline or both quotes: 'save' cannot write it back", argv[0]);
			sbuf_release(&line);
			return;
		}
	}
	sbuf_addf(&s->design_log, "%s\n", line.buf);
	sbuf_release(&line);
}

/* A pointer field as 'set': "text" (escaped as the value parser reads it) or &NAME. */
static void add_reloc(struct sbuf *sb, const struct structbuf *b, const struct reloc *r)
{
	const struct field *f = NULL;
	for (size_t i = 0; i < b->st->nfields && !f; i++)
		if (b->st->fields[i].offset == r->offset)
			f = &b->st->fields[i];
	if (!f)
		return;
	if (r->kind == RL_BUFFER) {
		sbuf_addf(sb, "set %s &%s\n", f->name, r->text);
		return;
	}
	sbuf_addf(sb, "set %s \"", f->name);
	for (size_t i = 0; i < r->text_len; i++) {
		unsigned char c = (unsigned char)r->text[i];
		if (c == '"' || c == '\\')
			sbuf_addf(sb, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f || c == '#' || c == ';' || c == '\'')
			sbuf_addf(sb, "\\x%02x", c);
		else
			sbuf_addch(sb, c);
	}
	sbuf_adds(sb, "\"\n");
}

static bool in_reloc(const struct structbuf *b, size_t off)
{
	for (size_t i = 0; i < b->nrelocs; i++)
		if (off >= b->relocs[i].offset && off < b->relocs[i].offset + 8)
			return true;
	return false;
}

/* One buffer: made at its struct's newest size, sized, its nonzero bytes poked (16 a line;
 * a pointer's bytes are the host's, so pointers are set again instead). */
static int add_buffer(struct sbuf *sb, const struct structbuf *b)
{
	sbuf_addf(sb, "new %s as ", b->sc ? b->sc->name : b->st->name);
	if (add_word(sb, b->name) < 0)
		return err("buffer '%s': its name cannot be written back", b->name);
	sbuf_addf(sb, "\nsize %llu\n", (unsigned long long)b->size);
	for (size_t off = 0; off < b->len;) {
		if (!b->data[off] || in_reloc(b, off)) {
			off++;
			continue;
		}
		sbuf_addf(sb, "poke %zu", off);
		for (size_t n = 0; n < 16 && off < b->len && !in_reloc(b, off); n++, off++)
			sbuf_addf(sb, " %u", b->data[off]);
		sbuf_addch(sb, '\n');
	}
	for (size_t i = 0; i < b->nrelocs; i++)
		add_reloc(sb, b, &b->relocs[i]);
	return 0;
}

void session_state_script(struct session *s, struct sbuf *sb)
{
	char kv[16];
	struct utsname u;
	bool run = uname(&u) == 0 && !u.release[strspn(u.release, "0123456789.-+_abcdefghijklmnopqrstuvwxyz")];
	if (s->vm_version)
		sbuf_addf(sb, "target vm %s\n", s->vm_version);
	else if (s->sim)
		sbuf_addf(sb, "target sim %s%s\n", kver_str(s->sim_kv, kv), s->check_fields ? " --check-fields" : "");
	else
		sbuf_addf(sb, "target live%s%s\n", run ? "  # the kernel that runs it; this one was " : "",
			  run ? u.release : "");
	sbuf_add(sb, s->design_log.buf ? s->design_log.buf : "", s->design_log.len);
	for (size_t i = 0; i < s->nbufs; i++)
		if (add_buffer(sb, s->bufs[i]) < 0)
			sbuf_addf(sb, "# buffer %zu left out: its name cannot be written back\n", i + 1);
	if (s->cur && s->nbufs > 1) {
		struct sbuf use = SBUF_INIT;
		sbuf_adds(&use, "use ");
		if (add_word(&use, s->cur->name) == 0)
			sbuf_addf(sb, "%s\n", use.buf);
		sbuf_release(&use);
	}
}

int cmd_save(struct session *s, int argc, char **argv)
{
	bool force = argc == 3 && !strcmp(argv[2], "--force");
	if (argc < 2 || argc > 3 || (argc == 3 && !force) || argv[1][0] == '-')
		return cmd_usage(s);
	if (session_may_write(s, argv[1]) < 0)
		return -1;
	struct sbuf sb = SBUF_INIT;
	sbuf_adds(&sb, "# an xsc session, written by 'save': 'load FILE' (or 'xsc FILE') replays it\n");
	session_state_script(s, &sb);
	int r = outfile_put(argv[1], sb.buf, sb.len, (force || s->force ? OF_FORCE : 0) | session_write_flags(s));
	if (r < 0 && errno == EEXIST)
		r = err("'%s' exists; --force replaces it", argv[1]);
	else if (r < 0)
		r = err("cannot write '%s': %m", argv[1]);
	else
		out_text(&s->out, "saved %zu buffer%s to %s\n", s->nbufs, s->nbufs == 1 ? "" : "s", argv[1]);
	sbuf_release(&sb);
	return r;
}

/* A transcript's commands (its ```xsc fences) with every other line blank, so that an
 * error names the line of the Markdown file. */
static void transcript_commands(const char *md, size_t len, struct sbuf *out)
{
	bool in = false;
	size_t fence = 0;
	for (const char *p = md, *end = md + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		size_t ticks = strspn(p, "`");
		if (ticks > n)
			ticks = n;
		if (!in && ticks >= 3 && n == ticks + 3 && !strncmp(p + ticks, "xsc", 3)) {
			in = true, fence = ticks;
		} else if (in && ticks == fence && n == ticks) {
			in = false;
		} else if (in) {
			sbuf_add(out, p, n);
		}
		sbuf_addch(out, '\n');
		p += n + (nl != NULL);
	}
}

/* Scripts and transcripts are read up to this many bytes. */
#define LOAD_MAX (1u << 20)

int cmd_load(struct session *s, int argc, char **argv)
{
	if (argc != 2)
		return cmd_usage(s);
	if (s->checking)
		return err("a solution checked by 'lesson --check' loads no files");
	if (!s->runner)
		return err("'load' cannot run commands here");
	const char *path = argv[1];
	size_t n = strlen(path);
	bool md = n > 3 && !strcmp(path + n - 3, ".md");
	FILE *in = session_open_script(path); /* a regular file or a pipe, not a device */
	if (!in)
		return -1;
	struct sbuf text = SBUF_INIT;
	char chunk[4096];
	size_t got;
	while (text.len <= LOAD_MAX && (got = fread(chunk, 1, sizeof(chunk), in)) > 0)
		sbuf_add(&text, chunk, got);
	bool bad = ferror(in);
	fclose(in);
	if (bad || text.len > LOAD_MAX || (text.len && memchr(text.buf, '\0', text.len))) {
		int r = bad ? err("cannot read '%s'", path)
			: text.len > LOAD_MAX ? err("'%s' is longer than %u bytes", path, LOAD_MAX)
			: err("'%s' holds a NUL byte: not a script", path);
		sbuf_release(&text);
		return r;
	}
	struct sbuf cmds = SBUF_INIT;
	if (md)
		transcript_commands(text.buf ? text.buf : "", text.len, &cmds);
	else
		sbuf_add(&cmds, text.buf ? text.buf : "", text.len);
	sbuf_release(&text);
	FILE *fp = fmemopen(cmds.buf ? cmds.buf : (char *)"", cmds.len, "r");
	if (!fp) {
		sbuf_release(&cmds);
		return err("cannot read '%s': %m", path);
	}
	/* a transcript's own failures are recorded in it: replayed, they fail again and the
	 * rest still runs */
	bool keep = s->keep_going;
	s->keep_going = keep || md;
	int r = s->runner->stream(s, fp, path);
	s->keep_going = keep;
	fclose(fp);
	sbuf_release(&cmds);
	return r;
}
