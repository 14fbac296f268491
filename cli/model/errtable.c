#include "model/errtable.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "base/sbuf.h"
#include "base/util.h"
#include "model/kver.h"
#include "base/banned.h"

static struct errrow *add(struct errtable *t, enum errrow_kind kind, const char *errno_name, uint32_t since,
			  uint32_t until, const char *source)
{
	if (t->n == t->alloc) {
		t->alloc = t->alloc ? 2 * t->alloc : 16;
		t->rows = xrealloc(t->rows, t->alloc * sizeof(*t->rows));
	}
	struct errrow *r = &t->rows[t->n++];
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	r->errno_name = errno_name;
	r->errnos = xstrdup(errno_name);
	r->since = since;
	r->until = until;
	r->source = xstrdup(source);
	return r;
}

PRINTF_LIKE(2, 3)
static void set_why(struct errrow *r, const char *fmt, ...)
{
	struct sbuf sb = SBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	r->why = sbuf_detach(&sb);
}

static void add_check(struct errtable *t, const struct check *ck)
{
	struct errrow *r = add(t, ck->env ? ER_ENV : ER_CHECK, ck->errno_name, ck->since, ck->until, ck->source);
	r->why = xstrdup(ck->why);
	if (ck->env) {
		struct sbuf en = SBUF_INIT, env = SBUF_INIT;
		check_errnos_env(ck, &en, &env);
		free(r->errnos);
		r->errnos = sbuf_detach(&en);
		r->depends = sbuf_detach(&env);
	}
	r->cond = ck->text;
	r->check = ck;
}

/* "64 bytes from 5.3, 80 from 5.5, 88 from 5.7" */
static void struct_sizes(struct sbuf *sb, const struct cstruct *st)
{
	char kv[16];
	for (size_t i = 0; i < st->nversions; i++)
		sbuf_addf(sb, "%s%u%s from %s", i ? ", " : "", st->versions[i].size, i ? "" : " bytes",
			  kver_str(st->versions[i].since, kv));
	if (!st->nversions)
		sbuf_addf(sb, "%u bytes", st->size);
}

/* A size step that can fail, in words; its errno and source are the step's (from the rules). */
static void add_size_step(struct errtable *t, const struct syscall *sc, const struct check *ck)
{
	const struct size_rules *r = &sc->rules;
	const struct cstruct *st = sc->st;
	/* The loader admits size steps only where syscall_has_size_steps, which needs the struct. */
	if (!st)
		return;
	if (!ck->errno_name)
		return; /* size 0 read as VER0, an output call's copies: nothing fails there */
	const char *ver0_name = st->nversions && st->versions[0].name ? st->versions[0].name : NULL;
	unsigned ver0 = syscall_ver0(sc);
	struct errrow *row = add(t, ER_SIZE, ck->errno_name, ck->since, ck->until, ck->source);
	row->check = ck;
	switch (ck->step) {
	case CS_NULL:
		set_why(row, "the struct pointer is NULL");
		break;
	case CS_ZERO:
		set_why(row, "the size is 0");
		break;
	case CS_CAP:
		set_why(row, "the size is above %llu bytes, the cap %s puts on its struct", (unsigned long long)r->cap, sc->name);
		break;
	case CS_BELOW_VER0:
		if (ver0_name && !r->min)
			set_why(row, "the size is below the first version, %s (%u bytes)", ver0_name, ver0);
		else
			set_why(row, "the size is below %u bytes, the smallest the call takes", ver0);
		break;
	default: {
		struct sbuf sizes = SBUF_INIT;
		struct_sizes(&sizes, syscall_tail_struct(sc));
		if (r->tail_struct) /* the call's struct is copied as part of a bigger one */
			set_why(row, "the size is above %s (%s), whose first part is %s, and a byte past it is nonzero",
				r->tail_struct->name, sizes.buf, st->name);
		else
			set_why(row, "the size is above the struct the kernel knows (%s) and a byte past that struct is nonzero",
				sizes.buf);
		sbuf_release(&sizes);
	}
	}
}

/* For a call without checks: the simulator's generic tests of flag sets and reserved fields. */
static void add_flagset_field(struct errtable *t, const struct syscall *sc, const struct field *f)
{
	struct sbuf src = SBUF_INIT;
	for (size_t i = 0; i < sc->rules.nignore_unknown; i++)
		if (!strcmp(sc->rules.ignore_unknown[i], f->name))
			return;
	if (f->reserved) {
		set_why(add(t, ER_FLAGSET, "EINVAL", f->since > sc->since ? f->since : sc->since, 0,
			    "the catalogue's layout (the field is marked reserved; no check yet)"),
			"%s is reserved and is not zero", f->name);
		return;
	}
	if (!f->flagset)
		return;
	sbuf_addf(&src, "the catalogue's flag set %s (no check yet)", f->flagset->name);
	struct errrow *r = add(t, ER_FLAGSET, "EINVAL", f->since > sc->since ? f->since : sc->since, 0, src.buf);
	if (f->flagset->kind == FS_ENUM)
		set_why(r, "%s is a value the kernel does not know (yet)", f->name);
	else
		set_why(r, "%s holds a bit the kernel does not know (yet)", f->name);
	sbuf_release(&src);
}

static void add_flagset_fields(struct errtable *t, const struct syscall *sc, bool sized)
{
	const struct cstruct *st = sc->st;
	for (size_t i = 0; st && i < st->nfields; i++) {
		const struct field *f = &st->fields[i];
		if (f->count || (sized && f == st->size_field) || (!sized && !f->flagset))
			continue;
		add_flagset_field(t, sc, f);
	}
}

static void add_flagset_args(struct errtable *t, const struct syscall *sc)
{
	for (size_t i = 0; i < sc->nargs && i < 6; i++) {
		const struct sarg *a = &sc->args[i];
		if (a->role != AR_FLAGS || !a->flagset)
			continue;
		struct sbuf src = SBUF_INIT;
		sbuf_addf(&src, "the catalogue's flag set %s (no check yet)", a->flagset->name);
		set_why(add(t, ER_FLAGSET, "EINVAL", sc->since, 0, src.buf), "the %s argument holds a bit the kernel does not know (yet)",
			a->name);
		sbuf_release(&src);
	}
}

void errtable_build(struct errtable *t, const struct syscall *sc)
{
	const struct cstruct *st = sc->st;
	bool sized = st && syscall_has_size_steps(sc);
	bool input = !syscall_size_output(sc);
	memset(t, 0, sizeof(*t));
	if (!sc->is_ioctl && !sc->designed) {
		char kv[16];
		set_why(add(t, ER_SYSCALL, "ENOSYS", 0, sc->since, "the system call table"),
			"the kernel is older than %s, which added %s", kver_str(sc->since, kv), sc->name);
	}
	for (size_t i = 0; i < sc->nchecks; i++) { /* one list: the size steps among the conditions */
		const struct check *ck = &sc->checks[i];
		if (ck->step != CS_COND)
			add_size_step(t, sc, ck);
		else
			add_check(t, ck);
		if (ck->step == CS_COPY_IN && !sc->nconds && input)
			add_flagset_fields(t, sc, true); /* the simulator's generic tests, where it runs them */
	}
	if (!sized && !sc->nconds)
		add_flagset_fields(t, sc, false);
	if (!sc->nconds)
		add_flagset_args(t, sc);
	/* the prose, all of it: it is trimmed in the catalogue as checks come to cover it */
	for (size_t i = 0; i < sc->nerrors; i++) {
		const struct serror *e = &sc->errors[i];
		struct errrow *r = add(t, ER_PROSE, e->errno_name, 0, 0, "the catalogue's prose (not yet a check)");
		r->why = xstrdup(e->meaning);
	}
}

void errtable_release(struct errtable *t)
{
	for (size_t i = 0; i < t->n; i++) {
		free(t->rows[i].errnos);
		free(t->rows[i].depends);
		free(t->rows[i].why);
		free(t->rows[i].source);
	}
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

bool errtable_has(const struct errtable *t, enum errrow_kind kind)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->rows[i].kind == kind)
			return true;
	return false;
}

const char *errrow_kind_name(enum errrow_kind kind)
{
	static const char *const names[] = { "syscall", "size", "flagset", "check", "env", "prose" };
	return names[kind];
}

void errrow_kernels(struct sbuf *sb, const struct errrow *r)
{
	char a[16], b[16];
	if (!r->since && r->until)
		sbuf_addf(sb, "before %s", kver_str(r->until, b));
	else if (r->since && r->until)
		sbuf_addf(sb, "%s, gone in %s", kver_str(r->since, a), kver_str(r->until, b));
	else if (r->since)
		sbuf_addf(sb, "%s and later", kver_str(r->since, a));
}

const struct errrow *errtable_first(const struct errtable *t, const char *errno_name)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->rows[i].errno_name, errno_name))
			return &t->rows[i];
	return NULL;
}
