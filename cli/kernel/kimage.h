/* kimage: the real kernels 'target vm' boots. Which ones xsc knows is data
 * (data/kernels/debian.json: Debian's cloud kernel images, their suites and how to name the
 * current package); 'kernels fetch' downloads an image with apt into xsc's cache and keeps
 * only its vmlinuz, with a manifest recording the package, its version and the image's size
 * and SHA-256. Suites are read through a private apt directory per suite under the cache, so
 * the system's apt configuration and lists are never changed. */
#ifndef XSC_KIMAGE_H
#define XSC_KIMAGE_H
#include <stdbool.h>
#include <stdint.h>
#include "base/sbuf.h"

struct kimage {
	/* from the data */
	char *version;          /* "6.1" */
	uint32_t kv;
	char *archive, *suite;  /* "debian-security", "bookworm-security" */
	char *meta;             /* a meta-package, or NULL */
	char *prefix, *suffix;  /* the image package is PREFIX PATCH SUFFIX */
	char *fb_package, *fb_version;
	/* from the cache's manifest, when the image is present */
	bool present;
	char *package, *pkg_version, *sha256;
	uint64_t size;
	char *path;             /* DIR/VERSION/vmlinuz */
};

struct kimages {
	struct kimage *k;
	size_t n;
	char *dir;              /* the cache: XSC_KERNEL_DIR, else $XDG_CACHE_HOME/xsc/kernels */
};

/* Reads DATA_DIR/kernels/debian.json and the cache's manifests. 0, or -1 (reported). */
int kimages_load(const char *data_dir, struct kimages *ks);
void kimages_release(struct kimages *ks);
/* The kernel a version names ("6.1", or a full "6.1.192" of a kernel present), or NULL. */
struct kimage *kimages_find(struct kimages *ks, const char *version);
/* Downloads k's image (apt-get update in the suite's private directory, the package
 * resolved, apt-get download, the vmlinuz extracted, hashed, the manifest written). Progress
 * lines go to log. 0, or -1 (reported, with apt's own words). */
int kimage_fetch(struct kimages *ks, struct kimage *k, struct sbuf *log);
/* Is the image on disk what the manifest recorded (its size)? Returns NULL or why not. */
const char *kimage_check(const struct kimage *k);
/* The full version of a present image: "6.1.192" from "6.1.192-3" (0 when unknown). */
uint32_t kimage_full_kv(const struct kimage *k);
#endif
