#include "kernel/trust.h"
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "base/diag.h"
#include "kernel/invoke.h"
#include "base/banned.h"

#define AT_FDCWD_VALUE (-100)

static long catalogue_nr(const struct syscall *sc)
{
#if defined(__aarch64__)
	return sc->nr_aarch64;
#else
	return sc->nr_x86_64;
#endif
}

static int check_classes(const struct syscall *sc, const struct sysent *se)
{
	char got[8] = "";
	bool same = sc->nargs == strlen(se->args) && sc->nargs < sizeof(got);
	for (size_t i = 0; i < sc->nargs && i + 1 < sizeof(got); i++) {
		got[i] = systable_class(sc->args[i].role);
		char want = se->args[i] == 'I' ? 'i' : se->args[i];
		same &= got[i] == want;
	}
	if (!same)
		return err("refusing: the catalogue's arguments of %s (classes '%s') are not the ones this build calls it with ('%s')",
			   sc->name, got, se->args);
	return 0;
}

struct guard_check {
	const struct syscall *sc;
	int bad;
};

/* A field or argument the build judges by must be the one the catalogue shows under that name. */
static void check_named(const struct sysbits *b, void *ctx)
{
	struct guard_check *gc = ctx;
	const struct syscall *sc = gc->sc;
	if (gc->bad)
		return;
	if (b->arg >= 0) {
		if ((size_t)b->arg >= sc->nargs || strcmp(sc->args[b->arg].name, b->name))
			gc->bad = err("refusing: the catalogue does not call argument %d of %s '%s', as this build does", b->arg + 1,
				      sc->name, b->name);
		return;
	}
	const struct field *f = sc->st ? cstruct_find_field(sc->st, b->name) : NULL;
	if (!f || f->offset != b->off || f->size != b->size)
		gc->bad = err("refusing: this build's uapi header puts field '%s' of %s at offset %u (%u bytes), the catalogue does not",
			      b->name, sc->name, b->off, b->size);
}

static int check_guard(const struct syscall *sc, const struct sysguard *g)
{
	struct guard_check gc = { sc, 0 };
	sysguard_each(g, check_named, &gc);
	return gc.bad;
}

int trust_interface(const struct syscall *sc, const struct sysent **se)
{
	*se = systable_find(sc->name);
	if (!*se)
		return err("cannot call %s live: this build of xsc does not know its syscall number on %s, and a catalogue cannot add live calls; 'target sim VERSION' answers it",
			   sc->name, systable_arch());
	long nr = catalogue_nr(sc);
	if (nr != (*se)->nr)
		return err("refusing: the catalogue gives %s the number %ld on %s, but it is %ld (%s); a catalogue cannot make a call run another syscall",
			   sc->name, nr, systable_arch(), (*se)->nr, systable_source());
	if (sc->is_ioctl != ((*se)->ioctl != 0))
		return err("refusing: the catalogue %s %s an ioctl, and this build knows otherwise", sc->is_ioctl ? "makes" : "does not make", sc->name);
	if (sc->is_ioctl) {
		uint32_t bits = ((uint32_t)sc->ioctl_dir << 30) | (sc->ioctl_type << 8) | sc->ioctl_nr;
		if (bits != (*se)->ioctl)
			return err("refusing: the catalogue encodes %s as ioctl request %#x, but it is %#x (any size)",
				   sc->name, bits, (*se)->ioctl);
	}
	/* the class decides the namespace and whether Landlock is required: a catalogue calling
	 * open_tree_attr "pure" would change the host's mounts */
	if (sc->safety != (*se)->safety)
		return err("refusing: the catalogue calls %s safety '%s', but it is '%s'; a catalogue cannot take a call out of its confinement",
			   sc->name, safety_name(sc->safety), safety_name((*se)->safety));
	if (check_classes(sc, *se) < 0)
		return -1;
	return (*se)->guard ? check_guard(sc, (*se)->guard) : 0;
}

/* A path escapes the sandbox when it is absolute or climbs with "..". */
static bool escapes(const char *path)
{
	if (path[0] == '/')
		return true;
	for (const char *p = path; *p;) {
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if (n == 2 && p[0] == '.' && p[1] == '.')
			return true;
		p += n + (e ? 1 : 0);
	}
	return false;
}

/* Whether b is set in the bytes the kernel will read: the buffer, or the override that
 * replaced it. */
static bool plan_bits(const struct call_plan *plan, const struct sysbits *b)
{
	return sysbits_get(b, plan->req.args, plan->req.buf, plan->req.buflen) != 0;
}

/* Does this call, with these arguments, write to the file system? The names are the
 * build's (trust_interface bound each to its number), and so are the bits it reads
 * (systable's guard). */
bool trust_writes_files(const struct call_plan *plan)
{
	const struct sysent *se = systable_find(plan->req.sc->name);
	const struct sysguard *g = se ? se->guard : NULL;
	if (se && (se->how & SH_READS_FILES))
		return false;
	if (g && g->ns_private.name)
		return !(plan->ns && plan_bits(plan, &g->ns_private));
	if (g && g->writes.name && plan->req.buf)
		return plan_bits(plan, &g->writes);
	return true;
}

/* ---- can another user swap what a path names? ----
 * open_hazard looks at the path in the parent; the child opens it later. A directory or
 * link on the way that another user controls lets them put a FIFO or a device there in
 * between (a swapper flipping a symlink wins now and then). When every directory on the
 * resolved path can be changed only by the caller and root (a sticky directory such as /tmp
 * counts when the caller or root owns the entry: others cannot rename or remove it there),
 * and every symbolic link followed belongs to them, nobody else can change what the path
 * names between the look and the open, so what the parent saw is what the child opens; the
 * caller's own process is xsc, whose call has not started. */

static bool ours(const struct stat *st)
{
	return st->st_uid == geteuid() || st->st_uid == 0;
}

/* Whether another user can replace (or create) the entry of dir; st is the entry, if any. */
static bool others_can_swap(const struct stat *dir, const struct stat *st)
{
	if (!ours(dir)) /* its owner can chmod it */
		return true;
	if (!(dir->st_mode & (S_IWGRP | S_IWOTH)))
		return false;
	return !(dir->st_mode & S_ISVTX) || !st || !ours(st);
}

/* Takes the first component off todo into comp (empty when todo is used up). */
static void next_component(struct sbuf *todo, struct sbuf *comp)
{
	size_t n = strcspn(todo->buf, "/"), skip = n + (todo->buf[n] == '/');
	sbuf_reset(comp);
	sbuf_add(comp, todo->buf, n);
	memmove(todo->buf, todo->buf + skip, todo->len - skip + 1);
	todo->len -= skip;
}

/* done (a resolved path, "" for "/") goes up one directory, as the kernel's ".." does. */
static void go_up(struct sbuf *done)
{
	char *slash = strrchr(done->buf, '/');
	done->len = slash ? (size_t)(slash - done->buf) : 0;
	done->buf[done->len] = '\0';
}

/* The link at path is followed: its target goes before what is left to resolve. */
static const char *follow_link(const char *path, struct sbuf *done, struct sbuf *todo, int *links)
{
	char target[4096];
	ssize_t n = readlink(path, target, sizeof(target) - 1);
	if (n < 0 || ++*links > 40)
		return "has too many or unreadable symbolic links to be resolved here";
	target[n] = '\0';
	if (target[0] == '/')
		sbuf_reset(done);
	struct sbuf t = SBUF_INIT;
	sbuf_addf(&t, "%s/%s", target, todo->buf);
	sbuf_reset(todo);
	sbuf_adds(todo, t.buf);
	sbuf_release(&t);
	return NULL;
}

/* One step: the entry comp of the directory done. Returns 1 to go on, 0 to stop (it does not
 * exist: the open fails), -1 when another user could change it (*why says so). */
static int walk_step(struct sbuf *done, struct sbuf *todo, const char *comp, int *links, const char **why)
{
	struct stat dir, st;
	if (lstat(done->len ? done->buf : "/", &dir) < 0)
		return 0;
	struct sbuf next = SBUF_INIT;
	sbuf_addf(&next, "%s/%s", done->buf, comp);
	bool exists = lstat(next.buf, &st) == 0;
	int r = 1;
	if (others_can_swap(&dir, exists ? &st : NULL))
		*why = "is reached through a directory another user can change, who could swap in a FIFO or a device before the call opens it";
	else if (!exists)
		r = 0;
	else if (S_ISLNK(st.st_mode) && !ours(&st))
		*why = "is reached through a symbolic link another user owns";
	else if (S_ISLNK(st.st_mode))
		*why = follow_link(next.buf, done, todo, links);
	else
		sbuf_addf(done, "/%s", comp);
	sbuf_release(&next);
	return *why ? -1 : r;
}

static const char *swappable(const char *path)
{
	struct sbuf done = SBUF_INIT, todo = SBUF_INIT, comp = SBUF_INIT;
	const char *why = NULL;
	int links = 0;
	sbuf_adds(&todo, path);
	while (todo.len) {
		next_component(&todo, &comp);
		if (!comp.len || !strcmp(comp.buf, "."))
			continue;
		if (!strcmp(comp.buf, "..")) {
			go_up(&done);
			continue;
		}
		if (walk_step(&done, &todo, comp.buf, &links, &why) <= 0)
			break;
	}
	sbuf_release(&done);
	sbuf_release(&todo);
	sbuf_release(&comp);
	return why;
}

/* What opening path outside the sandbox (for reading: writes are refused before) could do:
 * a device's open acts on it (a watchdog starts and reboots the machine when not fed, a
 * tape rewinds, a modem hangs up), a FIFO's open wakes its writer. NULL when harmless. The
 * parent looks before the call; swappable() refuses a path that another user could change
 * in between, and the sandbox keeps the call's own writes off it. */
/* null, zero, full, random, urandom: devices whose open does nothing (drivers/char/mem.c) */
static bool quiet_device(const struct stat *st)
{
	unsigned mi = minor(st->st_rdev);
	return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 && (mi == 3 || mi == 5 || mi == 7 || mi == 8 || mi == 9);
}

static const char *open_hazard(const struct call_plan *plan, const struct sysent *se, const char *path)
{
	if (!(se->how & SH_OPENS_PATH) || !plan->req.buf)
		return NULL;
	for (size_t i = 0; se->guard && i < ARRAY_SIZE(se->guard->no_open); i++)
		if (plan_bits(plan, &se->guard->no_open[i]))
			return NULL;
	if (path[0] != '/')
		return "climbs out of the sandbox, where xsc cannot see what it opens (give it as an absolute path)";
	const char *why = swappable(path);
	if (why)
		return why;
	struct stat st;
	if (stat(path, &st) < 0 || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode) || quiet_device(&st))
		return NULL;
	return S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ?
		       "is a device, which opening can act on (a watchdog starts, a tape rewinds, a line hangs up)" :
		       "is a FIFO or socket, which opening can act on (a FIFO's writer wakes)";
}

static bool own_address(const struct call_plan *plan, int i, uint64_t v)
{
	return !v || (i == plan->req.buf_arg && v == (uintptr_t)plan->req.buf) ||
	       (i == plan->req.extra_arg && v == (uintptr_t)plan->req.extra) ||
	       (plan->req.strings[i] && v == (uintptr_t)plan->req.strings[i]);
}

static bool known_cmd(const struct sysent *se, uint64_t v)
{
	if (se->ioctl)
		return systable_ioctl_bits(v) == se->ioctl;
	for (size_t k = 0; k < se->ncmds; k++)
		if ((uint32_t)v == se->cmds[k])
			return true;
	return false;
}

static void say_cmd(struct sbuf *why, const struct sysent *se, const char *name, uint64_t v)
{
	if (se->ioctl) {
		sbuf_addf(why, "argument '%s' = %#llx is not the request %s encodes (%#x with any size); another request acts on whatever the descriptor is (TIOCSTI types into a terminal)\n",
			  name, (unsigned long long)v, se->name, se->ioctl);
		return;
	}
	sbuf_addf(why, "argument '%s' = %llu is not one xsc knows to be harmless (it knows", name, (unsigned long long)v);
	for (size_t k = 0; k < se->ncmds; k++)
		sbuf_addf(why, "%s %u", k ? "," : "", se->cmds[k]);
	sbuf_adds(why, se->ncmds ? ")\n" : " none)\n");
}

/* One argument; returns 1 when the sandbox cannot vouch for it (why says so). */
static size_t trust_arg(const struct call_plan *plan, const struct sysent *se, int i, struct sbuf *why)
{
	const char *name = plan->req.sc->args[i].name;
	uint64_t v = plan->req.args[i];
	int32_t k = (int32_t)v; /* descriptors and pids are ints to the kernel */
	const char *hazard;
	switch (se->args[i]) {
	case 'f':
		if (i == plan->prep_arg || k == AT_FDCWD_VALUE || k == -1)
			return 0;
		sbuf_addf(why, "argument '%s' = %d is a descriptor xsc did not prepare; a sandboxed call may only use AT_FDCWD or its own descriptors\n",
			  name, k);
		return 1;
	case 'i':
	case 'I':
		if (k == 0 || (k == -1 && se->args[i] == 'I'))
			return 0;
		sbuf_addf(why, "argument '%s' = %d is another process, which the call could change or watch; a sandboxed call may only name itself (pid 0%s)\n",
			  name, k, se->args[i] == 'I' ? ", or -1 with a cpu: counting every process there" : "");
		return 1;
	case 'c':
		if (known_cmd(se, v))
			return 0;
		say_cmd(why, se, name, v);
		return 1;
	case 'a':
		if (own_address(plan, i, v))
			return 0;
		sbuf_addf(why, "argument '%s' = %#llx is a raw address; xsc cannot check what it points at (give the bytes as a \"string\", or use the buffer)\n",
			  name, (unsigned long long)v);
		return 1;
	case 'p':
		if (!own_address(plan, i, v)) {
			sbuf_addf(why, "argument '%s' = %#llx is a raw address, not a path xsc can check\n", name, (unsigned long long)v);
			return 1;
		}
		if (!plan->req.strings[i] || !escapes(plan->req.strings[i]))
			return 0;
		if (plan->probe) {
			/* its next calls set O_TRUNC, O_CREAT, …: what they read now says nothing */
			sbuf_addf(why, "argument '%s' = '%s' is outside the sandbox, where the probe's calls with other flags could write\n",
				  name, plan->req.strings[i]);
			return 1;
		}
		if (trust_writes_files(plan)) {
			sbuf_addf(why, "argument '%s' = '%s' is outside the sandbox, and %s would write there\n", name,
				  plan->req.strings[i], plan->req.sc->name);
			return 1;
		}
		if ((hazard = open_hazard(plan, se, plan->req.strings[i]))) {
			sbuf_addf(why, "argument '%s' = '%s' %s\n", name, plan->req.strings[i], hazard);
			return 1;
		}
		return 0;
	default:
		return 0;
	}
}

/* A descriptor inside the buffer is an argument like the others. */
static size_t trust_buffer_fd(const struct call_plan *plan, const struct sysent *se, struct sbuf *why)
{
	const struct sysguard *g = se->guard;
	if (!g || !g->fd.name || plan->req.buf_arg < 0 || plan->req.buflen < (size_t)g->fd.off + g->fd.size ||
	    !plan_bits(plan, &g->fd_when))
		return 0;
	/* a size that stops before the field: the kernel zero-fills it and never uses the
	 * descriptor (clone3 at 80 bytes refuses CLONE_INTO_CGROUP with EINVAL instead) */
	if (plan->req.sc->size_where == SW_ARG && plan->req.size < (uint64_t)g->fd.off + g->fd.size)
		return 0;
	uint64_t fd = sysbits_get(&g->fd, plan->req.args, plan->req.buf, plan->req.buflen);
	sbuf_addf(why, "field '%s' = %d is a descriptor xsc did not prepare; a sandboxed call may only use its own descriptors\n",
		  g->fd.name, (int32_t)fd);
	return 1;
}

size_t trust_args(const struct call_plan *plan, const struct sysent *se, struct sbuf *why)
{
	size_t n = trust_buffer_fd(plan, se, why);
	for (int i = 0; i < plan->req.nargs && se->args[i]; i++)
		n += trust_arg(plan, se, i, why);
	return n;
}

unsigned trust_raw_addresses(const struct call_plan *plan)
{
	unsigned raw = 0;
	for (int i = 0; i < plan->req.nargs; i++) {
		char c = systable_class(plan->req.sc->args[i].role);
		if ((c == 'a' || c == 'p') && !own_address(plan, i, plan->req.args[i]))
			raw |= 1u << i;
	}
	return raw;
}
