/* hchild: header_parse in a child process with memory, CPU and time limits. See header.h.
 * The cut is the model: the child runs the whole parse (header_parse_in) and sends the
 * struct header back, serialised; the parent rebuilds it in its own arena. libclang is
 * loaded in the parent before the fork (loading costs the same either way, and a missing
 * libclang is then an ordinary error); the child is a separate process, free to use malloc
 * and libclang, because xsc is single-threaded when it forks here. */
#include "headers/header.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "base/diag.h"
#include "base/sbuf.h"
#include "base/sig.h"
#include "base/util.h"
#include "base/banned.h"

#define HCHILD_MEM ((uint64_t)1 << 30)        /* RLIMIT_AS: this much above what is mapped at the fork */
#define HCHILD_CPU_S 30                       /* RLIMIT_CPU */
#define HCHILD_WALL_S 60                      /* the parent's watchdog */
#define HCHILD_ANSWER_MAX ((size_t)512 << 20) /* the serialised model */

/* ASan reserves terabytes of address space: an RLIMIT_AS build would not start */
#if defined(__SANITIZE_ADDRESS__)
#define HCHILD_NO_AS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define HCHILD_NO_AS 1
#endif
#endif

/* ---- the model on the wire: native byte order (same machine), lengths before bytes ---- */

static void put_u32(struct sbuf *o, uint32_t v) { sbuf_add(o, &v, sizeof(v)); }
static void put_u64(struct sbuf *o, uint64_t v) { sbuf_add(o, &v, sizeof(v)); }

static void put_str(struct sbuf *o, const char *s)
{
	if (!s) {
		put_u32(o, UINT32_MAX);
		return;
	}
	size_t n = strlen(s);
	put_u32(o, (uint32_t)n);
	sbuf_add(o, s, n);
}

static void put_field(struct sbuf *o, const struct hfield *f)
{
	put_str(o, f->name), put_str(o, f->type), put_str(o, f->ctype), put_str(o, f->doc);
	put_u32(o, (uint32_t)f->naliases);
	for (size_t i = 0; i < f->naliases; i++)
		put_str(o, f->aliases[i]);
	put_u32(o, f->offset), put_u32(o, f->size), put_u32(o, f->align), put_u32(o, f->line), put_u32(o, f->col);
	put_u32(o, (uint32_t)(f->is_signed | f->fixed_width << 1 | f->is_long << 2 | f->is_pointer << 3 |
			      f->is_record << 4 | f->is_union << 5 | f->union_of_structs << 6 | f->bitfield << 7 |
			      f->reserved << 8));
}

static void put_version(struct sbuf *o, const struct hversion *v)
{
	put_str(o, v->name), put_u32(o, v->n), put_u64(o, v->size), put_u32(o, v->line), put_u32(o, v->col);
	put_str(o, v->st);
}

static void put_header(struct sbuf *o, const struct header *h)
{
	put_u32(o, h->kernel_version);
	put_u32(o, (uint32_t)h->nstructs);
	for (size_t i = 0; i < h->nstructs; i++) {
		const struct hstruct *s = &h->structs[i];
		put_str(o, s->name), put_str(o, s->doc);
		put_u32(o, (uint32_t)(s->is_union | s->packed << 1 | s->explicit_align << 2));
		put_u32(o, s->size), put_u32(o, s->align), put_u32(o, s->line), put_u32(o, s->col);
		put_u32(o, (uint32_t)s->nfields);
		for (size_t k = 0; k < s->nfields; k++)
			put_field(o, &s->fields[k]);
		put_u32(o, (uint32_t)s->nversions);
		for (size_t k = 0; k < s->nversions; k++)
			put_version(o, &s->versions[k]);
	}
	put_u32(o, (uint32_t)h->nversions);
	for (size_t i = 0; i < h->nversions; i++)
		put_version(o, &h->versions[i]);
	put_u32(o, (uint32_t)h->nmacros);
	for (size_t i = 0; i < h->nmacros; i++) {
		const struct hmacro *m = &h->macros[i];
		put_str(o, m->name), put_str(o, m->doc), put_u64(o, m->value);
		put_u32(o, m->negative), put_u32(o, m->line), put_u32(o, m->col);
	}
	put_u32(o, (uint32_t)h->nflagsets);
	for (size_t i = 0; i < h->nflagsets; i++) {
		const struct hflagset *f = &h->flagsets[i];
		put_str(o, f->name), put_str(o, f->prefix), put_u32(o, f->bits);
		put_u32(o, (uint32_t)(f->flags - h->macros)), put_u32(o, (uint32_t)f->nflags);
	}
	put_u32(o, (uint32_t)h->ndiags);
	for (size_t i = 0; i < h->ndiags; i++) {
		const struct hdiag *d = &h->diags[i];
		put_u32(o, d->sev), put_str(o, d->rule), put_str(o, d->msg), put_u32(o, d->line), put_u32(o, d->col);
	}
}

/* The reader trusts nothing: every count is held against the bytes left. */
struct rd {
	const char *p, *end;
	bool bad;
	struct header *h;
};

static uint32_t get_u32(struct rd *r)
{
	uint32_t v = 0;
	if ((size_t)(r->end - r->p) < sizeof(v))
		r->bad = true;
	else
		memcpy(&v, r->p, sizeof(v)), r->p += sizeof(v);
	return v;
}

static uint64_t get_u64(struct rd *r)
{
	uint64_t v = 0;
	if ((size_t)(r->end - r->p) < sizeof(v))
		r->bad = true;
	else
		memcpy(&v, r->p, sizeof(v)), r->p += sizeof(v);
	return v;
}

/* A string in the arena; NULL only where nullable, else "" */
static const char *get_str(struct rd *r, bool nullable)
{
	uint32_t n = get_u32(r);
	if (n == UINT32_MAX && !r->bad)
		return nullable ? NULL : "";
	if (r->bad || n > (size_t)(r->end - r->p)) {
		r->bad = true;
		return "";
	}
	char *s = arena_alloc(&r->h->a, (size_t)n + 1);
	memcpy(s, r->p, n);
	s[n] = '\0';
	r->p += n;
	return s;
}

/* A count of items of at least min bytes each: never more than the bytes left allow. */
static size_t get_count(struct rd *r, size_t min)
{
	uint32_t n = get_u32(r);
	if (r->bad || (uint64_t)n * min > (uint64_t)(r->end - r->p)) {
		r->bad = true;
		return 0;
	}
	return n;
}

static void get_field(struct rd *r, struct hfield *f)
{
	f->name = get_str(r, false), f->type = get_str(r, false), f->ctype = get_str(r, false);
	f->doc = get_str(r, true);
	f->naliases = get_count(r, 4);
	f->aliases = arena_alloc(&r->h->a, sizeof(char *) * (f->naliases + 1));
	for (size_t i = 0; i < f->naliases; i++)
		f->aliases[i] = get_str(r, false);
	f->offset = get_u32(r), f->size = get_u32(r), f->align = get_u32(r), f->line = get_u32(r), f->col = get_u32(r);
	uint32_t b = get_u32(r);
	f->is_signed = b & 1, f->fixed_width = b >> 1 & 1, f->is_long = b >> 2 & 1, f->is_pointer = b >> 3 & 1;
	f->is_record = b >> 4 & 1, f->is_union = b >> 5 & 1, f->union_of_structs = b >> 6 & 1;
	f->bitfield = b >> 7 & 1, f->reserved = b >> 8 & 1;
}

static void get_version(struct rd *r, struct hversion *v)
{
	v->name = get_str(r, false), v->n = get_u32(r), v->size = get_u64(r), v->line = get_u32(r);
	v->col = get_u32(r), v->st = get_str(r, true);
}

static void get_struct(struct rd *r, struct hstruct *s)
{
	s->name = get_str(r, false), s->doc = get_str(r, true);
	uint32_t b = get_u32(r);
	s->is_union = b & 1, s->packed = b >> 1 & 1, s->explicit_align = b >> 2 & 1;
	s->size = get_u32(r), s->align = get_u32(r), s->line = get_u32(r), s->col = get_u32(r);
	s->nfields = get_count(r, 40);
	s->fields = arena_alloc(&r->h->a, sizeof(*s->fields) * (s->nfields + 1));
	for (size_t k = 0; k < s->nfields && !r->bad; k++)
		get_field(r, &s->fields[k]);
	s->nversions = get_count(r, 28);
	s->versions = arena_alloc(&r->h->a, sizeof(*s->versions) * (s->nversions + 1));
	for (size_t k = 0; k < s->nversions && !r->bad; k++)
		get_version(r, &s->versions[k]);
}

/* h already holds name and text; the rest comes from the wire. false when malformed. */
static bool get_header(struct rd *r)
{
	struct header *h = r->h;
	h->kernel_version = get_u32(r);
	h->nstructs = get_count(r, 32);
	h->structs = xcalloc(h->nstructs + 1, sizeof(*h->structs));
	for (size_t i = 0; i < h->nstructs && !r->bad; i++)
		get_struct(r, &h->structs[i]);
	h->nversions = get_count(r, 28);
	h->versions = xcalloc(h->nversions + 1, sizeof(*h->versions));
	for (size_t i = 0; i < h->nversions && !r->bad; i++)
		get_version(r, &h->versions[i]);
	h->nmacros = get_count(r, 28);
	h->macros = xcalloc(h->nmacros + 1, sizeof(*h->macros));
	for (size_t i = 0; i < h->nmacros && !r->bad; i++) {
		struct hmacro *m = &h->macros[i];
		m->name = get_str(r, false), m->doc = get_str(r, true), m->value = get_u64(r);
		m->negative = get_u32(r), m->line = get_u32(r), m->col = get_u32(r);
	}
	h->nflagsets = get_count(r, 20);
	h->flagsets = xcalloc(h->nflagsets + 1, sizeof(*h->flagsets));
	for (size_t i = 0; i < h->nflagsets && !r->bad; i++) {
		struct hflagset *f = &h->flagsets[i];
		f->name = get_str(r, false), f->prefix = get_str(r, false), f->bits = get_u32(r);
		uint32_t first = get_u32(r), n = get_u32(r);
		if ((uint64_t)first + n > h->nmacros)
			r->bad = true;
		else
			f->flags = &h->macros[first], f->nflags = n;
	}
	h->ndiags = get_count(r, 20);
	h->diags = xcalloc(h->ndiags + 1, sizeof(*h->diags));
	for (size_t i = 0; i < h->ndiags && !r->bad; i++) {
		struct hdiag *d = &h->diags[i];
		uint32_t sev = get_u32(r);
		d->sev = sev <= HD_ERROR ? (enum hdiag_sev)sev : HD_ERROR;
		d->rule = get_str(r, false), d->msg = get_str(r, false), d->line = get_u32(r), d->col = get_u32(r);
	}
	return !r->bad && r->p == r->end;
}

/* ---- the child ---- */

/* The answer: status, the messages err() and warning() gave (kind, text), then the model. */
struct answer {
	struct sbuf msgs;
	uint32_t nmsgs;
};

static void collect(const char *kind, const char *msg, void *arg)
{
	struct answer *a = arg;
	put_str(&a->msgs, kind);
	put_str(&a->msgs, msg);
	a->nmsgs++;
}

static char scratch[4096]; /* the child's scratch directory, for its SIGTERM handler */

/* Removes what is under dirfd, using only async-signal-safe calls (it runs in a handler). */
static void remove_under(int dirfd, int depth)
{
	char buf[2048];
	long n;
	while (depth < 16 && (n = syscall(SYS_getdents64, dirfd, buf, sizeof(buf))) > 0)
		for (long off = 0; off < n;) {
			struct dirent64 *e = (struct dirent64 *)(buf + off);
			off += e->d_reclen;
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			if (e->d_type == DT_DIR) {
				int sub = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
				if (sub >= 0) {
					remove_under(sub, depth + 1);
					close(sub);
				}
				unlinkat(dirfd, e->d_name, AT_REMOVEDIR);
			} else {
				unlinkat(dirfd, e->d_name, 0);
			}
		}
}

/* xsc died (PR_SET_PDEATHSIG): the scratch copy is the child's to remove. */
static void on_parent_death(int sig)
{
	(void)sig;
	int fd = open(scratch, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		remove_under(fd, 0);
		close(fd);
		rmdir(scratch);
	}
	_exit(1);
}

/* A process's address space in bytes, from its status file (fd, open: the confined parse
 * may not open it again): what ("VmSize:", "VmPeak:"), 0 when unknown. */
static uint64_t vm_bytes(int fd, const char *what)
{
	char t[8192];
	ssize_t n = fd >= 0 ? pread(fd, t, sizeof(t) - 1, 0) : -1;
	if (n <= 0)
		return 0;
	t[n] = '\0';
	const char *p = strstr(t, what);
	return p ? strtoull(p + strlen(what), NULL, 10) * 1024 : 0;
}

/* The last 64 KiB the child wrote to its standard error (a memfd): libclang's own words
 * when it gives up ("LLVM ERROR: out of memory"). */
static void stderr_tail(int efd, struct sbuf *out)
{
	struct stat st;
	char buf[65536];
	if (efd < 0 || fstat(efd, &st) < 0)
		return;
	off_t from = st.st_size > (off_t)sizeof(buf) ? st.st_size - (off_t)sizeof(buf) : 0;
	ssize_t n = pread(efd, buf, sizeof(buf), from);
	if (n > 0)
		sbuf_add(out, buf, (size_t)n);
}

/* Was a failed parse the memory limit? libclang's recovery turns a failed allocation into a
 * "crash", after saying so on stderr; a parse near its allowance is one too. */
static bool out_of_memory(int efd, uint64_t base, uint64_t peak)
{
	struct sbuf t = SBUF_INIT;
	stderr_tail(efd, &t);
	bool oom = strstr(t.buf, "out of memory") || strstr(t.buf, "bad_alloc") ||
		   (base && peak >= base + HCHILD_MEM / 4 * 3);
	sbuf_release(&t);
	return oom;
}

/* The child's own limits and surroundings. base: its address space now (xsc's and
 * libclang's mappings, some 500 MiB), which the limit comes on top of. */
static void confine(pid_t parent, int fd, int efd, uint64_t base, size_t len)
{
	setpgid(0, 0); /* the terminal's Ctrl-C reaches xsc, which ends the child */
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_parent_death;
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGINT, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); /* nothing it might run gains privileges */
	if (getppid() != parent)
		on_parent_death(SIGTERM);
	/* out of the way first: with xsc's standard streams closed, the pipe may be fd 1 */
	fd = fcntl(fd, F_DUPFD_CLOEXEC, 10);
	efd = efd >= 0 ? fcntl(efd, F_DUPFD_CLOEXEC, 10) : -1;
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null >= 0)
		dup2(null, 0), dup2(null, 1), dup2(efd >= 0 ? efd : null, 2); /* libclang's "LLVM ERROR" lines */
	dup2(fd, 3);
	syscall(SYS_close_range, 4U, ~0U, 0U); /* none of xsc's descriptors */
	struct rlimit cpu = { HCHILD_CPU_S, HCHILD_CPU_S + 1 }, core = { 0, 0 };
	struct rlimit fsize = { len + (16 << 20), len + (16 << 20) }; /* the copy, stand-ins, stderr */
	setrlimit(RLIMIT_CPU, &cpu);
	setrlimit(RLIMIT_CORE, &core);
	setrlimit(RLIMIT_FSIZE, &fsize);
#ifndef HCHILD_NO_AS
	struct rlimit as = { base + HCHILD_MEM, base + HCHILD_MEM };
	setrlimit(RLIMIT_AS, &as);
#else
	(void)base; /* the sanitised build: the parent watches the resident size instead */
#endif
}

static void write_all_fd(int fd, const void *p, size_t n)
{
	for (const char *c = p; n;) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		c += w, n -= (size_t)w;
	}
}

static void child(pid_t parent, int fd, int efd, const char *name, const char *text, size_t len, const char *dir)
{
	snprintf(scratch, sizeof(scratch), "%s", dir);
	int status = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	uint64_t base = vm_bytes(status, "VmSize:");
	if (status >= 0)
		close(status);
	confine(parent, fd, efd, base, len);
	status = open("/proc/self/status", O_RDONLY | O_CLOEXEC); /* after close_range */
	write_all_fd(3, &base, sizeof(base)); /* first, so the parent can judge a death */
	struct answer a = { SBUF_INIT, 0 };
	diag_set_sink(collect, &a);
	struct header h;
	int r = header_parse_in(&h, name, text, len, dir, true);
	diag_set_sink(NULL, NULL);
	if (r < 0 && out_of_memory(2, base, vm_bytes(status, "VmPeak:"))) {
		sbuf_reset(&a.msgs);
		a.nmsgs = 0;
		put_str(&a.msgs, "memory limit"), put_str(&a.msgs, "");
		a.nmsgs = 1;
	}
	struct sbuf out = SBUF_INIT;
	put_u32(&out, r < 0 ? 1 : 0);
	put_u32(&out, a.nmsgs);
	sbuf_add(&out, a.msgs.buf, a.msgs.len);
	if (r == 0)
		put_header(&out, &h);
	write_all_fd(3, out.buf, out.len);
	_exit(0);
}

/* ---- the parent ---- */

static long long now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

enum wait_end { W_EOF, W_TIMEOUT, W_SIGNAL, W_TOO_BIG, W_MEMORY };

/* Reads the child's answer until it closes the pipe, the watchdog fires or a stop signal
 * comes; samples its VmPeak on the way (a child killed by abort() outside libclang's
 * recovery says nothing itself) and its resident memory, the limit of a build whose
 * sanitiser leaves RLIMIT_AS unset, and a second line of defence in any other. */
/* Updates *peak from the child's status; true when it holds more than the limit resident. */
static bool too_big(const char *status, uint64_t *peak)
{
	char *st;
	size_t sn;
	if (read_file_max(status, 65536, &st, &sn) < 0)
		return false;
	const char *pk = strstr(st, "VmPeak:"), *rss = strstr(st, "VmRSS:");
	uint64_t v = pk ? strtoull(pk + 7, NULL, 10) * 1024 : 0;
	bool big = rss && strtoull(rss + 6, NULL, 10) * 1024 > HCHILD_MEM;
	free(st);
	*peak = v > *peak ? v : *peak;
	return big;
}

static enum wait_end read_answer(pid_t pid, int fd, struct sbuf *ans, uint64_t *peak)
{
	long long deadline = now_ms() + HCHILD_WALL_S * 1000LL;
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	for (;;) {
		long long left = deadline - now_ms();
		if (left <= 0)
			return W_TIMEOUT;
		struct pollfd p = { fd, POLLIN, 0 };
		int r = sig_poll(&p, 1, left < 100 ? (int)left : 100);
		if (r < 0 && errno == ECANCELED)
			return W_SIGNAL; /* ^C, SIGTERM, SIGHUP: base/sig.h */
		if (r < 0 && errno != EINTR)
			return W_EOF;
		if (too_big(path, peak))
			return W_MEMORY;
		if (r <= 0)
			continue;
		char buf[65536];
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return W_EOF;
		if (ans->len + (size_t)n > HCHILD_ANSWER_MAX)
			return W_TOO_BIG;
		sbuf_add(ans, buf, (size_t)n);
	}
}

/* Passes on the child's messages; rebuilds the model. 0, or -1 (reported). */
static int take_answer(struct header *h, const char *name, const char *text, size_t len, const char *ans,
		       size_t alen)
{
	struct rd r = { ans, ans + alen, false, h };
	uint32_t failed = get_u32(&r);
	size_t nmsgs = get_count(&r, 8);
	memset(h, 0, sizeof(*h));
	h->name = arena_strdup(&h->a, name);
	char *t = arena_alloc(&h->a, len + 1);
	memcpy(t, text, len);
	h->text = t, h->len = len;
	for (size_t i = 0; i < nmsgs && !r.bad; i++) {
		const char *kind = get_str(&r, false), *msg = get_str(&r, false);
		if (!strcmp(kind, "memory limit"))
			err("header parse of '%s' exceeded the memory limit (%llu GiB)", name,
			    (unsigned long long)(HCHILD_MEM >> 30));
		else if (!strcmp(kind, "warning: "))
			warning("%s", msg);
		else
			err("%s", msg);
	}
	if (!r.bad && failed) {
		header_release(h);
		return -1;
	}
	if (r.bad || !get_header(&r)) {
		header_release(h);
		return err("header parse of '%s': the parser's answer is malformed", name);
	}
	header_index(h);
	return 0;
}

/* One error for a child that did not answer. */
static int report_death(const char *name, enum wait_end how, int status, int efd, uint64_t base, uint64_t peak)
{
	if (how == W_TIMEOUT)
		return err("header parse of '%s' took longer than %d s (stopped)", name, HCHILD_WALL_S);
	if (how == W_TOO_BIG)
		return err("header parse of '%s': its answer exceeds %zu MiB", name, HCHILD_ANSWER_MAX >> 20);
	if (how == W_MEMORY)
		return err("header parse of '%s' exceeded the memory limit (%llu GiB resident)", name,
			   (unsigned long long)(HCHILD_MEM >> 30));
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXCPU)
		return err("header parse of '%s' exceeded the CPU time limit (%d s)", name, HCHILD_CPU_S);
	if (out_of_memory(efd, base, peak))
		return err("header parse of '%s' exceeded the memory limit (%llu GiB)", name,
			   (unsigned long long)(HCHILD_MEM >> 30));
	if (WIFSIGNALED(status))
		return err("header parse of '%s' crashed (%s)", name, strsignal(WTERMSIG(status)));
	return err("header parse of '%s' ended without an answer (exit %d)", name, WEXITSTATUS(status));
}

static int run_child(struct header *h, const char *name, const char *text, size_t len, const char *dir)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return err("header parse of '%s': cannot make a pipe: %s", name, strerror(errno));
	int efd = memfd_create("xsc-header-stderr", MFD_CLOEXEC); /* without one, /dev/null */
	fflush(stdout), fflush(stderr); /* nothing buffered is written twice */
	pid_t parent = getpid(), pid = fork();
	if (pid < 0) {
		close(p[0]), close(p[1]);
		if (efd >= 0)
			close(efd);
		return err("header parse of '%s': cannot fork: %s", name, strerror(errno));
	}
	if (pid == 0) {
		close(p[0]);
		child(parent, p[1], efd, name, text, len, dir);
	}
	close(p[1]);
	struct sbuf ans = SBUF_INIT;
	uint64_t peak = 0;
	enum wait_end how = read_answer(pid, p[0], &ans, &peak);
	close(p[0]);
	if (how != W_EOF)
		kill(pid, SIGKILL);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	uint64_t base = 0; /* the child's first word */
	if (ans.len >= sizeof(base))
		memcpy(&base, ans.buf, sizeof(base));
	int r;
	if (how == W_SIGNAL)
		r = sig_interrupt_err();
	else if (how == W_EOF && WIFEXITED(status) && WEXITSTATUS(status) == 0 && ans.len > sizeof(base))
		r = take_answer(h, name, text, len, ans.buf + sizeof(base), ans.len - sizeof(base));
	else
		r = report_death(name, how, status, efd, base, peak);
	if (efd >= 0)
		close(efd);
	sbuf_release(&ans);
	return r;
}

int header_parse(struct header *h, const char *name, const char *text, size_t len)
{
	memset(h, 0, sizeof(*h));
	if (header_load_clang() < 0)
		return -1;
	struct sbuf dir = SBUF_INIT;
	sbuf_addf(&dir, "%s/xsc-header-XXXXXX", scratch_dir());
	int r;
	if (!scratch_mkdtemp(dir.buf))
		r = err("cannot make a temporary directory in '%s': %s", scratch_dir(), strerror(errno));
	else
		r = run_child(h, name, text, len, dir.buf), scratch_remove(dir.buf);
	sbuf_release(&dir);
	return r;
}
