#include "base/embed.h"
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/diag.h"
#include "base/sbuf.h"
#include "base/util.h"
#include "base/banned.h"

/* Defined only by the static build's blob (Makefile: static); weak, so that elsewhere they
 * are NULL and nothing is embedded. */
extern const unsigned char xsc_embedded_tar[] __attribute__((weak));
extern const unsigned char xsc_embedded_tar_end[] __attribute__((weak));

static char *root;

static void cleanup(void)
{
	if (root)
		scratch_remove(root);
}

static unsigned long long octal(const unsigned char *p, size_t n)
{
	unsigned long long v = 0;
	for (size_t i = 0; i < n && p[i] >= '0' && p[i] <= '7'; i++)
		v = v * 8 + (unsigned)(p[i] - '0');
	return v;
}

/* A member name is relative, without '..' or empty components: the archive is the build's
 * own, but nothing it says may write outside root. */
static bool name_ok(const char *name)
{
	if (!*name || name[0] == '/')
		return false;
	for (const char *p = name; *p;) {
		size_t n = strcspn(p, "/");
		if ((n == 2 && !strncmp(p, "..", 2)) || (n == 1 && *p == '.' && p[1] == '/'))
			return false;
		p += n + (p[n] == '/');
	}
	return true;
}

static int put(const char *dir, const char *name, const unsigned char *data, size_t len)
{
	struct sbuf path = SBUF_INIT;
	sbuf_addf(&path, "%s/%s", dir, name);
	mkdir_parents(path.buf, 0700);
	int fd = open(path.buf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	int r = fd < 0 ? -1 : 0;
	while (!r && len) {
		ssize_t n = write(fd, data, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			r = -1;
		else
			data += n, len -= (size_t)n;
	}
	if (fd >= 0 && close(fd) < 0)
		r = -1;
	if (r)
		err("cannot unpack '%s': %m", path.buf);
	sbuf_release(&path);
	return r;
}

static int unpack(const char *dir, const unsigned char *p, const unsigned char *end)
{
	while (end - p >= 512 && p[0]) {
		char name[256 + 2];
		const unsigned char *prefix = p + 345;
		snprintf(name, sizeof(name), "%.*s%s%.*s", (int)strnlen((const char *)prefix, 155), (const char *)prefix,
			 prefix[0] ? "/" : "", (int)strnlen((const char *)p, 100), (const char *)p);
		unsigned long long size = octal(p + 124, 12);
		char type = (char)p[156];
		p += 512;
		if (size > (unsigned long long)(end - p) || !name_ok(name))
			return err("the embedded files are damaged at '%s'", name);
		if ((type == '0' || type == '\0') && put(dir, name, p, (size_t)size) < 0)
			return -1;
		p += (size + 511) / 512 * 512;
	}
	return 0;
}

const char *embed_root(void)
{
	static bool tried;
	if (tried || !xsc_embedded_tar || !xsc_embedded_tar_end)
		return root;
	tried = true;
	struct sbuf t = SBUF_INIT;
	sbuf_addf(&t, "%s/xsc-embedded.XXXXXX", scratch_dir());
	char *dir = scratch_mkdtemp(t.buf);
	if (!dir) {
		err("cannot make a directory for the embedded catalogue in '%s': %m", scratch_dir());
		sbuf_release(&t);
		return NULL;
	}
	root = xstrdup(dir);
	sbuf_release(&t);
	atexit(cleanup);
	if (unpack(root, xsc_embedded_tar, xsc_embedded_tar_end) < 0) {
		scratch_remove(root);
		FREE_AND_NULL(root);
	}
	return root;
}
