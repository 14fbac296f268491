#include "model/measured.h"
#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include "base/diag.h"
#include "base/sbuf.h"
#include "base/util.h"
#include "model/kver.h"
#include "model/xlat.h"
#include "base/banned.h"

#define STR_MAX 128

/* The alphabets of the report's strings: what each may hold, nothing that could drive a
 * terminal or break out of a Markdown table cell. */
enum alpha { A_WORD, A_PACKAGE, A_LABEL, A_DATE };

static bool in_alphabet(const char *s, enum alpha a)
{
	size_t n = strlen(s);
	if (!n || n > STR_MAX)
		return false;
	if (a == A_DATE) /* YYYY-MM-DD */
		return n == 10 && strspn(s, "0123456789-") == 10 && s[4] == '-' && s[7] == '-' && strchr("01", s[5]) &&
		       strchr("0123", s[8]);
	for (const char *c = s; *c; c++) {
		bool alnum = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9');
		bool ok = alnum || *c == '_' || (a != A_WORD && strchr(".-+~:", *c)) ||
			  (a == A_LABEL && strchr(" (),/=<>", *c));
		if (!ok)
			return false;
	}
	return true;
}

struct parser {
	const char *name;
	struct sbuf path; /* "interfaces[2].cases[0].outcomes" */
};

static int bad(struct parser *p, const char *fmt, ...) PRINTF_LIKE(2, 3);
static int bad(struct parser *p, const char *fmt, ...)
{
	struct sbuf msg = SBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	err("%s: %s%s%s", p->name, p->path.buf, p->path.len ? ": " : "", msg.buf);
	sbuf_release(&msg);
	return -1;
}

static size_t path_push(struct parser *p, const char *key, long idx)
{
	size_t at = p->path.len;
	if (key)
		sbuf_addf(&p->path, "%s%s", at ? "." : "", key);
	if (idx >= 0)
		sbuf_addf(&p->path, "[%ld]", idx);
	return at;
}

static void path_pop(struct parser *p, size_t at)
{
	p->path.len = at; /* shortening keeps the invariant: the NUL goes back in */
	p->path.buf[at] = '\0';
}

/* An object holding only the keys listed (NULL-terminated). */
static int only_keys(struct parser *p, json_t *o, const char *const *keys)
{
	const char *k;
	json_t *v;
	if (!json_is_object(o))
		return bad(p, "expected an object");
	json_object_foreach(o, k, v) {
		size_t i = 0;
		while (keys[i] && strcmp(keys[i], k))
			i++;
		if (!keys[i]) {
			struct sbuf safe = SBUF_INIT;
			safe_text(&safe, k, strlen(k), 0);
			int r = bad(p, "unknown key '%.64s'", safe.buf);
			sbuf_release(&safe);
			return r;
		}
	}
	return 0;
}

/* A string member of the alphabet: 0 with *out (heap; NULL for an allowed null). */
static int get_str(struct parser *p, json_t *o, const char *key, enum alpha a, bool nullable, char **out)
{
	json_t *v = json_object_get(o, key);
	size_t at = path_push(p, key, -1);
	int r = 0;
	*out = NULL;
	if (!v)
		r = bad(p, "missing");
	else if (json_is_null(v) && nullable)
		r = 0;
	else if (!json_is_string(v))
		r = bad(p, "expected a string%s", nullable ? " or null" : "");
	else if (strlen(json_string_value(v)) != json_string_length(v) || !in_alphabet(json_string_value(v), a))
		r = bad(p, "not a valid value (at most %d characters: letters, digits%s)", STR_MAX,
			a == A_WORD ? " and '_'" : a == A_DATE ? "; a date YYYY-MM-DD" : " and . - + ~ : _");
	else
		*out = xstrdup(json_string_value(v));
	path_pop(p, at);
	return r;
}

static int parse_kernel(struct parser *p, json_t *o, struct measured_kernel *k)
{
	static const char *const keys[] = { "version", "where", "accelerator", "package", "package_version", "release", NULL };
	uint32_t kv;
	if (only_keys(p, o, keys) || get_str(p, o, "version", A_PACKAGE, false, &k->version) ||
	    get_str(p, o, "where", A_WORD, false, &k->where) || get_str(p, o, "accelerator", A_WORD, true, &k->accelerator) ||
	    get_str(p, o, "package", A_PACKAGE, true, &k->package) ||
	    get_str(p, o, "package_version", A_PACKAGE, true, &k->package_version) ||
	    get_str(p, o, "release", A_PACKAGE, true, &k->release))
		return -1;
	if (kver_parse(k->version, &kv, 0) < 0)
		return bad(p, "version: '%s' is not a kernel version (MAJOR.MINOR[.PATCH])", k->version);
	if (strcmp(k->where, "qemu") && strcmp(k->where, "host"))
		return bad(p, "where: '%s' is neither 'qemu' nor 'host'", k->where);
	if (k->accelerator && strcmp(k->accelerator, "TCG") && strcmp(k->accelerator, "KVM"))
		return bad(p, "accelerator: '%s' is neither 'TCG' nor 'KVM'", k->accelerator);
	return 0;
}

bool measured_outcome_ok(const char *s)
{
	static const char *const words[] = { MO_OK, MO_NOT_RUN, MO_NO_ANSWER, MO_TIMEOUT, MO_SIGNALED, MO_SETUP };
	for (size_t i = 0; i < ARRAY_SIZE(words); i++)
		if (!strcmp(s, words[i]))
			return true;
	return s[0] == 'E' && errno_from_name(s) > 0;
}

/* outcomes: an object with one key per kernel of the report, in any order. */
static int parse_outcomes(struct parser *p, json_t *o, const struct measured_report *r, struct measured_case *c)
{
	const char *k;
	json_t *v;
	if (!json_is_object(o))
		return bad(p, "expected an object, a kernel's version to its outcome");
	c->outcome = xcalloc(r->nkernels ? r->nkernels : 1, sizeof(*c->outcome));
	json_object_foreach(o, k, v) {
		size_t i = 0;
		while (i < r->nkernels && strcmp(r->kernels[i].version, k))
			i++;
		if (i == r->nkernels)
			return bad(p, "'%.64s' is not a kernel of this report", in_alphabet(k, A_PACKAGE) ? k : "(unprintable)");
		const char *s = json_string_value(v);
		if (!s || strlen(s) != json_string_length(v) || !measured_outcome_ok(s))
			return bad(p, "%s: expected \"ok\", an errno name (\"E2BIG\"), \"not run\", \"no answer\", \"timeout\", "
				      "\"signaled\" or \"setup failed\"", k);
		c->outcome[i] = xstrdup(s);
	}
	for (size_t i = 0; i < r->nkernels; i++)
		if (!c->outcome[i])
			return bad(p, "no outcome for kernel %s", r->kernels[i].version);
	return 0;
}

static int parse_case(struct parser *p, json_t *o, const struct measured_report *r, struct measured_case *c)
{
	static const char *const keys[] = { "row", "size", "outcomes", "not_run", NULL };
	json_t *size = json_object_get(o, "size");
	if (only_keys(p, o, keys) || get_str(p, o, "row", A_LABEL, false, &c->row))
		return -1;
	if (!json_is_integer(size) || json_integer_value(size) < 0 || json_integer_value(size) > (1 << 20))
		return bad(p, "size: expected an integer from 0 to %d", 1 << 20);
	c->size = (uint64_t)json_integer_value(size);
	json_t *nr = json_object_get(o, "not_run");
	if (nr && !json_is_null(nr)) {
		const char *s = json_string_value(nr);
		if (!s || strlen(s) != json_string_length(nr) || strlen(s) > 512)
			return bad(p, "not_run: expected a string of at most 512 bytes or null");
		c->not_run = xstrdup(s); /* free text: shown through the sanitisers */
	}
	size_t at = path_push(p, "outcomes", -1);
	int res = parse_outcomes(p, json_object_get(o, "outcomes"), r, c);
	path_pop(p, at);
	return res;
}

static int parse_iface(struct parser *p, json_t *o, struct measured_report *r, struct measured_iface *f)
{
	static const char *const keys[] = { "name", "cases", NULL };
	if (only_keys(p, o, keys) || get_str(p, o, "name", A_WORD, false, &f->name))
		return -1;
	for (size_t i = 0; i < (size_t)(f - r->ifaces); i++)
		if (!strcmp(r->ifaces[i].name, f->name))
			return bad(p, "name: '%s' is measured twice in this report", f->name);
	json_t *cases = json_object_get(o, "cases");
	size_t n = json_array_size(cases), at = path_push(p, "cases", -1);
	int res = 0;
	if (!json_is_array(cases) || n > MEASURED_MAX_CASES)
		res = bad(p, "expected an array of at most %d cases", MEASURED_MAX_CASES);
	f->cases = xcalloc(n ? n : 1, sizeof(*f->cases));
	for (size_t i = 0; i < n && !res; i++) {
		size_t a2 = path_push(p, NULL, (long)i);
		f->ncases = i + 1;
		res = parse_case(p, json_array_get(cases, i), r, &f->cases[i]);
		path_pop(p, a2);
	}
	path_pop(p, at);
	return res;
}

/* An array member of at most max entries, each parsed by fn into (char *)*arr + i * size. */
static int parse_array(struct parser *p, json_t *root, const char *key, size_t max, size_t size, void **arr, size_t *n,
		       int (*fn)(struct parser *, json_t *, struct measured_report *, void *), struct measured_report *r)
{
	json_t *a = json_object_get(root, key);
	size_t len = json_array_size(a), at = path_push(p, key, -1);
	int res = 0;
	if (!json_is_array(a) || len > max)
		res = bad(p, "expected an array of at most %zu entries", max);
	*arr = xcalloc(len ? len : 1, size);
	for (size_t i = 0; i < len && !res; i++) {
		size_t a2 = path_push(p, NULL, (long)i);
		*n = i + 1;
		res = fn(p, json_array_get(a, i), r, (char *)*arr + i * size);
		path_pop(p, a2);
	}
	path_pop(p, at);
	return res;
}

static int kernel_fn(struct parser *p, json_t *o, struct measured_report *r, void *k)
{
	struct measured_kernel *mk = k;
	if (parse_kernel(p, o, mk))
		return -1;
	for (struct measured_kernel *e = r->kernels; e < mk; e++)
		if (!strcmp(e->version, mk->version))
			return bad(p, "version: kernel %s is listed twice", mk->version);
	return 0;
}

static int iface_fn(struct parser *p, json_t *o, struct measured_report *r, void *f)
{
	return parse_iface(p, o, r, f);
}

static int parse_root(struct parser *p, json_t *root, struct measured_report *r)
{
	static const char *const keys[] = { "format", "date", "machine", "kernels", "interfaces", NULL };
	const char *fmt = json_string_value(json_object_get(root, "format"));
	if (only_keys(p, root, keys))
		return -1;
	if (!fmt || strcmp(fmt, MEASURED_FORMAT))
		return bad(p, "format: expected \"%s\"", MEASURED_FORMAT);
	if (get_str(p, root, "date", A_DATE, false, &r->date) || get_str(p, root, "machine", A_WORD, false, &r->machine))
		return -1;
	if (parse_array(p, root, "kernels", MEASURED_MAX_KERNELS, sizeof(*r->kernels), (void **)&r->kernels, &r->nkernels,
			kernel_fn, r))
		return -1;
	if (!r->nkernels)
		return bad(p, "kernels: a report measures at least one kernel");
	return parse_array(p, root, "interfaces", MEASURED_MAX_IFACES, sizeof(*r->ifaces), (void **)&r->ifaces,
			   &r->nifaces, iface_fn, r);
}

int measured_parse(const char *name, const char *text, size_t len, struct measured_report *r)
{
	struct parser p = { name, SBUF_INIT };
	json_error_t je;
	memset(r, 0, sizeof(*r));
	if (len > MEASURED_FILE_MAX)
		return err("%s: larger than %u bytes", name, MEASURED_FILE_MAX);
	json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!root)
		return err("%s:%d:%d: %s", name, je.line, je.column, je.text);
	int res = parse_root(&p, root, r);
	json_decref(root);
	sbuf_release(&p.path);
	if (res)
		measured_release(r);
	else
		r->source = xstrdup(name);
	return res;
}

int measured_load(const char *path, struct measured_report *r)
{
	char *text;
	size_t len;
	memset(r, 0, sizeof(*r));
	if (read_file_max(path, MEASURED_FILE_MAX, &text, &len) < 0)
		return err("cannot read '%s': %s", path, errno == EFBIG ? "too large" : strerror(errno));
	int res = measured_parse(path, text, len, r);
	free(text);
	return res;
}

int measured_load_dir(const char *dir, bool missing_ok, struct measured_report **reps, size_t *n)
{
	DIR *d = opendir(dir);
	if (!d)
		return missing_ok && errno == ENOENT ? 0 : err("cannot read '%s': %s", dir, strerror(errno));
	char **names = NULL;
	size_t nn = 0, alloc = 0, ralloc = *n;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (e->d_name[0] != '.' && l > 5 && !strcmp(e->d_name + l - 5, ".json")) {
			ALLOC_GROW(names, nn + 1, alloc);
			names[nn++] = xstrdup(e->d_name);
		}
	}
	closedir(d);
	if (nn)
		qsort(names, nn, sizeof(*names), cmp_strp);
	int r = 0;
	for (size_t i = 0; i < nn; i++) {
		struct sbuf p = SBUF_INIT;
		sbuf_addf(&p, "%s/%s", dir, names[i]);
		if (!r) {
			ALLOC_GROW(*reps, *n + 1, ralloc);
			if ((r = measured_load(p.buf, &(*reps)[*n])) == 0)
				++*n;
		}
		sbuf_release(&p);
		free(names[i]);
	}
	free(names);
	return r;
}

void measured_release(struct measured_report *r)
{
	for (size_t i = 0; i < r->nkernels; i++) {
		struct measured_kernel *k = &r->kernels[i];
		free(k->version);
		free(k->where);
		free(k->accelerator);
		free(k->package);
		free(k->package_version);
		free(k->release);
	}
	for (size_t i = 0; i < r->nifaces; i++) {
		struct measured_iface *f = &r->ifaces[i];
		for (size_t c = 0; c < f->ncases; c++) {
			for (size_t k = 0; f->cases[c].outcome && k < r->nkernels; k++)
				free(f->cases[c].outcome[k]);
			free(f->cases[c].outcome);
			free(f->cases[c].row);
			free(f->cases[c].not_run);
		}
		free(f->cases);
		free(f->name);
	}
	free(r->kernels);
	free(r->ifaces);
	free(r->date);
	free(r->machine);
	free(r->source);
	memset(r, 0, sizeof(*r));
}

void measured_release_all(struct measured_report *reps, size_t n)
{
	for (size_t i = 0; i < n; i++)
		measured_release(&reps[i]);
	free(reps);
}

void measured_kernel_write(struct out *o, const struct measured_kernel *k)
{
	out_str(o, "version", k->version);
	out_str(o, "where", k->where);
	out_str(o, "accelerator", k->accelerator);
	out_str(o, "package", k->package);
	out_str(o, "package_version", k->package_version);
	out_str(o, "release", k->release);
}

void measured_write(struct out *o, const struct measured_report *r)
{
	out_obj(o, NULL);
	out_str(o, "format", MEASURED_FORMAT);
	out_str(o, "date", r->date);
	out_str(o, "machine", r->machine);
	out_arr(o, "kernels");
	for (size_t i = 0; i < r->nkernels; i++) {
		const struct measured_kernel *k = &r->kernels[i];
		out_obj(o, NULL);
		measured_kernel_write(o, k);
		out_end(o);
	}
	out_end(o);
	out_arr(o, "interfaces");
	for (size_t i = 0; i < r->nifaces; i++) {
		const struct measured_iface *f = &r->ifaces[i];
		out_obj(o, NULL);
		out_str(o, "name", f->name);
		out_arr(o, "cases");
		for (size_t c = 0; c < f->ncases; c++) {
			out_obj(o, NULL);
			out_str(o, "row", f->cases[c].row);
			out_u64(o, "size", f->cases[c].size);
			out_obj(o, "outcomes");
			for (size_t k = 0; k < r->nkernels; k++)
				out_str(o, r->kernels[k].version, f->cases[c].outcome[k]);
			out_end(o);
			out_str(o, "not_run", f->cases[c].not_run);
			out_end(o);
		}
		out_end(o);
		out_end(o);
	}
	out_end(o);
	out_end(o);
}

const struct measured_iface *measured_find(const struct measured_report *r, const char *iface)
{
	for (size_t i = 0; i < r->nifaces; i++)
		if (!strcmp(r->ifaces[i].name, iface))
			return &r->ifaces[i];
	return NULL;
}

static const struct measured_case *find_case(const struct measured_iface *f, const char *row, uint64_t size)
{
	for (size_t i = 0; i < f->ncases; i++)
		if (f->cases[i].size == size && !strcmp(f->cases[i].row, row))
			return &f->cases[i];
	return NULL;
}

/* Do two columns hold the same kernel (version, where, package) with the same answers? */
static bool same_column(const struct measured_column *a, const struct measured_column *b)
{
	const struct measured_kernel *x = a->k, *y = b->k;
	if (strcmp(x->version, y->version) || strcmp(x->where, y->where) ||
	    strcmp(x->package_version ? x->package_version : "", y->package_version ? y->package_version : "") ||
	    strcmp(x->release ? x->release : "", y->release ? y->release : "") || a->ifc->ncases != b->ifc->ncases)
		return false;
	for (size_t i = 0; i < a->ifc->ncases; i++) {
		const struct measured_case *c = &a->ifc->cases[i], *d = find_case(b->ifc, c->row, c->size);
		if (!d || strcmp(c->outcome[a->ki], d->outcome[b->ki]))
			return false;
	}
	return true;
}

static int cmp_column(const void *a, const void *b)
{
	const struct measured_column *x = a, *y = b;
	uint32_t u = 0, v = 0;
	kver_parse(x->k->version, &u, 0);
	kver_parse(y->k->version, &v, 0);
	/* by version, then in the order met (reports by name, kernels in their order) */
	return u != v ? (u < v ? -1 : 1) : (x->order > y->order) - (x->order < y->order);
}

void measured_view_build(const struct measured_report *reps, size_t n, const char *iface, struct measured_view *v)
{
	size_t alloc = 0;
	memset(v, 0, sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		const struct measured_iface *f = measured_find(&reps[i], iface);
		for (size_t k = 0; f && k < reps[i].nkernels; k++) {
			struct measured_column c = { &reps[i], &reps[i].kernels[k], f, k, NULL, v->ncols };
			bool dup = false;
			for (size_t j = 0; j < v->ncols && !dup; j++)
				dup = same_column(&v->cols[j], &c);
			if (dup)
				continue;
			ALLOC_GROW(v->cols, v->ncols + 1, alloc);
			v->cols[v->ncols++] = c;
		}
	}
	if (v->ncols)
		qsort(v->cols, v->ncols, sizeof(*v->cols), cmp_column);
	for (size_t i = 0; i < v->ncols; i++) {
		/* the same version answered otherwise elsewhere: each says which report it is from */
		bool clash = false;
		for (size_t j = 0; j < v->ncols; j++)
			clash |= j != i && !strcmp(v->cols[j].k->version, v->cols[i].k->version);
		const char *src = v->cols[i].rep->source, *base = src ? strrchr(src, '/') : NULL;
		struct sbuf l = SBUF_INIT;
		sbuf_adds(&l, v->cols[i].k->version);
		if (clash)
			sbuf_addf(&l, " (%s)", base ? base + 1 : src ? src : "?");
		v->cols[i].label = sbuf_detach(&l);
	}
}

void measured_view_release(struct measured_view *v)
{
	for (size_t i = 0; i < v->ncols; i++)
		free(v->cols[i].label);
	free(v->cols);
	memset(v, 0, sizeof(*v));
}

const char *measured_view_outcome(const struct measured_view *v, size_t c, const char *row, uint64_t size)
{
	const struct measured_case *mc = find_case(v->cols[c].ifc, row, size);
	return mc ? mc->outcome[v->cols[c].ki] : NULL;
}
