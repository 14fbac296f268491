#include "base/dynlib.h"
#include <dlfcn.h>
#include <stdio.h>
#include "base/banned.h"

static char why[512];

const char *dynlib_error(void) { return why; }

static void *open_file(const char *file, int flags)
{
	int mode = RTLD_NOW | (flags & DYNLIB_GLOBAL ? RTLD_GLOBAL : RTLD_LOCAL);
	/* the fuzz build loads libclang into a namespace of its own, where it allocates with
	 * glibc's malloc rather than ASan's (header.c says why) */
	if (flags & DYNLIB_OWN_NAMESPACE)
		return dlmopen(LM_ID_NEWLM, file, mode);
	return dlopen(file, mode);
}

void *dynlib_open(const struct dynlib *lib, const char *extra)
{
	void *h = extra && *extra ? open_file(extra, lib->flags) : NULL;
	const char *first = extra && *extra ? extra : lib->files[0];
	for (size_t i = 0; !h && lib->files[i]; i++)
		h = open_file(lib->files[i], lib->flags);
	if (!h) {
		const char *e = dlerror();
		snprintf(why, sizeof(why), "cannot load %s (%s): %s; install %s", lib->what, first, e ? e : "not found",
			 lib->install);
	}
	return h;
}

int dynlib_resolve(const struct dynlib *lib, void *h, const struct dynlib_sym *syms, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		void *p = dlsym(h, syms[i].name);
		if (!p) {
			snprintf(why, sizeof(why), "%s lacks '%s'", lib->what, syms[i].name);
			return -1;
		}
		*(void **)syms[i].slot = p;
	}
	return 0;
}
