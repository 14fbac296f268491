/* dynlib: a library loaded with dlopen on first use (cmark-gfm, libclang, libcurl, libbpf),
 * so that runs which need none of them pay nothing at start-up and a machine without one
 * loses only what needs it. One way to open, resolve a table of symbols and say what is
 * missing: "cannot load LIB (FILE): WHY; install PACKAGE", "LIB lacks 'SYMBOL'". */
#ifndef XSC_DYNLIB_H
#define XSC_DYNLIB_H
#include <stddef.h>

enum {
	DYNLIB_GLOBAL = 1,        /* its symbols serve libraries loaded after it (RTLD_GLOBAL) */
	DYNLIB_OWN_NAMESPACE = 2, /* a link namespace of its own (dlmopen LM_ID_NEWLM) */
};

struct dynlib {
	const char *what;         /* "libcurl": for messages */
	const char *install;      /* the Debian package that provides it */
	const char *const *files; /* the file names tried in order, NULL-ended */
	int flags;                /* DYNLIB_* */
};

/* One symbol and where its address goes (the address of a function pointer). */
struct dynlib_sym {
	const char *name;
	void *slot;
};
#define DYNLIB_SYM(name, ptr) { (name), (void *)&(ptr) }

/* The first of lib->files that loads (extra, when not NULL, first: a path the user gave), or
 * NULL with the reason in dynlib_error(). Never prints. */
void *dynlib_open(const struct dynlib *lib, const char *extra);
/* Every symbol of syms resolved in h into its slot: 0, or -1 with the first missing one
 * named in dynlib_error(). Never prints. */
int dynlib_resolve(const struct dynlib *lib, void *h, const struct dynlib_sym *syms, size_t n);
/* The reason of the last failure, valid until the next call. */
const char *dynlib_error(void);
#endif
