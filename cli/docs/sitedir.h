/* sitedir: where a site is built and how it replaces the old one. The build goes into
 * ".NAME.tmp.PID" beside the target; a later build removes such directories of dead
 * processes. The swap keeps everything in the old site that xsc did not write (a GitHub
 * Pages checkout's .git/ and CNAME, a .nojekyll): the site's marker lists what it wrote. */
#ifndef XSC_SITEDIR_H
#define XSC_SITEDIR_H
#include <stddef.h>
#include "base/sbuf.h"

/* The temporary directory for out (trailing slashes ignored) into tmp; removes those of
 * builds that died. */
void sitedir_prepare(const char *out, struct sbuf *tmp);
/* Puts the site built in tmp in place of out (list: every file tmp holds, relative; the
 * marker inside tmp says the same). Refuses a directory that is neither empty, nor a site
 * xsc built, nor a bare GitHub Pages checkout. 0, or -1 (reported; tmp is the caller's). */
int sitedir_swap(const char *tmp, const char *out, const char *marker, char *const *list, size_t n);
#endif
