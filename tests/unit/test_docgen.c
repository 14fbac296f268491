/* One reference page on demand (doc TOPIC) is the page the whole reference holds. */
#include <stdlib.h>
#include "tap.h"
#include "base/sbuf.h"
#include "docs/docgen.h"
#include "model/dataload.h"

static int same_page(const struct docgen_input *in, const struct doc_set *full, const char *topic)
{
	struct doc_set one = { NULL, 0, 0 };
	docgen_reference_topic(in, topic, &one);
	const struct doc_page *a = doc_set_find(full, topic), *b = doc_set_find(&one, topic);
	int same = !a ? !b : b && !strcmp(a->path, b->path) && !strcmp(a->title, b->title) && a->text.len == b->text.len &&
			       !memcmp(a->text.buf, b->text.buf, a->text.len);
	if (!same)
		printf("# '%s': %s in the whole reference, %s alone\n", topic, a ? a->path : "none", b ? b->path : "none");
	int small = one.n <= 2; /* the page, and a syscall's matrix picture */
	doc_set_release(&one);
	return same && small;
}

int main(void)
{
	struct catalog *cat = catalog_load(getenv("XSC_TEST_DATA") ? getenv("XSC_TEST_DATA") : "data");
	ok(cat != NULL, "the bundled catalogue loads");
	if (!cat)
		return tap_done();
	struct docgen_input in = { .cat = cat };
	struct doc_set full = { NULL, 0, 0 };
	docgen_reference(&in, &full);

	size_t npages = 0, nsame = 0, ntitled = 0, ntitles;
	char **titles = docgen_reference_titles(&in, &ntitles);
	for (size_t i = 0; i < full.n; i++) {
		const struct doc_page *p = &full.pages[i];
		if (!p->markdown)
			continue;
		npages++;
		/* every way to name the page: its title, its file name, with the kind */
		struct sbuf name = SBUF_INIT, kind = SBUF_INIT;
		const char *slash = strchr(p->path, '/');
		sbuf_add(&name, slash ? slash + 1 : p->path, strlen(slash ? slash + 1 : p->path) - 3);
		if (slash)
			sbuf_addf(&kind, "%s %s", !strncmp(p->path, "syscalls/", 9) ? "syscall" : "struct", name.buf);
		nsame += same_page(&in, &full, p->title) && same_page(&in, &full, name.buf) &&
			 (!slash || same_page(&in, &full, kind.buf));
		for (size_t k = 0; k < ntitles; k++)
			if (!strcmp(titles[k], p->title)) {
				ntitled++;
				break;
			}
		sbuf_release(&name), sbuf_release(&kind);
	}
	ok(npages > 20 && nsame == npages, "each of the %zu pages, by title, file name and kind, is the page made alone (%zu)",
	   npages, nsame);
	ok(ntitled == npages && ntitles == npages, "the titles are those of the pages (%zu of %zu, %zu listed)", ntitled,
	   npages, ntitles);
	static const char *const others[] = { "nosuch", "struct openat2", "syscall open_how", "syscall", "struct ",
					      "", "open how", "OPENAT2", "../index", "index.md" };
	size_t nother = 0;
	for (size_t i = 0; i < sizeof(others) / sizeof(*others); i++)
		nother += same_page(&in, &full, others[i]);
	ok(nother == sizeof(others) / sizeof(*others), "other topics find what the whole reference finds (%zu)", nother);

	for (size_t k = 0; k < ntitles; k++)
		free(titles[k]);
	free(titles);
	doc_set_release(&full);
	catalog_free(cat);
	return tap_done();
}
