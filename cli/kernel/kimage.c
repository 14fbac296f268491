#include "kernel/kimage.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "base/diag.h"
#include "base/proc.h"
#include "base/util.h"
#include "model/kver.h"
#include "base/banned.h"

#define KEYRING "/usr/share/keyrings/debian-archive-keyring.gpg"
#define MANIFEST_MAX (64 * 1024)
#define DATA_FILE "kernels/debian.json"

static char *jstr(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? xstrdup(s) : NULL;
}

static char *cache_dir(void)
{
	const char *own = getenv("XSC_KERNEL_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	struct sbuf p = SBUF_INIT;
	if (own && *own == '/')
		sbuf_adds(&p, own);
	else if (xdg && *xdg == '/')
		sbuf_addf(&p, "%s/xsc/kernels", xdg);
	else if (home && *home == '/')
		sbuf_addf(&p, "%s/.cache/xsc/kernels", home);
	else
		return NULL;
	return sbuf_detach(&p);
}

/* The manifest 'kernels fetch' wrote beside the image, when the directory is the user's own. */
static void read_manifest(const char *dir, struct kimage *k)
{
	struct sbuf p = SBUF_INIT;
	char *text;
	size_t len;
	sbuf_addf(&p, "%s/%s/manifest.json", dir, k->version);
	if (safe_cache_read(p.buf, MANIFEST_MAX, &text, &len) == 0) {
		json_t *m = json_loadb(text, len, 0, NULL);
		free(text);
		json_t *size = json_object_get(m, "size");
		k->package = jstr(m, "package");
		k->pkg_version = jstr(m, "version");
		k->sha256 = jstr(m, "sha256");
		k->size = json_is_integer(size) && json_integer_value(size) > 0 ? (uint64_t)json_integer_value(size) : 0;
		json_decref(m);
		sbuf_reset(&p);
		sbuf_addf(&p, "%s/%s/vmlinuz", dir, k->version);
		k->path = xstrdup(p.buf);
		k->present = k->package && k->pkg_version && k->size && !kimage_check(k);
	}
	sbuf_release(&p);
}

static int load_entry(json_t *e, struct kimage *k, const char *file, size_t i)
{
	json_t *fb = json_object_get(e, "fallback");
	k->version = jstr(e, "version");
	k->archive = jstr(e, "archive");
	k->suite = jstr(e, "suite");
	k->meta = jstr(e, "meta");
	k->prefix = jstr(e, "prefix");
	k->suffix = jstr(e, "suffix");
	k->fb_package = jstr(fb, "package");
	k->fb_version = jstr(fb, "version");
	if (!k->version || kver_parse(k->version, &k->kv, 0) < 0 || !k->archive || !k->suite || !k->prefix ||
	    !k->suffix || !k->fb_package || !k->fb_version)
		return err("%s: kernel %zu: needs version, archive, suite, prefix, suffix and fallback {package, version}", file, i + 1);
	for (const char *c = k->suite; *c; c++) /* it becomes a path and an apt source line */
		if (!(*c >= 'a' && *c <= 'z') && *c != '-')
			return err("%s: kernel %s: suite '%s' is not a Debian suite name", file, k->version, k->suite);
	return 0;
}

int kimages_load(const char *data_dir, struct kimages *ks)
{
	memset(ks, 0, sizeof(*ks));
	struct sbuf p = SBUF_INIT;
	json_error_t je;
	sbuf_addf(&p, "%s/" DATA_FILE, data_dir);
	json_t *root = json_load_file(p.buf, 0, &je);
	json_t *arr = json_object_get(root, "kernels");
	int r = 0;
	if (!root)
		r = err("%s:%d:%d: %s", p.buf, je.line, je.column, je.text);
	else if (!json_is_array(arr))
		r = err("%s: no \"kernels\" array", p.buf);
	ks->n = r ? 0 : json_array_size(arr);
	ks->k = xcalloc(ks->n ? ks->n : 1, sizeof(*ks->k));
	ks->dir = cache_dir();
	for (size_t i = 0; !r && i < ks->n; i++)
		r = load_entry(json_array_get(arr, i), &ks->k[i], p.buf, i);
	for (size_t i = 0; !r && ks->dir && i < ks->n; i++)
		read_manifest(ks->dir, &ks->k[i]);
	json_decref(root);
	sbuf_release(&p);
	return r;
}

void kimages_release(struct kimages *ks)
{
	for (size_t i = 0; i < ks->n; i++) {
		struct kimage *k = &ks->k[i];
		char *fields[] = { k->version, k->archive, k->suite, k->meta, k->prefix, k->suffix, k->fb_package,
				   k->fb_version, k->package, k->pkg_version, k->sha256, k->path };
		for (size_t f = 0; f < ARRAY_SIZE(fields); f++)
			free(fields[f]);
	}
	free(ks->k);
	free(ks->dir);
	memset(ks, 0, sizeof(*ks));
}

uint32_t kimage_full_kv(const struct kimage *k)
{
	uint32_t v;
	return k->pkg_version && kver_parse(k->pkg_version, &v, 1) == 0 ? v : 0;
}

struct kimage *kimages_find(struct kimages *ks, const char *version)
{
	uint32_t v;
	if (kver_parse(version, &v, 0) < 0)
		return NULL;
	for (size_t i = 0; i < ks->n; i++)
		if (ks->k[i].kv == v || (ks->k[i].kv == kver_release(v) && kimage_full_kv(&ks->k[i]) == v))
			return &ks->k[i];
	return NULL;
}

const char *kimage_check(const struct kimage *k)
{
	struct stat st;
	if (!k->path || lstat(k->path, &st) < 0)
		return "the image is missing";
	if (!S_ISREG(st.st_mode))
		return "the image is not a regular file";
	if ((uint64_t)st.st_size != k->size)
		return "the image's size is not the one recorded when it was fetched";
	return NULL;
}

/* ---- running apt, dpkg-deb and tar (no shell: every argument is a word of its own) ---- */

/* The private apt directory of a suite and the options that point apt at it alone. */
struct aptdir {
	char *dir;
	char *opts[10];
};

static void aptdir_release(struct aptdir *a)
{
	free(a->dir);
	for (size_t i = 0; i < ARRAY_SIZE(a->opts); i++)
		free(a->opts[i]);
}

/* The mirror the system's own sources name for archive ("debian", "debian-security"), so
 * xsc downloads from where apt already does; deb.debian.org otherwise. */
static char *system_mirror(const char *archive)
{
	static const char *const files[] = { "/etc/apt/sources.list", "/etc/apt/sources.list.d/debian.sources" };
	size_t alen = strlen(archive);
	for (size_t f = 0; f < ARRAY_SIZE(files); f++) {
		char *text;
		size_t len;
		if (read_file_max(files[f], 1 << 20, &text, &len) < 0)
			continue;
		for (char *t = text + strspn(text, " \t\n"); *t; t += strspn(t, " \t\n")) {
			size_t n = strcspn(t, " \t\n");
			char *word = t;
			t += n;
			while (n && word[n - 1] == '/')
				n--;
			if ((!strncmp(word, "http://", 7) || !strncmp(word, "https://", 8)) && n > alen &&
			    word[n - alen - 1] == '/' && !strncmp(word + n - alen, archive, alen)) {
				char *m = xstrndup(word, n);
				free(text);
				return m;
			}
		}
		free(text);
	}
	struct sbuf m = SBUF_INIT;
	sbuf_addf(&m, "http://deb.debian.org/%s", archive);
	return sbuf_detach(&m);
}

static int aptdir_make(const struct kimages *ks, const struct kimage *k, struct aptdir *a)
{
	static const char *const sub[] = { "", "/lists", "/lists/partial", "/cache", "/cache/archives",
					   "/cache/archives/partial", "/parts" };
	struct sbuf p = SBUF_INIT, line = SBUF_INIT;
	memset(a, 0, sizeof(*a));
	sbuf_addf(&p, "%s/apt/%s", ks->dir, k->suite);
	a->dir = xstrdup(p.buf);
	mkdir_parents(p.buf, 0700);
	for (size_t i = 0; i < ARRAY_SIZE(sub); i++) {
		sbuf_reset(&p);
		sbuf_addf(&p, "%s%s", a->dir, sub[i]);
		if (mkdir(p.buf, 0755) < 0 && errno != EEXIST) {
			int r = err("cannot make '%s': %s", p.buf, strerror(errno));
			sbuf_release(&p);
			return r;
		}
	}
	char *mirror = system_mirror(k->archive);
	sbuf_addf(&line, "deb [signed-by=" KEYRING "] %s %s main\n", mirror, k->suite);
	free(mirror);
	sbuf_reset(&p);
	sbuf_addf(&p, "%s/sources.list", a->dir);
	int r = write_file_atomic(p.buf, line.buf, line.len) < 0 ? err("cannot write '%s': %s", p.buf, strerror(errno)) : 0;
	const char *fmt[] = { "Dir::Etc::sourcelist=%s/sources.list", "Dir::Etc::sourceparts=%s/parts",
			      "Dir::State::Lists=%s/lists", "Dir::Cache=%s/cache", "Dir::State::status=/dev/null" };
	for (size_t i = 0; i < ARRAY_SIZE(fmt); i++) {
		sbuf_reset(&p);
		sbuf_addf(&p, fmt[i], a->dir);
		a->opts[2 * i] = xstrdup("-o");
		a->opts[2 * i + 1] = xstrdup(p.buf);
	}
	sbuf_release(&p);
	sbuf_release(&line);
	return r;
}

/* Runs an apt tool with the suite's options: TOOL ARGS... -o ... ; output to out. */
static int apt(const struct aptdir *a, const char *dir, struct sbuf *out, const char *tool, const char *a1,
	       const char *a2, const char *a3)
{
	const char *argv[4 + ARRAY_SIZE(a->opts) + 1];
	size_t n = 0;
	argv[n++] = tool;
	for (const char *x[] = { a1, a2, a3 }, **q = x; q < x + 3; q++)
		if (*q)
			argv[n++] = *q;
	for (size_t i = 0; i < ARRAY_SIZE(a->opts) && a->opts[i]; i++)
		argv[n++] = a->opts[i];
	argv[n] = NULL;
	return proc_run((char *const *)argv, dir, out);
}

/* The value of "Key: value" in apt's output, or NULL. */
static char *field(const char *text, const char *key)
{
	size_t kl = strlen(key);
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, key, kl) && l[kl] == ':') {
			const char *v = l + kl + 1;
			v += strspn(v, " ");
			return xstrndup(v, strcspn(v, "\n"));
		}
	return NULL;
}

static bool named_of(const struct kimage *k, const char *pkg)
{
	return !strncmp(pkg, k->prefix, strlen(k->prefix));
}

/* From the meta-package down its linux-image-N / linux-binary-N dependencies to the last
 * (from 7.x on, linux-image-* is a stub depending on the linux-binary-* that holds the image). */
static char *resolve_meta(const struct aptdir *a, const struct kimage *k)
{
	char *name = k->meta ? xstrdup(k->meta) : NULL;
	for (int depth = 0; name && depth < 4; depth++) {
		struct sbuf out = SBUF_INIT;
		char *next = NULL;
		if (apt(a, NULL, &out, "apt-cache", "depends", name, NULL) == 0)
			for (const char *l = strstr(out.buf, "Depends: "); l && !next; l = strstr(l + 1, "Depends: ")) {
				const char *d = l + 9;
				size_t n = strcspn(d, "\n");
				if ((!strncmp(d, "linux-image-", 12) && d[12] >= '0' && d[12] <= '9') ||
				    (!strncmp(d, "linux-binary-", 13) && d[13] >= '0' && d[13] <= '9'))
					next = xstrndup(d, n);
			}
		sbuf_release(&out);
		if (!next)
			break;
		free(name);
		name = next;
	}
	if (name && named_of(k, name))
		return name;
	free(name);
	return NULL;
}

/* The newest PREFIX N SUFFIX in the suite, by N. */
static char *resolve_pattern(const struct aptdir *a, const struct kimage *k)
{
	struct sbuf out = SBUF_INIT;
	char *best = NULL;
	unsigned long best_n = 0;
	size_t pl = strlen(k->prefix), sl = strlen(k->suffix);
	if (apt(a, NULL, &out, "apt-cache", "pkgnames", k->prefix, NULL) == 0)
		for (char *l = out.buf, *next; *l; l = next) {
			size_t n = strcspn(l, "\n");
			next = l + n + (l[n] == '\n');
			l[n] = '\0';
			char *end;
			if (n <= pl + sl || strcmp(l + n - sl, k->suffix))
				continue;
			unsigned long v = strtoul(l + pl, &end, 10);
			if (end != l + n - sl || (best && v <= best_n))
				continue;
			free(best);
			best = xstrdup(l);
			best_n = v;
		}
	sbuf_release(&out);
	return best;
}

/* The first regular file named vmlinuz* beneath dir (boot/vmlinuz-V, usr/lib/modules/V/vmlinuz). */
static char *find_vmlinuz(const char *dir, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char *found = NULL;
	while (d && !found && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		struct sbuf p = SBUF_INIT;
		struct stat st;
		sbuf_addf(&p, "%s/%s", dir, de->d_name);
		if (lstat(p.buf, &st) == 0 && S_ISREG(st.st_mode) && !strncmp(de->d_name, "vmlinuz", 7))
			found = sbuf_detach(&p);
		else if (S_ISDIR(st.st_mode) && depth < 5)
			found = find_vmlinuz(p.buf, depth + 1);
		sbuf_release(&p);
	}
	if (d)
		closedir(d);
	return found;
}

/* dpkg-deb --fsys-tarfile DEB | tar -x -C DIR --wildcards --no-anchored 'vmlinuz*' */
static int extract_vmlinuz(const char *deb, const char *dir, struct sbuf *out)
{
	char *dpkg[] = { "dpkg-deb", "--fsys-tarfile", (char *)deb, NULL };
	char *tar[] = { "tar", "-x", "-C", (char *)dir, "--wildcards", "--no-anchored", "vmlinuz*", NULL };
	int p[2], e[2];
	if (pipe2(p, O_CLOEXEC) < 0 || pipe2(e, O_CLOEXEC) < 0)
		return -1;
	pid_t a = proc_spawn(dpkg, NULL, -1, p[1], e[1]);
	pid_t b = proc_spawn(tar, NULL, p[0], -1, e[1]);
	close(p[0]);
	close(p[1]);
	close(e[1]);
	char chunk[4096];
	for (ssize_t n; (n = read(e[0], chunk, sizeof(chunk))) > 0 || (n < 0 && errno == EINTR);)
		if (n > 0)
			sbuf_add(out, chunk, (size_t)n);
	close(e[0]);
	int ra = a > 0 ? proc_wait(a) : -1, rb = b > 0 ? proc_wait(b) : -1;
	return ra == 0 && rb == 0 ? 0 : -1;
}

static char *sha256_of(const char *path)
{
	char *argv[] = { "sha256sum", (char *)path, NULL };
	struct sbuf out = SBUF_INIT;
	char *h = NULL;
	if (proc_run(argv, NULL, &out) == 0 && strcspn(out.buf, " ") == 64)
		h = xstrndup(out.buf, 64);
	sbuf_release(&out);
	return h;
}

static int write_manifest(const struct kimages *ks, struct kimage *k, const char *deb_sha256)
{
	char when[32];
	time_t now = time(NULL);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	json_t *m = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s?, s:I, s:s}", "kernel", k->version, "package", k->package,
			      "version", k->pkg_version, "suite", k->suite, "sha256", k->sha256, "deb_sha256", deb_sha256,
			      "size", (json_int_t)k->size, "fetched", when);
	char *text = json_dumps(m, JSON_INDENT(2));
	struct sbuf p = SBUF_INIT;
	sbuf_addf(&p, "%s/%s/manifest.json", ks->dir, k->version);
	int r = safe_cache_write(p.buf, text, strlen(text)) < 0 ? err("cannot write '%s'", p.buf) : 0;
	sbuf_release(&p);
	free(text);
	json_decref(m);
	return r;
}

/* What apt said, after a failure: its last lines. */
static int apt_failed(const char *what, const struct sbuf *out)
{
	const char *tail = out->buf;
	for (int lines = 0, i = (int)out->len - 1; i > 0; i--)
		if (out->buf[i - 1] == '\n' && ++lines == 6) {
			tail = out->buf + i;
			break;
		}
	return err("%s failed:\n%s", what, tail);
}

static int fetch_into(struct kimages *ks, struct kimage *k, const struct aptdir *a, const char *tmp, struct sbuf *log)
{
	struct sbuf out = SBUF_INIT, p = SBUF_INIT;
	char *pkg = NULL, *ver = NULL, *deb_sha = NULL, *deb = NULL, *img = NULL;
	int r = -1;
	sbuf_addf(log, "kernel %s: apt-get update (%s)\n", k->version, k->suite);
	if (apt(a, NULL, &out, "apt-get", "-q", "update", NULL) != 0) {
		apt_failed("apt-get update", &out);
		goto out;
	}
	const char *via = k->meta;
	if (!(pkg = resolve_meta(a, k))) {
		via = "the newest of its name in the suite";
		if (!(pkg = resolve_pattern(a, k))) {
			via = "the fallback list";
			pkg = xstrdup(k->fb_package);
		}
	}
	sbuf_reset(&out);
	if (apt(a, NULL, &out, "apt-cache", "show", "--no-all-versions", pkg) != 0 || !(ver = field(out.buf, "Version"))) {
		apt_failed("apt-cache show", &out);
		goto out;
	}
	deb_sha = field(out.buf, "SHA256");
	sbuf_addf(log, "kernel %s: %s %s (from %s)\n", k->version, pkg, ver, via);
	sbuf_reset(&out);
	if (apt(a, tmp, &out, "apt-get", "-q", "download", pkg) != 0) {
		apt_failed("apt-get download", &out);
		goto out;
	}
	DIR *d = opendir(tmp);
	for (struct dirent *de; d && !deb && (de = readdir(d));)
		if (strlen(de->d_name) > 4 && !strcmp(de->d_name + strlen(de->d_name) - 4, ".deb")) {
			sbuf_addf(&p, "%s/%s", tmp, de->d_name);
			deb = sbuf_detach(&p);
		}
	if (d)
		closedir(d);
	sbuf_reset(&out);
	if (!deb || extract_vmlinuz(deb, tmp, &out) < 0 || !(img = find_vmlinuz(tmp, 0))) {
		err("%s: no vmlinuz in the package%s%s", pkg, out.len ? ": " : "", out.buf);
		goto out;
	}
	sbuf_reset(&p);
	sbuf_addf(&p, "%s/%s/vmlinuz", ks->dir, k->version);
	struct stat st;
	if (rename(img, p.buf) < 0 || stat(p.buf, &st) < 0) {
		err("cannot move the image to '%s': %s", p.buf, strerror(errno));
		goto out;
	}
	free(k->package);
	free(k->pkg_version);
	free(k->sha256);
	free(k->path);
	k->package = pkg;
	k->pkg_version = ver;
	k->path = sbuf_detach(&p);
	pkg = ver = NULL;
	k->size = (uint64_t)st.st_size;
	k->sha256 = sha256_of(k->path);
	if (!k->sha256) {
		err("cannot hash '%s' (sha256sum)", k->path);
		goto out;
	}
	r = write_manifest(ks, k, deb_sha);
	k->present = r == 0;
	sbuf_addf(log, "kernel %s: %s (%llu bytes, sha256 %.16s…)\n", k->version, k->path, (unsigned long long)k->size, k->sha256);
out:
	free(pkg);
	free(ver);
	free(deb_sha);
	free(deb);
	free(img);
	sbuf_release(&out);
	sbuf_release(&p);
	return r;
}

int kimage_fetch(struct kimages *ks, struct kimage *k, struct sbuf *log)
{
	char why[256];
	if (!ks->dir)
		return err("no cache directory: set XDG_CACHE_HOME or HOME");
	mkdir_parents(ks->dir, 0700);
	mkdir(ks->dir, 0700);
	const char *bad = dir_not_own(ks->dir, why, sizeof(why));
	if (bad)
		return err("refusing the kernel cache '%s': %s", ks->dir, bad);
	struct aptdir a;
	struct sbuf tmp = SBUF_INIT;
	int r = aptdir_make(ks, k, &a);
	sbuf_addf(&tmp, "%s/%s", ks->dir, k->version);
	mkdir(tmp.buf, 0700);
	sbuf_adds(&tmp, "/tmp.XXXXXX");
	if (!r && !mkdtemp(tmp.buf))
		r = err("cannot make a directory in '%s': %s", ks->dir, strerror(errno));
	else if (!r) {
		r = fetch_into(ks, k, &a, tmp.buf, log);
		remove_tree(tmp.buf);
	}
	aptdir_release(&a);
	sbuf_release(&tmp);
	return r;
}
