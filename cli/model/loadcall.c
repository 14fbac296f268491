/* The loader of syscalls (model/loaders.h): arguments, size and size rules, checks, results,
 * effects, fills, errors, features and the probe's recipe. */
#include "model/loaders.h"
#include "model/loadrules.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/sbuf.h"
#include "model/kver.h"
#include "model/xlat.h"
#include "base/banned.h"

/* ---- syscalls ---- */

static const char *const syscall_keys[] = { "name", "kind", "nr", "ioctl", "since", "header", "prototype",
	"summary", "args", "struct", "size", "rules", "errors", "lineage", "safety", "notes", "links",
	"features", "probe", "checks", "check_fields", "returns", "results", "effects", "fills", "entries", "direction",
	"simulation_only", NULL };
static const char *const returns[] = { "fd", "pid", NULL }; /* enum sc_returns, from RET_FD */
static const char *const kinds[] = { "extensible", "flags-only", "multiplexer", "fixed-padded", "legacy", NULL };
static const char *const safeties[] = { "pure", "sandbox", "namespace", "privileged", NULL };
static const char *const roles[] = { "fd", "path", "struct", "size", "flags", "pid", "int", "ptr", "cmd", NULL };
static const char *const arg_keys[] = { "name", "type", "role", "struct", "flagset", "default", "doc", "direction",
					"strace", "signal", NULL };
static const char *const arg_strace_keys[] = { "source", "format", NULL };
static const char *const arg_strace_formats[] = { "dec", "hex", NULL }; /* enum fformat from FF_DEC */

/* An argument's "strace": how strace prints it when not as the catalogue's flag set does. */
static void load_arg_strace(struct loader *L, json_t *ao, struct sarg *a)
{
	json_t *so = get_member(L, ao, "strace", false, "an argument");
	if (!so || L->failed)
		return;
	push_key(L, "strace");
	if (check_object(L, so, "strace's view of an argument", arg_strace_keys)) {
		a->strace_source = get_str(L, so, "source", true, "strace's view of an argument");
		a->strace_format = (enum fformat)get_choice(L, so, "format", "strace's view of an argument", arg_strace_formats, -1);
		a->strace_numeric = !L->failed;
	}
	pop_step(L);
}
static const char *const arg_signal_keys[] = { "bits", "means", NULL };

/* An argument's "signal": the mask flag of its flag set whose bits are a signal number. */
static void load_arg_signal(struct loader *L, json_t *ao, struct sarg *a)
{
	json_t *so = get_member(L, ao, "signal", false, "an argument");
	if (!so || L->failed)
		return;
	push_key(L, "signal");
	if (check_object(L, so, "an argument's signal bits", arg_signal_keys)) {
		const char *bits = get_str(L, so, "bits", true, "an argument's signal bits");
		a->signal_means = get_str(L, so, "means", true, "an argument's signal bits");
		const struct flagset *in = NULL;
		const struct flag *f = bits && a->flagset ? catalog_find_flag(L->cat, a->flagset, bits, &in) : NULL;
		if (!L->failed && (!f || in != a->flagset || !f->mask || !f->value))
			lerr(L, "'%s' is not a mask flag of the argument's flag set", bits);
		else if (!L->failed)
			a->signal_name = f->name, a->signal_mask = f->value;
	}
	pop_step(L);
}
static const char *const size_keys[] = { "where", "name", "bits", NULL };
static const char *const wheres[] = { "arg", "field", "ioctl", "pointer", "none", NULL };
static const char *const rule_keys[] = { "zero", "below_ver0", "min", "cap", "cap_since", "cap_backported", "cap_errno", "tail",
					 "writeback", "null", "check_order", "ignore_unknown", "tail_struct", NULL };
static const char *const tails[] = { "E2BIG", "zeroed", "untouched", "ignored", NULL };               /* from TAIL_E2BIG */
static const char *const writebacks[] = { "none", "size-on-e2big", "size-on-success", "required-size", NULL }; /* from WB_NONE */
static const char *const ioctl_keys[] = { "fd", "dir", "type", "nr", NULL };
static const char *const ioctl_dirs[] = { "none", "w", "r", "rw", NULL }; /* enum ioctl_dir */

static void check_errno_value(struct loader *L, json_t *o, const char *key, const char *what, bool allow_ok,
			      const char **out)
{
	const char *s = get_str(L, o, key, false, what);
	*out = s;
	if (!s || L->failed)
		return;
	if ((allow_ok && (!strcmp(s, "ok") || !strcmp(s, "ver0"))) || errno_from_name(s) > 0)
		return;
	push_key(L, key);
	lerr(L, "'%s' must be an errno name%s, not \"%s\"", key, allow_ok ? ", \"ok\" or \"ver0\"" : "", s);
	pop_step(L);
}


/* A check's condition: over the call's arguments, its struct's fields, size and flags. */
/* The first field code reads (its value or unknown bits) that call sc does not read, or NULL. */
const struct field *ld_output_field_read(const struct syscall *sc, const struct expr_insn *code, size_t n)
{
	for (size_t i = 0; sc->st && i < n; i++)
		if ((code[i].op == XO_FIELD || code[i].op == XO_UNKNOWN_FIELD) && code[i].idx < sc->st->nfields &&
		    !field_is_input(sc, sc->st, &sc->st->fields[code[i].idx]))
			return &sc->st->fields[code[i].idx];
	return NULL;
}

static void load_condition(struct loader *L, json_t *co, struct syscall *sc, struct check *ck)
{
	if (!(ck->text = get_str(L, co, "if", true, "a check")) || L->failed)
		return;
	struct expr_scope scope = { L->cat, sc, sc->st };
	compile_condition(L, &scope, "if", ck->text, &ck->code, &ck->ncode);
	const struct field *f = L->failed ? NULL : ld_output_field_read(sc, ck->code, ck->ncode);
	if (f) {
		push_key(L, "if");
		lerr(L, "the condition reads '%s', which %s does not read (its direction there is %s): only input fields are checked",
		     f->name, sc->name, fdir_name(field_direction(sc, sc->st, f)));
		pop_step(L);
	}
}


/* Whether a check's code reads the struct: a field, unknown(FIELD), nonzero(), or size when
 * the size is a field of the struct. */
bool ld_reads_struct(const struct expr_insn *code, size_t n, const struct syscall *sc)
{
	for (size_t i = 0; i < n; i++)
		if (code[i].op == XO_FIELD || code[i].op == XO_UNKNOWN_FIELD || code[i].op == XO_NONZERO ||
		    (code[i].op == XO_SIZE && sc->size_where != SW_ARG && sc->size_where != SW_IOCTL)) /* an ioctl's is in its number */
			return true;
	return false;
}

/* Whether the rules' tail_struct can stand for the kernel's copy of the call's struct: a call
 * with a size convention and an E2BIG tail, a struct other than its own and no smaller; why
 * says what is wrong. */
bool ld_tail_struct_ok(const struct syscall *sc, struct sbuf *why)
{
	const struct cstruct *t = sc->rules.tail_struct;
	if (!t)
		return true;
	if (!syscall_has_size_steps(sc))
		sbuf_addf(why, "'tail_struct' needs a size the kernel copies by: a struct and a size as an argument, a field or in the ioctl number");
	else if (sc->rules.tail != TAIL_E2BIG && sc->rules.tail != TAIL_UNSAID)
		sbuf_addf(why, "'tail_struct' says where an E2BIG tail starts; this call's tail is %s", size_tail_name(sc->rules.tail));
	else if (t == sc->st)
		sbuf_addf(why, "'tail_struct' names the call's own struct '%s': leave it out", t->name);
	else if (t->size < cstruct_newest_size(sc->st))
		sbuf_addf(why, "'tail_struct' '%s' (%u bytes) cannot hold struct '%s' (%u bytes): the call's struct is its first part",
			  t->name, t->size, sc->st->name, cstruct_newest_size(sc->st));
	else
		return true;
	return false;
}

/* "env": the kinds of state outside the arguments a check depends on, each named once. */
static void load_check_env(struct loader *L, json_t *co, struct check *ck)
{
	size_t n;
	const char **kinds = get_strings(L, co, "env", "a check", &n);
	if (!kinds || L->failed)
		return;
	push_key(L, "env");
	if (!n)
		lerr(L, "'env' is empty; leave it out for a check the arguments alone decide");
	for (size_t i = 0; i < n && !L->failed; i++) {
		int k = env_kind_from_name(kinds[i]);
		push_idx(L, i);
		if (k < 0)
			lerr(L, "'env' entries are path, fd, pointer, privilege, hardware, lsm, filesystem, object, pid or memory, not \"%s\"", kinds[i]);
		else if (ck->env & 1u << k)
			lerr(L, "'env' names \"%s\" twice", kinds[i]);
		ck->env |= k < 0 ? 0 : 1u << k;
		pop_step(L);
	}
	pop_step(L);
}

/* "errno": one name, or, for a check with "env", a list of the errnos the world may give
 * (each once); errnos[0] is the one named where a single errno is shown. */
static void load_check_errnos(struct loader *L, json_t *co, struct check *ck)
{
	json_t *v = get_member(L, co, "errno", true, "a check");
	if (!v || L->failed)
		return;
	if (!json_is_array(v)) {
		check_errno_value(L, co, "errno", "a check", false, &ck->errno_name);
		if (!ck->errno_name && !L->failed)
			lerr(L, "a check has no 'errno'");
		ck->errnos = arena_alloc(L->a, sizeof(*ck->errnos));
		ck->errnos[0] = ck->errno_name;
		ck->nerrnos = 1;
		ck->err = ck->errno_name ? errno_from_name(ck->errno_name) : 0;
		return;
	}
	push_key(L, "errno");
	if (!ck->env)
		lerr(L, "a list of errnos needs 'env' (what the answer depends on); a check the arguments decide has one errno");
	else if (!json_array_size(v))
		lerr(L, "'errno' is an empty list");
	pop_step(L);
	ck->errnos = L->failed ? NULL : get_strings(L, co, "errno", "a check", &ck->nerrnos);
	push_key(L, "errno");
	for (size_t i = 0; ck->errnos && i < ck->nerrnos && !L->failed; i++) {
		push_idx(L, i);
		if (errno_from_name(ck->errnos[i]) <= 0)
			lerr(L, "'errno' entries must be errno names, not \"%s\"", ck->errnos[i]);
		for (size_t j = 0; j < i && !L->failed; j++)
			if (!strcmp(ck->errnos[j], ck->errnos[i]))
				lerr(L, "'errno' names %s twice", ck->errnos[i]);
		pop_step(L);
	}
	pop_step(L);
	ck->errno_name = ck->errnos && ck->nerrnos ? ck->errnos[0] : NULL;
	ck->err = ck->errno_name ? errno_from_name(ck->errno_name) : 0;
}

static const char *const step_keys[] = { "step", "source", NULL };
static const char *const check_keys[] = { "if", "errno", "env", "lookup", "since", "until", "backported", "until_backported", "source", "why",
					  NULL };

/* {"step": NAME}: a size step placed where the kernel takes it. */
static void load_step(struct loader *L, json_t *co, struct syscall *sc, struct check *ck, const unsigned char *seen)
{
	if (!check_object(L, co, "a size step", step_keys))
		return;
	const char *name = get_str(L, co, "step", true, "a size step");
	if (!name || L->failed)
		return;
	push_key(L, "step");
	for (enum check_step s = CS_NULL; s <= CS_LAST; s++)
		if (!strcmp(name, check_step_name(s)))
			ck->step = s;
	if (ck->step == CS_COND) {
		struct suggest sg = SUGGEST_INIT(name, 3);
		for (enum check_step s = CS_NULL; s <= CS_LAST; s++)
			suggest_add(&sg, check_step_name(s));
		const char *best = suggest_best(&sg);
		lerr(L, "unknown step '%s'%s%s%s", name, best ? " (did you mean '" : "", best ? best : "", best ? "'?)" : "");
	} else if (!syscall_has_size_steps(sc)) {
		lerr(L, "a size step on a call without a size convention (its checks run in the order written)");
	} else if (seen[ck->step]) {
		lerr(L, "the step '%s' is named twice", name);
	} else if (seen[CS_COPY_IN] && ck->step != CS_COPY_OUT) {
		lerr(L, "the step '%s' comes after copy-in: the kernel takes the size and the pointer before it copies", name);
	} else if (ck->step == CS_COPY_IN && seen[CS_COPY_OUT]) {
		lerr(L, "the step 'copy-in' comes after copy-out");
	} else if (!check_step_applies(sc, ck->step)) {
		lerr(L, "the step '%s' has no rule to apply ('rules' %s)", name,
		     ck->step == CS_COPY_OUT ? "says the struct is input: its tail is E2BIG" : "does not state it, or says \"ok\"");
	}
	pop_step(L);
	ck->placed = true;
	if (!L->failed)
		check_describe_step(L->a, sc, ck, get_str(L, co, "source", false, "a size step"));
}

static void load_check(struct loader *L, json_t *co, struct syscall *sc, struct check *ck)
{
	char a[16], b[16];
	if (json_is_object(co) && json_object_get(co, "stage")) {
		push_key(L, "stage");
		L->at_key = true;
		lerr(L, "'stage' is gone: place a size step ({\"step\": \"size-zero\"}, …) in the list where the kernel takes it");
		L->at_key = false;
		pop_step(L);
		return;
	}
	if (!check_object(L, co, "a check", check_keys))
		return;
	load_condition(L, co, sc, ck);
	load_check_env(L, co, ck);
	load_check_errnos(L, co, ck);
	const char *lookup = get_str(L, co, "lookup", false, "a check");
	if (lookup && !L->failed) {
		push_key(L, "lookup");
		if (strcmp(lookup, "parent"))
			lerr(L, "'lookup' is \"%s\"; the only one is \"parent\" (the directory a created name goes into)", lookup);
		else if (!(ck->env & 1u << ENV_PATH))
			lerr(L, "'lookup' belongs to a check whose env holds \"path\"");
		ck->lookup_parent = true;
		pop_step(L);
	}
	ck->since = get_kver(L, co, "since", true, "a check");
	ck->until = get_kver(L, co, "until", false, "a check");
	load_backports(L, co, "backported", ck->since, ck->backported, "a check");
	load_backports(L, co, "until_backported", ck->until, ck->until_backported, "a check");
	if (!L->failed && ck->until_backported[0] && !ck->until) {
		push_key(L, "until_backported");
		lerr(L, "'until_backported' belongs to a check with an 'until'");
		pop_step(L);
	}
	ck->source = get_str(L, co, "source", true, "a check");
	ck->why = get_str(L, co, "why", true, "a check");
	if (!L->failed && ck->until && ck->until <= ck->since) {
		push_key(L, "until");
		lerr(L, "'until' %s is not after 'since' %s", kver_str(ck->until, a), kver_str(ck->since, b));
		pop_step(L);
	}
}

/* A condition before copy-in may not read the struct: the kernel has not copied it yet. */
static void check_struct_reads(struct loader *L, const struct syscall *sc, const struct check *list, const long *json_idx,
			       size_t n)
{
	size_t copy = checks_find_step(list, n, CS_COPY_IN);
	for (size_t i = 0; i < copy && i < n && !L->failed; i++) {
		if (list[i].step != CS_COND || !ld_reads_struct(list[i].code, list[i].ncode, sc))
			continue;
		push_idx(L, (size_t)json_idx[i]);
		push_key(L, "if");
		lerr(L, "a check before copy-in reads the struct, which the kernel has not copied yet: only arguments, size as an argument and constants");
		pop_step(L);
		pop_step(L);
	}
}

/* {"checks_of": NAME, "in": FUNCTION}: the conditions of another call that runs the same kernel
 * code on the same struct (IORING_OP_OPENAT2 and openat2 share build_open_flags), found in
 * whichever file holds it and compiled here, against this call's arguments and struct; with
 * "in", only those whose source names that kernel function (PERF_EVENT_IOC_MODIFY_ATTRIBUTES
 * runs perf_event_open's perf_copy_attr and nothing else of it). Its size steps are its own,
 * so they are left out; a list that takes another's checks is not taken in turn. */
static json_t *checks_of(struct loader *L, json_t *co, const struct src **in, size_t *at)
{
	static const char *const keys[] = { "checks_of", "in", "source", NULL };
	if (!check_object(L, co, "a check list's checks_of", keys))
		return NULL;
	const char *name = get_str(L, co, "checks_of", true, "a checks_of entry");
	for (size_t f = 0; name && f < L->nsrcs; f++) {
		json_t *a = json_object_get(L->srcs[f].root, "syscalls");
		for (size_t i = 0; a && i < json_array_size(a); i++) {
			json_t *o = json_array_get(a, i), *n = json_object_get(o, "name");
			if (!json_is_string(n) || strcmp(json_string_value(n), name))
				continue;
			json_t *cks = json_object_get(o, "checks");
			push_key(L, "checks_of");
			if (!json_is_array(cks))
				lerr(L, "'%s' has no checks to take", name);
			for (size_t k = 0; json_is_array(cks) && k < json_array_size(cks) && !L->failed; k++)
				if (json_object_get(json_array_get(cks, k), "checks_of"))
					lerr(L, "'%s' takes another call's checks itself: name that call", name);
			pop_step(L);
			*in = &L->srcs[f];
			*at = i;
			return L->failed ? NULL : cks;
		}
	}
	if (name && !L->failed) {
		push_key(L, "checks_of");
		lerr(L, "no syscall named '%s' to take checks from", name);
		pop_step(L);
	}
	return NULL;
}

/* Loads the conditions of another call's list at the place of its checks_of entry; errors
 * point into the file that holds them. */
static size_t load_checks_of(struct loader *L, json_t *cks, const char *fn, const struct src *in, size_t at,
			     struct syscall *sc, struct check *list)
{
	const struct src *here = L->src;
	struct step saved[ARRAY_SIZE(L->path)];
	int depth = L->depth;
	size_t n = 0;
	memcpy(saved, L->path, sizeof(saved));
	L->src = in;
	L->depth = 0;
	push_key(L, "syscalls"), push_idx(L, at), push_key(L, "checks");
	for (size_t k = 0; k < json_array_size(cks) && !L->failed; k++) {
		json_t *co = json_array_get(cks, k), *src = json_object_get(co, "source");
		if (json_object_get(co, "step") || (fn && !(json_is_string(src) && strstr(json_string_value(src), fn))))
			continue;
		push_idx(L, k);
		load_check(L, co, sc, &list[n++]);
		pop_step(L);
	}
	L->src = here;
	L->depth = depth;
	memcpy(L->path, saved, sizeof(saved));
	if (L->failed) { /* the fault is in the other file: say which call took it */
		L->failed = false;
		push_key(L, "checks_of");
		lerr(L, "%s cannot take these checks: the one above reads what %s does not have", sc->name, sc->name);
		pop_step(L);
	}
	return n;
}

/* How many of the other call's checks a checks_of entry can take: those whose source names
 * its "in" (all without one), so the list is not sized for checks it leaves out (the arena
 * keeps every byte it hands out). */
static size_t count_taken(json_t *other, json_t *in)
{
	size_t n = 0;
	for (size_t k = 0; k < json_array_size(other); k++) {
		json_t *src = json_object_get(json_array_get(other, k), "source");
		n += !json_is_string(in) || (json_is_string(src) && strstr(json_string_value(src), json_string_value(in)));
	}
	return n;
}

static size_t count_checks(struct loader *L, json_t *cks)
{
	size_t n = 0;
	for (size_t i = 0; cks && i < json_array_size(cks); i++) {
		json_t *co = json_array_get(cks, i), *name = json_object_get(co, "checks_of");
		n++;
		for (size_t f = 0; json_is_string(name) && f < L->nsrcs; f++) {
			json_t *a = json_object_get(L->srcs[f].root, "syscalls");
			for (size_t j = 0; a && j < json_array_size(a); j++) {
				json_t *n2 = json_object_get(json_array_get(a, j), "name");
				if (json_is_string(n2) && !strcmp(json_string_value(n2), json_string_value(name)))
					n += count_taken(json_object_get(json_array_get(a, j), "checks"), json_object_get(co, "in"));
			}
		}
	}
	return n;
}

static void load_checks(struct loader *L, json_t *o, struct syscall *sc)
{
	json_t *cks = get_array(L, o, "checks", false, "a syscall");
	size_t n = 0, cap = count_checks(L, cks) + CS_LAST;
	if (L->failed || (!cks && !syscall_has_size_steps(sc)))
		return;
	struct check *list = arena_alloc(L->a, sizeof(*list) * cap);
	long *json_idx = xcalloc(cap, sizeof(*json_idx));
	unsigned char seen[CS_LAST + 1] = { 0 };
	push_key(L, "checks");
	for (size_t i = 0; cks && i < json_array_size(cks) && !L->failed; i++) {
		json_t *co = json_array_get(cks, i), *other;
		const struct src *in = NULL;
		size_t at = 0;
		push_idx(L, i);
		if (json_is_object(co) && json_object_get(co, "checks_of")) {
			const char *fn = get_str(L, co, "in", false, "a checks_of entry");
			size_t k = 0;
			if ((other = checks_of(L, co, &in, &at)) && !(k = load_checks_of(L, other, fn, in, at, sc, &list[n])) && fn) {
				push_key(L, "in");
				lerr(L, "no check of '%s' names %s in its source", json_string_value(json_object_get(co, "checks_of")), fn);
				pop_step(L);
			}
			for (; k; k--)
				json_idx[n++] = (long)i;
			pop_step(L);
			continue;
		}
		if (json_is_object(co) && json_object_get(co, "step"))
			load_step(L, co, sc, &list[n], seen);
		else
			load_check(L, co, sc, &list[n]);
		seen[list[n].step] = 1;
		json_idx[n++] = (long)i;
		pop_step(L);
	}
	if (!L->failed && syscall_has_size_steps(sc)) {
		checks_insert_steps(L->a, sc, list, json_idx, &n);
		check_struct_reads(L, sc, list, json_idx, n);
	}
	pop_step(L);
	sc->checks = list;
	sc->nchecks = n;
	for (size_t i = 0; i < n; i++)
		sc->nconds += list[i].step == CS_COND;
	free(json_idx);
}

/* "results": [{"if", "value", "since", "source"}]: what a successful call returns where the
 * value depends on the kernel (landlock's ABI version), measured or read from the source. */
static void load_results(struct loader *L, json_t *o, struct syscall *sc)
{
	static const char *const keys[] = { "if", "value", "since", "source", NULL };
	json_t *rs = get_array(L, o, "results", false, "a syscall");
	if (!rs || L->failed)
		return;
	struct expr_scope scope = { L->cat, sc, sc->st };
	sc->results = arena_alloc(L->a, sizeof(*sc->results) * (json_array_size(rs) + 1));
	push_key(L, "results");
	for (size_t i = 0; i < json_array_size(rs) && !L->failed; i++) {
		json_t *ro = json_array_get(rs, i);
		struct result_rule *r = &sc->results[i];
		push_idx(L, i);
		if (check_object(L, ro, "a result", keys)) {
			if ((r->text = get_str(L, ro, "if", true, "a result")) && !L->failed)
				compile_condition(L, &scope, "if", r->text, &r->code, &r->ncode);
			json_t *v = get_member(L, ro, "value", true, "a result");
			if (v && !L->failed && !(json_is_integer(v) && json_integer_value(v) >= 0)) {
				push_key(L, "value");
				lerr(L, "'value' must be a number of 0 or more");
				pop_step(L);
			}
			r->value = v && json_is_integer(v) ? (uint64_t)json_integer_value(v) : 0;
			r->since = get_kver(L, ro, "since", true, "a result");
			r->source = get_str(L, ro, "source", true, "a result");
		}
		pop_step(L);
		sc->nresults = i + 1;
	}
	pop_step(L);
}

/* "effects": [{"if", "signal", "since", "source", "why"}]: what a successful call may do to
 * its caller besides returning (clone3's exit_signal, sent when the new process exits). */
static void load_effects(struct loader *L, json_t *o, struct syscall *sc)
{
	static const char *const keys[] = { "if", "signal", "since", "source", "why", NULL };
	json_t *es = get_array(L, o, "effects", false, "a syscall");
	if (!es || L->failed)
		return;
	struct expr_scope scope = { L->cat, sc, sc->st };
	sc->effects = arena_alloc(L->a, sizeof(*sc->effects) * (json_array_size(es) + 1));
	push_key(L, "effects");
	for (size_t i = 0; i < json_array_size(es) && !L->failed; i++) {
		json_t *eo = json_array_get(es, i);
		struct effect_rule *e = &sc->effects[i];
		push_idx(L, i);
		if (check_object(L, eo, "an effect", keys)) {
			if ((e->text = get_str(L, eo, "if", true, "an effect")) && !L->failed)
				compile_condition(L, &scope, "if", e->text, &e->code, &e->ncode);
			if ((e->signal_text = get_str(L, eo, "signal", true, "an effect")) && !L->failed)
				compile_condition(L, &scope, "signal", e->signal_text, &e->signal_code, &e->nsignal_code);
			e->since = get_kver(L, eo, "since", true, "an effect");
			e->source = get_str(L, eo, "source", true, "an effect");
			e->why = get_str(L, eo, "why", true, "an effect");
		}
		pop_step(L);
		sc->neffects = i + 1;
	}
	pop_step(L);
}

/* "entries": {"name", "struct", "count", "max"}: entries of a struct after the call's struct
 * in the same buffer, as many as the argument "count" says (io_uring_probe's ops[]). */
static void load_entries(struct loader *L, json_t *o, struct syscall *sc)
{
	static const char *const keys[] = { "name", "struct", "count", "max", NULL };
	json_t *eo = json_object_get(o, "entries");
	if (!eo || L->failed)
		return;
	push_key(L, "entries");
	if (check_object(L, eo, "'entries'", keys)) {
		struct call_entries *e = &sc->entries;
		const char *stn = get_str(L, eo, "struct", true, "'entries'");
		const char *count = get_str(L, eo, "count", true, "'entries'");
		uint64_t max = 0;
		e->name = get_str(L, eo, "name", true, "'entries'");
		get_uint(L, eo, "max", true, "'entries'", 1, 4096, &max);
		e->max = (unsigned)max;
		e->count_arg = -1;
		for (size_t i = 0; count && i < sc->nargs && i < 6; i++)
			if (!strcmp(sc->args[i].name, count) && sc->args[i].role == AR_INT)
				e->count_arg = (int)i;
		if (!L->failed && (!sc->st || sc->size_where != SW_NONE))
			lerr(L, "'entries' follow a struct whose call has no size ('size': none)");
		else if (!L->failed && !(e->st = catalog_find_struct(L->cat, stn)))
			lerr(L, "unknown struct '%s'", stn);
		else if (!L->failed && e->count_arg < 0)
			lerr(L, "'count' %s is no integer argument of %s", count, sc->name);
	}
	pop_step(L);
}

/* The struct a fill's field is in, and the field: its "in" argument's struct, an entry's
 * struct for "NAME[].FIELD" (the call's entries), else the call's; NULL with an error. */
static const struct field *fill_field(struct loader *L, json_t *fo, const struct syscall *sc, struct fill_rule *f,
				      const struct cstruct **stp)
{
	const char *name = get_str(L, fo, "field", true, "a fill");
	const char *in = get_str(L, fo, "in", false, "a fill");
	const struct cstruct *st = sc->st;
	size_t nl = sc->entries.name ? strlen(sc->entries.name) : 0;
	f->in_arg = -1;
	if (!name || L->failed)
		return NULL;
	if (in) {
		for (size_t i = 0; i < sc->nargs && i < 6; i++)
			if (!strcmp(sc->args[i].name, in) && sc->args[i].st && sc->args[i].st != sc->st &&
			    (sc->args[i].role == AR_PTR || sc->args[i].role == AR_STRUCT))
				f->in_arg = (int)i;
		if (f->in_arg < 0) {
			push_key(L, "in");
			lerr(L, "'in' %s is no pointer argument of %s to a struct of its own", in, sc->name);
			pop_step(L);
			return NULL;
		}
		st = sc->args[f->in_arg].st;
	} else if (nl && !strncmp(name, sc->entries.name, nl) && !strncmp(name + nl, "[].", 3)) {
		f->entry = true;
		st = sc->entries.st;
		name += nl + 3;
	}
	const struct field *fd = st ? cstruct_find_field(st, name) : NULL;
	enum fdir d = fd ? field_direction(sc, st, fd) : FD_IN;
	if (!fd || d == FD_IN || d == FD_IGNORED || fd->count) {
		push_key(L, "field");
		lerr(L, "'%s' is no field of %s that the call writes (out or inout, not an array)", name, st ? st->name : "(none)");
		pop_step(L);
		return NULL;
	}
	*stp = st;
	return fd;
}

/* "fills": [{"field", "in", "if", "value", "since", "source"}]: what a successful call writes
 * into an output field of its struct (or of the struct another argument points at, or of each
 * of its entries), where the catalogue knows it at that kernel. */
static void load_fills(struct loader *L, json_t *o, struct syscall *sc)
{
	static const char *const keys[] = { "field", "in", "if", "value", "since", "source", NULL };
	json_t *fs = get_array(L, o, "fills", false, "a syscall");
	if (!fs || L->failed)
		return;
	if (!sc->st) {
		lerr(L, "'fills' needs a struct to fill");
		return;
	}
	sc->fills = arena_alloc(L->a, sizeof(*sc->fills) * (json_array_size(fs) + 1));
	push_key(L, "fills");
	for (size_t i = 0; i < json_array_size(fs) && !L->failed; i++) {
		json_t *fo = json_array_get(fs, i);
		struct fill_rule *f = &sc->fills[i];
		const struct cstruct *st = NULL;
		push_idx(L, i);
		if (check_object(L, fo, "a fill", keys)) {
			const struct field *fd = fill_field(L, fo, sc, f, &st);
			struct expr_scope scope = { L->cat, sc, sc->st, f->entry };
			f->field = fd ? (unsigned)(fd - st->fields) : 0;
			/* in the arena, as every string the cache relocates */
			f->text = json_object_get(fo, "if") ? get_str(L, fo, "if", true, "a fill") : arena_strdup(L->a, "1");
			if (f->text && !L->failed)
				compile_condition(L, &scope, "if", f->text, &f->code, &f->ncode);
			if ((f->value_text = get_str(L, fo, "value", true, "a fill")) && !L->failed)
				compile_condition(L, &scope, "value", f->value_text, &f->value_code, &f->nvalue_code);
			f->since = get_kver(L, fo, "since", true, "a fill");
			f->source = get_str(L, fo, "source", true, "a fill");
		}
		pop_step(L);
		sc->nfills = i + 1;
	}
	pop_step(L);
}

/* How the call uses its struct, where the struct goes both ways (sched_attr: in for
 * sched_setattr, out for sched_getattr). */
static void load_call_direction(struct loader *L, json_t *o, struct syscall *sc)
{
	if (!json_object_get(o, "direction") || L->failed)
		return;
	sc->direction = (enum fdir)(get_choice(L, o, "direction", "a syscall", ld_directions, 0) + FD_IN);
	if (!L->failed && (!sc->st || sc->st->direction != FD_INOUT || sc->direction == FD_INOUT)) {
		push_key(L, "direction");
		lerr(L, "a call's 'direction' narrows an inout struct to \"in\" or \"out\"; %s%s%s", sc->st ? "struct '" : "",
		     sc->st ? sc->st->name : "this call has no struct", sc->st ? "' is not inout, or the call says inout" : "");
		pop_step(L);
	}
}

static void load_nr(struct loader *L, json_t *o, struct syscall *sc)
{
	static const char *const arch_keys[] = { "x86_64", "aarch64", NULL };
	json_t *nr = get_member(L, o, "nr", true, "a syscall");
	if (!nr || L->failed)
		return;
	push_key(L, "nr");
	if (check_object(L, nr, "'nr'", arch_keys)) {
		long *dst[] = { &sc->nr_x86_64, &sc->nr_aarch64 };
		for (int i = 0; i < 2 && !L->failed; i++) {
			json_t *v = get_member(L, nr, arch_keys[i], true, "'nr'");
			if (!v || L->failed)
				break;
			push_key(L, arch_keys[i]);
			if (json_is_null(v))
				*dst[i] = -1;
			else if (json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) < 4096)
				*dst[i] = (long)json_integer_value(v);
			else
				lerr(L, "a syscall number must be an integer 0..4095 or null");
			pop_step(L);
		}
	}
	pop_step(L);
}

static void load_args(struct loader *L, json_t *arr, struct syscall *sc)
{
	sc->args = arena_alloc(L->a, sizeof(*sc->args) * (json_array_size(arr) + 1));
	push_key(L, "args");
	for (size_t i = 0; i < json_array_size(arr) && !L->failed; i++) {
		json_t *ao = json_array_get(arr, i);
		struct sarg *a = &sc->args[i];
		push_idx(L, i);
		if (check_object(L, ao, "an argument", arg_keys)) {
			a->name = get_str(L, ao, "name", true, "an argument");
			a->type = get_str(L, ao, "type", true, "an argument");
			sarg_type(a);
			a->role = (enum arg_role)get_choice(L, ao, "role", "an argument", roles, -1);
			a->def = get_str(L, ao, "default", false, "an argument");
			a->doc = get_str(L, ao, "doc", false, "an argument");
			a->flagset = resolve_flagset(L, ao, "flagset");
			if (json_object_get(ao, "direction"))
				a->direction = (enum fdir)(get_choice(L, ao, "direction", "an argument", ld_directions, 0) + FD_IN);
			load_arg_strace(L, ao, a);
			load_arg_signal(L, ao, a);
			const char *stn = get_str(L, ao, "struct", false, "an argument");
			if (stn && !(a->st = catalog_find_struct(L->cat, stn))) {
				push_key(L, "struct");
				lerr(L, "unknown struct '%s'", stn);
				pop_step(L);
			}
			for (size_t j = 0; j < i && !L->failed; j++)
				if (!strcmp(sc->args[j].name, a->name))
					lerr(L, "duplicate argument '%s'", a->name);
		}
		pop_step(L);
		sc->nargs = i + 1;
	}
	pop_step(L);
}

static void load_size(struct loader *L, json_t *o, struct syscall *sc)
{
	json_t *so = get_member(L, o, "size", true, "a syscall");
	if (!so || L->failed)
		return;
	push_key(L, "size");
	if (check_object(L, so, "'size'", size_keys)) {
		sc->size_where = (enum size_where)get_choice(L, so, "where", "'size'", wheres, -1);
		bool named = sc->size_where == SW_ARG || sc->size_where == SW_FIELD || sc->size_where == SW_POINTER;
		sc->size_name = get_str(L, so, "name", named, "'size'");
		uint64_t bits = sc->size_where == SW_ARG ? 64 : 32;
		if (json_object_get(so, "bits") && get_uint(L, so, "bits", false, "'size'", 32, 64, &bits) &&
		    bits != 32 && bits != 64) {
			push_key(L, "bits");
			lerr(L, "'bits' must be 32 or 64");
			pop_step(L);
		}
		sc->size_bits = (unsigned)bits;
		if (!L->failed && sc->size_where == SW_FIELD) {
			const struct field *f = sc->st ? cstruct_find_field(sc->st, sc->size_name) : NULL;
			push_key(L, "name");
			if (!f)
				lerr(L, "the size field '%s' is not a field of struct '%s'", sc->size_name,
				     sc->st ? sc->st->name : "(none)");
			else
				((struct cstruct *)sc->st)->size_field = f;
			pop_step(L);
		} else if (!L->failed && (sc->size_where == SW_ARG || sc->size_where == SW_POINTER)) {
			bool found = false;
			for (size_t i = 0; i < sc->nargs; i++)
				found |= !strcmp(sc->args[i].name, sc->size_name);
			if (!found) {
				push_key(L, "name");
				lerr(L, "the size argument '%s' is not an argument of '%s'", sc->size_name, sc->name);
				pop_step(L);
			}
		}
	}
	pop_step(L);
}

/* A size rule's answer: an errno name, "ok", or for size 0 "ver0" (read as the first version). */
static void load_size_answer(struct loader *L, json_t *ro, const char *key, bool ver0_ok, struct size_answer *a)
{
	const char *s = get_str(L, ro, key, false, "'rules'");
	if (!s || L->failed)
		return;
	if (!strcmp(s, "ok"))
		a->kind = SA_OK;
	else if (ver0_ok && !strcmp(s, "ver0"))
		a->kind = SA_VER0;
	else if ((a->err = errno_from_name(s)) > 0)
		a->kind = SA_ERRNO;
	else {
		a->err = 0;
		push_key(L, key);
		lerr(L, "'%s' must be an errno name or \"ok\"%s, not \"%s\"", key, ver0_ok ? " or \"ver0\"" : "", s);
		pop_step(L);
	}
}

/* An errno rule as its number; dflt when the rules do not state it. */
static int load_rule_errno(struct loader *L, json_t *ro, const char *key, int dflt)
{
	const char *s = NULL;
	check_errno_value(L, ro, key, "'rules'", false, &s);
	return s && !L->failed ? errno_from_name(s) : dflt;
}

/* "tail_struct": the bigger struct the kernel copies (bpf's union bpf_attr), held to
 * ld_tail_struct_ok. */
static void load_tail_struct(struct loader *L, json_t *ro, struct syscall *sc)
{
	const char *name = get_str(L, ro, "tail_struct", false, "'rules'");
	if (!name || L->failed)
		return;
	push_key(L, "tail_struct");
	struct sbuf why = SBUF_INIT;
	if (!(sc->rules.tail_struct = catalog_find_struct(L->cat, name)))
		lerr(L, "unknown struct '%s'", name);
	else if (!ld_tail_struct_ok(sc, &why))
		lerr(L, "%s", why.buf);
	sbuf_release(&why);
	pop_step(L);
}

static void load_rules(struct loader *L, json_t *o, struct syscall *sc)
{
	json_t *ro = json_object_get(o, "rules");
	if (!ro)
		return;
	push_key(L, "rules");
	if (check_object(L, ro, "'rules'", rule_keys)) {
		struct size_rules *r = &sc->rules;
		uint64_t v = 0;
		sc->has_rules = true;
		load_size_answer(L, ro, "zero", true, &r->zero);
		load_size_answer(L, ro, "below_ver0", false, &r->below_ver0);
		if (get_uint(L, ro, "min", false, "'rules'", 0, 1u << 20, &v))
			r->min = (unsigned)v;
		json_t *cap = json_object_get(ro, "cap");
		if (cap && !json_is_null(cap) && get_uint(L, ro, "cap", false, "'rules'", 1, 1u << 30, &v))
			r->cap = v;
		r->cap_since = get_kver(L, ro, "cap_since", false, "'rules'");
		load_backports(L, ro, "cap_backported", r->cap_since, r->cap_backported, "'rules'");
		if (json_object_get(ro, "tail"))
			r->tail = (enum size_tail)(TAIL_E2BIG + get_choice(L, ro, "tail", "'rules'", tails, 0));
		r->writeback = (enum size_writeback)(WB_NONE + get_choice(L, ro, "writeback", "'rules'", writebacks, 0));
		r->check_order = get_str(L, ro, "check_order", false, "'rules'");
		r->cap_errno = load_rule_errno(L, ro, "cap_errno", E2BIG);
		r->null_errno = load_rule_errno(L, ro, "null", 0);
		r->ignore_unknown = get_strings(L, ro, "ignore_unknown", "'rules'", &r->nignore_unknown);
		load_tail_struct(L, ro, sc);
	}
	pop_step(L);
}

static bool set_has(const struct flagset *fs, const char *flag)
{
	for (size_t k = 0; fs && k < fs->nflags; k++)
		if (!strcmp(fs->flags[k].name, flag))
			return true;
	return false;
}

/* Is "HOLDER:FLAG" a flag of a struct field or of a flags argument called HOLDER? */
int ld_feature_known(const struct syscall *sc, const char *holder, size_t n, const char *flag)
{
	int named = 0;
	for (size_t i = 0; sc->st && i < sc->st->nfields; i++)
		if (strlen(sc->st->fields[i].name) == n && !strncmp(sc->st->fields[i].name, holder, n) && sc->st->fields[i].flagset) {
			named = 1;
			if (set_has(sc->st->fields[i].flagset, flag))
				return 2;
		}
	for (size_t i = 0; i < sc->nargs; i++)
		if (strlen(sc->args[i].name) == n && !strncmp(sc->args[i].name, holder, n) && sc->args[i].flagset) {
			named = 1;
			if (set_has(sc->args[i].flagset, flag))
				return 2;
		}
	return named;
}

static void load_features(struct loader *L, json_t *o, struct syscall *sc)
{
	sc->features = get_strings(L, o, "features", "a syscall", &sc->nfeatures);
	if (L->failed || !sc->features)
		return;
	push_key(L, "features");
	for (size_t i = 0; i < sc->nfeatures && !L->failed; i++) {
		const char *f = sc->features[i];
		const char *colon = strchr(f, ':');
		push_idx(L, i);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(sc->features[j], f))
				lerr(L, "duplicate feature '%s' (bit %zu already)", f, j);
		if (L->failed) {
		} else if (!strcmp(f, "available")) {
			if (i)
				lerr(L, "'available' must be bit 0");
		} else if (!colon) {
			lerr(L, "feature '%s' is not \"available\", \"size:N\", \"FIELD:FLAG\" or \"query:NAME\"", f);
		} else if (!strncmp(f, "size:", 5)) {
			bool ok = false;
			for (size_t k = 0; sc->st && k < sc->st->nversions; k++)
				ok |= (unsigned)atoi(f + 5) == sc->st->versions[k].size;
			if (!ok)
				lerr(L, "feature '%s': %s has no size version of that size", f, sc->st ? sc->st->name : sc->name);
		} else if (strncmp(f, "query:", 6)) {
			int k = ld_feature_known(sc, f, (size_t)(colon - f), colon + 1);
			if (!k)
				lerr(L, "feature '%s': '%.*s' is neither a field with a flag set nor a flags argument", f, (int)(colon - f), f);
			else if (k == 1)
				lerr(L, "feature '%s': %s is not a flag of '%.*s'", f, colon + 1, (int)(colon - f), f);
		}
		pop_step(L);
	}
	pop_step(L);
}

/* ---- probe queries ---- */

const struct sarg *ld_find_arg(const struct syscall *sc, const char *name)
{
	for (size_t i = 0; i < sc->nargs; i++)
		if (!strcmp(sc->args[i].name, name))
			return &sc->args[i];
	return NULL;
}

/* Where query q reads: the struct its "in" names (a pointer argument's, or "struct" for a
 * field holding an address), else the call's; NULL with an error reported. */
static const struct cstruct *query_struct(struct loader *L, json_t *qo, const struct syscall *sc, struct probe_query *q)
{
	const char *stn = get_str(L, qo, "struct", false, "a query");
	const struct cstruct *st = stn ? catalog_find_struct(L->cat, stn) : sc->st;
	if (stn && !st)
		lerr(L, "unknown struct '%s'", stn);
	if (!q->in || L->failed)
		return st;
	const struct sarg *a = ld_find_arg(sc, q->in);
	if (a && !stn)
		st = a->st;
	else if (!a && !(sc->st && cstruct_find_field(sc->st, q->in) && stn))
		lerr(L, "'in' must be a pointer argument of %s, or a field of its struct with a 'struct'", sc->name);
	if (!st && !L->failed)
		lerr(L, "'in' %s points at no struct the catalogue knows", q->in);
	return st;
}

static void load_query(struct loader *L, json_t *qo, const struct syscall *sc, struct probe_query *q)
{
	static const char *const qk[] = { "name", "args", "set", "read", "in", "struct", "count", "auxv", NULL };
	if (!check_object(L, qo, "a query", qk))
		return;
	q->name = get_str(L, qo, "name", true, "a query");
	q->args = get_strings(L, qo, "args", "a query", &q->nargs);
	q->set = get_strings(L, qo, "set", "a query", &q->nset);
	q->read = get_str(L, qo, "read", false, "a query");
	q->in = get_str(L, qo, "in", false, "a query");
	q->count = get_str(L, qo, "count", false, "a query");
	q->auxv = get_str(L, qo, "auxv", false, "a query");
	if (L->failed)
		return;
	if (!q->auxv == !q->read)
		lerr(L, "a query has either 'read' or 'auxv'");
	q->st = query_struct(L, qo, sc, q);
	if (L->failed || !q->read || !strcmp(q->read, "return"))
		return;
	const struct cstruct *in_st = q->count ? sc->st : q->st; /* count: read is the call's */
	if (!in_st || !cstruct_find_field(in_st, q->read))
		lerr(L, "'read' %s is not a field of %s", q->read, in_st ? in_st->name : "a struct");
	if (!q->count)
		return;
	char field[64];
	const char *colon = strchr(q->count, ':');
	int n = colon ? snprintf(field, sizeof(field), "%.*s", (int)(colon - q->count), q->count) : -1;
	if (n < 0 || (size_t)n >= sizeof(field) || !q->st || !cstruct_find_field(q->st, field) || !colon[1])
		lerr(L, "'count' %s is not FIELD:FLAG of an entry struct", q->count);
}

static void load_queries(struct loader *L, json_t *po, struct syscall *sc)
{
	json_t *arr = get_array(L, po, "queries", false, "'probe'");
	if (!arr || L->failed)
		return;
	sc->queries = arena_alloc(L->a, sizeof(*sc->queries) * (json_array_size(arr) + 1));
	push_key(L, "queries");
	for (size_t i = 0; i < json_array_size(arr) && !L->failed; i++) {
		push_idx(L, i);
		load_query(L, json_array_get(arr, i), sc, &sc->queries[i]);
		pop_step(L);
		sc->nqueries = i + 1;
	}
	pop_step(L);
}

/* An ioctl's fd, direction, type and number. */
static void load_ioctl(struct loader *L, json_t *o, struct syscall *sc)
{
	json_t *io = json_object_get(o, "ioctl");
	if (!io || L->failed)
		return;
	push_key(L, "ioctl");
	if (check_object(L, io, "'ioctl'", ioctl_keys)) {
		uint64_t nr = 0, type = 0;
		sc->is_ioctl = true;
		sc->ioctl_fd = get_str(L, io, "fd", true, "'ioctl'");
		sc->ioctl_dir = (enum ioctl_dir)get_choice(L, io, "dir", "'ioctl'", ioctl_dirs, -1);
		json_t *t = get_member(L, io, "type", true, "'ioctl'");
		if (t && !L->failed) {
			push_key(L, "type");
			if (json_is_integer(t) && json_integer_value(t) >= 0 && json_integer_value(t) < 256)
				type = (uint64_t)json_integer_value(t);
			else if (!json_is_string(t) || !parse_c_int(json_string_value(t), false, &type) || type > 255)
				lerr(L, "'type' must be 0..255");
			pop_step(L);
		}
		get_uint(L, io, "nr", true, "'ioctl'", 0, 255, &nr);
		sc->ioctl_type = (unsigned)type;
		sc->ioctl_nr = (unsigned)nr;
	}
	pop_step(L);
}

static void load_errors(struct loader *L, json_t *o, struct syscall *sc)
{
	json_t *errs = get_array(L, o, "errors", true, "a syscall");
	if (!errs || L->failed)
		return;
	static const char *const ek[] = { "errno", "meaning", NULL };
	sc->errors = arena_alloc(L->a, sizeof(*sc->errors) * (json_array_size(errs) + 1));
	push_key(L, "errors");
	for (size_t i = 0; i < json_array_size(errs) && !L->failed; i++) {
		json_t *eo = json_array_get(errs, i);
		push_idx(L, i);
		if (check_object(L, eo, "an error", ek)) {
			check_errno_value(L, eo, "errno", "an error", false, &sc->errors[i].errno_name);
			if (!sc->errors[i].errno_name && !L->failed)
				lerr(L, "an error has no 'errno'");
			sc->errors[i].meaning = get_str(L, eo, "meaning", true, "an error");
		}
		pop_step(L);
		sc->nerrors = i + 1;
	}
	pop_step(L);
}

static void load_lineage(struct loader *L, json_t *o, struct syscall *sc)
{
	json_t *lin = get_array(L, o, "lineage", false, "a syscall");
	if (!lin || L->failed)
		return;
	static const char *const lk[] = { "name", "since", "why", NULL };
	sc->lineage = arena_alloc(L->a, sizeof(*sc->lineage) * (json_array_size(lin) + 1));
	push_key(L, "lineage");
	for (size_t i = 0; i < json_array_size(lin) && !L->failed; i++) {
		json_t *lo = json_array_get(lin, i);
		push_idx(L, i);
		if (check_object(L, lo, "a lineage entry", lk)) {
			sc->lineage[i].name = get_str(L, lo, "name", true, "a lineage entry");
			sc->lineage[i].since = get_kver(L, lo, "since", true, "a lineage entry");
			sc->lineage[i].why = get_str(L, lo, "why", true, "a lineage entry");
		}
		pop_step(L);
		sc->nlineage = i + 1;
	}
	pop_step(L);
}

/* What the prober sets, skips and expects refused for this call. */
static void load_probe(struct loader *L, json_t *o, struct syscall *sc)
{
	json_t *po = json_object_get(o, "probe");
	if (!po || L->failed)
		return;
	static const char *const pk[] = { "set", "args", "note", "skip_fields", "skip_args", "refuses", "queries", NULL };
	push_key(L, "probe");
	if (check_object(L, po, "'probe'", pk)) {
		sc->probe_set = get_strings(L, po, "set", "'probe'", &sc->nprobe_set);
		sc->probe_args = get_strings(L, po, "args", "'probe'", &sc->nprobe_args);
		sc->probe_note = get_str(L, po, "note", false, "'probe'");
		sc->probe_skip = get_strings(L, po, "skip_fields", "'probe'", &sc->nprobe_skip);
		sc->probe_refuses = get_strings(L, po, "refuses", "'probe'", &sc->nprobe_refuses);
		sc->probe_skip_args = get_strings(L, po, "skip_args", "'probe'", &sc->nprobe_skip_args);
		for (size_t i = 0; i < sc->nprobe_skip_args && !L->failed; i++)
			if (!ld_find_arg(sc, sc->probe_skip_args[i]))
				lerr(L, "'skip_args': %s has no argument '%s'", sc->name, sc->probe_skip_args[i]);
		load_queries(L, po, sc);
		for (size_t i = 0; i < sc->nprobe_refuses && !L->failed; i++) {
			const char *f = sc->probe_refuses[i], *colon = strchr(f, ':');
			if (!colon || ld_feature_known(sc, f, (size_t)(colon - f), colon + 1) != 2) {
				push_key(L, "refuses");
				push_idx(L, i);
				lerr(L, "'%s' is not FIELD:FLAG of a flags field or argument of %s", f, sc->name);
				pop_step(L);
				pop_step(L);
			}
		}
	}
	pop_step(L);
}

void load_syscall(struct loader *L, json_t *o, struct syscall *sc)
{
	if (!check_object(L, o, "a syscall", syscall_keys))
		return;
	sc->file = arena_strdup(L->a, L->src->name);
	sc->name = get_str(L, o, "name", true, "a syscall");
	sc->kind = (enum sc_kind)get_choice(L, o, "kind", "a syscall", kinds, -1);
	load_nr(L, o, sc);
	sc->since = get_kver(L, o, "since", true, "a syscall");
	sc->header = get_str(L, o, "header", true, "a syscall");
	sc->prototype = get_str(L, o, "prototype", true, "a syscall");
	sc->summary = get_str(L, o, "summary", true, "a syscall");
	sc->safety = (enum safety)get_choice(L, o, "safety", "a syscall", safeties, -1);
	sc->check_fields = get_bool(L, o, "check_fields");
	sc->simulation_only = get_str(L, o, "simulation_only", false, "a syscall");
	if (json_object_get(o, "returns"))
		sc->returns = (enum sc_returns)(RET_FD + get_choice(L, o, "returns", "a syscall", returns, 0));
	load_ioctl(L, o, sc);
	const char *stn = get_str(L, o, "struct", false, "a syscall");
	if (stn && !L->failed && !(sc->st = catalog_find_struct(L->cat, stn))) {
		push_key(L, "struct");
		lerr(L, "unknown struct '%s'", stn);
		pop_step(L);
	}
	if (!L->failed && !sc->st && (sc->kind == SK_EXTENSIBLE || sc->kind == SK_MULTIPLEXER))
		lerr(L, "syscall '%s' of kind %s needs a 'struct'", sc->name, sc_kind_name(sc->kind));
	load_call_direction(L, o, sc);
	json_t *args = get_array(L, o, "args", true, "a syscall");
	if (args && !L->failed)
		load_args(L, args, sc);
	load_size(L, o, sc);
	load_rules(L, o, sc);
	load_checks(L, o, sc);
	load_results(L, o, sc);
	load_effects(L, o, sc);
	load_entries(L, o, sc);
	load_fills(L, o, sc);

	load_errors(L, o, sc);
	load_lineage(L, o, sc);
	sc->notes = get_strings(L, o, "notes", "a syscall", &sc->nnotes);
	sc->links = get_strings(L, o, "links", "a syscall", &sc->nlinks);
	load_features(L, o, sc);
	load_probe(L, o, sc);
}
