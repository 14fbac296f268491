#include "sim/sim.h"
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "model/checkwhy.h"
#include "model/expr.h"
#include "model/kver.h"
#include "model/world.h"
#include "model/xlat.h"
#include "base/banned.h"

PRINTF_LIKE(2, 3)
static void say(struct sbuf *why, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sbuf_vaddf(why, fmt, ap);
	va_end(ap);
	sbuf_addch(why, '\n');
}

static int fail(struct outcome *o, int e)
{
	o->ret = -1;
	o->err = e;
	return 0;
}

static bool ignores_unknown(const struct syscall *sc, const char *holder)
{
	for (size_t i = 0; i < sc->rules.nignore_unknown; i++)
		if (!strcmp(sc->rules.ignore_unknown[i], holder))
			return true;
	return false;
}

static const char *bit_name(const struct flagset *fs, uint64_t bit)
{
	for (size_t i = 0; i < fs->nflags; i++)
		if (fs->flags[i].value == bit)
			return fs->flags[i].name;
	return NULL;
}

/* A flags word: refused when it holds a bit the kernel does not know yet. */
static bool check_word(const struct syscall *sc, const char *holder, const struct flagset *fs, uint64_t v,
		       uint32_t kv, struct sbuf *why)
{
	if (!fs || ignores_unknown(sc, holder))
		return true;
	char ks[16], since[16];
	if (fs->kind == FS_ENUM) {
		if (!v)
			return true; /* 0: the old behaviour, whatever it is named */
		for (size_t i = 0; i < fs->nflags; i++)
			if (fs->flags[i].value == v && kver_has(kv, fs->flags[i].since, fs->flags[i].backported))
				return true;
		for (size_t i = 0; i < fs->nflags; i++)
			if (fs->flags[i].value == v) {
				say(why, "%s = %s came in %s; a %s kernel refuses it", holder, fs->flags[i].name,
				    kver_str(fs->flags[i].since, since), kver_str(kv, ks));
				return false;
			}
		say(why, "%s = %llu is no value a %s kernel knows", holder, (unsigned long long)v, kver_str(kv, ks));
		return false;
	}
	uint64_t unknown = v & ~flagset_known_bits(fs, kv);
	if (!unknown)
		return true;
	uint64_t bit = unknown & -unknown;
	unsigned n = 0;
	while (!(bit >> n & 1))
		n++;
	const char *name = bit_name(fs, bit);
	const struct flag *f = NULL;
	for (size_t i = 0; name && i < fs->nflags; i++)
		if (fs->flags[i].value == bit)
			f = &fs->flags[i];
	if (f)
		say(why, "bit %u of %s (%s) came in %s; a %s kernel refuses it", n, holder, name, kver_str(f->since, since),
		    kver_str(kv, ks));
	else
		say(why, "bit %u of %s is unknown to every kernel the catalogue knows", n, holder);
	return false;
}

/* ---- the world: checks that depend on state outside the arguments ---- */

/* What the world's model says of one errno of a check, for one kind of state: it fires, it
 * does not, or the model cannot tell (also: an errno that is not about this kind). */
enum fact { F_UNKNOWN, F_NOT, F_FIRES };

/* The argument of role r (the first one), or -1. */
static int arg_of_role(const struct syscall *sc, enum arg_role r)
{
	for (size_t i = 0; i < sc->nargs && i < 6; i++)
		if (sc->args[i].role == r)
			return (int)i;
	return -1;
}

/* The path arguments a check's condition reads, in order (at most two), else the call's first. */
static size_t check_paths(const struct syscall *sc, const struct check *ck, int out[2])
{
	size_t n = 0;
	for (size_t i = 0; i < ck->ncode && n < 2; i++)
		if (ck->code[i].op == XO_ARG && sc->args[ck->code[i].idx].role == AR_PATH &&
		    (!n || out[0] != (int)ck->code[i].idx))
			out[n++] = (int)ck->code[i].idx;
	if (!n && (out[0] = arg_of_role(sc, AR_PATH)) >= 0)
		n = 1;
	return n;
}

/* Path argument p looked up in the sandbox's world: WL_UNKNOWN for one the world cannot
 * answer (relative to a descriptor the caller chose, empty: AT_EMPTY_PATH may take it). */
static enum world_lookup lookup_arg(const struct call_request *req, int p, bool parent)
{
	const struct syscall *sc = req->sc;
	const char *path = req->strings[p];
	int fd = -1;
	for (int i = 0; i < p; i++) /* the descriptor it is relative to: the last before it */
		if (sc->args[i].role == AR_FD)
			fd = i;
	if (!path || !*path || (fd >= 0 && (int)req->args[fd] != -100 /* AT_FDCWD */ && *path != '/'))
		return WL_UNKNOWN;
	return parent ? world_lookup_parent(path) : world_lookup(path);
}

/* path: the first path argument the check's condition reads (else the call's first), looked
 * up in the sandbox (model/world.h). ENOENT is a missing name, ENOTDIR a non-directory on the
 * way; a check of that one errno is about the last name itself: ENOTDIR a last name that is
 * not a directory (O_DIRECTORY), EISDIR one that is, EEXIST one that exists, EBUSY "." (in a
 * longer list they may mean something else: undecided). A check of one errno whose condition
 * reads two paths compares what they name, as rename does: EISDIR a directory in place of a
 * non-directory, ENOTDIR the reverse. The world has no symbolic links, no mount below the
 * sandbox but a namespace call's mnt/, and nothing the caller may not search (ELOOP, EXDEV,
 * EACCES do not fire). */
static enum fact path_fact(const struct call_request *req, const struct check *ck, int e)
{
	const struct syscall *sc = req->sc;
	int p[2];
	size_t n = check_paths(sc, ck, p);
	if (!n)
		return F_UNKNOWN;
	enum world_lookup l = lookup_arg(req, p[0], ck->lookup_parent);
	if (l == WL_UNKNOWN)
		return F_UNKNOWN;
	bool last = ck->nerrnos == 1; /* a check of one errno is about the last name itself */
	if (last && n == 2 && (e == EISDIR || e == ENOTDIR)) {
		enum world_lookup to = lookup_arg(req, p[1], false);
		if (to == WL_UNKNOWN)
			return F_UNKNOWN;
		if (e == EISDIR)
			return to == WL_DIR && l == WL_FILE ? F_FIRES : F_NOT;
		return l == WL_DIR && to == WL_FILE ? F_FIRES : F_NOT;
	}
	const char *path = req->strings[p[0]], *tail = strrchr(path, '/');
	bool dot = !strcmp(tail ? tail + 1 : path, ".");
	bool mounted = sc->safety == SAFE_NAMESPACE && world_entry_find(path, strcspn(path, "/")) == WORLD_MNT;
	switch (e) {
	case ENOENT: return l == WL_MISSING ? F_FIRES : F_NOT;
	case ENOTDIR: return l == WL_NOTDIR || (l == WL_FILE && last) ? F_FIRES : F_NOT;
	case EISDIR: return !last ? F_UNKNOWN : l == WL_DIR ? F_FIRES : F_NOT;
	case EFTYPE: return !last ? F_UNKNOWN : l == WL_DIR ? F_FIRES : F_NOT; /* the world's only non-regular files */
	case EEXIST: return !last ? F_UNKNOWN : l == WL_FILE || l == WL_DIR ? F_FIRES : F_NOT;
	case EBUSY: return !last ? F_UNKNOWN : dot ? F_FIRES : F_NOT;
	case EXDEV: return mounted ? F_UNKNOWN : F_NOT;
	case ELOOP: case EACCES: return F_NOT;
	default: return F_UNKNOWN;
	}
}

/* fd: the first descriptor the check's condition reads (a field shown as a descriptor or a
 * descriptor argument), else the one the first path it reads is relative to, else the
 * call's first descriptor argument. Open in the world:
 * AT_FDCWD, 0-3 (pipes) and the descriptor a live call prepares where the catalogue gives the
 * argument no default (a pidfd, a userfaultfd, ...: of the kind the call wants). */
static enum fact fd_fact(const struct call_request *req, const struct check *ck, const struct expr_env *env, int e)
{
	const struct syscall *sc = req->sc;
	int a = -1;
	int64_t fd = 0;
	bool found = false;
	for (size_t i = 0; i < ck->ncode && !found; i++) {
		const struct expr_insn *x = &ck->code[i];
		if ((x->op == XO_FIELD && sc->st && sc->st->fields[x->idx].format == FF_FD) ||
		    (x->op == XO_ARG && sc->args[x->idx].role == AR_FD)) {
			found = true;
			fd = (int32_t)expr_eval(x, 1, env);
			a = x->op == XO_ARG ? (int)x->idx : -1;
		}
	}
	int p[2];
	size_t np = found ? 0 : check_paths(sc, ck, p);
	if (np) { /* the descriptor the first path it reads is relative to */
		for (int i = 0; i < p[0]; i++)
			if (sc->args[i].role == AR_FD)
				a = i;
		if (a >= 0 && req->strings[p[0]] && req->strings[p[0]][0] == '/')
			return e == EBADF ? F_NOT : F_UNKNOWN; /* an absolute path: the descriptor is not used */
	} else if (!found) {
		a = arg_of_role(sc, AR_FD);
	}
	if (!found && a >= 0) {
		found = true;
		fd = (int32_t)req->args[a];
	}
	if (!found)
		return F_UNKNOWN;
	if (a >= 0 && !sc->args[a].def && !(req->overridden & 1u << a)) /* the prepared one, of the right kind */
		return e == EBADF || e == EINVAL || e == EOPNOTSUPP || e == ENOTTY ? F_NOT : F_UNKNOWN;
	bool open = fd == -100 || (fd >= 0 && fd < WORLD_FIRST_FREE_FD);
	if (e == EBADF)
		return open ? F_NOT : F_FIRES;
	return F_UNKNOWN;
}

/* Whether pointer argument i points at memory xsc made: its struct, an output buffer, a string,
 * or one it allocated because nothing overrode the argument (an override that is a number is
 * an address the caller typed). */
static bool xsc_buffer(const struct call_request *req, size_t i)
{
	return req->args[i] && ((int)i == req->buf_arg || (int)i == req->extra_arg || req->strings[i] ||
				!(req->overridden & 1u << i));
}

/* pointer: the pointers the check's condition reads. NULL and an address the caller typed
 * are not mapped in the world (EFAULT); one xsc supplied is. */
static enum fact pointer_fact(const struct call_request *req, const struct check *ck, int e)
{
	const struct syscall *sc = req->sc;
	if (e != EFAULT)
		return F_UNKNOWN;
	bool any = false;
	for (size_t i = 0; i < ck->ncode; i++) {
		const struct expr_insn *x = &ck->code[i];
		bool supplied = false;
		if (x->op == XO_FIELD && sc->st && sc->st->fields[x->idx].format == FF_PTR) {
			for (size_t k = 0; k < req->nsupplied; k++)
				supplied |= req->supplied[k] == sc->st->fields[x->idx].offset;
		} else if (x->op == XO_ARG && strchr(sc->args[x->idx].type, '*') && sc->args[x->idx].role != AR_PATH) {
			supplied = xsc_buffer(req, x->idx);
		} else {
			continue;
		}
		if (!supplied)
			return F_FIRES;
		any = true;
	}
	if (any)
		return F_NOT;
	/* a condition that names no pointer: the call's pointer arguments, all xsc's buffers? */
	size_t n = 0, bad = 0;
	for (size_t i = 0; i < sc->nargs && i < 6; i++) {
		if (!sc->args[i].is_ptr || sc->args[i].role == AR_PATH)
			continue;
		n++;
		bad += !xsc_buffer(req, i);
	}
	/* NULL or an address the caller typed: the check's pointer when it is the only one */
	return !n ? F_UNKNOWN : !bad ? F_NOT : n == 1 ? F_FIRES : F_UNKNOWN;
}

/* privilege: a live call runs as the user who runs xsc; a namespace call as the root of its
 * own user and mount namespaces. Root lacks nothing; anyone else may lack a capability. */
static enum fact privilege_fact(const struct call_request *req, int e)
{
	if (e != EPERM && e != EACCES)
		return F_UNKNOWN;
	return req->sc->safety == SAFE_NAMESPACE || geteuid() == 0 ? F_NOT : F_UNKNOWN;
}

static enum fact world_fact(const struct call_request *req, const struct check *ck, const struct expr_env *env,
			    enum env_kind k, int e)
{
	int pid = arg_of_role(req->sc, AR_PID);
	if (req->foreign && k != ENV_POINTER && k != ENV_MEMORY && k != ENV_PID)
		return F_UNKNOWN; /* NULL, memory enough and pid 0 are so anywhere; the rest is the sandbox's */
	switch (k) {
	case ENV_PATH: return path_fact(req, ck, e);
	case ENV_FD: return fd_fact(req, ck, env, e);
	case ENV_POINTER: return pointer_fact(req, ck, e);
	case ENV_PRIVILEGE: return privilege_fact(req, e);
	case ENV_MEMORY: return e == ENOMEM ? F_NOT : F_UNKNOWN; /* the world has memory enough */
	case ENV_FILESYSTEM: /* the sandbox's own filesystem is writable */
		return e == EROFS && path_fact(req, ck, ENOENT) != F_UNKNOWN ? F_NOT : F_UNKNOWN;
	case ENV_PID: /* pid 0: the caller itself */
		return (e == ESRCH || e == EPERM) && pid >= 0 && !req->args[pid] ? F_NOT : F_UNKNOWN;
	default: return F_UNKNOWN; /* hardware, LSMs, filesystems, objects: the host's */
	}
}

enum decision { D_PASS, D_FAIL, D_UNKNOWN };

/* Decides a check that depends on the world, errno by errno in its order: the first that
 * some kind of state makes fire is the answer; one that no kind can tell about leaves the
 * check undecided. */
static enum decision decide_world(const struct call_request *req, const struct check *ck, const struct expr_env *env,
				  int *err, unsigned *undecided)
{
	bool unknown = false;
	for (size_t i = 0; i < ck->nerrnos; i++) {
		int e = errno_from_name(ck->errnos[i]);
		enum fact f = F_UNKNOWN;
		for (int k = 0; k < ENV_NKINDS && f != F_FIRES; k++) {
			enum fact one = ck->env & 1u << k ? world_fact(req, ck, env, (enum env_kind)k, e) : F_UNKNOWN;
			if (one > f)
				f = one;
		}
		if (f == F_FIRES) {
			*err = e;
			return D_FAIL;
		}
		unknown |= f == F_UNKNOWN;
		for (int k = 0; f == F_UNKNOWN && k < ENV_NKINDS; k++) /* the kinds that could not tell */
			if (ck->env & 1u << k && world_fact(req, ck, env, (enum env_kind)k, e) == F_UNKNOWN)
				*undecided |= 1u << k;
	}
	return unknown ? D_UNKNOWN : D_PASS;
}

/* One call while its checks list runs: the size as the kernel has it so far, and whether
 * the struct has been copied in. */
struct run {
	const struct catalog *cat;
	const struct call_request *req;
	const struct sim_opts *opt;
	const struct syscall *sc;
	const struct cstruct *st;
	struct outcome *o;
	struct sbuf *why;
	uint64_t usize;
	unsigned ksize;
	size_t len;      /* the caller's memory behind the struct pointer (0 for NULL) */
	bool null;       /* the struct pointer is NULL */
	bool absent;     /* it is not xsc's buffer: NULL, or an address typed in (not mapped in the world) */
	bool capped;     /* a size-cap step in force ran: sizes up to the cap stay in the buffer's page */
	bool copied;     /* copy-in ran: the struct is read */
	bool sized;      /* the call has a size convention: the kernel reads min(size, its struct) */
	char ks[16];
};

/* The kernel's size written into the struct's size field, where the rules say it is on E2BIG. */
static void writeback_on_e2big(struct run *r)
{
	const struct field *sf = r->sc->size_where == SW_FIELD ? r->st->size_field : NULL;
	if (r->sc->rules.writeback == WB_SIZE_ON_E2BIG && sf &&
	    sf->offset + sf->size <= r->len)
		le_store(r->o->after + sf->offset, sf->elem_size, r->ksize);
}

/* The generic tests of a call without checks of its own: reserved fields and flag words of
 * the struct the kernel saw, input fields only. Returns 0 or EINVAL. */
static int generic_fields(struct run *r, uint64_t seen)
{
	const struct field *sf = r->sc->size_where == SW_FIELD ? r->st->size_field : NULL;
	for (size_t i = 0; i < r->st->nfields; i++) {
		const struct field *f = &r->st->fields[i];
		if (f->offset + f->size > seen || f->count || f == sf || !field_is_input(r->sc, r->st, f))
			continue; /* the kernel does not read an output or ignored field */
		if (f->reserved && le_load(r->o->before + f->offset, f->elem_size)) {
			say(r->why, "%s is reserved and must be zero", f->name);
			return EINVAL;
		}
		if (f->flagset && !check_word(r->sc, f->name, f->flagset, le_load(r->o->before + f->offset, f->elem_size),
					      r->opt->kv, r->why))
			return EINVAL;
	}
	return 0;
}

/* copy_struct_from_user: a short struct zero-filled, a nonzero byte past the kernel's struct
 * E2BIG; a call without checks of its own then gets the generic field tests. */
static int step_copy_in(struct run *r)
{
	char since[16];
	r->copied = true;
	if (syscall_size_output(r->sc))
		return 0; /* nothing is read: an output struct's pointer is the copy-out's (a check's) */
	if (r->null || r->absent) {
		say(r->why, r->null ? "the struct pointer is NULL: the kernel faults copying it" :
				      "the struct pointer is an address typed in, not mapped in the sandbox's world: the kernel faults copying it");
		return EFAULT;
	}
	uint64_t usize = r->usize;
	unsigned ksize = r->ksize, own = cstruct_size_at(r->st, r->opt->kv);
	const struct cstruct *t = r->sc->rules.tail_struct;
	char what[96]; /* the struct the tail is judged against, as the explanation names it */
	if (!t)
		snprintf(what, sizeof(what), "a %s kernel's struct", r->ks);
	else if (t->nversions)
		snprintf(what, sizeof(what), "a %s kernel's %s", r->ks, t->name);
	else /* each release's own size, where smaller, is a check of the call's */
		snprintf(what, sizeof(what), "%s at its newest", t->name);
	if (usize > ksize) {
		if (usize > r->len && !r->capped) {
			say(r->why, "size %llu runs past the caller's memory: the kernel faults checking the tail", (unsigned long long)usize);
			return EFAULT;
		}
		size_t end = usize < r->len ? (size_t)usize : r->len, off = mem_nonzero(r->o->before, ksize, end);
		if (off < end) {
			const struct field *f = cstruct_field_at(r->st, off);
			if (f)
				say(r->why, "byte %zu is nonzero and a %s kernel's struct ends at %u: it is in %s, added in %s",
				    off, r->ks, ksize, f->name, kver_str(f->since, since));
			else
				say(r->why, "byte %zu is nonzero, past %s (%u bytes)%s%s", off, what, ksize,
				    t ? ", whose first part is " : "", t ? r->st->name : "");
			writeback_on_e2big(r);
			return E2BIG;
		}
		say(r->why, "the %llu bytes past %s (%u) are zero: accepted", (unsigned long long)(usize - ksize), what, ksize);
	} else if (usize < own) {
		say(r->why, "size %llu is smaller than a %s kernel's struct (%u): the rest is zero-filled, the old behaviour",
		    (unsigned long long)usize, r->ks, own);
	}
	return r->sc->nconds ? 0 : generic_fields(r, usize < ksize ? usize : ksize);
}

/* copy_struct_to_user and the size write-back of an output call; never fails. */
static void step_copy_out(struct run *r)
{
	const struct size_rules *rl = &r->sc->rules;
	uint64_t usize = r->usize;
	unsigned ksize = r->ksize;
	size_t len = r->len;
	if (rl->tail == TAIL_ZEROED && ksize < usize && ksize < len)
		memset(r->o->after + ksize, 0, (usize < len ? (size_t)usize : len) - ksize);
	if (rl->writeback == WB_SIZE_ON_SUCCESS && r->st->size_field &&
	    r->st->size_field->offset + r->st->size_field->size <= len)
		le_store(r->o->after + r->st->size_field->offset, r->st->size_field->elem_size, usize < ksize ? usize : ksize);
	say(r->why, "an output call: a %s kernel fills %u bytes%s", r->ks, (unsigned)(usize < ksize ? usize : ksize),
	    r->sc->nfills ? "" : " (the simulator does not invent their values)");
}

/* A size step of the call's checks list. Returns 0 to go on, else the errno. */
static int run_step(struct run *r, const struct check *ck)
{
	const struct size_rules *rl = &r->sc->rules;
	unsigned ver0 = syscall_ver0(r->sc);
	char since[16];
	switch (ck->step) {
	case CS_NULL:
		if (!r->null)
			return 0;
		say(r->why, "%s (%s: %s)", ck->why, ck->source, ck->text);
		return ck->err;
	case CS_ZERO:
		if (r->usize)
			return 0;
		say(r->why, "%s", ck->why);
		if (!ck->errno_name)
			r->usize = ver0;
		return ck->err;
	case CS_CAP:
		r->capped = true;
		if (r->usize <= rl->cap)
			return 0;
		say(r->why, "size %llu is above the %llu-byte cap%s%s", (unsigned long long)r->usize, (unsigned long long)rl->cap,
		    rl->cap_since ? " added in " : "", rl->cap_since ? kver_str(rl->cap_since, since) : "");
		writeback_on_e2big(r);
		return ck->err;
	case CS_BELOW_VER0:
		if (r->usize >= ver0)
			return 0;
		say(r->why, "size %llu is below the first version, %u bytes", (unsigned long long)r->usize, ver0);
		writeback_on_e2big(r);
		return ck->err;
	case CS_COPY_IN:
		return step_copy_in(r);
	case CS_COPY_OUT:
		step_copy_out(r);
		return 0;
	default:
		return 0;
	}
}

/* Whether ck is part of a size convention the call's checks finish: with a tail_struct, the
 * sizes between the call's struct and the bigger one (each release's own, where the command's
 * part ends) are conditions that read arguments, the size and byte ranges, no field by name. */
static bool tail_check(const struct syscall *sc, const struct check *ck)
{
	if (!sc->rules.tail_struct)
		return false;
	for (size_t i = 0; i < ck->ncode; i++)
		if (ck->code[i].op == XO_FIELD || ck->code[i].op == XO_UNKNOWN_FIELD)
			return false;
	return true;
}

/* The call's checks list, in order: size steps and conditions alike; the first that fails
 * is the answer. Returns 0 or the errno. */
static int run_checks(struct run *r)
{
	for (size_t i = 0; i < r->sc->nchecks; i++) {
		const struct check *ck = &r->sc->checks[i];
		if (!check_in_force(ck, r->opt->kv))
			continue;
		if (ck->step != CS_COND) {
			if (!r->sized)
				continue; /* no struct passed (a NULL the rules say nothing of): no size steps */
			int e = run_step(r, ck);
			if (e)
				return e;
			continue;
		}
		if (r->opt->size_only && (ck->env || (r->copied && r->sized && !tail_check(r->sc, ck))))
			continue; /* size_only: the size alone */
		size_t seen = r->copied ? r->len : 0;
		if (r->sized && seen > r->usize)
			seen = (size_t)r->usize;
		if (r->sized && seen > r->ksize)
			seen = r->ksize;
		struct expr_env env = { r->cat, r->sc, r->st, r->o->before, seen, r->req->args, r->usize, r->opt->kv };
		if (!expr_eval(ck->code, ck->ncode, &env))
			continue;
		int e = ck->err;
		unsigned undecided = 0;
		enum decision d = ck->env ? decide_world(r->req, ck, &env, &e, &undecided) : D_FAIL;
		if (d == D_UNKNOWN) {
			/* the world's model cannot tell: every errno of the check is possible, go on */
			r->o->uncertain = true;
			r->o->depends_on |= undecided;
			for (size_t k = 0; k < ck->nerrnos; k++)
				outcome_add_possible(r->o, errno_from_name(ck->errnos[k]));
		}
		if (d == D_FAIL) {
			check_why(r->why, ck, &env); /* the live explanations' words */
			r->o->check = ck;
			return e;
		}
	}
	return 0;
}

/* What a successful call returns in the world: a measured value where the catalogue has
 * one for this kernel (landlock's ABI version), the lowest free descriptor for a call that
 * returns one, a made-up pid for one that makes a process (marked so), else 0. */
static long plausible_result(const struct catalog *cat, const struct call_request *req, const struct sim_opts *opt,
			     struct outcome *o)
{
	const struct syscall *sc = req->sc;
	struct expr_env env = { cat, sc, sc->st, o->before, req->buf_arg >= 0 ? o->len : 0, req->args, req->size, opt->kv };
	const struct result_rule *best = NULL;
	for (size_t i = 0; i < sc->nresults; i++) {
		const struct result_rule *r = &sc->results[i];
		if (r->since <= opt->kv && (!best || r->since > best->since) && expr_eval(r->code, r->ncode, &env))
			best = r;
	}
	if (best)
		return (long)best->value;
	if (sc->returns == RET_FD)
		return WORLD_FIRST_FREE_FD;
	if (sc->returns == RET_PID) {
		o->plausible_pid = true;
		return WORLD_PLAUSIBLE_PID;
	}
	return 0;
}

/* Where a call's fills write: a struct at buf, of which the kernel writes the first limit
 * bytes; which fills are its own (in_arg, entry); how the explanation names it ("" for the
 * call's struct, "into smbuf", "into ops[0..3]"). */
struct fill_place {
	const struct cstruct *st;
	unsigned char *buf;
	unsigned char *known; /* a byte of it the catalogue's value */
	size_t limit;
	int in_arg;
	bool entry;
	const char *what; /* for entries, their array's name */
};

/* The catalogue's rule for field k of place p at the simulated kernel: the newest whose since
 * is at or before it and whose condition holds, or NULL. */
static const struct fill_rule *fill_for(const struct syscall *sc, const struct fill_place *p, unsigned k,
					const struct expr_env *env)
{
	const struct fill_rule *best = NULL;
	for (size_t i = 0; i < sc->nfills; i++) {
		const struct fill_rule *f = &sc->fills[i];
		if (f->field == k && f->in_arg == p->in_arg && f->entry == p->entry && f->since <= env->kv &&
		    (!best || f->since > best->since) && expr_eval(f->code, f->ncode, env))
			best = f;
	}
	return best;
}

/* Writes the fields of place p the catalogue knows, for entries n of them (index 0..n-1, the
 * struct's size apart), and says so: "FIELD = V" (an entry's values first..last), fields of one
 * source together; the fields the kernel writes that no rule covers are named and left. */
static void fill_place(const struct syscall *sc, const struct fill_place *p, size_t n, struct expr_env *env,
		       struct sbuf *why)
{
	const struct cstruct *st = p->st;
	struct sbuf known = SBUF_INIT, unknown = SBUF_INIT;
	const char **src = xcalloc(st->nfields + 1, sizeof(*src)); /* field k's source, or NULL */
	uint64_t *lo = xcalloc(st->nfields + 1, sizeof(*lo)), *hi = xcalloc(st->nfields + 1, sizeof(*hi));
	size_t last = 0; /* the last entry a rule wrote */
	for (unsigned k = 0; k < st->nfields; k++) {
		const struct field *f = &st->fields[k];
		enum fdir d = field_direction(sc, st, f);
		if ((d != FD_OUT && d != FD_INOUT) || f->count)
			continue;
		for (size_t i = 0; i < n; i++) {
			size_t off = (p->entry ? i * st->size : 0) + f->offset;
			env->index = i;
			const struct fill_rule *rule = off + f->size <= p->limit ? fill_for(sc, p, k, env) : NULL;
			if (!p->entry && f == st->size_field && sc->rules.writeback == WB_SIZE_ON_SUCCESS && off + f->size <= p->limit) {
				src[k] = "the size rule: the bytes it copied out"; /* the copy-out step wrote it */
				lo[k] = hi[k] = le_load(p->buf + off, f->elem_size);
			} else if (rule) {
				uint64_t v = expr_eval(rule->value_code, rule->nvalue_code, env);
				le_store(p->buf + off, f->elem_size, v);
				memset(p->known + off, 1, f->size);
				lo[k] = src[k] ? lo[k] : v, hi[k] = v, last = i;
				src[k] = rule->source; /* an entry's fields: the last entry's rule names them */
			} else if (off + f->size <= p->limit && !p->entry && p->in_arg < 0) {
				sbuf_addf(&unknown, "%s%s", unknown.len ? ", " : "", f->name);
			}
		}
	}
	for (unsigned k = 0; k < st->nfields; k++) { /* each source once, after the fields it gave */
		bool first = true, done = false;
		for (unsigned m = 0; src[k] && m < k; m++)
			done |= src[m] && !strcmp(src[m], src[k]);
		for (unsigned m = k; src[k] && !done && m < st->nfields; m++) {
			if (!src[m] || strcmp(src[m], src[k]))
				continue;
			sbuf_addf(&known, "%s%s = %llu", known.len && first ? "; " : first ? "" : ", ", st->fields[m].name,
				  (unsigned long long)lo[m]);
			if (hi[m] != lo[m])
				sbuf_addf(&known, "..%llu", (unsigned long long)hi[m]);
			first = false;
		}
		if (!first)
			sbuf_addf(&known, " (%s)", src[k]);
	}
	char where[96];
	snprintf(where, sizeof(where), p->entry ? " into %s[0..%zu]" : "%s", p->what, last);
	if (known.len)
		say(why, "the catalogue knows what it writes%s: %s", where, known.buf);
	if (unknown.len)
		say(why, "it writes %s%s too, which the simulator cannot know: left as the caller wrote them", unknown.buf,
		    p->what);
	else if (p->in_arg >= 0) /* how much of it the kernel copies depends on the call (statmount's bufsize) */
		say(why, "the other fields it may write%s are left as the caller passed them", p->what);
	free(src), free(lo), free(hi);
	sbuf_release(&known);
	sbuf_release(&unknown);
}

/* A successful call's output fields, where the catalogue knows their values at this kernel
 * ("fills"): written into the struct the caller sees (the kernel writing its first limit
 * bytes), into the entries after it, and into the struct another argument points at (the
 * simulated outcome's extra buffer, as a live call's), each named with its source. */
static void apply_fills(const struct catalog *cat, const struct call_request *req, const struct sim_opts *opt,
			struct outcome *o, size_t limit, struct sbuf *why)
{
	const struct syscall *sc = req->sc;
	const struct cstruct *st = sc->st;
	if (!sc->nfills || !st)
		return;
	struct expr_env env = { cat, sc, st, o->before, req->buf_arg >= 0 ? o->len : 0, req->args, req->size, opt->kv };
	if (req->buf_arg >= 0) {
		o->known = xcalloc(1, o->len + 1);
		struct fill_place p = { st, o->after, o->known, limit < o->len ? limit : o->len, -1, false, "" };
		fill_place(sc, &p, 1, &env, why);
	}
	const struct call_entries *e = &sc->entries;
	if (e->st && req->buf_arg >= 0 && o->len > st->size) {
		size_t n = (o->len - st->size) / e->st->size;
		struct fill_place p = { e->st, o->after + st->size, o->known + st->size, n * e->st->size, -1, true, e->name };
		fill_place(sc, &p, n, &env, why);
	}
	if (o->extra && o->extra_arg >= 0 && sc->args[o->extra_arg].st) {
		char what[96];
		snprintf(what, sizeof(what), " into %s", sc->args[o->extra_arg].name);
		o->extra_known = xcalloc(1, o->extra_len + 1);
		struct fill_place p = { sc->args[o->extra_arg].st, o->extra, o->extra_known, o->extra_len, o->extra_arg, false,
					what };
		fill_place(sc, &p, 1, &env, why);
	}
}

/* What success may do to the caller besides returning (the catalogue's effects): a signal
 * that kills it unless it catches or ignores the signal. The kernel's answer stands; the
 * death is possible, depending on the caller's dispositions, which the world does not model. */
static void apply_effects(const struct catalog *cat, const struct call_request *req, const struct sim_opts *opt,
			  struct outcome *o, struct sbuf *why)
{
	const struct syscall *sc = req->sc;
	struct expr_env env = { cat, sc, sc->st, o->before, req->buf_arg >= 0 ? o->len : 0, req->args, req->size, opt->kv };
	for (size_t i = 0; i < sc->neffects; i++) {
		const struct effect_rule *e = &sc->effects[i];
		if (e->since > opt->kv || !expr_eval(e->code, e->ncode, &env))
			continue;
		uint64_t sig = expr_eval(e->signal_code, e->nsignal_code, &env);
		if (!sig || sig > 64)
			continue;
		o->uncertain = true;
		o->depends_on |= 1u << ENV_SIGNAL;
		outcome_add_possible(o, 0);
		outcome_add_possible(o, -(int)sig);
		say(why, "%s (%s)", e->why, e->source);
	}
}

/* What a kernel before the interface answers: ENOSYS for a system call it lacks, but an
 * opcode or ioctl of an older call is refused by that call ("checks" in force before the
 * interface's since, reading the arguments alone: io_uring_register's EINVAL for an opcode it
 * does not know, a pidfd's ENOTTY). The first that holds is the answer. */
static int absent_errno(const struct catalog *cat, const struct call_request *req, const struct sim_opts *opt,
			struct sbuf *why)
{
	const struct syscall *sc = req->sc;
	char ks[16], since[16];
	struct expr_env env = { cat, sc, sc->st, NULL, 0, req->args, req->size, opt->kv };
	for (size_t i = 0; i < sc->nchecks; i++) {
		const struct check *ck = &sc->checks[i];
		if (ck->step != CS_COND || ck->env || !ck->until || ck->until > sc->since || !check_in_force(ck, opt->kv) ||
		    !expr_eval(ck->code, ck->ncode, &env))
			continue;
		check_why(why, ck, &env);
		return ck->err;
	}
	say(why, "%s came in %s; a %s kernel has no such system call", sc->name, kver_str(sc->since, since),
	    kver_str(opt->kv, ks));
	return ENOSYS;
}

/* The outcome starts as the call was made: its arguments, size and the bytes passed. */
static void outcome_start(struct outcome *o, const struct call_request *req)
{
	o->stage = OS_CALLED;
	memcpy(o->args, req->args, sizeof(o->args));
	o->size = req->size;
	o->len = req->buflen;
	o->before = xmalloc(o->len ? o->len : 1);
	o->after = xmalloc(o->len ? o->len : 1);
	if (o->len) {
		memcpy(o->before, req->buf, o->len);
		memcpy(o->after, req->buf, o->len);
	}
	if (req->extra) { /* an output buffer of another argument, as the caller passed it */
		o->extra = xmalloc(req->extra_len);
		memcpy(o->extra, req->extra, req->extra_len);
		o->extra_len = req->extra_len;
		o->extra_arg = req->extra_arg;
	}
}

/* CHECK_FIELDS: the kernel does nothing and fills the struct with what it accepts. */
static void check_fields_answer(const struct run *r)
{
	const struct cstruct *st = r->st;
	struct outcome *o = r->o;
	unsigned ksize = r->ksize;
	uint64_t usize = r->usize;
	for (size_t i = 0; i < st->nfields; i++) {
		const struct field *f = &st->fields[i];
		if (f->offset + f->size > ksize || f->offset + f->size > o->len || f->count)
			continue;
		uint64_t v = f->flagset && f->flagset->kind == FS_BITS ? flagset_known_bits(f->flagset, r->opt->kv) :
			     f->flagset ? 0 : ~0ULL;
		le_store(o->after + f->offset, f->elem_size, v);
	}
	if (ksize < usize && ksize < o->len)
		memset(o->after + ksize, 0, (usize < o->len ? (size_t)usize : o->len) - ksize);
	say(r->why, "CHECK_FIELDS (bit 63 of the size): nothing was done; the struct now holds every flag bit a %s kernel accepts and all-ones in its other fields", r->ks);
	fail(o, EEXTSYS_NOOP);
}

/* A sized struct: the size as the kernel receives it, then the size steps and checks. True
 * when they answered the call. */
static bool sized_walk(struct run *r)
{
	const struct syscall *sc = r->sc;
	bool check = false;
	/* the kernel copies the rules' tail_struct where there is one (bpf's union bpf_attr) */
	r->ksize = cstruct_size_at(syscall_tail_struct(sc), r->opt->kv);
	if (sc->size_bits == 32 && r->usize >> 32) {
		say(r->why, "the size argument is 32 bits: %llu arrives as %llu", (unsigned long long)r->usize,
		    (unsigned long long)(uint32_t)r->usize);
		r->usize = (uint32_t)r->usize;
	}
	if (r->opt->check_fields && sc->check_fields && (r->usize & CHECK_FIELDS_BIT)) {
		check = true;
		r->usize &= ~CHECK_FIELDS_BIT;
	}
	int e = run_checks(r);
	if (e)
		fail(r->o, e);
	else if (check)
		check_fields_answer(r);
	return e || check;
}

/* A fixed struct without checks: only its input fields' flag words. True when one refused. */
static bool fixed_walk(const struct run *r)
{
	const struct cstruct *st = r->st;
	const struct outcome *o = r->o;
	for (size_t i = 0; i < st->nfields; i++) {
		const struct field *f = &st->fields[i];
		if (f->count || f->offset + f->size > o->len || !field_is_input(r->sc, st, f))
			continue; /* the kernel does not read an output or ignored field */
		if (f->flagset && !check_word(r->sc, f->name, f->flagset, le_load(o->before + f->offset, f->elem_size), r->opt->kv, r->why)) {
			fail(r->o, EINVAL);
			return true;
		}
	}
	return false;
}

/* The struct's part of the walk: a sized struct's steps, else the call's checks, else a fixed
 * struct's flags. True when it answered the call. */
static bool struct_walk(struct run *r)
{
	if (r->sized)
		return sized_walk(r);
	if (r->sc->nconds) {
		/* no size convention: the call's checks, in place of the generic tests; a struct the
		 * caller did not pass (open_tree_attr's NULL attr) reads as zeros */
		const struct cstruct *st = r->st;
		r->st = st ? st : r->sc->st;
		r->len = st ? r->o->len : 0;
		r->usize = r->req->size;
		r->copied = true;
		int e = run_checks(r);
		if (e)
			fail(r->o, e);
		return e;
	}
	return r->st && fixed_walk(r);
}

static int sim_walk(const struct catalog *cat, const struct call_request *req, const struct sim_opts *opt,
		    struct outcome *o, struct sbuf *why)
{
	const struct syscall *sc = req->sc;
	const struct cstruct *st = req->buf_arg >= 0 ? sc->st : NULL;
	char ks[16];
	outcome_start(o, req);
	kver_str(opt->kv, ks);
	if (opt->kv < sc->since)
		return fail(o, absent_errno(cat, req, opt, why));
	/* a struct argument that is not xsc's buffer still goes through the size steps (the kernel
	 * tests the size before it reads the struct: fs/file_attr.c, kernel/fork.c) and faults at
	 * the copy, but for NULL with size 0, which says "no struct" where the rules do not name
	 * NULL (open_tree_attr's plain open_tree, landlock's version query); the call's checks read
	 * a struct not passed as zeros (below) */
	int sa = syscall_struct_arg(sc);
	bool absent = req->buf_arg < 0 && sa >= 0 && syscall_has_size_steps(sc) &&
		      (req->args[sa] || req->size || sc->rules.null_errno);
	bool null = req->buf_arg < 0 && sa >= 0 && !req->args[sa] && (sc->rules.null_errno || absent);
	struct run r = { cat, req, opt, sc, st, o, why, req->size, 0, o->len, null, absent, false, false, false, "" };
	memcpy(r.ks, ks, sizeof(r.ks));
	if (null || absent) {
		r.st = st = sc->st;
		r.len = 0;
	}
	r.sized = st && syscall_has_size_steps(sc);
	if (struct_walk(&r))
		return 0; /* answered: an errno, or CHECK_FIELDS */
	/* flags arguments, unless the call's checks say what the kernel tests */
	for (size_t i = 0; !sc->nconds && i < sc->nargs && i < 6; i++) {
		const struct sarg *a = &sc->args[i];
		if (a->role != AR_FLAGS || !a->flagset)
			continue;
		uint64_t v = sarg_bits(a, req->args[i]);
		if (!check_word(sc, a->name, a->flagset, v, opt->kv, why))
			return fail(o, EINVAL);
	}
	o->ret = plausible_result(cat, req, opt, o);
	size_t limit = st ? cstruct_size_at(st, opt->kv) : 0;
	if (r.sized && r.usize < limit)
		limit = (size_t)r.usize;
	apply_fills(cat, req, opt, o, limit, why);
	apply_effects(cat, req, opt, o, why);
	return 0;
}

int sim_call(const struct catalog *cat, const struct call_request *req, const struct sim_opts *opt,
	     struct outcome *o, struct sbuf *why)
{
	outcome_init(o);
	o->simulated = true;
	sim_walk(cat, req, opt, o, why);
	/* a descriptor argument without a default is the one a live call prepares: shown by number */
	for (size_t i = 0; i < req->sc->nargs && i < 6; i++)
		if (req->sc->args[i].role == AR_FD && !req->sc->args[i].def && !(req->overridden & 1u << i))
			o->args[i] = WORLD_FIRST_FREE_FD;
	if (o->uncertain)
		outcome_add_possible(o, o->ret == -1 ? o->err : 0);
	if (o->npossible == 1) { /* every way the world could go ends in the same answer */
		o->uncertain = false;
		o->npossible = 0;
		o->depends_on = 0;
	}
	return 0;
}
