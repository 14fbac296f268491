/* The header's macros without libclang: the names a header #defines, its *_SIZE_VERn
 * macros given to their structs, and the other macros grouped into flag sets by their
 * common prefix. header.c's libclang front end evaluates the macros; what is here works on
 * their names and values alone, so a unit test can feed it a made-up header. */
#include "headers/hmacro.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "base/sbuf.h"
#include "base/util.h"
#include "base/banned.h"

void header_scan_macro_names(const char *t, size_t len, char ***out, size_t *n)
{
	size_t alloc = 0;
	const char *p = t, *end = t + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		const char *q = p;
		while (q < le && (*q == ' ' || *q == '\t'))
			q++;
		if (q < le && *q == '#') {
			q++;
			while (q < le && (*q == ' ' || *q == '\t'))
				q++;
			if (le - q > 7 && !strncmp(q, "define", 6) && (q[6] == ' ' || q[6] == '\t')) {
				q += 7;
				while (q < le && (*q == ' ' || *q == '\t'))
					q++;
				const char *s = q;
				while (q < le && (isalnum((unsigned char)*q) || *q == '_'))
					q++;
				/* object-like, with a body */
				if (q > s && (isalpha((unsigned char)*s) || *s == '_') && q < le && *q != '(') {
					const char *b = q;
					while (b < le && isspace((unsigned char)*b))
						b++;
					if (b < le) {
						ALLOC_GROW(*out, *n + 1, alloc);
						(*out)[(*n)++] = xstrndup(s, (size_t)(q - s));
					}
				}
			}
		}
		p = nl ? nl + 1 : end;
	}
}

bool header_ver_macro(const char *n, unsigned *ver, size_t *plen)
{
	const char *v = strstr(n, "_SIZE_VER");
	if (!v)
		return false;
	const char *d = v + 9;
	if (!isdigit((unsigned char)*d))
		return false;
	char *e;
	unsigned long x = strtoul(d, &e, 10);
	if (*e || x > 1000)
		return false;
	*ver = (unsigned)x;
	*plen = (size_t)(v - n);
	return true;
}

/* Does name hold every word of pre (lower case, '_' between words) as a word, in order? */
static bool holds_words(const char *name, const char *pre)
{
	const char *s = name;
	for (const char *p = pre; *p;) {
		size_t wl = strcspn(p, "_");
		const char *f = s;
		while (*f && !(!strncmp(f, p, wl) && (f[wl] == '_' || !f[wl]) && (f == name || f[-1] == '_')))
			f++;
		if (!*f)
			return false;
		s = f + wl;
		p += wl;
		if (*p == '_')
			p++;
	}
	return true;
}

/* Every word of every struct's name, sorted by word then struct: the structs a FOO_BAR
 * macro may belong to are those holding its rarest word. */
struct word_ref {
	const char *w;
	size_t len, st;
};

static int word_cmp(const struct word_ref *x, const char *w, size_t len)
{
	int c = memcmp(x->w, w, x->len < len ? x->len : len);
	return c ? c : x->len < len ? -1 : x->len > len;
}

static int word_ref_cmp(const void *a, const void *b)
{
	const struct word_ref *x = a, *y = b;
	int c = word_cmp(x, y->w, y->len);
	return c ? c : x->st < y->st ? -1 : x->st > y->st;
}

static struct word_ref *index_words(const struct header *h, size_t *n)
{
	struct word_ref *r = NULL;
	size_t alloc = 0;
	*n = 0;
	for (size_t i = 0; i < h->nstructs; i++)
		for (const char *p = h->structs[i].name; *p;) {
			size_t wl = strcspn(p, "_");
			if (wl) {
				ALLOC_GROW(r, *n + 1, alloc);
				r[(*n)++] = (struct word_ref){ p, wl, i };
			}
			p += wl + (p[wl] == '_');
		}
	if (*n)
		qsort(r, *n, sizeof(*r), word_ref_cmp);
	return r;
}

/* [*lo, *hi): the entries of words holding w. */
static void word_range(const struct word_ref *words, size_t n, const char *w, size_t len, size_t *lo, size_t *hi)
{
	size_t a = 0, b = n;
	while (a < b) {
		size_t m = a + (b - a) / 2;
		if (word_cmp(&words[m], w, len) < 0)
			a = m + 1;
		else
			b = m;
	}
	*lo = a;
	for (b = n; a < b;) {
		size_t m = a + (b - a) / 2;
		if (word_cmp(&words[m], w, len) <= 0)
			a = m + 1;
		else
			b = m;
	}
	*hi = a;
}

#define VER_FUZZY_TRIES 64 /* structs tried per macro: bounds a hostile header's cost */

/* The struct a FOO_BAR_SIZE_VERn macro belongs to: the struct named foo_bar, else the
 * first whose name holds every word of FOO_BAR in order (PERF_ATTR -> perf_event_attr). */
static const char *ver_struct(const struct header *h, const char *n, size_t plen, const struct word_ref *words,
			      size_t nwords)
{
	char pre[128];
	if (plen >= sizeof(pre))
		return NULL;
	for (size_t i = 0; i < plen; i++)
		pre[i] = (char)tolower((unsigned char)n[i]);
	pre[plen] = '\0';
	const struct hstruct *exact = header_find_struct(h, pre);
	if (exact)
		return exact->name;
	size_t lo = 0, hi = 0;
	bool any = false;
	for (const char *p = pre; *p;) {
		size_t wl = strcspn(p, "_"), a, b;
		if (wl) {
			word_range(words, nwords, p, wl, &a, &b);
			if (!any || b - a < hi - lo)
				lo = a, hi = b, any = true;
		}
		p += wl + (p[wl] == '_');
	}
	if (!any) /* no word at all: every name holds it */
		return h->nstructs ? h->structs[0].name : NULL;
	for (size_t i = lo; i < hi && i < lo + VER_FUZZY_TRIES; i++)
		if (holds_words(h->structs[words[i].st].name, pre))
			return h->structs[words[i].st].name;
	return NULL;
}

static size_t common_prefix(const char *a, const char *b)
{
	size_t n = 0, cut = 0;
	while (a[n] && a[n] == b[n]) {
		if (a[n] == '_')
			cut = n + 1;
		n++;
	}
	return cut;
}

static char **sort_names; /* qsort has no context argument */

static int cand_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = strcmp(sort_names[x], sort_names[y]);
	return c ? c : x < y ? -1 : x > y;
}

/* Indices 0..n-1 ordered by names[i], ties by index; caller frees. */
size_t *header_order_by_name(char **names, size_t n)
{
	size_t *ord = xcalloc(n + 1, sizeof(*ord));
	for (size_t i = 0; i < n; i++)
		ord[i] = i;
	sort_names = names;
	qsort(ord, n, sizeof(*ord), cand_cmp);
	return ord;
}


/* A group named as an earlier one becomes NAME_N (N its place, from 1). */
static void unique_flagset_names(struct header *h)
{
	char **names = xcalloc(h->nflagsets + 1, sizeof(*names));
	for (size_t i = 0; i < h->nflagsets; i++)
		names[i] = (char *)h->flagsets[i].name;
	size_t *ord = header_order_by_name(names, h->nflagsets);
	for (size_t i = 1; i < h->nflagsets; i++)
		if (!strcmp(names[ord[i]], names[ord[i - 1]])) {
			struct sbuf d = SBUF_INIT;
			sbuf_addf(&d, "%s_%zu", names[ord[i]], ord[i] + 1);
			h->flagsets[ord[i]].name = arena_strdup(&h->a, d.buf);
			sbuf_release(&d);
		}
	free(ord), free(names);
}

static void group_flags(struct header *h, bool *is_ver)
{
	size_t alloc = 0;
	size_t i = 0;
	while (i < h->nmacros) {
		if (is_ver[i]) {
			i++;
			continue;
		}
		const char *first = h->macros[i].name;
		size_t plen = 0;
		const char *u = strrchr(first, '_');
		if (u && u != first)
			plen = (size_t)(u - first) + 1;
		size_t j = i + 1;
		while (j < h->nmacros && !is_ver[j]) {
			size_t c = common_prefix(first, h->macros[j].name);
			if (!c)
				break;
			if (c < plen)
				plen = c;
			j++;
		}
		if (!plen) {
			i = j > i + 1 ? j : i + 1;
			continue;
		}
		if (j == i + 1) {
			/* one macro: a group only when it looks like a flag of its own prefix */
			plen = u ? (size_t)(u - first) + 1 : 0;
		}
		struct hflagset *fs;
		ALLOC_GROW(h->flagsets, h->nflagsets + 1, alloc);
		fs = &h->flagsets[h->nflagsets++];
		memset(fs, 0, sizeof(*fs));
		fs->prefix = arena_strdup(&h->a, "");
		char *p = arena_alloc(&h->a, plen + 1);
		memcpy(p, first, plen);
		fs->prefix = p;
		char *nm = arena_alloc(&h->a, plen + 1);
		size_t k = 0;
		for (size_t q = 0; q < plen; q++)
			nm[k++] = (char)tolower((unsigned char)p[q]);
		while (k && nm[k - 1] == '_')
			nm[--k] = '\0';
		if (!k)
			memcpy(nm, "flags", 6);
		fs->name = nm; /* made unique below */
		fs->flags = &h->macros[i];
		fs->nflags = j - i;
		size_t np2 = 0, neg = 0;
		for (size_t q = i; q < j; q++) {
			np2 += header_pow2(h->macros[q].value);
			neg += h->macros[q].negative;
		}
		fs->bits = !neg && np2 * 2 >= fs->nflags && (fs->nflags > 1 || np2);
		i = j;
	}
	unique_flagset_names(h);
}

static int version_cmp(const void *a, const void *b)
{
	const struct hversion *x = a, *y = b;
	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* The *_SIZE_VERn macros, each given to its struct in n order; the rest become flag groups. */
void header_collect_versions(struct header *h)
{
	bool *is_ver = xcalloc(h->nmacros + 1, sizeof(bool));
	size_t alloc = 0, nwords;
	struct word_ref *words = index_words(h, &nwords);
	for (size_t i = 0; i < h->nmacros; i++) {
		unsigned n;
		size_t plen;
		if (!header_ver_macro(h->macros[i].name, &n, &plen))
			continue;
		is_ver[i] = true;
		struct hversion *v = header_push(&h->versions, &h->nversions, &alloc, sizeof(*h->versions));
		v->name = h->macros[i].name;
		v->n = n;
		v->size = h->macros[i].value;
		v->line = h->macros[i].line, v->col = h->macros[i].col;
		v->st = ver_struct(h, v->name, plen, words, nwords);
	}
	free(words);
	size_t *count = xcalloc(h->nstructs + 1, sizeof(*count));
	for (size_t i = 0; i < h->nversions; i++)
		if (h->versions[i].st)
			count[header_find_struct(h, h->versions[i].st) - h->structs]++;
	for (size_t s = 0; s < h->nstructs; s++)
		h->structs[s].versions = arena_alloc(&h->a, sizeof(struct hversion) * (count[s] + 1));
	for (size_t i = 0; i < h->nversions; i++)
		if (h->versions[i].st) {
			struct hstruct *st = &h->structs[header_find_struct(h, h->versions[i].st) - h->structs];
			st->versions[st->nversions++] = h->versions[i];
		}
	for (size_t s = 0; s < h->nstructs; s++)
		qsort(h->structs[s].versions, h->structs[s].nversions, sizeof(struct hversion), version_cmp);
	free(count);
	group_flags(h, is_ver);
	free(is_ver);
}
