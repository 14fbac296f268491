/* catwrite: the one catalogue writer. Syscalls, structs and flag sets as the model holds them
 * (model/catalog.h), written as catalogue JSON in the layout of the files in data/
 * (docs/guide/catalogue-format.md): an entry's keys one a line; a field, size version, flag,
 * argument or error on a line of its own. import writes a parsed header through it, design
 * its designs (the export, and the catalogue the session uses, which the loader then reads).
 *
 * It writes what a header or a design states: a syscall's name, kind, numbers, since,
 * header, prototype, summary, arguments, struct, size, size rules, errors and safety; a
 * struct's name, header, doc, direction, packed, align, fields and size versions; a flag
 * set's name, kind, prefix, header, doc and flags. A loaded catalogue's structs and flag
 * sets come back the same through it (tests/unit/test_dataload.c); the rest (a call's
 * checks, results, fills, ioctl, lineage, features and probe recipe, strace's views and
 * tables, a field's conditions and high half, provenance) has no writer yet.
 * Unsaid is left out: a NULL string, FD_DEFAULT, a false flag, a zero count. */
#ifndef XSC_CATWRITE_H
#define XSC_CATWRITE_H
#include <stddef.h>
#include "base/sbuf.h"
#include "model/catalog.h"

struct catwrite {
	struct sbuf *out;
	int section;     /* the open section (an index into its names), -1 before the first */
	size_t n;        /* entries written in it so far */
};

/* Starts a catalogue file in out (appended to). */
void catwrite_begin(struct catwrite *w, struct sbuf *out);
/* Opens section "syscalls", "structs" or "flagsets": each at most once, in that order (an
 * opened section with nothing in it is written as []). */
void catwrite_section(struct catwrite *w, const char *name);
/* One entry of the open section: a syscall in "syscalls", and so on. */
void catwrite_syscall(struct catwrite *w, const struct syscall *sc);
void catwrite_struct(struct catwrite *w, const struct cstruct *st);
void catwrite_flagset(struct catwrite *w, const struct flagset *fs);
/* Closes the open section and the file. */
void catwrite_end(struct catwrite *w);
#endif
