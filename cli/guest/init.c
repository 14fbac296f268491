/* The agent: /init of a 'target vm' guest. It mounts what calls need, greets xsc over the
 * first serial port and then runs each call it is sent with xsc's own call runner
 * (kernel/vmagent.h, kernel/invoke.h): the same sandbox, confinement and report as a live
 * call on the host. It powers the guest off when xsc says so, when the line breaks or
 * carries something that is not a frame, and after xsc.idle seconds without a call. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>
#include "kernel/features.h"
#include "kernel/probe.h"
#include "base/landlock.h"
#include "kernel/sandbox.h"
#include "kernel/vmagent.h"
#include "kernel/vmwire.h"
#include "model/dataload.h"
#include "base/banned.h"

static void NORETURN power_off(void)
{
	sync();
	reboot(RB_POWER_OFF);
	_exit(1);
}

/* proc, sys, dev, a tmpfs for the sandboxes and the cgroup2 hierarchy (CLONE_INTO_CGROUP). */
static void mount_all(void)
{
	static const struct { const char *src, *dir, *type; } m[] = {
		{ "proc", "/proc", "proc" }, { "sysfs", "/sys", "sysfs" }, { "devtmpfs", "/dev", "devtmpfs" },
		{ "tmpfs", "/tmp", "tmpfs" }, { "cgroup2", "/sys/fs/cgroup", "cgroup2" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(m); i++) {
		mkdir(m[i].dir, 0755);
		mount(m[i].src, m[i].dir, m[i].type, 0, NULL);
	}
	setenv("TMPDIR", "/tmp", 1);
	setenv("XSC_NO_CACHE", "1", 1); /* a probe's catalogue is parsed, never cached */
	setenv("PATH", "/", 1);
}

/* xsc.idle=N from the kernel's command line (seconds), else ten minutes. */
static int idle_ms(void)
{
	char *cmdline;
	size_t len;
	int s = 600;
	if (read_file_max("/proc/cmdline", 4096, &cmdline, &len) == 0) {
		const char *p = strstr(cmdline, "xsc.idle=");
		if (p && atoi(p + 9) > 0)
			s = atoi(p + 9);
		free(cmdline);
	}
	return s * 1000;
}

static int open_line(void)
{
	int fd = open("/dev/ttyS0", O_RDWR | O_NOCTTY | O_CLOEXEC);
	struct termios t;
	if (fd < 0 || tcgetattr(fd, &t) < 0)
		return -1;
	cfmakeraw(&t);
	cfsetspeed(&t, B115200);
	tcsetattr(fd, TCSANOW, &t);
	return fd;
}

/* The memory xsc shares with the guest: BAR 2 of qemu's ivshmem device (PCI 1af4:1110),
 * mapped through sysfs, so no driver is needed; NULL when there is none. */
static volatile unsigned char *find_shm(void)
{
	DIR *d = opendir("/sys/bus/pci/devices");
	struct dirent *e;
	void *p = MAP_FAILED;
	while (d && p == MAP_FAILED && (e = readdir(d))) {
		char path[300], *id = NULL;
		size_t len;
		bool match = false;
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/vendor", e->d_name);
		if (e->d_name[0] == '.' || read_file_max(path, 64, &id, &len) < 0)
			continue;
		match = !strncmp(id, "0x1af4", 6);
		free(id);
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/device", e->d_name);
		if (!match || read_file_max(path, 64, &id, &len) < 0)
			continue;
		match = !strncmp(id, "0x1110", 6);
		free(id);
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/resource2", e->d_name);
		int fd = match ? open(path, O_RDWR | O_SYNC | O_CLOEXEC) : -1;
		if (fd >= 0) {
			p = mmap(NULL, VW_SHM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
			close(fd);
			/* a device's pages are copied into every fork's page tables (they cannot be
			 * faulted in later), and each call's sandboxed child needs none of them */
			if (p != MAP_FAILED)
				madvise(p, VW_SHM_SIZE, MADV_DONTFORK);
		}
	}
	if (d)
		closedir(d);
	return p == MAP_FAILED ? NULL : p;
}

static int read_exact(int fd, void *p, size_t n, int timeout_ms)
{
	unsigned char *c = p;
	while (n) {
		struct pollfd pfd = { fd, POLLIN, 0 };
		int r = poll(&pfd, 1, timeout_ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		ssize_t got = read(fd, c, n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return -1;
		c += got;
		n -= (size_t)got;
	}
	return 0;
}

static void write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			power_off();
		c += w;
		n -= (size_t)w;
	}
}

static volatile unsigned char *shm;

/* A frame to xsc: in its half of the shared memory with a doorbell on the line, or whole on
 * the line (the greeting, and everything when there is no shared memory). */
static void send_frame(int fd, enum vw_type type, const struct sbuf *payload)
{
	static const unsigned char bell = VW_DOORBELL;
	struct sbuf frame = SBUF_INIT;
	vw_frame(&frame, type, payload);
	if (shm && type != VW_HELLO && frame.len <= VW_SHM_HALF) {
		for (size_t i = 0; i < frame.len; i++)
			shm[VW_SHM_HALF + i] = (unsigned char)frame.buf[i];
		write_all(fd, &bell, 1);
	} else {
		write_all(fd, frame.buf, frame.len);
	}
	sbuf_release(&frame);
}

/* The next frame from xsc: 0 with its type and payload (heap), or -1 (idle, or not a frame). */
static int next_frame(int fd, int idle, enum vw_type *type, unsigned char **p, uint32_t *len)
{
	unsigned char h[VW_HEADER];
	if (shm)
		return read_exact(fd, h, 1, idle) < 0 || h[0] != VW_DOORBELL ? -1 : vw_shm_take(shm, type, p, len);
	if (read_exact(fd, h, sizeof(h), idle) < 0 || vw_header(h, type, len) < 0)
		return -1;
	*p = xmalloc(*len ? *len : 1);
	if (read_exact(fd, *p, *len, 10000) == 0)
		return 0;
	FREE_AND_NULL(*p);
	return -1;
}

static void hello(int fd)
{
	struct utsname u;
	struct sbuf p = SBUF_INIT;
	uname(&u);
	struct vw_hello h = { { (unsigned char *)u.release, (uint32_t)strlen(u.release) + 1 },
			      { (unsigned char *)u.version, (uint32_t)strlen(u.version) + 1 },
			      (uint32_t)landlock_usable_abi(), shm != NULL };
	vw_encode_hello(&h, &p);
	send_frame(fd, VW_HELLO, &p);
	sbuf_release(&p);
}

/* The guest kernel's BPF JIT, as it booted ("1\n"), and what it is now: the kernel compiles the
 * seccomp filter each call's child installs (kernel/sandbox.c) to machine code, and under TCG
 * that compile and the freeing of its code at exit (text pokes, qemu retranslating the page)
 * cost more than the call: in two paired runs of 500 calls in a 6.1 guest, qemu and xsc used
 * 9% and 31% less CPU past the boot with the JIT off. The interpreter runs the same filter to the same verdicts; what the JIT
 * setting can change is an eBPF program's load and what bpf() reports of it (jited_prog_len,
 * programs that need the JIT), and only a privileged call loads one (bpf is the build's one
 * privileged call that does, kernel/systable.c). So a privileged call runs with the JIT as the
 * kernel set it, every other call without it; the file is written only when that changes. */
static char jit_booted[8];
static bool jit_off;

static void bpf_jit_read(void)
{
	char *text;
	size_t len;
	if (read_file_max("/proc/sys/net/core/bpf_jit_enable", sizeof(jit_booted) - 1, &text, &len) < 0)
		return; /* no JIT in this kernel: nothing to choose */
	memcpy(jit_booted, text, len);
	free(text);
}

static void bpf_jit_for(enum safety s)
{
	bool off = s != SAFE_PRIVILEGED;
	if (!jit_booted[0] || off == jit_off || !strcmp(jit_booted, "0\n"))
		return;
	int fd = open("/proc/sys/net/core/bpf_jit_enable", O_WRONLY | O_CLOEXEC);
	const char *v = off ? "0\n" : jit_booted;
	if (fd >= 0 && write(fd, v, strlen(v)) == (ssize_t)strlen(v))
		jit_off = off; /* else (a kernel whose JIT is always on) it stays as it is */
	if (fd >= 0)
		close(fd);
}

/* As PID 1 the agent inherits every orphan: a process a call made as its sibling (clone3 with
 * CLONE_PARENT) whose call was killed at the deadline is one. It is dead by now (the call's
 * processes are killed with it), so reaping after each frame keeps zombies from piling up in a guest
 * that lives for many calls. No other child of the agent is alive between calls. */
static void reap_orphans(void)
{
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

/* One call: planned, run, answered. A call that cannot be planned is answered as not run. */
static void serve(int fd, const unsigned char *payload, uint32_t len)
{
	struct vw_call c;
	struct vm_agent_call a;
	struct outcome o;
	struct vw_result r;
	struct sbuf why = SBUF_INIT, out = SBUF_INIT;
	struct sandbox left = { NULL, -1 };
	bool ran = false;
	outcome_init(&o);
	memset(&r, 0, sizeof(r));
	if (vw_decode_call(payload, len, &c) < 0) {
		sbuf_adds(&why, "the agent could not read the call");
		memset(&a, 0, sizeof(a));
	} else if (vm_agent_plan(&a, &c, &why) == 0) {
		bpf_jit_for(a.plan.safety);
		ran = invoke_run_leaving(&a.plan, &o, &left) == 0;
		if (!ran)
			sbuf_adds(&why, "the agent could not run the call");
	}
	if (ran) {
		vm_agent_result(&a, &o, &r);
	} else {
		r.stage = OS_SETUP;
		r.prep_value = -1;
		r.setup_error = (struct vw_bytes){ (unsigned char *)why.buf, (uint32_t)why.len + 1 };
	}
	vw_encode_result(&r, &out);
	send_frame(fd, VW_RESULT, &out);
	/* after the answer, so xsc prints it while the directory goes, and before the next
	 * frame is read, so the next call's child never sees this one's files */
	sandbox_destroy(&left);
	sbuf_release(&out);
	sbuf_release(&why);
	outcome_release(&o);
	vm_agent_release(&a);
}

/* 'probe --kernel': the catalogue xsc sent, written to a scratch directory and loaded, then
 * the prober over all of it; the answers go back as text (empty when it could not run). */
static void probe(int fd, const unsigned char *payload, uint32_t len)
{
	struct vw_files f;
	struct sbuf out = SBUF_INIT;
	char dir[] = "/tmp/catalogue.XXXXXX";
	bpf_jit_for(SAFE_PRIVILEGED); /* the prober calls bpf too: the kernel's own setting */
	if (vw_decode_files(payload, len, &f) == 0 && mkdtemp(dir)) {
		for (uint32_t i = 0; i < f.n; i++) {
			struct sbuf p = SBUF_INIT;
			sbuf_addf(&p, "%s/%s", dir, f.name[i]);
			write_file_scratch(p.buf, f.data[i].p, f.data[i].len);
			sbuf_release(&p);
		}
		struct catalog *cat = catalog_load(dir);
		struct probe_run run;
		if (cat && probe_run(cat, NULL, 0, 2000, &run) == 0) {
			char *text = features_answers_text(&run);
			sbuf_adds(&out, text);
			free(text);
			probe_run_release(&run);
		}
		catalog_free(cat);
		remove_tree(dir);
		vw_files_release(&f);
	}
	send_frame(fd, VW_PROBED, &out);
	sbuf_release(&out);
}

/* Each call's child would otherwise fault in, a page at a time under TCG, the agent's code it
 * runs: fork copies the page-table entries of a mapping only when the mapping has anonymous
 * pages (an anon_vma, mm/memory.c vma_needs_copy), which the read-only mappings of /init
 * (its code, its constants) do not. Writing one of their bytes back to itself, between two
 * mprotect calls, gives each mapping an anon_vma (and one private copy of that page), and
 * reading a byte of every page maps the rest; from then on every fork copies those entries
 * and the child takes no fault on them. */
static void text_into_forks(void)
{
	FILE *maps = fopen("/proc/self/maps", "re");
	char line[512];
	long page = sysconf(_SC_PAGESIZE);
	while (maps && fgets(line, sizeof(line), maps)) {
		unsigned long lo, hi;
		char perms[5];
		if (sscanf(line, "%lx-%lx %4s", &lo, &hi, perms) != 3 || perms[1] == 'w' || perms[3] != 'p' ||
		    !strstr(line, " /init"))
			continue;
		int prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[2] == 'x' ? PROT_EXEC : 0);
		volatile unsigned char *p = (volatile unsigned char *)lo;
		if (mprotect((void *)lo, hi - lo, prot | PROT_WRITE) < 0)
			continue;
		unsigned char first = p[0];
		p[0] = first;
		if (mprotect((void *)lo, hi - lo, prot) < 0)
			power_off(); /* never serve a call with the agent's code writable */
		for (unsigned long a = lo; a < hi; a += (unsigned long)page)
			(void)*(volatile unsigned char *)a;
	}
	if (maps)
		fclose(maps);
}

int main(void)
{
	mount_all();
	text_into_forks();
	int fd = open_line(), idle = idle_ms();
	if (fd < 0)
		power_off();
	shm = find_shm();
	bpf_jit_read();
	hello(fd);
	for (;;) {
		enum vw_type type;
		unsigned char *p;
		uint32_t len;
		/* idle, xsc's QUIT, a broken line or a stray byte: nothing to resync on */
		if (next_frame(fd, idle, &type, &p, &len) < 0)
			power_off();
		if (type == VW_CALL)
			serve(fd, p, len);
		else if (type == VW_PROBE)
			probe(fd, p, len);
		else
			power_off();
		free(p);
		reap_orphans();
	}
}
