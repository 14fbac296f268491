#include "kernel/features.h"
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/diag.h"
#include "base/sbuf.h"
#include "model/dataload.h"
#include "kernel/systable.h"
#include "base/banned.h"

#define CACHE_FORMAT "xsc-probe-4"

static uint64_t fnv(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return (h ^ 0xff) * 0x100000001b3ULL;
}

/* The first word after "Name:" in /proc/self/status (into out), or "?" when there is none. */
static void status_field(const char *status, const char *name, char *out, size_t n)
{
	const char *p = status;
	size_t len = strlen(name);
	snprintf(out, n, "?");
	for (; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, name, len) && p[len] == ':') {
			p += len + 1;
			p += strspn(p, " \t");
			snprintf(out, n, "%.*s", (int)strcspn(p, " \t\n"), p);
			return;
		}
}

/* Who asks: a probe made with fewer privileges answers differently (EPERM where root gets
 * EINVAL or success), so uid, effective capabilities, seccomp mode, no_new_privs and the
 * user namespace are part of the key, and a probe made under setpriv or in a container is
 * never served to full root. */
static void privilege_key(struct sbuf *key)
{
	char *status = NULL, cap[32], sec[16], nnp[16], ns[64] = "?";
	size_t len;
	if (read_file_max("/proc/self/status", 1 << 16, &status, &len) < 0)
		status = NULL;
	status_field(status ? status : "", "CapEff", cap, sizeof(cap));
	status_field(status ? status : "", "Seccomp", sec, sizeof(sec));
	status_field(status ? status : "", "NoNewPrivs", nnp, sizeof(nnp));
	free(status);
	ssize_t n = readlink("/proc/self/ns/user", ns, sizeof(ns) - 1);
	ns[n > 0 ? n : 1] = '\0';
	sbuf_addf(key, " uid=%u cap=%s seccomp=%s nnp=%s %s", (unsigned)geteuid(), cap, sec, nnp, ns);
}

/* The identity of a probe's answers: this boot, this kernel, these feature lists, these
 * privileges. */
static void cache_key(const struct catalog *cat, const char *release, struct sbuf *key)
{
	char boot[64] = "";
	int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t n = read(fd, boot, sizeof(boot) - 1);
		boot[n > 0 ? n : 0] = '\0';
		boot[strcspn(boot, "\n")] = '\0';
		close(fd);
	}
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < cat->nsyscalls; i++) {
		const struct syscall *sc = &cat->syscalls[i];
		h = fnv(h, sc->name);
		for (size_t k = 0; k < sc->nfeatures; k++)
			h = fnv(h, sc->features[k]);
		for (size_t k = 0; k < sc->nprobe_set; k++)
			h = fnv(h, sc->probe_set[k]);
		for (size_t k = 0; k < sc->nprobe_args; k++)
			h = fnv(h, sc->probe_args[k]);
		for (size_t k = 0; k < sc->nqueries; k++)
			h = fnv(h, sc->queries[k].name);
	}
	sbuf_addf(key, "%s %s %s %016llx", CACHE_FORMAT, boot, release, (unsigned long long)h);
	privilege_key(key);
}

static char *cache_path(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	struct sbuf p = SBUF_INIT;
	if (xdg && *xdg == '/')
		sbuf_addf(&p, "%s/xsc", xdg);
	else if (home && *home == '/')
		sbuf_addf(&p, "%s/.cache/xsc", home);
	else
		return NULL;
	sbuf_adds(&p, "/probe.json");
	return sbuf_detach(&p);
}

static json_t *answers_json(const struct probe_run *run, const char *key)
{
	json_t *root = json_object(), *arr = json_array();
	json_object_set_new(root, "key", json_string(key));
	json_object_set_new(root, "kernel", json_string(run->kernel));
	json_object_set_new(root, "calls", json_integer(run->calls));
	json_object_set_new(root, "us", json_integer((json_int_t)run->us));
	for (size_t i = 0; i < run->nreports; i++) {
		const struct probe_report *r = &run->reports[i];
		json_t *o = json_object(), *flags = json_array(), *qs = json_array();
		json_object_set_new(o, "name", json_string(r->sc->name));
		json_object_set_new(o, "available", json_integer(r->available));
		json_object_set_new(o, "why", r->why ? json_string(r->why) : json_null());
		json_object_set_new(o, "base_err", json_integer(r->base_err));
		json_object_set_new(o, "sizes", json_pack("[iiiii]", r->ksize_bisect, r->ksize_writeback, r->ksize_btf, r->ksize, r->disagree));
		json_object_set_new(o, "calls", json_integer(r->calls));
		json_object_set_new(o, "us", json_integer((json_int_t)r->us));
		for (size_t k = 0; k < r->nflags; k++) {
			const struct flag_answer *fa = &r->flags[k];
			json_array_append_new(flags, json_pack("[s s? I i i s? i b]", fa->holder, fa->name, (json_int_t)fa->bit,
							       fa->answer, fa->err, fa->reason, fa->unknown_err, fa->fs_dependent));
		}
		for (size_t k = 0; k < r->nqueries; k++)
			json_array_append_new(qs, json_pack("[s I b]", r->queries[k].name, (json_int_t)r->queries[k].value,
							    r->queries[k].ok));
		json_object_set_new(o, "flags", flags);
		json_object_set_new(o, "queries", qs);
		json_array_append_new(arr, o);
	}
	json_object_set_new(root, "syscalls", arr);
	return root;
}

static const char *keep(struct probe_run *run, const char *s)
{
	return s ? arena_strdup(&run->strings, s) : NULL;
}

static bool set_names(const struct flagset *fs, const char *flag)
{
	for (size_t k = 0; fs && flag && k < fs->nflags; k++)
		if (!strcmp(fs->flags[k].name, flag))
			return true;
	return fs && !flag; /* NULL: a bit the set does not name */
}

/* Is the cached answer fa one the probe could have given for sc: a field or argument with
 * a flag set, a flag of that set (or none, for an unknown bit), an answer that is one? */
static bool answer_fits(const struct syscall *sc, const struct flag_answer *fa)
{
	bool fits = false;
	if (!fa->holder) /* json_unpack's "s" never gives NULL; a holder without a name fits nothing */
		return false;
	for (size_t i = 0; sc->st && i < sc->st->nfields; i++)
		fits |= !strcmp(sc->st->fields[i].name, fa->holder) && set_names(sc->st->fields[i].flagset, fa->name);
	for (size_t i = 0; i < sc->nargs; i++)
		fits |= !strcmp(sc->args[i].name, fa->holder) && set_names(sc->args[i].flagset, fa->name);
	return fits && fa->answer >= ANS_NO && fa->answer <= ANS_INCONCLUSIVE;
}

static bool report_fits(const struct probe_report *r)
{
	return r->available >= ANS_NO && r->available <= ANS_INCONCLUSIVE && r->ksize >= -1 && r->ksize <= 1 << 20 &&
	       r->ksize_bisect >= -1 && r->ksize_writeback >= -1 && r->ksize_btf >= -1;
}

/* Reads a cached run; returns 0, or -1 when there is none, it is not the user's own (with a
 * warning), it is for another key, or it holds what no probe answers (silently: probe again). */
static int load_answers(const struct catalog *cat, const char *path, const char *key, struct probe_run *run);
static int select_reports(struct probe_run *run, const char *const *names, size_t n);

static int parse_answers(const struct catalog *cat, const char *text, size_t len, const char *key, struct probe_run *run)
{
	json_error_t je;
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	const char *k = root ? json_string_value(json_object_get(root, "key")) : NULL;
	json_t *arr = root ? json_object_get(root, "syscalls") : NULL;
	if (!k || strcmp(k, key) || !json_is_array(arr)) {
		json_decref(root);
		return -1;
	}
	memset(run, 0, sizeof(*run));
	snprintf(run->kernel, sizeof(run->kernel), "%s", json_string_value(json_object_get(root, "kernel")) ?: "");
	run->calls = (unsigned)json_integer_value(json_object_get(root, "calls"));
	run->us = (uint64_t)json_integer_value(json_object_get(root, "us"));
	run->reports = xcalloc(json_array_size(arr) + 1, sizeof(*run->reports));
	size_t i;
	json_t *o;
	json_array_foreach(arr, i, o) {
		struct probe_report *r = &run->reports[run->nreports];
		const struct syscall *sc = catalog_find_syscall(cat, json_string_value(json_object_get(o, "name")) ?: "");
		json_t *sizes = json_object_get(o, "sizes"), *flags = json_object_get(o, "flags"), *qs = json_object_get(o, "queries");
		if (!sc || json_array_size(sizes) != 5 || !json_is_array(flags) || !json_is_array(qs))
			goto bad;
		memset(r, 0, sizeof(*r));
		r->sc = sc;
		r->available = (enum answer)json_integer_value(json_object_get(o, "available"));
		r->why = keep(run, json_string_value(json_object_get(o, "why")));
		r->base_err = (int)json_integer_value(json_object_get(o, "base_err"));
		r->ksize_bisect = (int)json_integer_value(json_array_get(sizes, 0));
		r->ksize_writeback = (int)json_integer_value(json_array_get(sizes, 1));
		r->ksize_btf = (int)json_integer_value(json_array_get(sizes, 2));
		r->ksize = (int)json_integer_value(json_array_get(sizes, 3));
		r->disagree = json_integer_value(json_array_get(sizes, 4)) != 0;
		r->calls = (unsigned)json_integer_value(json_object_get(o, "calls"));
		r->us = (uint64_t)json_integer_value(json_object_get(o, "us"));
		r->flags = xcalloc(json_array_size(flags) + 1, sizeof(*r->flags));
		size_t j;
		json_t *f;
		json_array_foreach(flags, j, f) {
			const char *holder;
			json_t *name, *reason; /* a string or null */
			json_int_t bit;
			int answer, e, unknown_err, fs_dependent;
			if (json_unpack(f, "[s o I i i o i b]", &holder, &name, &bit, &answer, &e, &reason, &unknown_err, &fs_dependent) < 0 ||
			    !(json_is_string(name) || json_is_null(name)) || !(json_is_string(reason) || json_is_null(reason)))
				goto bad;
			r->flags[r->nflags] = (struct flag_answer){ keep(run, holder), keep(run, json_string_value(name)),
								    (uint64_t)bit, (enum answer)answer, e, unknown_err, fs_dependent != 0,
								    keep(run, json_string_value(reason)) };
			if (!answer_fits(sc, &r->flags[r->nflags++]))
				goto bad;
		}
		json_array_foreach(qs, j, f) {
			const char *name;
			json_int_t v;
			int ok;
			if (r->nqueries == 4 || json_unpack(f, "[s I b]", &name, &v, &ok) < 0)
				goto bad;
			r->queries[r->nqueries++] = (struct query_answer){ keep(run, name), v, ok };
		}
		if (!report_fits(r))
			goto bad;
		probe_fill_bitmap(r);
		run->nreports++;
	}
	json_decref(root);
	return 0;
bad:
	json_decref(root);
	free(run->reports[run->nreports].flags); /* the report being read, not yet counted */
	probe_run_release(run);
	return -1;
}

static int load_answers(const struct catalog *cat, const char *path, const char *key, struct probe_run *run)
{
	char *text;
	size_t len;
	if (safe_cache_read(path, 16 << 20, &text, &len) < 0)
		return -1;
	int r = parse_answers(cat, text, len, key, run);
	free(text);
	return r;
}

#define GUEST_KEY "a probe run in a guest"

char *features_answers_text(const struct probe_run *run)
{
	json_t *root = answers_json(run, GUEST_KEY);
	char *text = json_dumps(root, JSON_COMPACT);
	json_decref(root);
	if (!text)
		die("out of memory (probe answers)");
	return text;
}

int features_answers_parse(const struct catalog *cat, const char *text, size_t len, const char *const *names, size_t n,
			   struct probe_run *run)
{
	if (parse_answers(cat, text, len, GUEST_KEY, run) < 0)
		return err("probe: the guest's answers do not fit the catalogue");
	return n ? select_reports(run, names, n) : 0;
}

static void save_answers(const struct probe_run *run, const char *path, const char *key)
{
	json_t *root = answers_json(run, key);
	char *text = json_dumps(root, JSON_COMPACT);
	json_decref(root);
	if (text) {
		safe_cache_write(path, text, strlen(text)); /* best effort: no cache means probing again */
		free(text);
	}
}

/* Keeps only the named reports, in the order asked. */
static int select_reports(struct probe_run *run, const char *const *names, size_t n)
{
	struct probe_report *keep_r = xcalloc(n + 1, sizeof(*keep_r));
	bool *taken = xcalloc(run->nreports + 1, sizeof(*taken));
	for (size_t i = 0; i < n; i++) {
		size_t k = 0;
		while (k < run->nreports && strcmp(run->reports[k].sc->name, names[i]))
			k++;
		if (k == run->nreports || taken[k]) {
			free(keep_r);
			free(taken);
			return err("probe: '%s' was not probed (not in the catalogue, or not probe-able)", names[i]);
		}
		keep_r[i] = run->reports[k];
		taken[k] = true;
	}
	for (size_t k = 0; k < run->nreports; k++)
		if (!taken[k]) {
			free(run->reports[k].flags);
			free(run->reports[k].bitmap);
		}
	free(run->reports);
	free(taken);
	run->reports = keep_r;
	run->nreports = n;
	run->calls = 0;
	run->us = 0;
	for (size_t i = 0; i < n; i++) {
		run->calls += keep_r[i].calls;
		run->us += keep_r[i].us;
	}
	return 0;
}

int features_probe(const struct catalog *cat, const char *const *names, size_t n, bool no_cache,
		   unsigned timeout_ms, struct probe_run *run)
{
	for (size_t i = 0; i < n; i++) {
		const struct syscall *sc = catalog_find_syscall(cat, names[i]);
		const char *why;
		if (!sc)
			return err("probe: no syscall named '%s'", names[i]);
		if (!probe_supported(sc, &why))
			return err("probe: cannot probe %s: %s", names[i], why);
	}
	struct { char r[65]; } rel = { "" };
	int fd = open("/proc/sys/kernel/osrelease", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		ssize_t got = read(fd, rel.r, sizeof(rel.r) - 1);
		rel.r[got > 0 ? got : 0] = '\0';
		rel.r[strcspn(rel.r, "\n")] = '\0';
		close(fd);
	}
	struct sbuf key = SBUF_INIT;
	cache_key(cat, rel.r, &key);
	char *path = cache_path();
	int r = 0;
	if (!no_cache && path && load_answers(cat, path, key.buf, run) == 0) {
		run->cached = true;
	} else { /* --no-cache probes afresh and refreshes the cache for the next run */
		if ((r = probe_run(cat, NULL, 0, timeout_ms, run)) == 0 && path)
			save_answers(run, path, key.buf);
	}
	if (!r && n)
		r = select_reports(run, names, n);
	if (r < 0)
		probe_run_release(run);
	free(path);
	sbuf_release(&key);
	return r;
}

/* ---- the C API ---- */

static struct {
	struct catalog *cat;
	struct probe_run run;
	bool tried, ok;
} api;

static bool api_load(void)
{
	if (api.tried)
		return api.ok;
	api.tried = true;
	const char *dir = getenv("XSC_DATA");
	api.cat = catalog_load(dir && *dir ? dir : catalog_default_dir());
	api.ok = api.cat && features_probe(api.cat, NULL, 0, false, 2000, &api.run) == 0;
	return api.ok;
}

static const struct probe_report *api_find(long nr, const char *name)
{
	if (!api_load()) {
		errno = EIO;
		return NULL;
	}
	for (size_t i = 0; i < api.run.nreports; i++) {
		const struct syscall *sc = api.run.reports[i].sc;
		const struct sysent *se = systable_find(sc->name); /* the build's number, not the catalogue's */
		long n = se ? se->nr : -1;
		if (name ? !strcmp(sc->name, name) : (!sc->is_ioctl && n == nr))
			return &api.run.reports[i];
	}
	errno = ENOENT;
	return NULL;
}

static int fill(const struct probe_report *r, uint32_t *map, size_t mapsize)
{
	if (!r)
		return -1;
	for (size_t w = 0; w < mapsize; w++)
		map[w] = w < (r->nbits + 31) / 32 ? r->bitmap[w] : 0;
	return (int)r->nbits;
}

int xsc_sys_features(long nr, uint32_t *map, size_t mapsize)
{
	return fill(api_find(nr, NULL), map, mapsize);
}

int xsc_sys_features_by_name(const char *name, uint32_t *map, size_t mapsize)
{
	return fill(api_find(0, name), map, mapsize);
}

const char *xsc_feature_name(long nr, unsigned bit)
{
	const struct probe_report *r = api_find(nr, NULL);
	return r && bit < r->nbits ? r->sc->features[bit] : NULL;
}

int xsc_feature_bit(long nr, const char *name)
{
	const struct probe_report *r = api_find(nr, NULL);
	for (size_t b = 0; r && b < r->nbits; b++)
		if (!strcmp(r->sc->features[b], name))
			return (int)b;
	return -1;
}
