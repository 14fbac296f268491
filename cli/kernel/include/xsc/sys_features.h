/* xsc's userspace sys_features: what the running kernel supports, as feature bitmaps.
 *
 * Each syscall in xsc's catalogue has stable feature bits (the catalogue's "features":
 * bit 0 "available", then "size:N" per size version, then "FIELD:FLAG" per flag). This is
 * what a sys_features(nr, map, mapsize) system call would return, answered by probing the
 * running kernel once per boot (results cached under $XDG_CACHE_HOME/xsc).
 *
 * Link with: -lxsc -ljansson   (build/libxsc.a; the catalogue from XSC_DATA or the install)
 */
#ifndef XSC_SYS_FEATURES_H
#define XSC_SYS_FEATURES_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Fills map (mapsize 32-bit words) with the feature bits of syscall number nr on this
 * architecture: bit b is set when the running kernel supports feature b. Returns the
 * number of feature bits the syscall has (bits past mapsize * 32 are not written), or -1
 * with errno set: ENOENT (not in the catalogue), EIO (the probe could not run). */
int xsc_sys_features(long nr, uint32_t *map, size_t mapsize);
/* The same by name, for interfaces without a syscall number of their own (ioctls). */
int xsc_sys_features_by_name(const char *name, uint32_t *map, size_t mapsize);
/* The name of feature bit of syscall nr ("flags:CLONE_PIDFD"), or NULL. */
const char *xsc_feature_name(long nr, unsigned bit);
/* The bit of a named feature of syscall nr, or -1. */
int xsc_feature_bit(long nr, const char *name);

#ifdef __cplusplus
}
#endif
#endif
