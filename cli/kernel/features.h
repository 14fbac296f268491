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
#endif
