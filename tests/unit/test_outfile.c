/* outfile: whole-or-nothing files, refusal of existing names, modes kept, temporaries of
 * dead runs swept; owndir's marker paths; what a script may write (outpath_beneath). */
#include "tap.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "base/outfile.h"
#include "base/util.h"
#include "docs/owndir.h"

static char dir[64];

static void path(char *p, size_t n, const char *name)
{
	snprintf(p, n, "%s/%s", dir, name);
}

static char *slurp(const char *name)
{
	char p[128], *text = NULL;
	size_t len;
	path(p, sizeof(p), name);
	return read_file_max(p, 1024, &text, &len) < 0 ? NULL : text;
}

static void put_and_refuse(void)
{
	char p[128];
	path(p, sizeof(p), "a.txt");
	ok(outfile_put(p, "one\n", 4, 0) == 0, "outfile_put makes a new file");
	errno = 0;
	ok(outfile_put(p, "two\n", 4, 0) < 0 && errno == EEXIST, "and refuses it the second time (EEXIST)");
	char *t = slurp("a.txt");
	is_str(t ? t : "", "one\n", "which leaves the file as it was");
	free(t);
	chmod(p, 0640);
	ok(outfile_put(p, "three\n", 6, OF_FORCE | OF_SYNC) == 0, "OF_FORCE replaces it");
	struct stat st;
	ok(stat(p, &st) == 0 && (st.st_mode & 07777) == 0640, "keeping its mode");
	t = slurp("a.txt");
	is_str(t ? t : "", "three\n", "whole");
	free(t);
}

static void links(void)
{
	char p[128], v[128];
	path(v, sizeof(v), "victim");
	outfile_put(v, "v\n", 2, 0);
	path(p, sizeof(p), "link");
	ok(symlink("victim", p) == 0, "a link to a victim");
	errno = 0;
	ok(outfile_put(p, "x\n", 2, 0) < 0 && errno == EEXIST, "counts as an existing name");
	ok(outfile_put(p, "x\n", 2, OF_FORCE) == 0, "OF_FORCE replaces the link");
	struct stat st;
	ok(lstat(p, &st) == 0 && S_ISREG(st.st_mode), "with a file of its own");
	char *t = slurp("victim");
	is_str(t ? t : "", "v\n", "the victim is untouched");
	free(t);
	errno = 0;
	path(p, sizeof(p), "..");
	ok(outfile_put(p, "x", 1, OF_FORCE) < 0 && errno == EINVAL, "'..' is not a file name");
}

/* What a script may write: beneath the current directory, by descriptor, no link. */
static void beneath(void)
{
	char cwd[4096];
	if (!getcwd(cwd, sizeof(cwd)) || chdir(dir) < 0)
		return;
	mkdir("sub", 0700);
	symlink("/etc", "etc-link");
	symlink("/etc", "sub/etc-link");
	ok(outpath_beneath("new.txt") == 0, "a new file in the current directory");
	ok(outpath_beneath("sub/new.txt") == 0 && outpath_beneath("./sub//x") == 0, "and beneath it");
	ok(outpath_beneath("nosuch/dir/x") == 0, "beneath a directory not made yet");
	ok(outpath_beneath("/tmp/x") < 0 && errno == EPERM, "not an absolute path (EPERM)");
	ok(outpath_beneath("../x") < 0 && errno == EPERM, "nor '..'");
	ok(outpath_beneath("nosuch/../../x") < 0 && errno == EPERM, "nor '..' past a missing directory");
	ok(outpath_beneath("..x") == 0, "'..x' is a name");
	ok(outpath_beneath("etc-link/passwd") < 0 && errno == ELOOP, "not through a link (ELOOP)");
	ok(outpath_beneath("sub/etc-link") < 0 && errno == ELOOP, "not onto a link");
	ok(outpath_beneath("etc-link/") < 0 && errno == ELOOP, "nor a link with a trailing slash");
	ok(outpath_beneath("") < 0, "not an empty path");
	ok(outfile_put("sub/b.txt", "b\n", 2, OF_BENEATH) == 0, "OF_BENEATH writes beneath");
	errno = 0;
	ok(outfile_put("etc-link/xsc-test", "x", 1, OF_BENEATH) < 0 && errno == ELOOP, "and opens no link (ELOOP)");
	errno = 0;
	ok(outfile_put("sub/../b.txt", "x", 1, OF_BENEATH) < 0 && errno == EPERM, "nor '..' (EPERM)");
	if (chdir(cwd) < 0)
		perror("chdir back");
}

static void sweep(void)
{
	pid_t pid = fork();
	if (!pid)
		_exit(0);
	waitpid(pid, NULL, 0); /* a PID that is gone */
	char dead[128], live[128], name[64];
	snprintf(name, sizeof(name), OUTFILE_TMP_PREFIX "%ld.page.md", (long)pid);
	path(dead, sizeof(dead), name);
	snprintf(name, sizeof(name), OUTFILE_TMP_PREFIX "%ld.page.md", (long)getppid());
	path(live, sizeof(live), name);
	write_file_scratch(dead, "d", 1);
	write_file_scratch(live, "l", 1);
	int fd = open(dir, O_RDONLY | O_DIRECTORY);
	outfile_sweep(fd);
	outfile_sweep(fd); /* twice on one descriptor: each reads the directory from the start */
	close(fd);
	struct stat st;
	ok(lstat(dead, &st) < 0 && errno == ENOENT, "outfile_sweep removes a dead run's temporary");
	ok(lstat(live, &st) == 0, "and leaves a live one's");
	unlink(live);
}

static void marker_paths(void)
{
	ok(owndir_rel_ok("syscalls/openat2.md", ".xsc-docs"), "a page path is fine");
	ok(!owndir_rel_ok("../victim.md", ".xsc-docs"), "'..' is refused");
	ok(!owndir_rel_ok("a/../../b", ".xsc-docs"), "'..' inside is refused");
	ok(!owndir_rel_ok("/etc/passwd", ".xsc-docs"), "an absolute path is refused");
	ok(!owndir_rel_ok("a//b", ".xsc-docs"), "an empty component is refused");
	ok(!owndir_rel_ok(".xsc-docs", ".xsc-docs"), "the marker itself is refused");
	ok(!owndir_rel_ok("a/" OUTFILE_TMP_PREFIX "1.x", ".xsc-docs"), "a temporary is refused");
	ok(!owndir_rel_ok("a\nb", ".xsc-docs"), "a control character is refused");
}

int main(void)
{
	snprintf(dir, sizeof(dir), "/tmp/xsc-outfile-XXXXXX");
	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	put_and_refuse();
	links();
	beneath();
	sweep();
	marker_paths();
	remove_tree(dir);
	return tap_done();
}
