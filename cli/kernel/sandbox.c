#include "kernel/sandbox.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "base/diag.h"
#include "base/sbuf.h"
#include "base/landlock.h"
#include "model/world.h"
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

/* Whether xsc has a controlling terminal; asked once (one can be lost, not gained). */
static bool has_ctty(void)
{
	static int ctty = -1;
	if (ctty < 0) {
		int fd = open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC);
		ctty = fd >= 0;
		if (fd >= 0)
			close(fd);
	}
	return ctty;
}

/* The owner's pid in a sandbox's name "xsc-sandbox-PID-XXXXXX", or 0 when it is not one. */
static pid_t sandbox_owner(const char *name)
{
	const char *prefix = "xsc-sandbox-";
	if (strncmp(name, prefix, strlen(prefix)))
		return 0;
	char *end;
	long pid = strtol(name + strlen(prefix), &end, 10);
	if (pid <= 0 || pid > INT32_MAX || *end != '-' || strlen(end + 1) != 6)
		return 0;
	return (pid_t)pid;
}

/* Whether only this user and root can rename entries of dir: then a name there stays the
 * directory it was checked to be (a sticky directory keeps others off our entries). */
static bool keeps_our_entries(int dirfd)
{
	struct stat st;
	return !fstat(dirfd, &st) && (st.st_uid == 0 || st.st_uid == geteuid()) &&
	       (!(st.st_mode & (S_IWGRP | S_IWOTH)) || (st.st_mode & S_ISVTX));
}

/* A SIGKILLed xsc cannot remove its sandbox: the next one to make a sandbox removes those of
 * this user whose owner process is gone. Once per process, so a call pays for it at most once.
 * A live owner, also one that is not xsc (a program using libxsc), keeps its sandbox. */
static void sweep_dead_sandboxes(const char *base)
{
	static bool swept;
	if (swept)
		return;
	swept = true;
	DIR *d = opendir(base);
	if (!d)
		return;
	struct dirent *e;
	struct stat st;
	if (keeps_our_entries(dirfd(d)))
		while ((e = readdir(d))) {
			pid_t pid = sandbox_owner(e->d_name);
			if (!pid || pid == getpid() || !kill(pid, 0) || errno != ESRCH)
				continue;
			if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
				continue;
			struct sbuf p = SBUF_INIT;
			sbuf_addf(&p, "%s/%s", base, e->d_name);
			remove_tree(p.buf);
			sbuf_release(&p);
		}
	closedir(d);
}

int sandbox_create(struct sandbox *sb, unsigned needs)
{
	struct sbuf p = SBUF_INIT;
	sweep_dead_sandboxes(scratch_dir());
	/* the owner's pid in the name: a later run can tell a dead owner's sandbox */
	sbuf_addf(&p, "%s/xsc-sandbox-%d-XXXXXX", scratch_dir(), (int)getpid());
	sb->dir = sbuf_detach(&p);
	sb->dirfd = -1;
	sb->new_session = false;
	if (!scratch_mkdtemp(sb->dir)) {
		int e = errno;
		FREE_AND_NULL(sb->dir);
		return err("cannot create a sandbox directory: %s", strerror(e));
	}
	/* only what the call's arguments name: most calls need an empty directory */
	for (int i = 0; i < WORLD_NENTRIES; i++) {
		const struct world_entry *w = &world_entries[i];
		if ((needs & 1u << i) && (w->type == WE_DIR ? make_dir(sb->dir, w->name) : make_file(sb->dir, w->name)) < 0) {
			int e = errno;
			sandbox_destroy(sb);
			return err("cannot populate the sandbox: %s", strerror(e));
		}
	}
	sb->new_session = has_ctty();
	/* opened here, before fork: the child may not look paths up before it is confined */
	sb->dirfd = open(sb->dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (sb->dirfd < 0) {
		int e = errno;
		sandbox_destroy(sb);
		return err("cannot open the sandbox directory: %s", strerror(e));
	}
	return 0;
}

unsigned sandbox_needs(const char *path)
{
	if (!path)
		return 0;
	int e = world_entry_find(path, strcspn(path, "/"));
	return e < 0 ? 0 : 1u << e;
}

void sandbox_destroy(struct sandbox *sb)
{
	if (!sb->dir)
		return;
	if (sb->dirfd >= 0)
		close(sb->dirfd);
	sb->dirfd = -1;
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

/* ---- confinement ---- */

#ifndef SYS_close_range
#define SYS_close_range 436
#endif

/* Reads (READ_FILE, READ_DIR, EXECUTE) stay unhandled, so allowed everywhere. */
int sandbox_landlock(struct sandbox *sb, int abi, const char **step)
{
	int e = 0;
	if (abi > 0) {
		uint64_t writes = landlock_write_access(abi);
		*step = "landlock_create_ruleset";
		/* from ABI 6, no signals to processes outside the domain (xsc, the user's
		 * shell), no connecting to their abstract unix sockets */
		int rs = landlock_ruleset(abi, writes, LL_SCOPE_ABSTRACT_UNIX | LL_SCOPE_SIGNAL);
		if (rs < 0)
			return errno;
		*step = "landlock_add_rule (writes beneath the sandbox)";
		if (landlock_allow(rs, writes, sb->dirfd) < 0)
			e = errno;
		*step = "landlock_restrict_self";
		if (!e && landlock_restrict(rs) < 0)
			e = errno;
		close(rs);
	}
	if (sb->dirfd >= 0)
		close(sb->dirfd);
	sb->dirfd = -1;
	return e;
}

/* Closes every descriptor from 'from' up. */
static int close_from(int from)
{
	if (syscall(SYS_close_range, from, ~0U, 0) == 0)
		return 0;
	if (errno != ENOSYS)
		return errno;
	struct rlimit nofile; /* before 5.9: one by one */
	rlim_t max = getrlimit(RLIMIT_NOFILE, &nofile) == 0 ? nofile.rlim_cur : 1024;
	for (rlim_t fd = (rlim_t)from; fd < max && fd < (1u << 20); fd++)
		close((int)fd);
	return 0;
}

int sandbox_confine(struct sandbox *sb, int *keep, const char **step)
{
	int null[2];
	/* 1. descriptors. Everything that must survive is first copied to 5 or above, so the
	 * dup2s onto 0-4 below can clobber nothing still needed whatever numbers the host had
	 * free (it may have closed 0-2); the originals go with close_range. */
	*step = "make the standard streams' pipe";
	if (pipe2(null, 0) < 0)
		return errno;
	*step = "move descriptors";
	int r = fcntl(null[0], F_DUPFD, 5);
	int k = keep ? fcntl(*keep, F_DUPFD, 5) : -1;
	int d = sb->dirfd >= 0 ? fcntl(sb->dirfd, F_DUPFD, 5) : -1;
	if (r < 0 || (keep && k < 0) || (sb->dirfd >= 0 && d < 0))
		return errno;
	if (dup2(r, 0) < 0 || dup2(r, 1) < 0 || dup2(r, 2) < 0)
		return errno;
	int next = WORLD_REPORT_FD;
	if (keep) {
		if (dup2(k, next) < 0)
			return errno;
		*keep = next++;
	}
	if (d >= 0) {
		if (dup2(d, next) < 0)
			return errno;
		sb->dirfd = next++;
	}
	*step = "close inherited descriptors";
	int e = close_from(next);
	if (e)
		return e;
	/* 2. no controlling terminal */
	*step = "setsid";
	if (sb->new_session && setsid() < 0)
		return errno;
	/* 3. */
	*step = "prctl(PR_SET_NO_NEW_PRIVS)";
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return errno;
	return 0;
}

/* ---- the last layer, just before the call ---- */

#if defined(__x86_64__)
#define XSC_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define XSC_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

int sandbox_seccomp(long nr, bool makes_processes, const char **step)
{
	if (RUNNING_ON_VALGRIND) /* its own system calls in the child would be killed */
		return 0;
#ifdef XSC_AUDIT_ARCH
#define ALLOW_NR(n) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)(n), 0, 1), BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, XSC_AUDIT_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS), /* another ABI (int 0x80) */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		ALLOW_NR(nr),
		ALLOW_NR(SYS_write),
		ALLOW_NR(SYS_exit_group),
		ALLOW_NR(SYS_exit), /* clone3's new process leaves with it */
		ALLOW_NR(SYS_rt_sigreturn),
		ALLOW_NR(makes_processes ? SYS_wait4 : SYS_write), /* the caller reaps clone3's child */
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
	};
#undef ALLOW_NR
	struct sock_fprog prog = { (unsigned short)ARRAY_SIZE(f), f };
	*step = "seccomp filter";
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0 && errno != EINVAL)
		return errno; /* EINVAL: a kernel without seccomp filters; the other layers stand */
#else
	(void)nr;
	(void)makes_processes;
	(void)step;
#endif
	return 0;
}
