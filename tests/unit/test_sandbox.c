/* kernel/sandbox: the confinement layers of a live call's child, each checked on its own in
 * a child that confines itself as invoke's does (sandbox_enter, sandbox_confine,
 * sandbox_landlock) and then tries what a call could: use a descriptor it inherited, read
 * and write its standard streams, write, create, truncate, rename and remove outside the
 * sandbox, and signal its parent. The argument checks (trust) are not involved, so
 * Landlock is tested without them. Last, the seccomp filter a live call is made under. */
#include "tap.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <dirent.h>
#include <sys/wait.h>
#include <unistd.h>
#include "base/diag.h"
#include "base/util.h"
#include "base/landlock.h"
#include "kernel/sandbox.h"

enum { R_INHERITED, R_REPORT_FD, R_STDIN_EOF, R_STDOUT, R_NNP, R_READ_OUT, R_WRITE_OUT, R_CREATE_OUT,
       R_MKDIR_OUT, R_TRUNCATE_OUT, R_RENAME_OUT, R_UNLINK_OUT, R_WRITE_IN, R_RENAME_IN, R_SIGNAL, R_FIRST_FREE,
       R_N };

static char victim[256], victim_file[300];

/* errno of a step, 0 for success */
static signed char res(int r)
{
	return (signed char)(r < 0 ? errno : 0);
}

static void NORETURN confined(struct sandbox *sb, int abi, int inherited, int wr)
{
	const char *step;
	signed char r[R_N];
	char path[400], c;
	memset(r, 0, sizeof(r));
	if (sandbox_enter(sb, false, 5, &step) || sandbox_confine(sb, &wr, &step) || sandbox_landlock(sb, abi, &step))
		_exit(2);
	r[R_INHERITED] = res(fcntl(inherited, F_GETFD));
	r[R_REPORT_FD] = (signed char)wr;
	r[R_FIRST_FREE] = (signed char)open("/", O_PATH | O_CLOEXEC); /* before anything else opens one */
	r[R_STDIN_EOF] = (signed char)read(0, &c, 1);
	r[R_STDOUT] = res((int)write(1, "x", 1));
	r[R_NNP] = (signed char)prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0);
	int fd = open(victim_file, O_RDONLY | O_CLOEXEC);
	r[R_READ_OUT] = res(fd);
	if (fd >= 0)
		close(fd);
	r[R_WRITE_OUT] = res(open(victim_file, O_WRONLY | O_CLOEXEC));
	snprintf(path, sizeof(path), "%s/new", victim);
	r[R_CREATE_OUT] = res(open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644));
	snprintf(path, sizeof(path), "%s/dir", victim);
	r[R_MKDIR_OUT] = res(mkdir(path, 0755));
	r[R_TRUNCATE_OUT] = res(truncate(victim_file, 0));
	r[R_WRITE_IN] = res(open("mine", O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
	r[R_RENAME_IN] = res(rename("mine", "mine2"));
	snprintf(path, sizeof(path), "%s/moved", victim);
	r[R_RENAME_OUT] = res(rename("mine2", path));
	r[R_UNLINK_OUT] = res(unlink(victim_file));
	r[R_SIGNAL] = res(kill(getppid(), 0));
	_exit(write(wr, r, sizeof(r)) == (ssize_t)sizeof(r) ? 0 : 3);
}

static int victim_intact(void)
{
	char buf[16] = "";
	struct stat st;
	int fd = open(victim_file, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	char p[400];
	snprintf(p, sizeof(p), "%s/new", victim);
	bool none_new = stat(p, &st) < 0;
	snprintf(p, sizeof(p), "%s/dir", victim);
	none_new &= stat(p, &st) < 0;
	snprintf(p, sizeof(p), "%s/moved", victim);
	none_new &= stat(p, &st) < 0;
	return n == 7 && !memcmp(buf, "secret\n", 7) && none_new;
}

/* A sandbox made with every entry holds exactly model/world.h's entries, each of its type,
 * and the simulator's lookups agree with the files. */
static void world_matches_sandbox(void)
{
	struct sandbox sb = { NULL, -1, false };
	struct stat st;
	if (sandbox_create(&sb, (1u << WORLD_NENTRIES) - 1) < 0) {
		ok(0, "a sandbox with every entry");
		return;
	}
	size_t n = 0, same = 0;
	DIR *d = opendir(sb.dir);
	for (struct dirent *e; d && (e = readdir(d));) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		n++;
		int w = world_entry_find(e->d_name, strlen(e->d_name));
		if (w >= 0 && !fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
		    (world_entries[w].type == WE_DIR ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode)) &&
		    world_lookup(e->d_name) == (S_ISDIR(st.st_mode) ? WL_DIR : WL_FILE))
			same++;
	}
	if (d)
		closedir(d);
	ok(n == WORLD_NENTRIES && same == n, "the sandbox holds model/world.h's %d entries, each of its type (%zu of %zu)",
	   WORLD_NENTRIES, same, n);
	ok(sandbox_needs("dir/x") == 1u << WORLD_DIR && sandbox_needs("nosuch") == 0, "a path needs the entry it starts with");
	ok(world_lookup("nosuch") == WL_MISSING && world_lookup("file/x") == WL_NOTDIR && world_lookup("./dir/") == WL_DIR &&
	       world_lookup("dir/x") == WL_MISSING && world_lookup("../x") == WL_UNKNOWN && world_lookup("/etc") == WL_UNKNOWN &&
	       world_lookup("file/") == WL_NOTDIR && world_lookup(".") == WL_DIR,
	   "the world's lookups: missing, not a directory, outside");
	sandbox_destroy(&sb);
}

int main(void)
{
	char scratch[] = "/tmp/xsc-test-sandbox.XXXXXX";
	if (!mkdtemp(scratch))
		return 1;
	setenv("XSC_SANDBOX_DIR", scratch, 1);
	snprintf(victim, sizeof(victim), "%s/victim", scratch);
	snprintf(victim_file, sizeof(victim_file), "%s/v", victim);
	mkdir(victim, 0755);
	int fd = open(victim_file, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, "secret\n", 7) != 7)
		return 1;
	close(fd);

	/* XSC_TEST_NO_LANDLOCK=1 pretends a kernel without it (asked in a child: the answer is
	 * kept for the process) */
	pid_t p = fork();
	if (p == 0) {
		setenv("XSC_TEST_NO_LANDLOCK", "1", 1);
		_exit(landlock_usable_abi() == 0 ? 0 : 1);
	}
	int st;
	waitpid(p, &st, 0);
	ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "XSC_TEST_NO_LANDLOCK=1: no Landlock ABI");
	int abi = landlock_usable_abi();
	printf("# Landlock ABI %d\n", abi);

	for (int pass = 0; pass < 2; pass++) {
		int use = pass ? 0 : abi; /* the second pass: --unsafe, no Landlock */
		struct sandbox sb = { NULL, -1, false };
		if (sandbox_create(&sb, 0) < 0)
			return 1;
		int inherited = open(victim, O_RDONLY | O_DIRECTORY); /* as fd 5 of the user's shell */
		int pfd[2];
		if (inherited < 0 || pipe(pfd) < 0)
			return 1;
		p = fork();
		if (p == 0) {
			close(pfd[0]);
			confined(&sb, use, inherited, pfd[1]);
		}
		close(pfd[1]);
		signed char r[R_N];
		memset(r, 0x7f, sizeof(r));
		ssize_t got = read(pfd[0], r, sizeof(r));
		waitpid(p, &st, 0);
		close(pfd[0]);
		close(inherited);
		const char *how = use ? "Landlock" : "no Landlock (--unsafe)";
		ok(got == (ssize_t)sizeof(r) && WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s: the child confined itself and reported", how);
		ok(r[R_INHERITED] == EBADF, "%s: a descriptor the parent had open is closed", how);
		ok(r[R_REPORT_FD] == WORLD_REPORT_FD, "%s: the report pipe is fd %d, as model/world.h says", how, WORLD_REPORT_FD);
		ok(r[R_FIRST_FREE] == WORLD_FIRST_FREE_FD, "%s: the first free descriptor is %d, as model/world.h says (got %d)", how,
		   WORLD_FIRST_FREE_FD, r[R_FIRST_FREE]);
		ok(r[R_STDIN_EOF] == 0, "%s: stdin reads EOF", how);
		ok(r[R_STDOUT] == EBADF, "%s: stdout takes no writes", how);
		ok(r[R_NNP] == 1, "%s: no_new_privs is set", how);
		ok(r[R_READ_OUT] == 0, "%s: a file outside the sandbox can be read", how);
		ok(r[R_WRITE_IN] == 0 && r[R_RENAME_IN] == 0, "%s: files are made and renamed inside the sandbox", how);
		if (use) {
			ok(r[R_WRITE_OUT] == EACCES, "Landlock: opening a file outside for writing: EACCES (got %d)", r[R_WRITE_OUT]);
			ok(r[R_CREATE_OUT] == EACCES, "Landlock: creating a file outside: EACCES (got %d)", r[R_CREATE_OUT]);
			ok(r[R_MKDIR_OUT] == EACCES, "Landlock: mkdir outside: EACCES (got %d)", r[R_MKDIR_OUT]);
			if (abi >= 3)
				ok(r[R_TRUNCATE_OUT] == EACCES, "Landlock: truncate outside: EACCES (got %d)", r[R_TRUNCATE_OUT]);
			ok(r[R_RENAME_OUT] == EXDEV || r[R_RENAME_OUT] == EACCES, "Landlock: renaming out of the sandbox: refused (got %d)",
			   r[R_RENAME_OUT]);
			ok(r[R_UNLINK_OUT] == EACCES, "Landlock: unlink outside: EACCES (got %d)", r[R_UNLINK_OUT]);
			if (abi >= 6)
				ok(r[R_SIGNAL] == EPERM, "Landlock: a signal to the parent, outside the domain: EPERM (got %d)", r[R_SIGNAL]);
			ok(victim_intact(), "Landlock: the victim is untouched");
		} else {
			ok(r[R_SIGNAL] == 0, "no Landlock: signals are not scoped");
		}
		sandbox_destroy(&sb);
		/* restore what the unconfined pass may change */
		unlink(victim_file);
		char q[400];
		snprintf(q, sizeof(q), "%s/new", victim);
		unlink(q);
		snprintf(q, sizeof(q), "%s/moved", victim);
		unlink(q);
		snprintf(q, sizeof(q), "%s/dir", victim);
		rmdir(q);
		fd = open(victim_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0 || write(fd, "secret\n", 7) != 7)
			return 1;
		close(fd);
	}
	world_matches_sandbox();
	/* the seccomp filter: the call's own number and the report pass, anything else kills */
	int pfd[2];
	if (pipe(pfd) < 0)
		return 1;
	p = fork();
	if (p == 0) {
		const char *step;
		close(pfd[0]);
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || sandbox_seccomp(SYS_getpid, false, &step))
			_exit(2);
		char c = syscall(SYS_getpid) > 0 ? 'y' : 'n';
		if (write(pfd[1], &c, 1) != 1)
			_exit(3);
		syscall(SYS_getppid); /* not the call: the filter kills */
		_exit(0);
	}
	close(pfd[1]);
	char c = 0;
	ssize_t got = read(pfd[0], &c, 1);
	close(pfd[0]);
	waitpid(p, &st, 0);
	ok(got == 1 && c == 'y', "seccomp: the call's own number and write pass");
	ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS, "seccomp: another system call kills the child (SIGSYS)");

	remove_tree(scratch);
	return tap_done();
}
