/* header: a uapi header parsed by libclang into layouts, size versions and flag macros.
 * libclang is loaded with dlopen on the first parse (libclang-14.so.1, libclang.so.1), so
 * runs that parse nothing pay nothing. Offsets, sizes and alignment come from the compiler
 * (clang_Type_getOffsetOf, clang_Type_getSizeOf, clang_Type_getAlignOf); macro values
 * from clang_Cursor_Evaluate on a generated translation unit that includes the header.
 * Includes resolve against the system headers (/usr/include), or first against a kernel's
 * installed uapi tree (header_set_include_dir); one that cannot be found becomes a
 * diagnostic and an empty stand-in, never a failure.
 * The same model holds a catalogue struct (header_from_catalog), so diff compares either. */
#ifndef XSC_HEADER_H
#define XSC_HEADER_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/util.h"

struct catalog;

struct hfield {
	const char *name;
	const char *type;   /* catalogue type: u64, s32, aligned_u64, ptr, char[16], u8[24] */
	const char *ctype;  /* as written in C: __u64, int, unsigned long, struct foo */
	const char *doc;    /* comments on or above the field plus its kernel-doc @name entry */
	const char **aliases; /* other members of an anonymous union at the same place */
	size_t naliases;
	unsigned offset, size, align, line, col;
	bool is_signed, fixed_width, is_long, is_pointer, is_record, is_union;
	bool union_of_structs; /* a union whose members include two or more structs */
	bool bitfield, reserved;
};

struct hversion {
	const char *name; /* FOO_SIZE_VER1 */
	unsigned n;       /* the 1 */
	uint64_t size;
	unsigned line, col;
	const char *st;   /* the struct it belongs to, or NULL when none matches */
};

struct hstruct {
	const char *name, *doc;
	bool is_union, packed, explicit_align;
	unsigned size, align, line, col;
	struct hfield *fields;
	size_t nfields;
	struct hversion *versions; /* in n order */
	size_t nversions;
};

struct hmacro {
	const char *name, *doc;
	uint64_t value;
	bool negative;
	unsigned line, col;
};

struct hflagset {
	const char *name, *prefix;
	bool bits; /* else enum */
	struct hmacro *flags;
	size_t nflags;
};

enum hdiag_sev { HD_NOTE, HD_WARNING, HD_ERROR };
struct hdiag {
	enum hdiag_sev sev;
	const char *rule, *msg;
	unsigned line, col;
};

struct header {
	struct arena a;
	const char *name;          /* for messages: the path or URL */
	const char *text;          /* the header's text (NUL-terminated, in the arena) */
	size_t len;
	struct hstruct *structs;
	size_t nstructs;
	struct hversion *versions; /* every *_SIZE_VERn macro, in source order */
	size_t nversions;
	struct hmacro *macros;     /* every object-like macro with an integer value */
	size_t nmacros;
	struct hflagset *flagsets; /* macros grouped by common prefix (no VER macros) */
	size_t nflagsets;
	struct hdiag *diags;       /* include not found, compiler errors */
	size_t ndiags;
	unsigned kernel_version;   /* LINUX_VERSION_CODE of the system headers, 0 if unknown */
	/* indexes, so that lookups stay O(1) or O(log n) on headers of 20,000 structs */
	size_t *line_start;        /* byte offset of each line of text */
	size_t nlines;
	size_t *by_name;           /* struct indices sorted by name */
};

/* Parses text as the header named name (a path or URL; a path's directory is searched for
 * quoted includes). Returns 0, or -1 after err() when libclang cannot be loaded, the text
 * is not a header at all (binary; empty of declarations is fine), an #include is refused
 * (hinclude.h) or, under Landlock, libclang was refused a file the include check did not
 * accept (named in the error), or the parse breaks a limit.
 * libclang runs in a child process (hchild.c): address space 1 GiB, CPU 30 s, 60 s of wall
 * time, each breach, a crash or a malformed answer one error naming the header. Its
 * scratch copy (in scratch_dir()) is removed on every exit: SIGINT, SIGTERM and SIGHUP of
 * xsc end the wait (base/sig.h), the child is killed and the copy removed; after a SIGKILL
 * of xsc, the child, told by PR_SET_PDEATHSIG, removes it (best effort: a child already
 * dying of a limit at that moment leaves it). */
int header_parse(struct header *h, const char *name, const char *text, size_t len);
/* The same parse in this process, without limits: for the fuzz target, which cannot fork
 * per input. It makes and removes its own scratch directory. */
int header_parse_here(struct header *h, const char *name, const char *text, size_t len);
/* The parse itself, with its scratch files in dir (made and removed by the caller). With
 * confine (the parse's child), once the includes are checked the process may read only
 * what the check accepted (hinclude_confine): for good, so never in xsc itself. */
int header_parse_in(struct header *h, const char *name, const char *text, size_t len, const char *dir,
		    bool confine);
/* Includes (and linux/version.h, for kernel_version) resolve against dir, an absolute path,
 * before the system headers: a kernel's tree installed by 'make headers' (import --include).
 * NULL for the system's alone. Set before header_parse; the parse's child inherits it. */
void header_set_include_dir(const char *dir);
/* Loads libclang (once): 0, or -1 after err(). */
int header_load_clang(void);
/* The same model from a loaded catalogue (for diff). */
void header_from_catalog(struct header *h, const struct catalog *c, const char *name);
void header_release(struct header *h);
/* The header as catalogue JSON (docs/guide/catalogue-format.md): its structs (unions are
 * left out: the catalogue has none), size versions and flag groups, every entry dated
 * since (a kernel version, model/kver.h), written by the catalogue writer (model/catwrite.h).
 * Implicit holes become reserved u8[N] fields, so the output loads; hdrname is the "header"
 * value (linux/openat2.h). */
struct sbuf;
void header_export_json(const struct header *h, const char *hdrname, uint32_t since, struct sbuf *out);
/* 1-based line of text, without its newline, into *start and *len; false past the end. */
bool header_line(const struct header *h, unsigned line, const char **start, size_t *len);
/* The struct or union named name, or NULL: a binary search once header_index has run. */
const struct hstruct *header_find_struct(const struct header *h, const char *name);
/* Builds h's line and name indexes (parse and header_from_catalog do; a model made any
 * other way calls it after filling text and structs). */
void header_index(struct header *h);
#endif
