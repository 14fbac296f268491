/* features: probe results cached per boot, and the C API of sys_features.h over them. */
#ifndef XSC_FEATURES_H
#define XSC_FEATURES_H
#include <stdbool.h>
#include "kernel/probe.h"
#include "kernel/include/xsc/sys_features.h"
#include "model/catalog.h"

/* The probe results for names (all when n == 0): from the cache of this boot when there
 * is one and no_cache is false, else probed (all syscalls, then cached). */
int features_probe(const struct catalog *cat, const char *const *names, size_t n, bool no_cache,
		   unsigned timeout_ms, struct probe_run *run);
/* A probe's answers as text (heap; the cache's JSON), and read back against cat, keeping
 * the named reports (all when n == 0): how a guest's probe reaches xsc ('probe --kernel').
 * The parse is the cache's: every answer must fit the catalogue. 0, or -1 (reported). */
char *features_answers_text(const struct probe_run *run);
int features_answers_parse(const struct catalog *cat, const char *text, size_t len, const char *const *names, size_t n,
			   struct probe_run *run);
#endif
