/* hdiff: every change between two versions of a header (or catalogue), with a verdict.
 * Engines never print: hdiff_run returns the changes; cmd_diff renders them. */
#ifndef XSC_HDIFF_H
#define XSC_HDIFF_H
#include <stddef.h>
#include "headers/header.h"

enum hverdict { HV_COMPATIBLE, HV_UNDOCUMENTED, HV_BREAK };

struct hchange {
	const char *scope;   /* the struct or flag group */
	const char *kind;    /* field_added, field_removed, field_moved, field_retyped, size_changed,
			      * version_added, version_removed, version_changed, struct_added,
			      * struct_removed, flag_added, flag_removed, flag_renumbered */
	const char *name;    /* the field, version or flag */
	char *detail;        /* heap: a sentence */
	enum hverdict verdict;
	long long offset, size; /* -1 when not a field */
};

struct hdiff {
	struct hchange *c;
	size_t n, alloc;
};

void hdiff_run(const struct header *oldh, const struct header *newh, struct hdiff *d);
void hdiff_release(struct hdiff *d);
const char *hverdict_name(enum hverdict v); /* compatible, undocumented, break */
#endif
