#include "session.h"
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include "base/diag.h"
#include "base/outfile.h"
#include "base/sbuf.h"
#include "base/sig.h"
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
	s->width = -1;
	s->out_fp = stdout;
	s->err_fp = stderr;
	out_init(&s->out, stdout, false, false);
}

void session_init_child(struct session *child, const struct session *parent)
{
	session_init(child);
	child->cat = parent->cat;
	child->cat_borrowed = parent->cat != NULL;
	child->cat_failed = parent->cat_failed;
	child->data_dir = parent->data_dir;
	child->timeout_ms = parent->timeout_ms;
	child->runner = parent->runner;
	child->out_fp = parent->out_fp;
	child->err_fp = parent->err_fp;
	child->color = COLOR_NEVER;
	child->keep_going = true;
}

void session_observe(struct session *s, const struct session_observer *o, void *state)
{
	if (s->observer)
		s->observer->release(s->observer_state);
	s->observer = o;
	s->observer_state = o ? state : NULL;
}

int session_capture_begin(struct session *s, struct session_capture *c)
{
	memset(c, 0, sizeof(*c));
	fflush(s->out_fp);
	fflush(s->err_fp);
	c->out_fp = open_memstream(&c->out_buf, &c->out_len);
	c->err_fp = c->out_fp ? open_memstream(&c->err_buf, &c->err_len) : NULL;
	if (!c->err_fp) {
		if (c->out_fp)
			fclose(c->out_fp);
		free(c->out_buf);
		return err("cannot capture the output: %m");
	}
	c->saved_out = s->out_fp;
	c->saved_err = s->err_fp;
	s->out_fp = c->out_fp;
	s->err_fp = c->err_fp;
	c->saved_diag = diag_set_stream(c->err_fp);
	return 0;
}

void session_capture_end(struct session *s, struct session_capture *c, struct sbuf *out, struct sbuf *err)
{
	diag_set_stream(c->saved_diag);
	s->out_fp = c->saved_out;
	s->err_fp = c->saved_err;
	fclose(c->out_fp);
	fclose(c->err_fp);
	if (out)
		sbuf_add(out, c->out_buf, c->out_len);
	if (err)
		sbuf_add(err, c->err_buf, c->err_len);
	free(c->out_buf);
	free(c->err_buf);
}

struct session_errors session_errors_begin(struct session *s, bool json)
{
	struct session_errors e;
	(void)s;
	diag_kept(&e.mark);
	e.was = diag_keep_errors(json);
	return e;
}

void session_errors_end(struct session *s, struct session_errors since, int r, bool wrote)
{
	size_t n;
	const struct diag_error *e = diag_kept(&n);
	diag_keep_errors(since.was);
	if (n <= since.mark)
		return;
	if (!r || wrote) { /* it succeeded anyway, or wrote its own document */
		diag_kept_print(since.mark);
		return;
	}
	e += since.mark;
	n -= since.mark;
	struct out o;
	out_init(&o, s->out_fp, true, false);
	out_obj(&o, NULL);
	out_str(&o, "error", e[0].msg);
	out_str(&o, "where", e[0].where);
	if (n > 1) {
		out_arr(&o, "more");
		for (size_t i = 1; i < n; i++)
			out_str(&o, NULL, e[i].msg);
		out_end(&o);
	}
	out_end(&o);
	out_done(&o);
	diag_kept_clear(since.mark);
}

struct design *session_design(struct session *s)
{
	if (!s->design)
		s->design = design_new();
	return s->design;
}

void session_release(struct session *s)
{
	for (size_t i = 0; i < s->nbufs; i++)
		structbuf_free(s->bufs[i]);
	free(s->bufs);
	outcome_release(&s->last);
	session_observe(s, NULL, NULL);
	design_free(s->design);
	session_set_transcript(s, NULL, false, NULL);
	sbuf_release(&s->design_log);
	if (!s->cat_borrowed)
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

/* "Recorded on DATE by xsc V on Linux K; calls went to T." (SOURCE_DATE_EPOCH, when set, is
 * the date: a reproducible file) */
static void transcript_about(const struct session *s, struct sbuf *sb)
{
	char kv[16], date[32] = "an unknown date";
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	time_t now = sde && *sde ? (time_t)strtoll(sde, NULL, 10) : time(NULL);
	struct tm tm;
	if (gmtime_r(&now, &tm))
		strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", &tm);
	struct utsname u;
	const char *release = uname(&u) == 0 ? u.release : "(unknown)";
	struct sbuf rel = SBUF_INIT;
	safe_text(&rel, release, strlen(release), 0);
	sbuf_addf(sb, "Recorded on %s by xsc %s on Linux %s; calls went to ", date, XSC_VERSION, rel.buf);
	sbuf_release(&rel);
	if (s->vm_version)
		sbuf_addf(sb, "a real %s kernel in qemu", s->vm_version);
	else if (s->sim)
		sbuf_addf(sb, "a simulated %s kernel", kver_str(s->sim_kv, kv));
	else
		sbuf_adds(sb, "the running kernel");
	sbuf_adds(sb, " (until a 'target' below).");
}

int session_set_transcript(struct session *s, const char *path, bool force, const char *state)
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
	struct sbuf about = SBUF_INIT;
	transcript_about(s, &about);
	transcript_start(&md, about.buf, state);
	sbuf_release(&about);
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
