/* lint: the extensible-struct conventions checked over a parsed header. Engines never
 * print: lint_run returns findings; cmd_lint renders them. Rule ids are stable and each
 * is documented in docs/guide/lint-rules.md. */
#ifndef XSC_LINT_H
#define XSC_LINT_H
#include <stddef.h>
#include "headers/header.h"

struct lint_finding {
	enum hdiag_sev sev;
	const char *rule;
	char *msg;          /* heap */
	unsigned line, col;
};

struct lint_result {
	struct lint_finding *f;
	size_t n, alloc;
	size_t suppressed;  /* findings silenced by an xsc-lint: ignore comment */
};

struct lint_rule { const char *id; enum hdiag_sev sev; const char *summary; };
extern const struct lint_rule lint_rules[]; /* NULL-terminated */

/* Checks every struct of h; findings in line order. */
void lint_run(const struct header *h, struct lint_result *r);
void lint_result_release(struct lint_result *r);
#endif
