/* census: the census file, held whole to its format (model/census.h). */
#include <errno.h>
#include <jansson.h>
#include <string.h>
#include <sys/stat.h>
#include "base/util.h"
#include "model/census.h"
#include "model/kver.h"
#include "base/banned.h"

static const char *const account_names[] = { "interface", "excluded", "pending", "unaccounted" };

const char *census_account_name(enum census_account a)
{
	return account_names[a];
}

struct cload {
	struct sbuf *why;
	struct sbuf where; /* "sites[3]" */
	bool failed;
};

static void cerr(struct cload *L, const char *fmt, const char *arg)
{
	if (L->failed)
		return;
	L->failed = true;
	sbuf_addf(L->why, "census.json: %s%s", L->where.buf ? L->where.buf : "", L->where.len ? ": " : "");
	sbuf_addf(L->why, fmt, arg);
}

/* An object with only the keys allowed. */
static bool only_keys(struct cload *L, json_t *o, const char *const *keys)
{
	if (!json_is_object(o)) {
		cerr(L, "%s must be an object", "the entry");
		return false;
	}
	const char *k;
	json_t *v;
	json_object_foreach(o, k, v) {
		size_t i = 0;
		while (keys[i] && strcmp(keys[i], k))
			i++;
		if (!keys[i]) {
			cerr(L, "unknown key '%s'", k);
			return false;
		}
	}
	return true;
}

static char *str(struct cload *L, json_t *o, const char *key, bool required)
{
	json_t *v = json_object_get(o, key);
	if (!v && !required)
		return NULL;
	if (!json_is_string(v) || !json_string_length(v) || strlen(json_string_value(v)) != json_string_length(v)) {
		cerr(L, "'%s' must be a non-empty string", key);
		return NULL;
	}
	return L->failed ? NULL : xstrdup(json_string_value(v));
}

static uint32_t version(struct cload *L, json_t *v, const char *key)
{
	uint32_t kv = 0;
	if (!json_is_string(v) || kver_parse(json_string_value(v), &kv, 0) < 0 || !kv)
		cerr(L, "'%s' must hold kernel versions such as \"6.12\"", key);
	return kv;
}

/* A list of versions, ascending, each one once. */
static uint32_t *versions(struct cload *L, json_t *o, const char *key, size_t *n)
{
	json_t *arr = json_object_get(o, key);
	*n = 0;
	if (!json_is_array(arr) || !json_array_size(arr)) {
		cerr(L, "'%s' must be a non-empty array of versions", key);
		return NULL;
	}
	uint32_t *out = xcalloc(json_array_size(arr), sizeof(*out));
	for (size_t i = 0; i < json_array_size(arr) && !L->failed; i++) {
		out[i] = version(L, json_array_get(arr, i), key);
		if (i && out[i] <= out[i - 1])
			cerr(L, "'%s' must be ascending, each version once", key);
		*n = i + 1;
	}
	return out;
}

static const char *const helper_keys[] = { "name", "defined", "since", "doc", NULL };
static const char *const pattern_keys[] = { "name", "path", "regex", "doc", NULL };

static void load_helpers(struct cload *L, json_t *root, const char *key, struct census_helper **out, size_t *n)
{
	json_t *arr = json_object_get(root, key);
	if (!json_is_array(arr)) {
		cerr(L, "'%s' must be an array", key);
		return;
	}
	bool pattern = !strcmp(key, "patterns");
	*out = xcalloc(json_array_size(arr) + 1, sizeof(**out));
	for (size_t i = 0; i < json_array_size(arr) && !L->failed; i++) {
		json_t *o = json_array_get(arr, i);
		struct census_helper *h = &(*out)[i];
		sbuf_reset(&L->where);
		sbuf_addf(&L->where, "%s[%zu]", key, i);
		*n = i + 1;
		if (!only_keys(L, o, pattern ? pattern_keys : helper_keys))
			return;
		h->name = str(L, o, "name", true);
		h->where = str(L, o, pattern ? "path" : "defined", true);
		h->doc = str(L, o, "doc", true);
		if (pattern)
			h->regex = str(L, o, "regex", true);
		else
			h->since = version(L, json_object_get(o, "since"), "since");
	}
}

static const char *const site_keys[] = { "file", "function", "by", "in", "interface", "excluded", "pending", NULL };

static void load_site(struct cload *L, json_t *o, struct census_site *s, const struct census *c)
{
	if (!only_keys(L, o, site_keys))
		return;
	s->file = str(L, o, "file", true);
	s->function = str(L, o, "function", true);
	s->in = versions(L, o, "in", &s->nin);
	for (size_t k = 0; k < s->nin && !L->failed; k++)
		if (!census_site_in(&(struct census_site){ .in = c->trees, .nin = c->ntrees }, s->in[k]))
			cerr(L, "'in' names a tree the census lacks in 'trees'%s", "");
	json_t *by = json_object_get(o, "by");
	if (!L->failed && (!json_is_array(by) || !json_array_size(by)))
		cerr(L, "'by' must be a non-empty array of helper or pattern names%s", "");
	s->by = xcalloc(json_array_size(by) + 1, sizeof(*s->by));
	for (size_t k = 0; !L->failed && k < json_array_size(by); k++) {
		json_t *b = json_array_get(by, k);
		const char *name = json_is_string(b) ? json_string_value(b) : "";
		bool known = false;
		for (size_t h = 0; h < c->nhelpers; h++)
			known |= !strcmp(c->helpers[h].name, name);
		for (size_t h = 0; h < c->npatterns; h++)
			known |= !strcmp(c->patterns[h].name, name);
		if (!known)
			cerr(L, "'by' names '%s', neither a helper nor a pattern", name);
		s->by[s->nby++] = xstrdup(name);
	}
	s->account = CA_NONE;
	for (int a = CA_INTERFACE; a < CA_NONE && !L->failed; a++) {
		if (!json_object_get(o, account_names[a]))
			continue;
		if (s->account != CA_NONE)
			cerr(L, "a site has one account: 'interface', 'excluded' or 'pending'%s", "");
		s->account = (enum census_account)a;
		s->detail = str(L, o, account_names[a], true);
	}
}

static void load_root(struct cload *L, json_t *root, struct census *c)
{
	static const char *const keys[] = { "about", "trees", "skip_dirs", "helpers", "patterns", "sites", NULL };
	if (!only_keys(L, root, keys))
		return;
	c->about = str(L, root, "about", true);
	if (!L->failed)
		c->trees = versions(L, root, "trees", &c->ntrees);
	if (!L->failed)
		load_helpers(L, root, "helpers", &c->helpers, &c->nhelpers);
	if (!L->failed)
		load_helpers(L, root, "patterns", &c->patterns, &c->npatterns);
	json_t *arr = json_object_get(root, "sites");
	if (!L->failed && !json_is_array(arr))
		cerr(L, "'sites' must be an array%s", "");
	if (L->failed)
		return;
	c->sites = xcalloc(json_array_size(arr) + 1, sizeof(*c->sites));
	for (size_t i = 0; i < json_array_size(arr) && !L->failed; i++) {
		sbuf_reset(&L->where);
		sbuf_addf(&L->where, "sites[%zu]", i);
		c->nsites = i + 1;
		load_site(L, json_array_get(arr, i), &c->sites[i], c);
		for (size_t k = 0; k < i && !L->failed; k++)
			if (!strcmp(c->sites[k].file, c->sites[i].file) &&
			    !strcmp(c->sites[k].function, c->sites[i].function))
				cerr(L, "the site %s is listed twice", c->sites[i].function);
	}
}

int census_load(struct census *c, const char *path, struct sbuf *why)
{
	memset(c, 0, sizeof(*c));
	struct stat st;
	if (stat(path, &st) < 0 && errno == ENOENT)
		return 1;
	json_error_t je;
	json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	if (!root) {
		sbuf_addf(why, "census.json:%d:%d: %s", je.line, je.column, je.text);
		return -1;
	}
	struct cload L = { why, SBUF_INIT, false };
	load_root(&L, root, c);
	json_decref(root);
	sbuf_release(&L.where);
	if (!L.failed)
		return 0;
	census_release(c);
	return -1;
}

static void release_helpers(struct census_helper *h, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(h[i].name);
		free(h[i].where);
		free(h[i].doc);
		free(h[i].regex);
	}
	free(h);
}

void census_release(struct census *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nsites; i++) {
		struct census_site *s = &c->sites[i];
		free(s->file);
		free(s->function);
		for (size_t k = 0; k < s->nby; k++)
			free(s->by[k]);
		free(s->by);
		free(s->in);
		free(s->detail);
	}
	free(c->sites);
	release_helpers(c->helpers, c->nhelpers);
	release_helpers(c->patterns, c->npatterns);
	free(c->trees);
	free(c->about);
	memset(c, 0, sizeof(*c));
}

bool census_site_in(const struct census_site *s, uint32_t kv)
{
	for (size_t i = 0; i < s->nin; i++)
		if (s->in[i] == kv)
			return true;
	return false;
}

bool census_accounted(const struct census_site *s, const struct catalog *cat)
{
	return s->account == CA_EXCLUDED || (s->account == CA_INTERFACE && catalog_find_syscall(cat, s->detail));
}
