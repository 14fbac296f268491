#include "kernel/vm.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/kvm.h>
#include "base/diag.h"
#include "base/embed.h"
#include "base/proc.h"
#include "base/sig.h"
#include "base/util.h"
#include "kernel/features.h"
#include "kernel/invoke.h"
#include "kernel/kimage.h"
#include "kernel/vmwire.h"
#include "model/kver.h"
#include "base/banned.h"

#define BOOT_TIMEOUT_MS 60000  /* TCG on a busy machine: ten times the slowest boot measured */
#define CALL_SLACK_MS 10000    /* beyond the call's own timeout: the agent's fork and report */
#define IDLE_S 600             /* the agent powers off after this long without a call */
#define NOISE_MAX 65536        /* bytes before the first frame (firmware) xsc skips */

struct vm_guest {
	pid_t pid;
	int to, from;          /* qemu's standard input and output: the guest's first serial port */
	char *dir;             /* scratch while booting: the vmlinux qemu loads, the console log; then NULL */
	unsigned char *shm;    /* the memory shared with the guest (VW_SHM_SIZE), or NULL */
	bool use_shm;          /* the agent found it: frames go there (kernel/vmwire.h) */
	char target[96], how[400];
	char release[65];        /* the guest's uname -r */
	uint32_t kv;
	bool dead;
};

static uint64_t now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

/* What the host offers: the KVM modules, then /dev/kvm asked as qemu would ask it. */
void vm_kvm_probe(struct vm_kvm_host *h)
{
	memset(h, 0, sizeof(*h));
	h->api = -1;
	h->module = access("/sys/module/kvm_intel", F_OK) == 0 || access("/sys/module/kvm_amd", F_OK) == 0;
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		h->open_errno = errno;
		return;
	}
	h->api = ioctl(fd, KVM_GET_API_VERSION, 0);
	int vm = h->api == KVM_API_VERSION ? ioctl(fd, KVM_CREATE_VM, 0) : -1;
	h->create_errno = vm < 0 ? (h->api == KVM_API_VERSION ? errno : 0) : 0;
	h->created = vm >= 0;
	if (vm >= 0)
		close(vm);
	close(fd);
}

bool vm_kvm_choose(const struct vm_kvm_host *h, char *why, size_t n)
{
	if (h->open_errno)
		snprintf(why, n, "software emulation (TCG): /dev/kvm cannot be opened (%s)", strerror(h->open_errno));
	else if (h->api != KVM_API_VERSION)
		snprintf(why, n, "software emulation (TCG): /dev/kvm answers API version %d, not %d", h->api, KVM_API_VERSION);
	else if (!h->created)
		snprintf(why, n, "software emulation (TCG): /dev/kvm refuses to make a VM (%s)", strerror(h->create_errno));
	/* a /dev/kvm without them (a nested-virtualisation device such as kvm_pvm) makes VMs,
	 * yet stock kernels abort or hang under qemu with it (../shared/kernel-vms.md) */
	else if (!h->module)
		snprintf(why, n, "software emulation (TCG): /dev/kvm makes VMs, but neither kvm_intel nor kvm_amd is loaded");
	else
		snprintf(why, n, "KVM");
	return !strcmp(why, "KVM");
}

bool vm_kvm_usable(const char **why)
{
	static char words[160];
	static int usable = -1; /* asked once: the host does not change under xsc */
	if (usable < 0) {
		struct vm_kvm_host h;
		vm_kvm_probe(&h);
		usable = vm_kvm_choose(&h, words, sizeof(words));
	}
	*why = words;
	return usable;
}

/* The one place qemu's command line is made. What works on this kind of machine (measured,
 * ../shared/kernel-vms.md): the uncompressed vmlinux through its PVH entry, -nodefaults, no
 * network, 256 MiB; 'quiet' (console output is slow under TCG). The first serial port is the
 * agent's line (qemu's standard input and output; no monitor multiplexed on it, whose ^A
 * escapes the binary frames would trigger); the kernel's console goes to the second, a file;
 * frames travel in an ivshmem-plain device's memory, the file shm (kernel/vmwire.h).
 * Under TCG the CPU is 'max' without ERMS: with it the guest kernel clears pages and copies
 * to and from user memory with rep stosb/movsb (clear_page in asm/page_64.h, copy_user_generic
 * in asm/uaccess_64.h, linux-source-6.1), and TCG (qemu 7.2) runs a rep string instruction as
 * one translated block an element: 4,096 for a page, against 512 with rep stosq. Every fork
 * and page fault pays for it; measured, 500 calls in a 6.1 guest in three paired runs took
 * 6-22% less CPU. ERMS decides how the kernel copies memory, not what a call answers. */
struct qemu_words {
	char *argv[48];
	char serial[4200], append[512], memdev[4300];
};

/* The kernel's command line, but for xsc.idle. Past the console, each word skips boot work a
 * disposable guest does not need and that no call xsc makes can observe; the figures (guest
 * instructions to /init under -icount, qemu's CPU per boot) are in docs/guide/real-kernels.md. */
static const char *const kernel_words[] = {
	"console=ttyS1", "quiet", /* console output is slow under TCG; the console is a file */
	"panic=-1",               /* a panic resets the guest, and -no-reboot ends qemu */
	/* on a loaded host TCG can miss the IO-APIC timer check's deadline and 5.10 then panics
	 * in setup_IO_APIC ("timer doesn't work through Interrupt-remapped IO-APIC"), seen at a
	 * load average of 13 on two cores */
	"no_timer_check",
	/* the self-tests of every crypto algorithm registered at boot (crypto/testmgr.c
	 * alg_test, run from crypto_algapi_init): an algorithm works the same untested, so a
	 * call that uses one (fscrypt's key derivation) answers as before */
	"cryptomgr.notests",
	/* load_system_certificate_list parses the compiled-in X.509 certificates and checks
	 * their signatures into the builtin trusted keyring (certs/system_keyring.c), which
	 * verifies module, kexec and BPF program signatures: the guest loads no module and no
	 * kernel, and a signature xsc could pass is not one of Debian's build key either way; the
	 * keyring itself is still made. jent_mod_init's health test of the jitter entropy source
	 * (crypto/jitterentropy-kcapi.c) seeds only the crypto API's DRBG, which continues
	 * without it (crypto/drbg.c); getrandom does not use it. Together 0.3-1.2 G of the
	 * guest's 1.3-1.8 G instructions to /init. */
	"initcall_blacklist=load_system_certificate_list,jent_mod_init",
};

static void kernel_command_line(struct qemu_words *q)
{
	size_t m = 0;
	for (size_t i = 0; i < ARRAY_SIZE(kernel_words) && m < sizeof(q->append); i++)
		m += (size_t)snprintf(q->append + m, sizeof(q->append) - m, "%s ", kernel_words[i]);
	if (m < sizeof(q->append))
		snprintf(q->append + m, sizeof(q->append) - m, "xsc.idle=%d", IDLE_S);
}

static void qemu_command(struct qemu_words *q, const char *vmlinux, const char *initrd, const char *console,
			 const char *shm, bool kvm)
{
	size_t n = 0, m = 0;
	snprintf(q->serial, sizeof(q->serial), "file:%s", console);
	kernel_command_line(q);
	m = (size_t)snprintf(q->memdev, sizeof(q->memdev), "memory-backend-file,id=xsc,share=on,size=%u,mem-path=", VW_SHM_SIZE);
	for (const char *c = shm; *c && m + 3 < sizeof(q->memdev); c++) { /* a comma is written twice in an option */
		q->memdev[m++] = *c;
		if (*c == ',')
			q->memdev[m++] = ',';
	}
	q->memdev[m] = '\0';
	const char *words[] = {
		"qemu-system-x86_64", "-accel", kvm ? "kvm" : "tcg", "-cpu", kvm ? "host" : "max,-erms", "-m", "256M", "-smp", "1",
		"-nodefaults", "-no-user-config", "-display", "none", "-monitor", "none", "-nic", "none",
		"-serial", "stdio", "-serial", q->serial, "-object", q->memdev, "-device", "ivshmem-plain,memdev=xsc",
		"-no-reboot", "-kernel", vmlinux, "-initrd", initrd, "-append", q->append,
	};
	for (size_t i = 0; i < ARRAY_SIZE(words) && n + 1 < ARRAY_SIZE(q->argv); i++)
		q->argv[n++] = (char *)words[i];
	q->argv[n] = NULL;
}

/* The file behind the shared memory, mapped. */
static int make_shm(struct vm_guest *g, const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || ftruncate(fd, VW_SHM_SIZE) < 0) {
		if (fd >= 0)
			close(fd);
		return err("target vm: cannot make '%s': %s", path, strerror(errno));
	}
	void *p = mmap(NULL, VW_SHM_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return err("target vm: cannot map '%s': %s", path, strerror(errno));
	g->shm = p;
	return 0;
}

/* The initramfs the build made (guest/): beside the binary in a build tree, or installed. */
static char *find_initramfs(void)
{
	const char *env = getenv("XSC_INITRAMFS");
	if (env && *env == '/')
		return xstrdup(env);
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	char *slash = strrchr(exe, '/');
	*slash = '\0';
	const char *rel[] = { "/guest/initramfs.cpio", "/../lib/xsc/initramfs.cpio" };
	for (size_t i = 0; i < ARRAY_SIZE(rel); i++) {
		struct sbuf p = SBUF_INIT;
		sbuf_addf(&p, "%s%s", exe, rel[i]);
		if (access(p.buf, R_OK) == 0)
			return sbuf_detach(&p);
		sbuf_release(&p);
	}
	struct sbuf p = SBUF_INIT; /* a self-contained build (make static) carries its own */
	if (embed_root())
		sbuf_addf(&p, "%s/guest/initramfs.cpio", embed_root());
	if (p.len && access(p.buf, R_OK) == 0)
		return sbuf_detach(&p);
	sbuf_release(&p);
	return NULL;
}

/* The decompressor for a payload, by its magic. */
static const char *decompressor(const unsigned char *p, size_t n)
{
	static const struct { unsigned char magic[6]; size_t len; const char *tool; } tools[] = {
		{ { 0x28, 0xb5, 0x2f, 0xfd }, 4, "zstd" }, { { 0xfd, '7', 'z', 'X', 'Z', 0 }, 6, "xz" },
		{ { 0x1f, 0x8b }, 2, "gzip" }, { { 0x02, 0x21, 0x4c, 0x18 }, 4, "lz4" },
		{ { 'B', 'Z', 'h' }, 3, "bzip2" }, { { 0x5d, 0, 0 }, 3, "lzma" },
	};
	for (size_t i = 0; i < ARRAY_SIZE(tools); i++)
		if (n >= tools[i].len && !memcmp(p, tools[i].magic, tools[i].len))
			return tools[i].tool;
	return NULL;
}

/* vmlinuz (a bzImage) to the ELF vmlinux inside it, which boots faster through its PVH
 * entry: the setup header (Documentation/arch/x86/boot.rst) gives the compressed payload's
 * place (payload_offset at 0x248, payload_length at 0x24c, from the protected-mode code
 * after setup_sects + 1 sectors); its last 4 bytes are the uncompressed size, not data. */
static int extract_vmlinux(const char *vmlinuz, const char *out)
{
	char *img;
	size_t len;
	if (read_file_max(vmlinuz, 64 << 20, &img, &len) < 0)
		return err("cannot read '%s': %s", vmlinuz, strerror(errno));
	int r = -1;
	if (len < 0x250 || memcmp(img + 0x202, "HdrS", 4)) {
		err("'%s' is not a bzImage", vmlinuz);
		goto out;
	}
	size_t sects = (unsigned char)img[0x1f1] ? (unsigned char)img[0x1f1] : 4;
	size_t start = (sects + 1) * 512 + le_load((unsigned char *)img + 0x248, 4);
	size_t plen = le_load((unsigned char *)img + 0x24c, 4);
	const char *tool = start < len && plen > 4 && plen <= len - start ? decompressor((unsigned char *)img + start, plen) : NULL;
	if (!tool) {
		err("'%s': no compressed kernel where its header says", vmlinuz);
		goto out;
	}
	int fd = open(out, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600), p[2];
	if (fd < 0 || pipe2(p, O_CLOEXEC) < 0) {
		err("cannot write '%s': %s", out, strerror(errno));
		if (fd >= 0)
			close(fd);
		goto out;
	}
	char *argv[] = { (char *)tool, "-dc", NULL };
	pid_t pid = proc_spawn(argv, NULL, p[0], fd, -1);
	close(p[0]);
	close(fd);
	const char *c = img + start;
	for (size_t left = plen - 4; left && pid > 0;) {
		ssize_t w = write(p[1], c, left);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		c += w;
		left -= (size_t)w;
	}
	close(p[1]);
	r = pid > 0 && proc_wait(pid) == 0 ? 0 : err("%s could not decompress the kernel in '%s'", tool, vmlinuz);
out:
	free(img);
	return r;
}

/* qemu, in a process group of its own and killed when xsc dies, however it dies. */
static pid_t spawn_qemu(char **argv, int in, int out, int errfd)
{
	pid_t parent = getpid();
	fflush(NULL);
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(127); /* xsc is already gone */
	setpgid(0, 0);
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(errfd, 2) < 0)
		_exit(127);
	closefrom(3);
	execvp(argv[0], argv);
	_exit(127);
}

/* n bytes from the guest before the deadline: 0; -1 on the deadline or ^C; -2 when it is gone. */
static int read_exact(struct vm_guest *g, void *p, size_t n, uint64_t deadline)
{
	unsigned char *c = p;
	while (n) {
		uint64_t now = now_ms();
		if (now >= deadline)
			return -1;
		struct pollfd pfd = { g->from, POLLIN, 0 };
		int r = sig_poll(&pfd, 1, (int)(deadline - now));
		if (r < 0 && errno == EINTR)
			continue;
		if (r == 0 || (r < 0 && errno == ECANCELED))
			return -1;
		ssize_t got = r < 0 ? -1 : read(g->from, c, n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			g->dead = true;
			return -2;
		}
		c += got;
		n -= (size_t)got;
	}
	return 0;
}

static int write_all(struct vm_guest *g, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t w = write(g->to, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			g->dead = true;
			return -1;
		}
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

/* A frame to the agent: in the shared memory with a doorbell on the line, or on the line. */
static int send_frame(struct vm_guest *g, const struct sbuf *frame)
{
	static const unsigned char bell = VW_DOORBELL;
	if (!g->use_shm)
		return write_all(g, frame->buf, frame->len);
	if (frame->len > VW_SHM_HALF)
		return err("%s: a call of %zu bytes is larger than the shared memory", g->target, frame->len);
	memcpy(g->shm, frame->buf, frame->len);
	return write_all(g, &bell, 1);
}

/* The next frame of type want: 0 with its payload (heap) in *p, *len; -1 or -2 as read_exact,
 * -3 when the guest sent something that is not a frame of that type. skip_noise: bytes before
 * the first magic word are skipped (firmware can write to the port before the agent). */
static int read_frame(struct vm_guest *g, enum vw_type want, unsigned char **p, uint32_t *len, uint64_t deadline,
		      bool skip_noise)
{
	unsigned char h[VW_HEADER];
	enum vw_type type;
	if (g->use_shm) { /* the doorbell, then the frame in the agent's half */
		int r = read_exact(g, h, 1, deadline);
		if (r)
			return r;
		if (h[0] != VW_DOORBELL || vw_shm_take(g->shm + VW_SHM_HALF, &type, p, len) < 0)
			return -3;
		if (type != want)
			FREE_AND_NULL(*p);
		return type == want ? 0 : -3;
	}
	int r = read_exact(g, h, 4, deadline);
	for (size_t skipped = 0; !r && skip_noise && le_load(h, 4) != VW_MAGIC && skipped < NOISE_MAX; skipped++) {
		memmove(h, h + 1, 3);
		r = read_exact(g, h + 3, 1, deadline);
	}
	if (!r)
		r = read_exact(g, h + 4, VW_HEADER - 4, deadline);
	if (r)
		return r;
	if (vw_header(h, &type, len) < 0 || type != want)
		return -3;
	*p = xmalloc(*len ? *len : 1);
	r = read_exact(g, *p, *len, deadline);
	if (r)
		FREE_AND_NULL(*p);
	return r;
}

/* The console's last lines, for a guest that did not come up. */
static void console_tail(const struct vm_guest *g, struct sbuf *sb)
{
	const char *names[] = { "console.log", "qemu.err" };
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		struct sbuf p = SBUF_INIT;
		char *text;
		size_t len;
		sbuf_addf(&p, "%s/%s", g->dir, names[i]);
		if (read_file_max(p.buf, 1 << 20, &text, &len) == 0) {
			/* the last four lines, joined: an error message is one line */
			size_t from = len, lines = 0;
			while (from > 0 && lines < 5)
				lines += text[--from] == '\n';
			for (size_t k = from; k < len; k++)
				if (text[k] == '\n' && k > from && k + 1 < len)
					sbuf_adds(sb, " | ");
				else if ((unsigned char)text[k] >= ' ')
					sbuf_addch(sb, text[k]);
			free(text);
		}
		sbuf_release(&p);
	}
}

/* The Debian version of the kernel that booted, from its uname -v ("#1 SMP PREEMPT_DYNAMIC
 * Debian 6.1.192-3 (2026-11-26)"), else the image's manifest's. */
static void debian_version(const char *uname_v, const struct kimage *k, char *out, size_t n)
{
	const char *d = uname_v ? strstr(uname_v, "Debian ") : NULL;
	size_t len = d ? strcspn(d + 7, " ") : 0;
	if (len && len < n)
		snprintf(out, n, "%.*s", (int)len, d + 7);
	else
		snprintf(out, n, "%s", k->pkg_version ? k->pkg_version : "?");
}

/* The agent's greeting: 0 with the guest named, or -1 (reported, with the console's last
 * words). t0: when qemu was started. */
static int await_hello(struct vm_guest *g, const struct kimage *k, uint64_t t0, const char *accel)
{
	unsigned char *p;
	uint32_t len;
	struct vw_hello h;
	int fr = read_frame(g, VW_HELLO, &p, &len, t0 + BOOT_TIMEOUT_MS, true);
	if (fr == -1 && sig_interrupted())
		return sig_interrupt_err();
	if (fr || vw_decode_hello(p, len, &h) < 0) {
		struct sbuf tail = SBUF_INIT;
		console_tail(g, &tail);
		err("target vm %s: the guest did not come up (%s)%s%s", k->version,
		    fr == -1 ? "no answer in time" : fr == -2 ? "qemu exited" : "it sent something else",
		    tail.len ? "; its console's last words: " : "", tail.buf);
		sbuf_release(&tail);
		if (!fr)
			free(p);
		return -1;
	}
	free(p);
	char debian[64];
	debian_version((const char *)h.version.p, k, debian, sizeof(debian));
	snprintf(g->release, sizeof(g->release), "%s", (const char *)h.release.p);
	snprintf(g->target, sizeof(g->target), "vm %s (Debian %s)", k->version, debian);
	snprintf(g->how, sizeof(g->how), "%s booted in %.1f s with %s; Landlock ABI %u; calls through %s", g->release,
		 (double)(now_ms() - t0) / 1000, accel, h.landlock_abi, h.shm ? "shared memory" : "the serial line");
	g->kv = kimage_full_kv(k);
	g->use_shm = h.shm;
	vw_hello_release(&h);
	return 0;
}

/* qemu started on k's kernel, its pipes held by g. */
static int start_qemu(struct vm_guest *g, const struct kimage *k, const char *initrd, bool kvm)
{
	struct sbuf vmlinux = SBUF_INIT, console = SBUF_INIT, qerr = SBUF_INIT, shm = SBUF_INIT;
	struct qemu_words *q = xcalloc(1, sizeof(*q));
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, efd = -1, r = -1;
	sbuf_addf(&vmlinux, "%s/vmlinux", g->dir);
	sbuf_addf(&console, "%s/console.log", g->dir);
	sbuf_addf(&qerr, "%s/qemu.err", g->dir);
	sbuf_addf(&shm, "%s/shm", g->dir);
	if (extract_vmlinux(k->path, vmlinux.buf) < 0 || make_shm(g, shm.buf) < 0)
		goto out;
	efd = open(qerr.buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (efd < 0 || pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0) {
		err("target vm: %s", strerror(errno));
		goto out;
	}
	qemu_command(q, vmlinux.buf, initrd, console.buf, shm.buf, kvm);
	g->pid = spawn_qemu(q->argv, in[0], out[1], efd);
	if (g->pid < 0) {
		err("target vm: cannot start qemu: %s", strerror(errno));
		goto out;
	}
	g->to = in[1];
	g->from = out[0];
	in[1] = out[0] = -1;
	r = 0;
out:
	for (int i = 0; i < 2; i++) {
		if (in[i] >= 0)
			close(in[i]);
		if (out[i] >= 0)
			close(out[i]);
	}
	if (efd >= 0)
		close(efd);
	free(q);
	sbuf_release(&shm);
	sbuf_release(&vmlinux);
	sbuf_release(&console);
	sbuf_release(&qerr);
	return r;
}

static int boot(struct vm_guest *g, const struct kimage *k)
{
	const char *why;
	bool kvm = vm_kvm_usable(&why);
	char *initrd = find_initramfs();
	uint64_t t0 = now_ms();
	int r = -1;
	if (!initrd)
		err("target vm: the guest's initramfs was not built (guest/initramfs.cpio beside xsc; 'make' builds it)");
	else if (start_qemu(g, k, initrd, kvm) == 0 && await_hello(g, k, t0, why) == 0)
		r = 0;
	free(initrd);
	if (r == 0) {
		/* up: qemu holds the kernel in the guest's memory and the shared file mapped, and
		 * the console's log is no longer needed, so nothing of the guest is left on disk
		 * even if xsc is killed (SIGKILL leaves it no chance to clean up) */
		scratch_remove(g->dir);
		FREE_AND_NULL(g->dir);
	}
	return r;
}

int vm_start(const struct kimage *k, struct vm_guest **gp)
{
	const char *bad = k->present ? kimage_check(k) : "it is not fetched";
	*gp = NULL;
	if (bad)
		return err("target vm %s: %s; 'kernels fetch %s' downloads it", k->version, bad, k->version);
	struct vm_guest *g = xcalloc(1, sizeof(*g));
	struct sbuf tmpl = SBUF_INIT;
	g->pid = -1;
	g->to = g->from = -1;
	sbuf_addf(&tmpl, "%s/xsc-vm-XXXXXX", scratch_dir());
	g->dir = sbuf_detach(&tmpl);
	if (!scratch_mkdtemp(g->dir)) {
		free(g->dir);
		free(g);
		return err("target vm: cannot make a scratch directory in %s: %s", scratch_dir(), strerror(errno));
	}
	if (boot(g, k) < 0) {
		vm_stop(g);
		return -1;
	}
	*gp = g;
	return 0;
}

void vm_stop(struct vm_guest *g)
{
	if (!g)
		return;
	if (g->pid > 0) {
		/* ask the agent to power off; qemu is killed if it is still there a second later */
		struct sbuf frame = SBUF_INIT, none = SBUF_INIT;
		vw_frame(&frame, VW_QUIT, &none);
		if (!g->dead)
			send_frame(g, &frame);
		sbuf_release(&frame);
		int st;
		pid_t w = 0;
		for (int i = 0; i < 100 && (w = waitpid(g->pid, &st, WNOHANG)) == 0; i++)
			usleep(10000);
		if (w == 0) {
			kill(g->pid, SIGKILL);
			while (waitpid(g->pid, &st, 0) < 0 && errno == EINTR)
				;
		}
	}
	if (g->to >= 0)
		close(g->to);
	if (g->from >= 0)
		close(g->from);
	if (g->shm)
		munmap(g->shm, VW_SHM_SIZE);
	if (g->dir)
		scratch_remove(g->dir);
	free(g->dir);
	free(g);
}

bool vm_alive(struct vm_guest *g)
{
	int st;
	if (!g->dead && g->pid > 0 && waitpid(g->pid, &st, WNOHANG) == g->pid) {
		g->pid = -1;
		g->dead = true;
	}
	return !g->dead;
}

const char *vm_target(const struct vm_guest *g)
{
	return g->target;
}

const char *vm_how(const struct vm_guest *g)
{
	return g->how;
}

const char *vm_release(const struct vm_guest *g)
{
	return g->release;
}

uint32_t vm_kernel(const struct vm_guest *g)
{
	return g->kv;
}

/* ---- a call ---- */

/* Where argument i points, among the request's buffers. */
static enum vw_arg arg_kind(const struct call_request *req, int i)
{
	uint64_t a = req->args[i];
	if (req->buf && a == (uint64_t)(uintptr_t)req->buf)
		return VA_BUF;
	if (req->extra && a == (uint64_t)(uintptr_t)req->extra)
		return VA_EXTRA;
	if (req->strings[i] && a == (uint64_t)(uintptr_t)req->strings[i])
		return VA_STRING;
	if (a == (uint64_t)(uintptr_t)&req->size_cell)
		return VA_SIZE_CELL;
	return VA_RAW;
}

/* The struct's slots holding xsc's addresses: a supplied stack, a copy of a buffer &NAME
 * points at, or a string. The wire's bytes point into the plan (no copies). */
static void wire_slots(const struct call_plan *plan, struct vw_call *c)
{
	const struct call_request *req = &plan->req;
	size_t ncopy = 0;
	for (size_t i = 0; i < req->nsupplied && c->nslots < VW_MAX_SLOTS; i++) {
		uint32_t off = req->supplied[i];
		if (off + 8 > req->buflen)
			continue;
		uint64_t v = le_load(req->buf + off, 8);
		if (plan->stack && v == (uint64_t)(uintptr_t)plan->stack) {
			c->stack_off = off;
			c->stack_len = (uint32_t)plan->stack_len;
		} else if (plan->stack && off == c->stack_off + 8) {
			continue; /* the stack's size */
		} else if (ncopy < req->ncopies && v == (uint64_t)(uintptr_t)req->copies[ncopy]) {
			c->slots[c->nslots++] = (struct vw_slot){ off, true,
				{ req->copies[ncopy], (uint32_t)req->copy_len[ncopy] } };
			ncopy++;
		} else if (v) {
			const char *s = (const char *)(uintptr_t)v;
			c->slots[c->nslots++] = (struct vw_slot){ off, false,
				{ (unsigned char *)s, (uint32_t)strnlen(s, VW_MAX_BYTES - 1) + 1 } };
		}
	}
}

static void wire_call(const struct call_plan *plan, struct vw_call *c)
{
	const struct call_request *req = &plan->req;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", req->sc->name);
	c->nr = (uint64_t)plan->nr;
	c->flags = (plan->ns ? VC_NS : 0) | (plan->clone3 ? VC_CLONE3 : 0) | (plan->rseq_unregister ? VC_RSEQ_RELEASE : 0) |
		   (plan->unsafe ? VC_UNSAFE : 0);
	c->safety = plan->safety;
	c->prep = plan->prep;
	c->size_where = req->sc->size_where;
	c->prep_arg = plan->prep_arg;
	c->buf_arg = req->buf_arg;
	c->extra_arg = req->extra_arg;
	c->timeout_ms = plan->timeout_ms;
	c->nargs = (uint32_t)req->nargs;
	for (int i = 0; i < req->nargs; i++) {
		c->args[i] = req->args[i];
		c->kind[i] = (uint8_t)arg_kind(req, i);
		c->role[i] = (uint8_t)req->sc->args[i].role;
		if (req->strings[i] && req->string_map[i]) { /* bytes on guarded pages: all of them */
			c->strings[i] = (struct vw_bytes){ (unsigned char *)req->strings[i], (uint32_t)(req->string_map[i] - page) };
			c->string_guarded[i] = 1;
		} else if (req->strings[i]) {
			c->strings[i] = (struct vw_bytes){ (unsigned char *)req->strings[i], (uint32_t)strlen(req->strings[i]) + 1 };
		}
	}
	c->size = req->size;
	c->size_cell = req->size_cell;
	c->buf = (struct vw_bytes){ req->buf, (uint32_t)req->buflen };
	c->extra_len = (uint32_t)req->extra_len;
	wire_slots(plan, c);
}

/* The outcome, as invoke_run fills it from its child's report. */
static void fill_outcome(const struct call_plan *plan, const struct vw_result *r, struct outcome *out)
{
	out->stage = (enum outcome_stage)r->stage;
	out->ret = r->ret;
	out->err = r->err;
	out->signal = r->signal;
	out->elapsed_us = r->elapsed_us;
	if (r->after.len == out->len && out->len)
		memcpy(out->after, r->after.p, out->len);
	if (r->extra.len == out->extra_len && out->extra_len)
		memcpy(out->extra, r->extra.p, out->extra_len);
	for (size_t i = 0; i < plan->req.ncopies && i < r->ncopies; i++) {
		out->pointed[i] = xcalloc(1, plan->req.copy_len[i]);
		out->pointed_len[i] = plan->req.copy_len[i];
		out->pointed_name[i] = plan->req.copy_name[i];
		out->npointed = i + 1;
		if (r->copies[i].len == plan->req.copy_len[i])
			memcpy(out->pointed[i], r->copies[i].p, r->copies[i].len);
	}
	if (plan->prep_arg >= 0 && r->prep_value >= 0)
		out->args[plan->prep_arg] = (uint64_t)r->prep_value;
	if (plan->req.sc->size_where == SW_POINTER) {
		out->size_cell_before = plan->req.size_cell;
		out->size_cell_after = r->size_cell;
		out->has_size_cell = true;
	}
	if (r->setup_error.len)
		sbuf_addf(&out->setup_error, "%s", (const char *)r->setup_error.p);
}

int vm_run(struct vm_guest *g, const struct call_plan *plan, struct outcome *out)
{
	struct vw_call c;
	struct sbuf payload = SBUF_INIT, frame = SBUF_INIT;
	if (!vm_alive(g))
		return err("%s has stopped (idle for %d s, or killed); 'target vm' starts it again", g->target, IDLE_S);
	wire_call(plan, &c);
	vw_encode_call(&c, &payload);
	vw_frame(&frame, VW_CALL, &payload);
	sbuf_release(&payload);
	memcpy(out->args, plan->req.args, sizeof(out->args));
	out->size = plan->req.size;
	out->len = plan->req.buflen;
	out->before = xmalloc(plan->req.buflen ? plan->req.buflen : 1);
	out->after = xcalloc(1, plan->req.buflen ? plan->req.buflen : 1);
	if (plan->req.buf) {
		memcpy(out->before, plan->req.buf, plan->req.buflen);
		memcpy(out->after, plan->req.buf, plan->req.buflen);
	}
	out->extra_len = plan->req.extra_len;
	out->extra_arg = plan->req.extra_arg;
	out->extra = plan->req.extra_len ? xcalloc(1, plan->req.extra_len) : NULL;
	unsigned char *p = NULL;
	uint32_t len;
	struct vw_result res;
	int r = send_frame(g, &frame) < 0 ? -2
		: read_frame(g, VW_RESULT, &p, &len, now_ms() + plan->timeout_ms + CALL_SLACK_MS, false);
	sbuf_release(&frame);
	if (!r && vw_decode_result(p, len, &res) < 0)
		r = -3;
	free(p);
	if (r) {
		/* a guest that broke the protocol, timed out or was interrupted mid-call is not trusted again */
		g->dead = true;
		kill(g->pid, SIGKILL);
		outcome_release(out);
		if (r == -1 && sig_interrupted())
			return sig_interrupt_err();
		return err("%s: %s; the guest is stopped", g->target,
			   r == -1 ? "no answer in time" : r == -2 ? "qemu exited" : "the agent sent something that is not a result");
	}
	fill_outcome(plan, &res, out);
	vw_result_release(&res);
	return 0;
}

/* ---- a probe ---- */

#define PROBE_TIMEOUT_MS 300000 /* every interface's flags under TCG: minutes at worst */

/* The catalogue's files, as the loader reads them (*.json but schema.json). */
static int read_catalogue(const char *dir, struct vw_files *f)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int r = 0;
	memset(f, 0, sizeof(*f));
	if (!d)
		return err("probe --kernel: cannot read '%s': %s", dir, strerror(errno));
	while (!r && (de = readdir(d))) {
		size_t l = strlen(de->d_name);
		if (de->d_name[0] == '.' || l < 6 || l >= sizeof(f->name[0]) || strcmp(de->d_name + l - 5, ".json") ||
		    !strcmp(de->d_name, "schema.json"))
			continue;
		struct sbuf p = SBUF_INIT;
		char *text;
		size_t len;
		sbuf_addf(&p, "%s/%s", dir, de->d_name);
		if (f->n == VW_MAX_FILES)
			r = err("probe --kernel: more than %d catalogue files", VW_MAX_FILES);
		else if (read_file_max(p.buf, VW_MAX, &text, &len) < 0)
			r = err("probe --kernel: cannot read '%s': %s", p.buf, strerror(errno));
		else {
			snprintf(f->name[f->n], sizeof(f->name[0]), "%s", de->d_name);
			f->data[f->n++] = (struct vw_bytes){ (unsigned char *)text, (uint32_t)len };
		}
		sbuf_release(&p);
	}
	closedir(d);
	return r;
}

int vm_probe(struct vm_guest *g, const struct catalog *cat, const char *const *names, size_t n, struct probe_run *run)
{
	struct vw_files f;
	struct sbuf payload = SBUF_INIT, frame = SBUF_INIT;
	if (!vm_alive(g))
		return err("%s has stopped; 'target vm' starts it again", g->target);
	int r = read_catalogue(cat->dir, &f);
	if (!r) {
		vw_encode_files(&f, &payload);
		vw_frame(&frame, VW_PROBE, &payload);
	}
	vw_files_release(&f);
	sbuf_release(&payload);
	unsigned char *p = NULL;
	uint32_t len = 0;
	if (!r && (frame.len > VW_MAX + VW_HEADER || send_frame(g, &frame) < 0))
		r = err("%s: the catalogue (%zu bytes) could not be sent", g->target, frame.len);
	sbuf_release(&frame);
	int fr = r ? 0 : read_frame(g, VW_PROBED, &p, &len, now_ms() + PROBE_TIMEOUT_MS, false);
	if (!r && fr) {
		g->dead = true;
		kill(g->pid, SIGKILL);
		r = fr == -1 && sig_interrupted() ? sig_interrupt_err() : err("%s: the probe did not answer; the guest is stopped", g->target);
	} else if (!r && !len) {
		r = err("%s: the agent could not probe with this catalogue", g->target);
	} else if (!r && (r = features_answers_parse(cat, (const char *)p, len, names, n, run)) == 0) {
		snprintf(run->kernel, sizeof(run->kernel), "%.64s", g->target);
	}
	free(p);
	return r;
}
