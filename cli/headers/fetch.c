/* fetch: libcurl through dlopen, for URLs; plain files otherwise. See fetch.h. */
#include "headers/fetch.h"
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <curl/curl.h>
#include "base/diag.h"
#include "base/dynlib.h"
#include "base/sig.h"
#include "base/util.h"
#include "base/banned.h"

/* The libcurl entry points xsc uses, resolved once. */
static struct {
	bool tried, ok;
	void *lib;
	CURLcode (*global_init)(long);
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
	CURLcode (*easy_perform)(CURL *);
	CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
	void (*easy_cleanup)(CURL *);
	const char *(*easy_strerror)(CURLcode);
} C;

static const struct dynlib curl_lib = { "libcurl", "libcurl4",
					 (const char *const[]){ "libcurl.so.4", "libcurl-gnutls.so.4", NULL }, 0 };

static int load_curl(void)
{
	if (C.tried)
		return C.ok ? 0 : err("libcurl is not available (install libcurl4)");
	C.tried = true;
	const struct dynlib_sym syms[] = {
		DYNLIB_SYM("curl_global_init", C.global_init),   DYNLIB_SYM("curl_easy_init", C.easy_init),
		DYNLIB_SYM("curl_easy_setopt", C.easy_setopt),   DYNLIB_SYM("curl_easy_perform", C.easy_perform),
		DYNLIB_SYM("curl_easy_getinfo", C.easy_getinfo), DYNLIB_SYM("curl_easy_cleanup", C.easy_cleanup),
		DYNLIB_SYM("curl_easy_strerror", C.easy_strerror),
	};
	C.lib = dynlib_open(&curl_lib, NULL);
	if (!C.lib || dynlib_resolve(&curl_lib, C.lib, syms, ARRAY_SIZE(syms)))
		return err("%s", dynlib_error());
	if (C.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		return err("libcurl failed to initialise");
	C.ok = true;
	return 0;
}

bool fetch_is_url(const char *s)
{
	const char *p = s;
	if (!isalpha((unsigned char)*p))
		return false;
	while (isalnum((unsigned char)*p) || *p == '+' || *p == '-' || *p == '.')
		p++;
	return !strncmp(p, "://", 3);
}

static bool is_file_url(const char *url) { return !strncasecmp(url, "file://", 7); }

/* http and https always; file only as the URL the user typed, never as a redirect. */
static bool allowed_scheme(const char *url, bool file_ok)
{
	return !strncasecmp(url, "http://", 7) || !strncasecmp(url, "https://", 8) || (file_ok && is_file_url(url));
}

/* A heap copy of url with its credentials redacted: what messages and outputs show. */
static char *redacted(const char *url)
{
	struct sbuf sb = SBUF_INIT;
	fetch_redact(url, &sb);
	return sbuf_detach(&sb);
}

struct xfer {
	struct sbuf *body;
	size_t base, max;
	bool too_big;
	bool progress, drawn;
	struct timespec t0;
	const char *url;
};

static size_t on_write(char *data, size_t size, size_t n, void *arg)
{
	struct xfer *x = arg;
	size_t bytes = size * n;
	if (x->body->len - x->base + bytes > x->max) {
		x->too_big = true;
		return 0; /* makes libcurl stop with CURLE_WRITE_ERROR */
	}
	sbuf_add(x->body, data, bytes);
	return bytes;
}

/* Draws a bar on stderr (a terminal) once a transfer has taken more than half a second. */
static int on_progress(void *arg, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow)
{
	(void)ultotal, (void)ulnow;
	struct xfer *x = arg;
	if (sig_interrupted()) /* ^C: libcurl retries its own waits, so stop it here */
		return 1;
	if (!x->progress)
		return 0;
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	double el = (double)(t.tv_sec - x->t0.tv_sec) + (double)(t.tv_nsec - x->t0.tv_nsec) / 1e9;
	if (el < 0.5)
		return 0;
	char bar[31];
	int fill = dltotal > 0 ? (int)(30 * dlnow / dltotal) : (int)(el * 4) % 30;
	for (int i = 0; i < 30; i++)
		bar[i] = dltotal > 0 ? (i < fill ? '#' : ' ') : (i == fill ? '#' : ' ');
	bar[30] = '\0';
	if (dltotal > 0)
		fprintf(stderr, "\r[%s] %6.1f / %.1f KiB  %.1f s", bar, (double)dlnow / 1024,
			(double)dltotal / 1024, el);
	else
		fprintf(stderr, "\r[%s] %6.1f KiB  %.1f s", bar, (double)dlnow / 1024, el);
	x->drawn = true;
	return 0;
}

/* ---- the cache: trusted only when it is the user's own (as git's safe.directory) ---- */

static void cache_path(const char *dir, const char *url, struct sbuf *p)
{
	uint64_t h = 1469598103934665603ULL;
	for (const unsigned char *s = (const unsigned char *)url; *s; s++)
		h = (h ^ *s) * 1099511628211ULL;
	sbuf_addf(p, "%s/%016llx", dir, (unsigned long long)h);
}

/* The cache directory, made (0700) if missing. false, after a warning, when it is not one
 * the user alone controls: another user could plant a header there for every URL. */
static bool cache_dir_ok(const char *dir)
{
	struct stat st;
	if (lstat(dir, &st) < 0 && errno == ENOENT && mkdir(dir, 0700) < 0 && errno != EEXIST) {
		warning("cannot make the cache directory '%s': %s; not caching", dir, strerror(errno));
		return false;
	}
	char buf[96];
	const char *why = dir_not_own(dir, buf, sizeof(buf));
	if (why)
		warning("ignoring the cache directory '%s': %s", dir, why);
	return !why;
}

/* A cached body into body: 0, or -1 when there is none or it is not to be trusted. */
static int cache_read(const char *path, size_t max, struct sbuf *body)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	struct stat st;
	char own[96];
	const char *why = fstat(fd, &st) < 0 ? "cannot be read" : !S_ISREG(st.st_mode) ? "not a regular file"
										       : stat_not_own(&st, own, sizeof(own));
	if (!why && (uint64_t)st.st_size > max)
		why = "larger than --max-size";
	size_t base = body->len;
	for (char buf[65536]; !why;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			why = n < 0 ? "cannot be read" : NULL;
			break;
		}
		if (body->len - base + (size_t)n > max)
			why = "larger than --max-size";
		else
			sbuf_add(body, buf, (size_t)n);
	}
	close(fd);
	if (why) {
		if (body->len > base)
			body->len = base, body->buf[base] = '\0';
		warning("ignoring the cache file '%s': %s", path, why);
		return -1;
	}
	return 0;
}

/* ---- the transfer ---- */

static void set_options(CURL *h, const char *url, const struct xfer *x, long tmo, long ctmo, char *errbuf)
{
	C.easy_setopt(h, CURLOPT_URL, url);
	/* file: only as the URL typed; a server's redirect never reaches the local files */
	C.easy_setopt(h, CURLOPT_PROTOCOLS_STR, is_file_url(url) ? "file" : "http,https");
	C.easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	C.easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
	C.easy_setopt(h, CURLOPT_MAXREDIRS, 10L);
	C.easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
	C.easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
	C.easy_setopt(h, CURLOPT_FAILONERROR, 1L);
	C.easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
	C.easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)x->max);
	C.easy_setopt(h, CURLOPT_TIMEOUT_MS, tmo);
	C.easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, ctmo);
	C.easy_setopt(h, CURLOPT_ACCEPT_ENCODING, ""); /* gzip, deflate, …: decoded, and capped decoded */
	C.easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	C.easy_setopt(h, CURLOPT_USERAGENT, "xsc");
	C.easy_setopt(h, CURLOPT_WRITEFUNCTION, on_write);
	C.easy_setopt(h, CURLOPT_WRITEDATA, x);
	C.easy_setopt(h, CURLOPT_NOPROGRESS, 0L); /* on_progress also notices ^C */
	C.easy_setopt(h, CURLOPT_XFERINFOFUNCTION, on_progress);
	C.easy_setopt(h, CURLOPT_XFERINFODATA, x);
}

/* One message for a failed transfer; shown is the URL with its credentials redacted. */
static int report(CURL *h, CURLcode rc, const char *shown, const struct xfer *x, long tmo, const char *errbuf)
{
	long status = 0, nredir = 0;
	char *redir = NULL, *eff = NULL;
	C.easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
	C.easy_getinfo(h, CURLINFO_REDIRECT_URL, &redir);
	C.easy_getinfo(h, CURLINFO_EFFECTIVE_URL, &eff);
	C.easy_getinfo(h, CURLINFO_REDIRECT_COUNT, &nredir);
	if ((!redir || allowed_scheme(redir, false)) && eff && !allowed_scheme(eff, false))
		redir = eff;
	const char *detail = *errbuf ? errbuf : C.easy_strerror(rc);
	struct sbuf d = SBUF_INIT, r = SBUF_INIT;
	fetch_redact(detail, &d); /* libcurl's own words may quote the URL */
	if (redir)
		fetch_redact(redir, &r);
	int ret;
	switch (rc) {
	case CURLE_URL_MALFORMAT:
		ret = err("bad URL '%s': %s", shown, d.buf);
		break;
	case CURLE_UNSUPPORTED_PROTOCOL:
		if (redir && !allowed_scheme(redir, false))
			ret = err("'%s': redirect to '%s' refused (http and https only)", shown, r.buf);
		else if (nredir > 0 || status / 100 == 3)
			ret = err("'%s': a redirect to a protocol other than http or https was refused: %s", shown, d.buf);
		else
			ret = err("'%s': unsupported protocol (http, https and file only): %s", shown, d.buf);
		break;
	case CURLE_HTTP_RETURNED_ERROR:
		ret = err("'%s': HTTP %ld%s", shown, status,
			  status == 404 ? " not found" : status == 403 ? " forbidden" : "");
		break;
	case CURLE_OPERATION_TIMEDOUT:
		ret = err("'%s': timed out after %ld ms", shown, tmo);
		break;
	case CURLE_FILESIZE_EXCEEDED:
		ret = err("'%s': too large (more than %zu bytes)", shown, x->max);
		break;
	case CURLE_WRITE_ERROR:
		ret = x->too_big ? err("'%s': too large (more than %zu bytes)", shown, x->max)
				 : err("'%s': %s", shown, d.buf);
		break;
	case CURLE_COULDNT_CONNECT:
		ret = err("'%s': connection refused: %s", shown, d.buf);
		break;
	case CURLE_COULDNT_RESOLVE_HOST:
		ret = err("'%s': cannot resolve the host: %s", shown, d.buf);
		break;
	case CURLE_PEER_FAILED_VERIFICATION:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_SSL_CACERT_BADFILE:
		ret = err("'%s': TLS verification failed: %s", shown, d.buf);
		break;
	case CURLE_FILE_COULDNT_READ_FILE:
		ret = err("'%s': cannot read the file", shown);
		break;
	case CURLE_TOO_MANY_REDIRECTS:
		ret = err("'%s': too many redirects", shown);
		break;
	default:
		ret = err("'%s': %s", shown, d.buf);
	}
	sbuf_release(&d), sbuf_release(&r);
	return ret;
}

static int transfer(const char *url, const char *shown, const struct fetch_opts *o, size_t max, struct sbuf *body)
{
	long tmo = o->timeout_ms ? o->timeout_ms : 30000;
	long ctmo = o->connect_timeout_ms ? o->connect_timeout_ms : 10000;
	if (load_curl() < 0)
		return -1;
	CURL *h = C.easy_init();
	if (!h)
		return err("libcurl could not make a handle");
	char errbuf[CURL_ERROR_SIZE] = "";
	struct xfer x = { body, body->len, max, false, !o->no_progress && isatty(STDERR_FILENO), false, { 0, 0 }, shown };
	clock_gettime(CLOCK_MONOTONIC, &x.t0);
	set_options(h, url, &x, tmo, ctmo, errbuf);
	CURLcode rc = C.easy_perform(h);
	if (x.drawn)
		fprintf(stderr, "\r%*s\r", 60, "");
	int ret = rc == CURLE_OK ? 0 : sig_interrupted() ? sig_interrupt_err() : report(h, rc, shown, &x, tmo, errbuf);
	C.easy_cleanup(h);
	if (ret < 0)
		body->len = x.base, body->buf[body->len] = '\0';
	return ret;
}

int fetch_url(const char *url, const struct fetch_opts *o, struct sbuf *body)
{
	size_t max = o->max_size ? o->max_size : FETCH_MAX_DEFAULT;
	char *shown = redacted(url);
	int ret = -1;
	if (!fetch_is_url(url)) {
		ret = err("bad URL '%s' (want http://, https:// or file://)", shown);
		goto out;
	}
	if (!allowed_scheme(url, true)) {
		int n = (int)strcspn(url, ":");
		ret = err("unsupported protocol '%.*s' in '%s' (http, https and file only)", n, url, shown);
		goto out;
	}
	struct sbuf cp = SBUF_INIT;
	bool cache = o->cache_dir && cache_dir_ok(o->cache_dir);
	if (cache)
		cache_path(o->cache_dir, url, &cp);
	size_t base = body->len;
	if (cache && cache_read(cp.buf, max, body) == 0) {
		ret = 0;
	} else if ((ret = transfer(url, shown, o, max, body)) == 0 && cache) {
		if (write_file_atomic(cp.buf, body->buf + base, body->len - base) < 0)
			warning("cannot write the cache file '%s': %s", cp.buf, strerror(errno));
	}
	sbuf_release(&cp);
out:
	free(shown);
	return ret;
}

int fetch_source(const char *src, const struct fetch_opts *o, struct sbuf *text, char **display)
{
	size_t max = o->max_size ? o->max_size : FETCH_MAX_DEFAULT;
	*display = NULL;
	if (fetch_is_url(src)) {
		if (fetch_url(src, o, text) < 0)
			return -1;
		*display = redacted(src);
		return 0;
	}
	struct sbuf path = SBUF_INIT;
	sbuf_adds(&path, src);
	if (access(src, F_OK) && src[0] != '/' && src[0] != '.') {
		sbuf_reset(&path);
		sbuf_addf(&path, "/usr/include/%s", src);
		if (access(path.buf, F_OK)) {
			sbuf_reset(&path);
			sbuf_adds(&path, src);
		}
	}
	char *data;
	size_t len;
	if (read_file_max(path.buf, max, &data, &len) < 0) {
		int e = errno;
		int r = e == EFBIG ? err("'%s': too large (more than %zu bytes)", path.buf, max)
				   : err("cannot read '%s': %s", path.buf, strerror(e));
		sbuf_release(&path);
		return r;
	}
	sbuf_add(text, data, len);
	free(data);
	*display = sbuf_detach(&path);
	return 0;
}

static int num_arg(const char *opt, const char *v, unsigned long long lo, unsigned long long hi,
		   unsigned long long *out)
{
	char *end;
	errno = 0;
	if (!v || !isdigit((unsigned char)*v))
		return usage_err("%s needs a number", opt);
	unsigned long long n = strtoull(v, &end, 0);
	if (errno || *end || n < lo || n > hi)
		return usage_err("%s: '%s' is not a number in %llu..%llu", opt, v, lo, hi);
	*out = n;
	return 0;
}

int fetch_parse_opt(struct fetch_opts *o, int argc, char **argv, int *i)
{
	const char *a = argv[*i];
	const char *v = *i + 1 < argc ? argv[*i + 1] : NULL;
	unsigned long long n = 0;
	if (!strcmp(a, "--cache")) {
		if (!v)
			return usage_err("--cache needs a directory");
		o->cache_dir = v;
	} else if (!strcmp(a, "--timeout")) {
		if (num_arg(a, v, 1, 3600000, &n) < 0)
			return CMD_USAGE;
		o->timeout_ms = (long)n;
	} else if (!strcmp(a, "--connect-timeout")) {
		if (num_arg(a, v, 1, 3600000, &n) < 0)
			return CMD_USAGE;
		o->connect_timeout_ms = (long)n;
	} else if (!strcmp(a, "--max-size")) {
		if (num_arg(a, v, 1, (unsigned long long)1 << 30, &n) < 0)
			return CMD_USAGE;
		o->max_size = (size_t)n;
	} else {
		return 0;
	}
	*i += 1;
	return 1;
}
