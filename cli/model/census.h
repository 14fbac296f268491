/* census: data/census/census.json, the sites of the kernel trees that copy a struct whose size
 * the caller chooses (tests/census/census.py finds them, make census holds them to the trees)
 * and how the catalogue accounts for each: a catalogued interface, an exclusion with its
 * reason, or an interface still pending. Loaded for the reference's census page; a site is
 * counted as accounted only when the catalogue holds the interface it names. */
#ifndef XSC_CENSUS_H
#define XSC_CENSUS_H
#include <stddef.h>
#include <stdint.h>
#include "base/sbuf.h"
#include "model/catalog.h"

enum census_account { CA_INTERFACE, CA_EXCLUDED, CA_PENDING, CA_NONE };

struct census_site {
	char *file, *function;
	char **by;              /* the helpers or patterns found there */
	size_t nby;
	uint32_t *in;           /* the trees (releases) it is in, ascending */
	size_t nin;
	enum census_account account;
	char *detail;           /* the interface, the reason or the pending interface */
};

struct census_helper {
	char *name, *where, *doc; /* where: the file defining it, or a pattern's path */
	char *regex;              /* a pattern's; NULL for a helper */
	uint32_t since;           /* a helper's; 0 for a pattern */
};

struct census {
	char *about;
	uint32_t *trees;        /* every release the sites were scanned in, ascending */
	size_t ntrees;
	struct census_helper *helpers, *patterns;
	size_t nhelpers, npatterns;
	struct census_site *sites;
	size_t nsites;
};

/* Loads path into c: 0, 1 when there is no such file (c empty), -1 with the reason in why
 * ("census.json: sites[3]: 'in' ..."). The whole file or nothing. */
int census_load(struct census *c, const char *path, struct sbuf *why);
void census_release(struct census *c);
/* Whether tree kv has site s. */
bool census_site_in(const struct census_site *s, uint32_t kv);
/* Whether s is accounted for: excluded, or an interface the catalogue holds. */
bool census_accounted(const struct census_site *s, const struct catalog *cat);
const char *census_account_name(enum census_account a);
#endif
