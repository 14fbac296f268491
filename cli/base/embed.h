/* embed: the files a self-contained build (make static) carries inside the binary, a ustar
 * archive of the catalogue, the site's templates and the guide and lesson pages. */
#ifndef XSC_EMBED_H
#define XSC_EMBED_H

/* The directory they were unpacked into (first call: a fresh private scratch directory,
 * removed when xsc ends), or NULL when this build carries none or unpacking failed
 * (reported). Its data/ is the catalogue, site/ the templates, docs/ the pages. */
const char *embed_root(void);
#endif
