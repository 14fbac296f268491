#include "session.h"
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/stat.h>
#include "base/diag.h"
#include "base/outfile.h"
#include "base/sbuf.h"
#include "base/sig.h"
#include "cmd/commands.h"
#include "headers/fetch.h"
#include "kernel/kimage.h"
#include "kernel/vm.h"
#include "model/dataload.h"
#include "model/kver.h"
#include "teach/design.h"
#include "teach/transcript.h"
#include "base/banned.h"

void session_init(struct session *s)
{
	memset(s, 0, sizeof(*s));
	s->color = COLOR_AUTO;
	s->timeout_ms = 2000;
	outcome_init(&s->last);
	s->transcript_fd = -1;
}

void session_release(struct session *s)
{
	for (size_t i = 0; i < s->nbufs; i++)
		structbuf_free(s->bufs[i]);
	free(s->bufs);
	outcome_release(&s->last);
	lesson_state_free(s->lesson);
	design_free(s->design);
	session_set_transcript(s, NULL, false);
	catalog_free(s->cat);
	session_stop_guests(s);
	free(s->vm_version);
	memset(s, 0, sizeof(*s));
}

void session_stop_guests(struct session *s)
{
	for (size_t i = 0; i < ARRAY_SIZE(s->guests); i++) {
		vm_stop(s->guests[i]);
		s->guests[i] = NULL;
	}
}

struct vm_guest *session_guest(struct session *s, const char *version)
{
	size_t i, free_slot = ARRAY_SIZE(s->guests);
	char release[16];
	uint32_t v;
	if (kver_parse(version, &v, 0) == 0) /* 6.1.192 is the 6.1 guest */
		version = kver_str(kver_release(v), release);
	for (i = 0; i < ARRAY_SIZE(s->guests); i++) {
		if (s->guests[i] && !strcmp(s->guest_version[i], version)) {
			if (vm_alive(s->guests[i]))
				return s->guests[i];
			vm_stop(s->guests[i]); /* it powered off after its idle timeout: boot again */
			s->guests[i] = NULL;
		}
		if (!s->guests[i] && free_slot == ARRAY_SIZE(s->guests))
			free_slot = i;
	}
	const struct catalog *cat = session_catalog(s);
	struct kimages ks;
	if (!cat)
		return NULL;
	if (free_slot == ARRAY_SIZE(s->guests)) {
		err("target vm: %zu guests are running; 'target live' stops them", ARRAY_SIZE(s->guests));
		return NULL;
	}
	int r = kimages_load(cat->dir, &ks);
	struct kimage *k = r ? NULL : kimages_find(&ks, version);
	if (!r && !k)
		err("target vm: xsc knows no kernel '%s' ('kernels' lists them)", version);
	if (k && vm_start(k, &s->guests[free_slot]) == 0)
		snprintf(s->guest_version[free_slot], sizeof(s->guest_version[free_slot]), "%s", k->version);
	kimages_release(&ks);
	return s->guests[free_slot];
}

int session_kernel_arg(struct session *s, const char *what, const char *arg, uint32_t *kv)
{
	uint32_t lo = 0, hi = 0;
	const struct catalog *c = session_catalog(s), *d = design_catalog(s->design);
	if (!c)
		return -1;
	catalog_widen_span(c, &lo, &hi);
	if (d) /* a designed call's versions: 'version add 24 7.2' makes 7.2 a kernel to ask */
		catalog_widen_span(d, &lo, &hi);
	return kver_parse_within(what, arg, lo, hi, kv);
}

const struct catalog *session_catalog(struct session *s)
{
	if (!s->cat && !s->cat_failed) {
		s->cat = catalog_load(s->data_dir ? s->data_dir : catalog_default_dir());
		s->cat_failed = !s->cat;
	} else if (s->cat_failed) {
		err("the catalogue did not load (see the first error)");
	}
	return s->cat;
}

struct structbuf *session_find_buffer(struct session *s, const char *name)
{
	for (size_t i = 0; i < s->nbufs; i++)
		if (!strcmp(s->bufs[i]->name, name))
			return s->bufs[i];
	return NULL;
}

void session_add_buffer(struct session *s, struct structbuf *sb)
{
	for (size_t i = 0; i < s->nbufs; i++)
		if (!strcmp(s->bufs[i]->name, sb->name)) {
			structbuf_free(s->bufs[i]);
			s->bufs[i] = sb;
			s->cur = sb;
			return;
		}
	ALLOC_GROW(s->bufs, s->nbufs + 1, s->bufs_alloc);
	s->bufs[s->nbufs++] = sb;
	s->cur = sb;
}

const struct syscall *session_find_syscall(struct session *s, const char *name)
{
	const struct syscall *sc = s->cat ? catalog_find_syscall(s->cat, name) : NULL;
	const struct catalog *d = design_catalog(s->design);
	return sc ? sc : d ? catalog_find_syscall(d, name) : NULL;
}

const struct cstruct *session_find_struct(struct session *s, const char *name)
{
	const struct cstruct *st = s->cat ? catalog_find_struct(s->cat, name) : NULL;
	const struct catalog *d = design_catalog(s->design);
	return st ? st : d ? catalog_find_struct(d, name) : NULL;
}

const struct flagset *session_find_flagset(struct session *s, const char *name)
{
	const struct flagset *fs = s->cat ? catalog_find_flagset(s->cat, name) : NULL;
	const struct catalog *d = design_catalog(s->design);
	return fs ? fs : d ? catalog_find_flagset(d, name) : NULL;
}

int session_set_transcript(struct session *s, const char *path, bool force)
{
	if (s->transcript_fd >= 0) {
		fsync(s->transcript_fd); /* once per transcript, not per command */
		close(s->transcript_fd);
		s->transcript_fd = -1;
	}
	FREE_AND_NULL(s->transcript_path);
	if (!path)
		return 0;
	struct sbuf md = SBUF_INIT;
	struct outfile f;
	transcript_start(&md);
	int r = outfile_begin_path(&f, path, (force ? OF_FORCE : 0) | session_write_flags(s));
	if (!r)
		r = outfile_write(&f, md.buf, md.len);
	if (!r)
		r = outfile_commit(&f);
	if (r && errno == EEXIST)
		err("the transcript '%s' exists; --force replaces it", path);
	else if (r)
		err("cannot write the transcript '%s': %m", path);
	if (!r) {
		/* the committed file's descriptor: later commands append, never rewrite */
		s->transcript_fd = f.fd;
		f.fd = -1;
		s->transcript_path = xstrdup(path);
	}
	outfile_release(&f);
	sbuf_release(&md);
	return r ? -1 : 0;
}

/* One command's Markdown, appended in one write. */
static void transcript_append(struct session *s, const char *text, const char *out, const char *errs, int r)
{
	struct sbuf md = SBUF_INIT;
	transcript_add(&md, text, out, errs, r);
	const char *p = md.buf;
	size_t len = md.len;
	while (len) {
		ssize_t n = write(s->transcript_fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			warning("cannot write the transcript '%s': %s", s->transcript_path, strerror(errno));
			break;
		}
		p += n;
		len -= (size_t)n;
	}
	sbuf_release(&md);
}

int session_run_command(struct session *s, int argc, char **argv, const char *text)
{
	struct capture cap;
	if (sig_interrupted()) /* the rest of an interrupted line or script does not run */
		return sig_interrupt_err();
	bool record = s->transcript_fd >= 0 && argc > 0 && argv && strcmp(argv[0], "transcript");
	if (record && capture_begin(&cap) < 0)
		record = false;
	int r = command_run(s, argc, argv);
	if (sig_interrupted())
		r = sig_interrupt_err();
	if (record) {
		struct sbuf out = SBUF_INIT, errs = SBUF_INIT;
		capture_end(&cap, &out, &errs);
		fwrite(out.buf, 1, out.len, stdout);
		fflush(stdout);
		fwrite(errs.buf, 1, errs.len, stderr);
		if (s->transcript_fd >= 0) { /* the command may have been 'transcript off' */
			struct sbuf shown = SBUF_INIT; /* a URL's password never reaches the transcript */
			fetch_redact(text ? text : "", &shown);
			transcript_append(s, shown.buf, out.buf, errs.buf, r);
			sbuf_release(&shown);
		}
		sbuf_release(&out);
		sbuf_release(&errs);
	}
	if (s->lesson)
		lesson_after_command(s, text, r);
	return r;
}

int session_may_write(struct session *s, const char *path)
{
	if (s->checking)
		return err("'%s': a solution checked by 'lesson --check' writes no files", path);
	if (!s->scripted || s->unsafe || outpath_beneath(path) == 0)
		return 0;
	return err("'%s': a script writes only beneath the current directory (a relative path without "
		   "'..' or symbolic links)%s; 'xsc --unsafe' on your command line lifts this", path,
		   errno == ELOOP ? ", and this goes through a symbolic link" : "");
}

unsigned session_write_flags(const struct session *s)
{
	return s->scripted && !s->unsafe ? OF_BENEATH : 0;
}

bool session_arg_quoted(const struct session *s, int i)
{
	return s->quoted && s->quoted[i];
}

void free_argv(int argc, char **argv, bool *quoted)
{
	for (int i = 0; argv && i < argc; i++)
		free(argv[i]);
	free(argv);
	free(quoted);
}

/* Shell-like words: 'single' quotes are literal; inside "double" quotes backslash escapes are
 * kept as written (the value parser decodes them, knowing the word was quoted); a backslash
 * escapes one character outside quotes. */
int session_tokenize(const char *line, const char **rest, char ***argvp, bool **quotedp)
{
	char **argv = NULL;
	bool *quoted = NULL;
	size_t argc = 0, alloc = 0, qalloc = 0;
	const char *p = line;
	*rest = NULL;
	for (;;) {
		while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
			p++;
		if (!*p || *p == '#')
			break;
		if (*p == ';') {
			*rest = p + 1;
			break;
		}
		struct sbuf w = SBUF_INIT;
		bool dq = false, other = false;
		while (*p && !strchr(" \t\r\n;", *p)) {
			if (*p == '\'') {
				const char *e = strchr(p + 1, '\'');
				if (!e) {
					sbuf_release(&w);
					free_argv((int)argc, argv, quoted);
					return err("unterminated ' quote");
				}
				sbuf_add(&w, p + 1, (size_t)(e - p - 1));
				p = e + 1;
				other = true;
			} else if (*p == '"') {
				/* escapes stay as written: the value parser decodes them as C does */
				for (p++; *p && *p != '"'; p++) {
					if (*p == '\\' && p[1])
						sbuf_addch(&w, *p++);
					sbuf_addch(&w, *p);
				}
				if (*p != '"') {
					sbuf_release(&w);
					free_argv((int)argc, argv, quoted);
					return err("unterminated \" quote");
				}
				p++;
				dq = true;
			} else if (*p == '\\' && p[1]) {
				sbuf_addch(&w, p[1]);
				p += 2;
				other = true;
			} else {
				sbuf_addch(&w, *p++);
				other = true;
			}
		}
		ALLOC_GROW(argv, argc + 2, alloc);
		ALLOC_GROW(quoted, argc + 2, qalloc);
		quoted[argc] = dq && !other;
		argv[argc++] = sbuf_detach(&w);
	}
	ALLOC_GROW(argv, argc + 1, alloc);
	argv[argc] = NULL;
	*argvp = argv;
	*quotedp = quoted;
	return (int)argc;
}

int session_run_line(struct session *s, const char *line)
{
	int result = 0;
	const char *p = line;
	while (p) {
		char **argv = NULL;
		bool *quoted = NULL;
		const char *rest = NULL;
		int argc = session_tokenize(p, &rest, &argv, &quoted);
		if (argc < 0)
			return -1;
		int r = 0;
		if (argc > 0) {
			char *text = xstrndup(p, rest ? (size_t)(rest - 1 - p) : strlen(p));
			s->quoted = quoted;
			r = session_run_command(s, argc, argv, text);
			s->quoted = NULL;
			free(text);
		}
		free_argv(argc > 0 ? argc : 0, argv, quoted);
		if (r && !result)
			result = r;
		if ((r && !s->keep_going) || s->quit || sig_interrupted())
			break;
		p = rest;
	}
	return result;
}

/* One line of fp into line (its '\n' kept), at most SCRIPT_LINE_MAX bytes: 1, 0 at the end,
 * -1 for a read error (errno), -2 for a longer line (the rest of the script is not read). */
static int read_line(FILE *fp, struct sbuf *line)
{
	int c;
	sbuf_reset(line);
	while ((c = getc(fp)) != EOF) {
		if (line->len == SCRIPT_LINE_MAX)
			return -2;
		sbuf_addch(line, (char)c);
		if (c == '\n')
			break;
	}
	if (c == EOF && ferror(fp))
		return -1;
	return line->len ? 1 : 0;
}

/* A solution checked by lesson --check is read up to this many bytes: it is someone else's,
 * and with --keep-going a stream of short garbage lines would otherwise never end. */
#define CHECK_SCRIPT_MAX (1 << 20)

static int run_stream(struct session *s, FILE *fp, const char *name)
{
	struct sbuf line = SBUF_INIT;
	unsigned long lineno = 0;
	size_t total = 0;
	int result = 0, n = 0;
	while (!s->quit && !sig_interrupted() && (n = read_line(fp, &line)) > 0) {
		lineno++;
		total += line.len;
		diag_set_where(name, lineno);
		int r = s->checking && total > CHECK_SCRIPT_MAX
			? err("a solution longer than %d bytes", CHECK_SCRIPT_MAX)
			: memchr(line.buf, '\0', line.len) ? err("line contains a NUL byte")
			: session_run_line(s, line.buf);
		diag_set_where(NULL, 0);
		if (r && !result)
			result = r;
		if ((r && !s->keep_going) || (s->checking && total > CHECK_SCRIPT_MAX))
			break;
	}
	if (sig_interrupted()) /* a read cut short by the signal is no read error */
		result = sig_interrupt_err();
	else if (n == -2) {
		diag_set_where(name, lineno + 1);
		result = err("line longer than %d bytes", SCRIPT_LINE_MAX);
		diag_set_where(NULL, 0);
	} else if (n == -1 && !result)
		result = err("%s: read error: %s", name, strerror(errno));
	sbuf_release(&line);
	return result;
}

/* A pipe is a script (xsc <(…)); a device or a socket is no file of commands. */
static const char *not_script(const struct stat *st)
{
	return S_ISREG(st->st_mode) || S_ISFIFO(st->st_mode) ? NULL
	     : S_ISDIR(st->st_mode) ? "a directory" : "a device or socket";
}

FILE *session_open_script(const char *path)
{
	struct stat st;
	const char *bad = stat(path, &st) == 0 ? not_script(&st) : NULL;
	if (bad) { /* refused before it is opened: opening a device already acts on it */
		err("cannot run '%s': %s, not a script file", path, bad);
		return NULL;
	}
	/* O_NONBLOCK: a FIFO nobody writes to opens (and then reads as empty) instead of
	 * hanging; not inherited by sandboxed children */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		err("cannot open script '%s': %m", path);
		return NULL;
	}
	bad = fstat(fd, &st) < 0 ? strerror(errno) : not_script(&st);
	int fl = fcntl(fd, F_GETFL);
	FILE *fp = bad || fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0 ? NULL : fdopen(fd, "r");
	if (!fp) {
		err("cannot run '%s': %s", path, bad ? bad : strerror(errno));
		close(fd);
	}
	return fp;
}

/* Scripts run scripts only through lesson --check; a bound keeps any other way finite. */
#define STREAM_DEPTH_MAX 4

int session_run_stream(struct session *s, FILE *fp, const char *name)
{
	static unsigned depth;
	if (depth >= STREAM_DEPTH_MAX)
		return err("%s: scripts nested more than %d deep", name, STREAM_DEPTH_MAX);
	depth++;
	s->scripted++;
	int result = run_stream(s, fp, name);
	s->scripted--;
	depth--;
	return result;
}
