#include "kernel/sandbox.h"
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include "base/diag.h"
#include "base/sbuf.h"
#include "base/banned.h"

static int make_file(const char *dir, const char *name)
{
	struct sbuf p = SBUF_INIT;
	sbuf_addf(&p, "%s/%s", dir, name);
	int fd = open(p.buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	sbuf_release(&p);
	if (fd < 0)
		return -1;
	int r = write(fd, "xsc\n", 4) == 4 ? 0 : -1;
	close(fd);
	return r;
}

static int make_dir(const char *dir, const char *name)
{
	struct sbuf p = SBUF_INIT;
	sbuf_addf(&p, "%s/%s", dir, name);
	int r = mkdir(p.buf, 0755);
	sbuf_release(&p);
	return r;
}

int sandbox_create(struct sandbox *sb, unsigned needs)
{
	struct sbuf p = SBUF_INIT;
	sbuf_addf(&p, "%s/xsc-sandbox-XXXXXX", scratch_dir());
	sb->dir = sbuf_detach(&p);
	if (!scratch_mkdtemp(sb->dir)) {
		int e = errno;
		FREE_AND_NULL(sb->dir);
		return err("cannot create a sandbox directory: %s", strerror(e));
	}
	/* only what the call's arguments name: most calls need an empty directory */
	if (((needs & SB_FILE) && make_file(sb->dir, "file") < 0) || ((needs & SB_A) && make_file(sb->dir, "a") < 0) ||
	    ((needs & SB_DIR) && make_dir(sb->dir, "dir") < 0) || ((needs & SB_MNT) && make_dir(sb->dir, "mnt") < 0)) {
		int e = errno;
		sandbox_destroy(sb);
		return err("cannot populate the sandbox: %s", strerror(e));
	}
	return 0;
}

unsigned sandbox_needs(const char *path)
{
	if (!path)
		return 0;
	size_t n = strcspn(path, "/");
	static const struct { const char *name; unsigned bit; } known[] = {
		{ "file", SB_FILE }, { "a", SB_A }, { "dir", SB_DIR }, { "mnt", SB_MNT },
	};
	for (size_t i = 0; i < ARRAY_SIZE(known); i++)
		if (strlen(known[i].name) == n && !strncmp(path, known[i].name, n))
			return known[i].bit;
	return 0;
}

void sandbox_destroy(struct sandbox *sb)
{
	if (!sb->dir)
		return;
	scratch_remove(sb->dir);
	FREE_AND_NULL(sb->dir);
}

/* write(2) a short string to a file by path: async-signal-safe. */
static int write_proc(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = write(fd, text, strlen(text));
	close(fd);
	return n < 0 ? -1 : 0;
}

/* Formats "0 ID 1" without stdio (async-signal-safe). */
static void id_map(char *buf, unsigned id)
{
	char digits[16];
	int n = 0;
	do
		digits[n++] = (char)('0' + id % 10);
	while ((id /= 10) && n < 15);
	char *p = buf;
	*p++ = '0';
	*p++ = ' ';
	while (n)
		*p++ = digits[--n];
	memcpy(p, " 1\n", 4);
}

int sandbox_enter(const struct sandbox *sb, bool ns, unsigned timeout_s, const char **step)
{
	struct rlimit fsize = { 1 << 20, 1 << 20 }, core = { 0, 0 }, cpu = { timeout_s + 1, timeout_s + 2 };
	*step = "prctl";
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		return errno;
	*step = "setrlimit";
	if (setrlimit(RLIMIT_FSIZE, &fsize) < 0 || setrlimit(RLIMIT_CORE, &core) < 0 || setrlimit(RLIMIT_CPU, &cpu) < 0)
		return errno;
	*step = "chdir to the sandbox";
	if (chdir(sb->dir) < 0)
		return errno;
	if (!ns)
		return 0;
	unsigned uid = (unsigned)getuid(), gid = (unsigned)getgid();
	char map[32];
	*step = "unshare(CLONE_NEWUSER|CLONE_NEWNS)";
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
		return errno;
	*step = "write the user namespace's id maps";
	id_map(map, uid);
	if (write_proc("/proc/self/setgroups", "deny") < 0 && errno != ENOENT)
		return errno;
	if (write_proc("/proc/self/uid_map", map) < 0)
		return errno;
	id_map(map, gid);
	if (write_proc("/proc/self/gid_map", map) < 0)
		return errno;
	*step = "make the mounts private";
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return errno;
	*step = "mount a tmpfs on mnt/";
	if (mount("xsc", "mnt", "tmpfs", 0, "size=1m") < 0)
		return errno;
	return 0;
}
