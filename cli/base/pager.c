#include "base/pager.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include "base/proc.h"
#include "base/sbuf.h"
#include "base/banned.h"

static struct sigaction saved_pipe;

/* Is name an executable file in PATH? (The default pager is not required to be installed.) */
static bool in_path(const char *name)
{
	const char *path = getenv("PATH");
	char buf[4096];
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");
		if (n && snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, p, name) < (int)sizeof(buf) &&
		    access(buf, X_OK) == 0)
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}

bool pager_start(struct pager *p)
{
	p->pid = 0;
	p->saved_out = -1;
	if (!isatty(STDOUT_FILENO))
		return false;
	const char *cmd = getenv("PAGER");
	char *def[] = { (char *)"less", (char *)"-FRX", NULL };
	char *user[] = { (char *)"sh", (char *)"-c", (char *)cmd, NULL };
	if (cmd && (!*cmd || !strcmp(cmd, "cat")))
		return false;
	if (!cmd && !in_path("less"))
		return false;
	int fds[2];
	if (pipe2(fds, O_CLOEXEC) < 0)
		return false;
	fflush(stdout);
	/* the pager reads keys from the terminal itself (less opens /dev/tty); its input is
	 * the pipe, its output the terminal */
	pid_t pid = proc_spawn(cmd ? user : def, NULL, fds[0], STDOUT_FILENO, STDERR_FILENO);
	close(fds[0]);
	if (pid < 0) {
		close(fds[1]);
		return false;
	}
	p->saved_out = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (p->saved_out < 0 || dup2(fds[1], STDOUT_FILENO) < 0) {
		close(fds[1]);
		if (p->saved_out >= 0)
			close(p->saved_out);
		proc_wait(pid);
		return false;
	}
	close(fds[1]);
	struct sigaction ign = { .sa_handler = SIG_IGN };
	sigaction(SIGPIPE, &ign, &saved_pipe);
	p->pid = pid;
	return true;
}

void pager_stop(struct pager *p)
{
	if (!p->pid)
		return;
	fflush(stdout);
	clearerr(stdout); /* a pager quit early: the rest of the output went nowhere, on purpose */
	dup2(p->saved_out, STDOUT_FILENO); /* closes the pipe's last writer: the pager sees the end */
	close(p->saved_out);
	proc_wait(p->pid);
	sigaction(SIGPIPE, &saved_pipe, NULL);
	p->pid = 0;
}

unsigned term_columns(void)
{
	struct winsize ws;
	if (!isatty(STDOUT_FILENO) || ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) < 0)
		return 0;
	return ws.ws_col;
}

/* Columns of n bytes of UTF-8 (one a code point). */
static size_t cols_of(const char *s, size_t n)
{
	size_t w = 0;
	for (size_t i = 0; i < n; i++)
		w += ((unsigned char)s[i] & 0xc0) != 0x80;
	return w;
}

void term_wrap(struct sbuf *out, const char *text, size_t col, size_t indent, unsigned width)
{
	if (!width || col + cols_of(text, strlen(text)) <= width) {
		sbuf_adds(out, text);
		return;
	}
	size_t start = col;
	for (const char *p = text; *p;) {
		bool space = *p == ' ';
		while (*p == ' ')
			p++;
		if (*p == '\n') { /* a hard break stays one */
			sbuf_addch(out, '\n');
			sbuf_addf(out, "%*s", (int)indent, "");
			col = start = indent;
			p++;
			continue;
		}
		size_t n = 0;
		while (p[n] && p[n] != ' ' && p[n] != '\n' && !(n && (p[n - 1] == '|' || p[n - 1] == ',')))
			n++;
		if (n == 2 && !strncmp(p, "/*", 2) && strstr(p, "*/")) /* a comment stays on one line */
			n = (size_t)(strstr(p, "*/") - p) + 2;
		if (!n)
			break;
		size_t w = cols_of(p, n) + (space && col > start);
		if (col > start && col + w > width) {
			sbuf_addch(out, '\n');
			sbuf_addf(out, "%*s", (int)indent, "");
			col = start = indent;
			w = cols_of(p, n);
		} else if (space && col > start) {
			sbuf_addch(out, ' ');
		}
		sbuf_add(out, p, n);
		col += w;
		p += n;
	}
}
