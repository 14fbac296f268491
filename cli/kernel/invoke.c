#include "kernel/invoke.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/rseq.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/io_uring.h>
#include <linux/userfaultfd.h>
#include "base/diag.h"
#include "base/sig.h"
#include "base/landlock.h"
#include "kernel/sandbox.h"
#include "kernel/systable.h"
#include "kernel/trust.h"
#include "kernel/vm.h"
#include "model/value.h"
#include "model/xlat.h"
#include "base/banned.h"

#define STACK_LEN (64 * 1024)

static long arch_nr(const struct syscall *sc)
{
#if defined(__x86_64__)
	return sc->is_ioctl ? SYS_ioctl : sc->nr_x86_64;
#elif defined(__aarch64__)
	return sc->is_ioctl ? SYS_ioctl : sc->nr_aarch64;
#else
	(void)sc;
	return -1;
#endif
}

bool invoke_supported(const struct syscall *sc, const char **why)
{
	const struct sysent *se = systable_find(sc->name);
#if defined(__wasm__)
	/* the browser's build (make wasm): no kernel to call, whatever the syscall */
	(void)se;
	*why = "live calls need the native program (this is xsc built for WebAssembly); 'target sim VERSION' answers it";
	return false;
#endif
	if (sc->designed) {
		*why = "it is a designed syscall that no kernel has";
		return false;
	}
	if (se && (se->how & SH_FORKS)) {
		*why = "it would run a second copy of xsc; call clone3, whose child xsc makes exit at once";
		return false;
	}
	if (arch_nr(sc) < 0) {
		*why = "it does not exist on this architecture";
		return false;
	}
	if (!systable_find(sc->name) && sc->simulation_only) {
		*why = sc->simulation_only;
		return false;
	}
	if (!systable_find(sc->name)) {
		*why = "this build of xsc does not know its syscall number";
		return false;
	}
	return true;
}

void *invoke_map_guarded(size_t len, size_t *map_len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t body = (len + page - 1) / page * page;
	if (!body)
		body = page;
	unsigned char *p = mmap(NULL, body + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		die("out of memory (call buffer)");
	mprotect(p + body, page, PROT_NONE);
	*map_len = body + page;
	return p;
}

/* Nothing outside the sandbox changes unless asked: with --unsafe the checks that would
 * have refused are kept, to be shown with the call. */
static int plan_trust(struct call_plan *plan, const struct sysent *se, bool unsafe)
{
	struct sbuf why = SBUF_INIT;
	size_t n = trust_args(plan, se, &why);
	if (n && !unsafe) {
		/* one line per argument, as one message: "A; and B" */
		struct sbuf msg = SBUF_INIT;
		for (const char *p = why.buf; *p;) {
			size_t len = strcspn(p, "\n");
			sbuf_addf(&msg, "%s%.*s", p == why.buf ? "" : "; and ", (int)len, p);
			p += len + (p[len] == '\n');
		}
		err("refusing: %s; %s", msg.buf, plan->probe ? "a probe never runs it" : "--unsafe allows it");
		sbuf_release(&msg);
		sbuf_release(&why);
		return -1;
	}
	plan->unsafe = unsafe;
	sbuf_release(&plan->lifted);
	plan->lifted = why;
	return 0;
}

/* clone3 with CLONE_VM and no stack: the child would run on xsc's own stack. Which fields
 * say so is the build's (systable's guard). */
static void supply_stack(struct call_plan *plan, const struct sysguard *g)
{
	const struct sysbits *when = &g->stack_when, *stack = &g->stack, *len = &g->stack_size;
	unsigned char *buf = plan->req.buf;
	if (!buf || plan->req.buflen < (size_t)len->off + len->size ||
	    !sysbits_get(when, plan->req.args, buf, plan->req.buflen) || sysbits_get(stack, plan->req.args, buf, plan->req.buflen))
		return;
	plan->stack_len = STACK_LEN;
	plan->stack = mmap(NULL, STACK_LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (plan->stack == MAP_FAILED)
		die("out of memory (stack)");
	le_store(buf + stack->off, stack->size, (uint64_t)(uintptr_t)plan->stack);
	le_store(buf + len->off, len->size, STACK_LEN);
	request_note_supplied(&plan->req, stack->off);
	request_note_supplied(&plan->req, len->off);
	/* the flag by its catalogue name (CLONE_VM), as the call line shows it */
	const struct field *f = plan->req.sc->st ? cstruct_find_field(plan->req.sc->st, when->name) : NULL;
	xlat_flags(&plan->notes, f ? f->flagset : NULL, when->mask);
	sbuf_addf(&plan->notes, " without a stack: xsc supplied a %u KiB stack", STACK_LEN / 1024);
}

/* The live call's memory: guarded pages (invoke_map_guarded). */
static void unmap_guarded(void *p, size_t map_len)
{
	munmap(p, map_len);
}

const struct request_memory invoke_guarded = { invoke_map_guarded, unmap_guarded };

int invoke_plan(const struct catalog *cat, const struct syscall *sc, const struct structbuf *sb,
		const struct buffer_lookup *bufs, int nover, char **over, unsigned flags, unsigned timeout_ms,
		struct call_plan *plan)
{
	const char *why;
	const struct sysent *se = NULL;
	memset(plan, 0, sizeof(*plan));
	sbuf_init(&plan->notes);
	sbuf_init(&plan->lifted);
	plan->req.sc = sc;
	plan->req.buf_arg = plan->req.extra_arg = plan->prep_arg = -1;
	plan->timeout_ms = timeout_ms;
	plan->live = true;
	plan->probe = flags & PLAN_PROBE;
	bool live = !(flags & PLAN_SIM);
	if (live && !invoke_supported(sc, &why))
		return err("cannot call %s live: %s", sc->name, why);
	if (live && trust_interface(sc, &se) < 0)
		return -1;
	/* the build's row, for every live call; a simulated one reads it too where it has one */
	const struct sysent *row = se ? se : systable_find(sc->name);
	plan->nr = se ? se->nr : arch_nr(sc);
	plan->prep = row ? row->prep : PREP_NONE;
	plan->safety = se ? se->safety : sc->safety;
	plan->ns = plan->safety == SAFE_NAMESPACE;
	plan->clone3 = row && (row->how & SH_CLONE3);
	plan->rseq_unregister = row && (row->how & SH_RSEQ_RELEASE);
	/* a simulated call reads nothing past its buffers: the heap, not guarded pages (an mmap,
	 * mprotect and munmap with fresh page faults were two thirds of a simulated call) */
	if (request_build(cat, sc, sb, bufs, nover, over, live ? &invoke_guarded : &request_heap, &plan->req) < 0)
		return -1;
	/* the prepared descriptor goes where the catalogue names none and no override does */
	for (int i = 0; i < plan->req.nargs && plan->prep != PREP_NONE; i++)
		if (sc->args[i].role == AR_FD && !sc->args[i].def && !(plan->req.overridden & 1u << i))
			plan->prep_arg = i;
	if (se && plan_trust(plan, se, flags & PLAN_UNSAFE) < 0)
		return -1;
	if (row && row->guard && row->guard->stack.name)
		supply_stack(plan, row->guard);
	plan->raw_addresses = trust_raw_addresses(plan);
	return 0;
}

void invoke_plan_release(struct call_plan *plan)
{
	request_release(&plan->req);
	if (plan->stack)
		munmap(plan->stack, plan->stack_len);
	sbuf_release(&plan->notes);
	sbuf_release(&plan->lifted);
	memset(plan, 0, sizeof(*plan));
}

/* clone3 whose child exits at once, touching neither memory nor the stack, so it is safe
 * with CLONE_VM, CLONE_VFORK or a bogus stack. Returns -errno on failure. */
static long raw_clone3(void *args, uint64_t size)
{
#if defined(__x86_64__)
	long ret;
	__asm__ volatile("syscall\n\t"
			 "test %%rax, %%rax\n\t"
			 "jnz 1f\n\t"
			 "mov $60, %%eax\n\t" /* exit(0): this thread only */
			 "xor %%edi, %%edi\n\t"
			 "syscall\n"
			 "1:"
			 : "=a"(ret)
			 : "0"((long)SYS_clone3), "D"(args), "S"(size)
			 : "rcx", "r11", "memory");
	return ret;
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = SYS_clone3;
	register long x0 __asm__("x0") = (long)args;
	register long x1 __asm__("x1") = (long)size;
	__asm__ volatile("svc #0\n\t"
			 "cbnz x0, 1f\n\t"
			 "mov x8, #93\n\t"
			 "mov x0, #0\n\t"
			 "svc #0\n"
			 "1:"
			 : "+r"(x0)
			 : "r"(x8), "r"(x1)
			 : "memory");
	return x0;
#else
	(void)args;
	(void)size;
	return -ENOSYS;
#endif
}

struct record {
	int32_t stage, err;  /* OS_SIGNALED (clone3's caller killed): err is the signal, ret the pid it made */
	int64_t ret;
	int64_t prep_fd;     /* the descriptor the child prepared, or -1 */
	uint32_t size_cell;  /* the size pointer's target after the call */
	char step[64];
};

static void write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		c += w;
		n -= (size_t)w;
	}
}

static void set_step(struct record *rec, const char *step)
{
	size_t n = strlen(step);
	if (n >= sizeof(rec->step))
		n = sizeof(rec->step) - 1;
	memcpy(rec->step, step, n);
	rec->step[n] = '\0';
}

long invoke_prep(enum prep_kind k, int *err)
{
	long fd = -1;
	if (k == PREP_PIDFD) {
		fd = syscall(SYS_pidfd_open, getpid(), 0);
	} else if (k == PREP_UFFD) {
		fd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
		if (fd < 0 && errno == EPERM)
			fd = syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY);
	} else if (k == PREP_IOURING) {
		struct io_uring_params params;
		memset(&params, 0, sizeof(params));
		fd = syscall(SYS_io_uring_setup, 1, &params);
	} else if (k == PREP_DIR) {
		fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC); /* the sandbox itself */
	} else if (k == PREP_MAPS) {
		fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC); /* the child's own mappings */
	} else if (k == PREP_MNTNS) {
		fd = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC); /* the child's own mount namespace */
	}
	*err = fd < 0 ? errno : 0;
	return fd;
}

const char *invoke_prep_name(enum prep_kind k)
{
	static const char *const names[] = { "", "pidfd_open(getpid())", "userfaultfd()", "io_uring_setup(1)", "open(\"sandbox\")",
					      "open(\"/proc/self/maps\")", "open(\"/proc/self/ns/mnt\")" };
	return names[k];
}

long invoke_raw(const struct call_plan *plan, const uint64_t a[6], int *err)
{
	if (plan->clone3) {
		long r = raw_clone3((void *)(uintptr_t)a[0], a[1]);
		*err = r < 0 ? (int)-r : 0;
		if (r > 0)
			waitpid((pid_t)r, NULL, __WALL);
		return r < 0 ? -1 : r;
	}
	errno = 0;
	long r = syscall(plan->nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	*err = r == -1 ? errno : 0;
	return r;
}

int invoke_rseq_release(void)
{
	if (!__rseq_size)
		return 0;
	/* glibc registered rseq for this thread; take it back so a call can register */
	if (syscall(SYS_rseq, (char *)__builtin_thread_pointer() + __rseq_offset, __rseq_size < 32 ? 32 : __rseq_size,
		    1, RSEQ_SIG) < 0)
		return errno;
	return 0;
}

/* A report that fits is written once: the process waiting for it wakes once, not once a
 * piece. Measured in a 6.1 guest under TCG (500 calls, paired runs): 7-28% less CPU for
 * qemu and xsc, as each wake-up there is two context switches and a flush of qemu's TLB. */
#define REPORT_ONE_WRITE 2048

/* The report's bytes: the record, the struct, the output argument, the pointed-at buffers. */
static size_t report_size(const struct call_plan *plan)
{
	size_t total = sizeof(struct record) + plan->req.buflen + plan->req.extra_len;
	for (size_t i = 0; i < plan->req.ncopies; i++)
		total += plan->req.copy_len[i];
	return total;
}

static void send_report(const struct call_plan *plan, int wr, struct record *rec)
{
	rec->size_cell = plan->req.size_cell;
	if (report_size(plan) <= REPORT_ONE_WRITE) { /* on the child's stack: no heap page to copy */
		unsigned char one[REPORT_ONE_WRITE], *p = one;
		memcpy(p, rec, sizeof(*rec));
		p += sizeof(*rec);
		if (plan->req.buf)
			p = (unsigned char *)memcpy(p, plan->req.buf, plan->req.buflen) + plan->req.buflen;
		if (plan->req.extra)
			p = (unsigned char *)memcpy(p, plan->req.extra, plan->req.extra_len) + plan->req.extra_len;
		for (size_t i = 0; i < plan->req.ncopies; i++)
			p = (unsigned char *)memcpy(p, plan->req.copies[i], plan->req.copy_len[i]) + plan->req.copy_len[i];
		write_all(wr, one, (size_t)(p - one));
		return;
	}
	write_all(wr, rec, sizeof(*rec));
	if (plan->req.buf)
		write_all(wr, plan->req.buf, plan->req.buflen);
	if (plan->req.extra)
		write_all(wr, plan->req.extra, plan->req.extra_len);
	for (size_t i = 0; i < plan->req.ncopies; i++) /* what the kernel wrote through &NAME pointers */
		write_all(wr, plan->req.copies[i], plan->req.copy_len[i]);
}

/* What clone3's caller leaves for the process that waits for it (memory they share). */
struct caller_state {
	int reported; /* the report is written */
	long made;    /* what clone3 returned, as soon as it returned */
};

/* The prepared descriptor, the call and the report; cs, when given, is kept up to date. */
static void NORETURN call_and_report(const struct call_plan *plan, int wr, unsigned timeout_s,
				     volatile struct caller_state *cs)
{
	struct record rec = { .stage = OS_SETUP, .prep_fd = -1 };
	uint64_t a[6];
	const char *step;
	int e;
	memcpy(a, plan->req.args, sizeof(a));
	if (plan->prep != PREP_NONE) {
		long fd = invoke_prep(plan->prep, &e);
		if (fd < 0) {
			rec.err = e;
			set_step(&rec, invoke_prep_name(plan->prep));
			goto report;
		}
		if (plan->prep_arg >= 0)
			a[plan->prep_arg] = (uint64_t)fd;
		rec.prep_fd = fd;
	}
	if (plan->rseq_unregister && (e = invoke_rseq_release())) {
		rec.err = e;
		set_step(&rec, "unregister glibc's rseq");
		goto report;
	}
	alarm(timeout_s + 1);
	if ((e = sandbox_seccomp(plan->nr, plan->clone3, &step))) {
		rec.err = e;
		set_step(&rec, step);
		goto report;
	}
	rec.stage = OS_CALLED;
	if (cs) {
		/* its new process may kill this one as soon as it exits (a fatal exit_signal) */
		long r = raw_clone3((void *)(uintptr_t)a[0], a[1]);
		cs->made = r;
		e = r < 0 ? (int)-r : 0;
		if (r > 0)
			waitpid((pid_t)r, NULL, __WALL);
		rec.ret = r < 0 ? -1 : r;
	} else {
		rec.ret = invoke_raw(plan, a, &e);
	}
	rec.err = e;
report:
	send_report(plan, wr, &rec);
	if (cs)
		cs->reported = 1;
	_exit(0);
}

/* The child: async-signal-safe from here to _exit. It enters the sandbox, confines itself
 * (sandbox_confine, then Landlock unless the plan is --unsafe: --unsafe means the call may
 * change things outside the sandbox, so no Landlock domain; the descriptors, the session
 * and no_new_privs stay, as they only cut what the call inherits) and calls.
 * clone3 makes processes, so there the call runs in a child of this one, the "caller",
 * and this one is the subreaper of all it makes: a process made with CLONE_PARENT is this
 * one's child and not the host's; one whose exit_signal is fatal kills the caller when it
 * exits (the kernel sends exit_signal to the parent), and this one then reports that; and
 * every process of the call is reaped here, before the report ends. */
static void NORETURN child(const struct call_plan *plan, struct sandbox *box, int landlock_abi, int wr)
{
	struct record rec = { .stage = OS_SETUP, .prep_fd = -1 };
	const char *step;
	int e;
	unsigned timeout_s = (plan->timeout_ms + 999) / 1000;
	/* xsc's handlers would run under the sandbox's seccomp filter, which kills at their
	 * first call (getpid): a SIGHUP exit_signal must kill the caller as SIGHUP */
	sig_default();
	if ((e = sandbox_enter(box, plan->ns, timeout_s, &step)) || (e = sandbox_confine(box, &wr, &step)) ||
	    (e = sandbox_landlock(box, plan->unsafe ? 0 : landlock_abi, &step)))
		goto fail;
	if (!plan->clone3)
		call_and_report(plan, wr, timeout_s, NULL);
	step = "become the subreaper of the call's processes";
	volatile struct caller_state *cs = mmap(NULL, sizeof(*cs), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (cs == MAP_FAILED || prctl(PR_SET_CHILD_SUBREAPER, 1) < 0) {
		e = errno;
		goto fail;
	}
	pid_t self = getpid(), caller = fork();
	if (caller < 0) {
		e = errno;
		step = "fork the caller";
		goto fail;
	}
	if (caller == 0) {
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != self)
			_exit(1);
		call_and_report(plan, wr, timeout_s, cs);
	}
	int st, caller_st = 0;
	long made = 0;
	for (;;) {
		pid_t w = waitpid(-1, &st, __WALL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			break;
		if (w == caller)
			caller_st = st;
		else
			made = w; /* a process of the call's: its CLONE_PARENT child, or an orphan */
	}
	if (cs->reported)
		_exit(0);
	if (WIFSIGNALED(caller_st)) {
		rec.stage = OS_SIGNALED;
		rec.err = WTERMSIG(caller_st);
		rec.ret = cs->made > 0 ? cs->made : made;
		send_report(plan, wr, &rec);
		_exit(0);
	}
	e = ECHILD;
	step = "the caller exited without a report";
fail:
	rec.err = e;
	set_step(&rec, step);
	send_report(plan, wr, &rec);
	_exit(0);
}

static uint64_t now_us(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000 + (uint64_t)t.tv_nsec / 1000;
}

/* Reads n bytes before the deadline; returns 0, -1 on timeout or ^C, -2 on EOF or error. */
static int read_until(int fd, void *p, size_t n, uint64_t deadline)
{
	char *c = p;
	while (n) {
		uint64_t now = now_us();
		if (now >= deadline)
			return -1;
		struct pollfd pfd = { fd, POLLIN, 0 };
		int r = sig_poll(&pfd, 1, (int)((deadline - now + 999) / 1000)); /* ^C: ECANCELED */
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0 || (r < 0 && errno == ECANCELED))
			return -1; /* the deadline, or ^C: the child is killed */
		if (r < 0)
			return -2;
		ssize_t got = read(fd, c, n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return -2;
		c += got;
		n -= (size_t)got;
	}
	return 0;
}

/* Without Landlock the path checks are the only wall between a call that writes files and
 * the rest of the file system; with only them, such calls need --unsafe. */
static bool needs_landlock(const struct call_plan *plan)
{
	const struct syscall *sc = plan->req.sc;
	if (plan->unsafe || plan->safety != SAFE_SANDBOX)
		return false;
	for (size_t i = 0; i < sc->nargs; i++)
		if (sc->args[i].role == AR_PATH)
			return trust_writes_files(plan);
	return false; /* descriptors only: the child has none but its own */
}

void invoke_writeback(const struct call_plan *plan, const struct outcome *out, unsigned char *dst, size_t len)
{
	size_t n = out->len < len ? out->len : len;
	for (size_t i = 0; i < n; i++) {
		bool ours = false;
		for (size_t k = 0; k < plan->req.nsupplied && !ours; k++)
			ours = i >= plan->req.supplied[k] && i < plan->req.supplied[k] + 8 && plan->req.supplied[k] + 8 <= plan->req.buflen &&
			       !memcmp(out->after + plan->req.supplied[k], plan->req.buf + plan->req.supplied[k], 8);
		if (!ours)
			dst[i] = out->after[i];
	}
}

/* Whether the child's whole report fits in the pipe, so the child can write it and exit while
 * nobody reads: a write fills the pipe's pages and may start one more. */
static bool report_fits_pipe(const struct call_plan *plan, int rd)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), total = report_size(plan);
	size_t writes = total <= REPORT_ONE_WRITE ? 1 : 3 + plan->req.ncopies;
#ifdef F_GETPIPE_SZ
	int cap = fcntl(rd, F_GETPIPE_SZ);
	return cap > 0 && total / page + writes + 1 <= (size_t)cap / page;
#else /* a libc without Linux's pipe sizes (the WebAssembly build, which makes no live calls) */
	(void)page, (void)total, (void)writes, (void)rd;
	return false;
#endif
}

/* Waits for the child to exit before reading its report, when the report fits in the pipe:
 * the waiting process then wakes once per call, not at the report and again at the exit, and
 * each wake-up there switches address spaces twice more, which under TCG flushes qemu's TLB
 * and its translated-code lookup cache. 0: the child exited, or this cannot wait for it
 * (a kernel before 5.3 has no pidfd_open; a big report), so the report is read as it comes;
 * -1: the deadline passed, or ^C. */
static int await_exit(pid_t pid, const struct call_plan *plan, int rd, uint64_t deadline)
{
	if (!report_fits_pipe(plan, rd))
		return 0;
	int pfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pfd < 0)
		return 0;
	int r = 0;
	for (;;) {
		uint64_t now = now_us();
		struct pollfd p = { pfd, POLLIN, 0 };
		int n = now >= deadline ? 0 : sig_poll(&p, 1, (int)((deadline - now + 999) / 1000)); /* ^C: ECANCELED */
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 || (n < 0 && errno == ECANCELED))
			r = -1;
		break; /* readable: the child is a zombie; an error: read as it comes */
	}
	close(pfd);
	return r;
}

/* The outcome's buffers before the child reports: the bytes passed, and zeroed room for what
 * it writes back. */
static void outcome_prepare(struct outcome *out, const struct call_plan *plan)
{
	memcpy(out->args, plan->req.args, sizeof(out->args));
	out->size = plan->req.size;
	out->len = plan->req.buflen;
	out->before = xmalloc(plan->req.buflen ? plan->req.buflen : 1);
	if (plan->req.buf)
		memcpy(out->before, plan->req.buf, plan->req.buflen);
	out->after = xcalloc(1, plan->req.buflen ? plan->req.buflen : 1);
	out->extra_len = plan->req.extra_len;
	out->extra_arg = plan->req.extra_arg;
	out->extra = plan->req.extra_len ? xcalloc(1, plan->req.extra_len) : NULL;
}

/* The child's report, in the order it writes it: the record, the struct, the output argument,
 * the buffers fields point at. 0, or read_until's -1 (deadline, ^C) or -2 (end of file). */
static int read_report(int fd, const struct call_plan *plan, struct outcome *out, struct record *rec,
		       uint64_t deadline)
{
	int r = read_until(fd, rec, sizeof(*rec), deadline);
	if (!r && plan->req.buflen)
		r = read_until(fd, out->after, plan->req.buflen, deadline);
	if (!r && plan->req.extra_len)
		r = read_until(fd, out->extra, plan->req.extra_len, deadline);
	for (size_t i = 0; !r && i < plan->req.ncopies; i++) {
		out->pointed[i] = xmalloc(plan->req.copy_len[i]);
		out->pointed_len[i] = plan->req.copy_len[i];
		out->pointed_name[i] = plan->req.copy_name[i];
		out->npointed = i + 1;
		r = read_until(fd, out->pointed[i], plan->req.copy_len[i], deadline);
	}
	return r;
}

/* The outcome from a whole report. */
static void outcome_from_record(struct outcome *out, const struct call_plan *plan, const struct record *rec)
{
	if (rec->stage == OS_SIGNALED) {
		/* clone3's caller died of a signal: the exit_signal of the process it made */
		out->stage = OS_SIGNALED;
		out->signal = rec->err;
		out->ret = rec->ret;
		if (rec->ret > 0)
			sbuf_addf(&out->setup_error, "clone3 returned %lld, a new process; when it exited, the kernel sent its exit_signal (SIG%s) to the caller",
				  (long long)rec->ret, sigabbrev_np(rec->err) ? sigabbrev_np(rec->err) : "?");
		return;
	}
	out->stage = rec->stage;
	out->ret = rec->ret;
	out->err = rec->err;
	if (plan->prep_arg >= 0 && rec->prep_fd >= 0)
		out->args[plan->prep_arg] = (uint64_t)rec->prep_fd;
	if (plan->req.sc->size_where == SW_POINTER) {
		out->size_cell_before = plan->req.size_cell;
		out->size_cell_after = rec->size_cell;
		out->has_size_cell = true;
	}
	if (rec->stage == OS_SETUP)
		sbuf_addf(&out->setup_error, "%s: %s", rec->step, strerror(rec->err));
}

/* The outcome without a whole report: the child died, exited or ran past the deadline (r as
 * read_report answered), and the buffer holds what was passed. */
static void outcome_unreported(struct outcome *out, const struct call_plan *plan, int r, int status)
{
	if (r == -2 && WIFSIGNALED(status)) {
		out->stage = OS_SIGNALED;
		out->signal = WTERMSIG(status);
	} else if (r == -2) {
		out->stage = OS_SETUP;
		sbuf_addf(&out->setup_error, "the sandboxed child exited (status %d) without a report", WEXITSTATUS(status));
	} else {
		out->stage = OS_TIMEOUT;
	}
	if (plan->req.buf)
		memcpy(out->after, plan->req.buf, plan->req.buflen);
}

/* The sandbox and the pipe the child reports on; -1 (reported) when either cannot be made. */
static int prepare_run(const struct call_plan *plan, struct sandbox *box, int *landlock_abi, int fds[2])
{
	*landlock_abi = landlock_usable_abi();
	if (!*landlock_abi && needs_landlock(plan))
		return err("refusing: %s may write files, and this kernel has no Landlock to keep the writes inside the sandbox; add --unsafe to run it anyway",
			   plan->req.sc->name);
	unsigned needs = plan->ns ? SB_MNT : 0;
	for (int i = 0; i < 6; i++)
		needs |= sandbox_needs(plan->req.strings[i]);
	if (sandbox_create(box, needs) < 0)
		return -1;
	if (pipe2(fds, O_CLOEXEC) < 0) {
		sandbox_destroy(box);
		return err("cannot make a pipe: %s", strerror(errno));
	}
	return 0;
}

int invoke_run_leaving(const struct call_plan *plan, struct outcome *out, struct sandbox *left)
{
	struct sandbox box = { NULL, -1 };
	int fds[2] = { -1, -1 }, landlock_abi = 0;
	*left = box;
	outcome_init(out);
	if (plan->req.sc->designed)
		return err("%s is a designed syscall that no kernel has; 'target sim VERSION' answers it", plan->req.sc->name);
	if (sig_interrupted()) /* explain's follow-up calls, a demo's next call: not after ^C */
		return sig_interrupt_err();
	if (plan->guest) /* a real kernel in qemu: the same steps, run by the agent there */
		return vm_run(plan->guest, plan, out);
	if (prepare_run(plan, &box, &landlock_abi, fds) < 0)
		return -1;
	fflush(NULL);
	uint64_t t0 = now_us();
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(fds[0]);
		close(fds[1]);
		sandbox_destroy(&box);
		return err("cannot fork: %s", strerror(e));
	}
	if (pid == 0)
		child(plan, &box, landlock_abi, fds[1]);
	close(fds[1]);
	struct record rec;
	outcome_prepare(out, plan);
	uint64_t deadline = t0 + (uint64_t)plan->timeout_ms * 1000;
	int r = await_exit(pid, plan, fds[0], deadline);
	if (!r)
		r = read_report(fds[0], plan, out, &rec, deadline);
	out->elapsed_us = now_us() - t0; /* the fork to the report, or to the exit when waited for */
	int status = 0;
	if (r == -1) /* the deadline passed, or ^C: a SIGKILL below is ours, not the call's */
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	close(fds[0]);
	if (r == 0)
		outcome_from_record(out, plan, &rec);
	else
		outcome_unreported(out, plan, r, status);
	*left = box; /* the child and every process of the call are gone: nothing writes there now */
	if (sig_interrupted()) /* the child is gone: no outcome to show */
		outcome_release(out);
	return sig_interrupted() ? sig_interrupt_err() : 0;
}

int invoke_run(const struct call_plan *plan, struct outcome *out)
{
	struct sandbox left = { NULL, -1 };
	int r = invoke_run_leaving(plan, out, &left);
	sandbox_destroy(&left);
	return r;
}
