#include "kernel/measure.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "base/diag.h"
#include "base/sig.h"
#include "base/util.h"
#include "kernel/invoke.h"
#include "kernel/explain.h"
#include "kernel/kimage.h"
#include "kernel/vm.h"
#include "model/kver.h"
#include "base/banned.h"

#define STOP_GRACE_MS 3000 /* an interrupted worker powers its guest off within this */

/* What a worker sends: fixed size and below PIPE_BUF, so every write is whole. */
enum rec_kind { REC_BOOTED = 1, REC_ANSWER, REC_FAILED };
struct rec {
	uint32_t kind, idx;        /* idx: the call (REC_ANSWER), the full version (REC_BOOTED) */
	int32_t stage, err, signal, pad;
	int64_t ret;
	char text[200];            /* REC_BOOTED: vm_how; REC_FAILED: the error */
	char release[65];          /* REC_BOOTED: the guest's uname -r */
};

struct worker {
	pid_t pid;
	int fd;                    /* the read end of its pipe, or -1 */
	size_t t;                  /* its target */
	size_t next;               /* calls answered so far are before this one */
};

static uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* The last error reported, kept instead of printed (a refused plan, a worker's failure). */
static void keep_message(const char *kind, const char *msg, void *arg)
{
	struct sbuf *sb = arg;
	sbuf_reset(sb);
	sbuf_addf(sb, "%s%s", kind, msg);
}

static void send_rec(int fd, struct rec *r)
{
	ssize_t w;
	do
		w = write(fd, r, sizeof(*r));
	while (w < 0 && errno == EINTR);
}

/* The worker: one kernel's guest, every plan that can run, an answer a record. It never
 * returns; its guest is stopped before it exits. */
static void worker_main(const struct kimage *k, struct call_plan *plans, const bool *ok, size_t n, int fd)
{
	struct sbuf msg = SBUF_INIT;
	struct rec r;
	struct vm_guest *g;
	prctl(PR_SET_PDEATHSIG, SIGKILL); /* xsc gone: so is the worker, and its qemu with it */
	diag_set_sink(keep_message, &msg);
	memset(&r, 0, sizeof(r));
	if (vm_start(k, &g) < 0) {
		r.kind = REC_FAILED;
		snprintf(r.text, sizeof(r.text), "%s", msg.buf);
		send_rec(fd, &r);
		_exit(0);
	}
	r.kind = REC_BOOTED;
	r.idx = vm_kernel(g);
	snprintf(r.text, sizeof(r.text), "%s", vm_how(g));
	snprintf(r.release, sizeof(r.release), "%s", vm_release(g));
	send_rec(fd, &r);
	for (size_t i = 0; i < n; i++) {
		struct outcome o;
		if (!ok[i])
			continue;
		plans[i].guest = g;
		memset(&r, 0, sizeof(r));
		if (invoke_run(&plans[i], &o) < 0) {
			r.kind = REC_FAILED;
			r.idx = (uint32_t)i;
			snprintf(r.text, sizeof(r.text), "%s", msg.buf);
			send_rec(fd, &r);
			break;
		}
		r = (struct rec){ REC_ANSWER, (uint32_t)i, (int32_t)o.stage, o.err, o.signal, 0, o.ret, "", "" };
		snprintf(r.text, sizeof(r.text), "%s", o.setup_error.buf);
		send_rec(fd, &r);
		outcome_release(&o);
	}
	vm_stop(g);
	_exit(0);
}

static int start_worker(struct worker *w, size_t t, const struct kimage *k, struct call_plan *plans, const bool *ok,
			size_t n)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return err("measure: %s", strerror(errno));
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return err("measure: cannot start a worker: %s", strerror(errno));
	}
	if (pid == 0) {
		close(p[0]);
		worker_main(k, plans, ok, n, p[1]);
	}
	close(p[1]);
	*w = (struct worker){ pid, p[0], t, 0 };
	return 0;
}

/* Reads one record of w's: 1 when one came, 0 at its end (the worker is reaped). */
static int take_record(struct worker *w, struct measure_target *tg, struct measure_answer *ans, size_t nt, size_t n)
{
	struct rec r;
	ssize_t got;
	do
		got = read(w->fd, &r, sizeof(r));
	while (got < 0 && errno == EINTR);
	if (got != (ssize_t)sizeof(r)) {
		int st = 0;
		close(w->fd);
		w->fd = -1;
		while (waitpid(w->pid, &st, 0) < 0 && errno == EINTR)
			;
		if (!tg->failed && WIFSIGNALED(st))
		{
			struct sbuf why = SBUF_INIT;
			sbuf_addf(&why, "its worker was killed by signal %d", WTERMSIG(st));
			tg->failed = sbuf_detach(&why);
		}
		else if (!tg->failed && !tg->how[0])
			tg->failed = xstrdup("its worker ended before the guest came up");
		return 0;
	}
	r.text[sizeof(r.text) - 1] = '\0';
	r.release[sizeof(r.release) - 1] = '\0';
	if (r.kind == REC_BOOTED) {
		tg->kv = r.idx;
		snprintf(tg->how, sizeof(tg->how), "%.191s", r.text);
		snprintf(tg->release, sizeof(tg->release), "%.64s", r.release);
	} else if (r.kind == REC_FAILED && !tg->failed) {
		tg->failed = xstrdup(r.text);
	} else if (r.kind == REC_ANSWER && r.idx < n) {
		struct measure_answer *a = &ans[(size_t)r.idx * nt + w->t];
		*a = (struct measure_answer){ MS_ANSWERED, (enum outcome_stage)r.stage, (long)r.ret, r.err, r.signal, "" };
		snprintf(a->setup, sizeof(a->setup), "%.159s", r.text);
	}
	return 1;
}

/* Interrupted: each worker powers its guest off (it sees the signal too), else is killed. */
static void stop_workers(struct worker *w, size_t n)
{
	uint64_t deadline = now_ms() + STOP_GRACE_MS;
	for (size_t i = 0; i < n; i++)
		if (w[i].fd >= 0)
			kill(w[i].pid, SIGINT);
	for (size_t i = 0; i < n; i++) {
		if (w[i].fd < 0)
			continue;
		while (waitpid(w[i].pid, NULL, WNOHANG) == 0 && now_ms() < deadline)
			usleep(10000);
		kill(w[i].pid, SIGKILL);
		while (waitpid(w[i].pid, NULL, 0) < 0 && errno == EINTR)
			;
		close(w[i].fd);
		w[i].fd = -1;
	}
}

/* What a worker reads of a plan's catalogue entry, on the heap: the catalogue lives in an
 * arena that forked children do not get (util.h, MADV_DONTFORK), so a worker's plans point
 * at these copies, as the agent's own plans do (kernel/vmagent.h). */
struct entry_copy {
	struct syscall sc;
	struct sarg args[6];
	char name[64];
};

static struct entry_copy *copy_entries(struct call_plan *plans, const bool *ok, size_t n, const struct syscall **orig)
{
	struct entry_copy *c = xcalloc(n ? n : 1, sizeof(*c));
	for (size_t i = 0; i < n; i++) {
		const struct syscall *sc = plans[i].req.sc;
		orig[i] = sc;
		if (!ok[i])
			continue;
		snprintf(c[i].name, sizeof(c[i].name), "%s", sc->name);
		c[i].sc.name = c[i].name;
		c[i].sc.nargs = sc->nargs < 6 ? sc->nargs : 6;
		c[i].sc.args = c[i].args;
		c[i].sc.size_where = sc->size_where;
		c[i].sc.safety = sc->safety;
		for (size_t a = 0; a < c[i].sc.nargs; a++) {
			c[i].args[a].name = "";
			c[i].args[a].role = sc->args[a].role;
		}
		plans[i].req.sc = &c[i].sc;
	}
	return c;
}

/* The real kernels' workers, `parallel` at a time, until every one has ended. */
static int run_workers(struct measure_target *t, size_t nt, struct call_plan *plans, const bool *ok, size_t n,
		       unsigned parallel, struct measure_answer *ans)
{
	struct worker *w = xcalloc(nt, sizeof(*w));
	struct pollfd *pfd = xcalloc(nt, sizeof(*pfd));
	size_t started = 0, running = 0;
	int r = 0;
	uint64_t *t0 = xcalloc(nt, sizeof(*t0));
	for (size_t i = 0; i < nt; i++)
		w[i].fd = -1;
	for (;;) {
		while (running < parallel && started < nt) {
			size_t i = started++;
			if (!t[i].k)
				continue;
			t0[i] = now_ms();
			if (start_worker(&w[i], i, t[i].k, plans, ok, n) < 0) {
				r = -1;
				break;
			}
			running++;
		}
		if (!running || r)
			break;
		size_t np = 0;
		for (size_t i = 0; i < nt; i++)
			if (w[i].fd >= 0)
				pfd[np++] = (struct pollfd){ w[i].fd, POLLIN, 0 };
		if (sig_poll(pfd, np, -1) < 0) {
			if (errno == EINTR)
				continue;
			r = sig_interrupt_err();
			break;
		}
		for (size_t i = 0; i < nt; i++) {
			bool ready = false;
			for (size_t k = 0; k < np && !ready; k++)
				ready = pfd[k].fd == w[i].fd && pfd[k].revents;
			if (ready && !take_record(&w[i], &t[i], ans, nt, n)) {
				t[i].elapsed_ms = now_ms() - t0[i];
				running--;
			}
		}
	}
	stop_workers(w, nt);
	free(w);
	free(pfd);
	free(t0);
	return r;
}

/* The running kernel's answers, in xsc's own process. */
static int run_here(struct measure_target *t, size_t ti, size_t nt, struct call_plan *plans, const bool *ok, size_t n,
		    struct measure_answer *ans)
{
	uint64_t t0 = now_ms();
	t[ti].kv = running_kernel();
	snprintf(t[ti].how, sizeof(t[ti].how), "the running kernel");
	for (size_t i = 0; i < n; i++) {
		struct outcome o;
		if (!ok[i])
			continue;
		if (sig_interrupted())
			return sig_interrupt_err();
		if (invoke_run(&plans[i], &o) < 0) {
			t[ti].failed = xstrdup("a call could not be made");
			return -1;
		}
		ans[i * nt + ti] = (struct measure_answer){ MS_ANSWERED, o.stage, o.ret, o.err, o.signal, "" };
		snprintf(ans[i * nt + ti].setup, sizeof(ans[i * nt + ti].setup), "%s", o.setup_error.buf);
		outcome_release(&o);
	}
	t[ti].elapsed_ms = now_ms() - t0;
	return 0;
}

int measure_run(const struct catalog *cat, const struct measure_call *calls, size_t ncalls, struct measure_target *t,
		size_t nt, unsigned parallel, unsigned timeout_ms, struct measure_answer *ans, char **refused)
{
	struct call_plan *plans = xcalloc(ncalls ? ncalls : 1, sizeof(*plans));
	bool *ok = xcalloc(ncalls ? ncalls : 1, sizeof(*ok));
	struct sbuf msg = SBUF_INIT;
	int r = 0;
	for (size_t i = 0; i < ncalls; i++) {
		refused[i] = NULL;
		for (size_t k = 0; k < nt; k++)
			ans[i * nt + k] = (struct measure_answer){ .status = MS_NO_ANSWER };
		/* a refusal is an answer of this row, not an error of the run */
		diag_set_sink(keep_message, &msg);
		ok[i] = invoke_plan(cat, calls[i].sc, calls[i].b, NULL, calls[i].nover, calls[i].over, 0, timeout_ms,
				    &plans[i]) == 0;
		diag_set_sink(NULL, NULL);
		if (!ok[i]) {
			refused[i] = xstrdup(msg.len ? msg.buf : "it cannot be made here");
			for (size_t k = 0; k < nt; k++)
				ans[i * nt + k].status = MS_NOT_RUN;
		}
	}
	for (size_t k = 0; k < nt && !r; k++)
		if (!t[k].k)
			r = run_here(t, k, nt, plans, ok, ncalls, ans);
	if (!r) {
		const struct syscall **orig = xcalloc(ncalls ? ncalls : 1, sizeof(*orig));
		struct entry_copy *copies = copy_entries(plans, ok, ncalls, orig);
		r = run_workers(t, nt, plans, ok, ncalls, parallel ? parallel : 1, ans);
		for (size_t i = 0; i < ncalls; i++)
			plans[i].req.sc = orig[i];
		free(copies);
		free(orig);
	}
	for (size_t i = 0; i < ncalls; i++)
		invoke_plan_release(&plans[i]);
	free(plans);
	free(ok);
	sbuf_release(&msg);
	return r;
}

void measure_target_release(struct measure_target *t)
{
	FREE_AND_NULL(t->failed);
}
