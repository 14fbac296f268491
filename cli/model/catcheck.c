/* catalog_check: a loaded catalogue held again to the loader's rules (dataload.h). */
#include "model/dataload.h"
#include "model/loadrules.h"
#include <stdlib.h>
#include <string.h>
#include "base/sbuf.h"
#include "model/decode.h"
#include "model/expr.h"
#include "model/kver.h"
#include "model/xlat.h"
#include "base/banned.h"

/* ---- a loaded catalogue checked again: what a cache holds must be what the loader makes ----
 * The loader checks the JSON as it reads it; a catalogue mapped back from a cache skips the
 * JSON, so these checks hold it to the same rules (the layout, versions, references, names,
 * enumerations, feature bits). test_dataload holds the fresh load of data/ to them too, so
 * the two stay one set of rules. */

#define CHECK(cond, ...)                                  \
	do {                                              \
		if (!(cond)) {                            \
			sbuf_addf(why, __VA_ARGS__);      \
			return -1;                        \
		}                                         \
	} while (0)

static bool errno_ok(const char *s, bool allow_ok)
{
	return !s || (allow_ok && (!strcmp(s, "ok") || !strcmp(s, "ver0"))) || errno_from_name(s) > 0;
}

/* Sorts names (n of them) and says whether no two are equal: n log n, not n squared. */
static bool sorted_unique(const char **names, size_t n)
{
	if (n > 1)
		qsort(names, n, sizeof(*names), cmp_strp);
	for (size_t i = 1; i < n; i++)
		if (!strcmp(names[i - 1], names[i]))
			return false;
	return true;
}

/* The name member of each of n elements of size elem at arr, sorted; unique or not. */
static bool unique_members(const void *arr, size_t n, size_t elem, size_t name_off, const char ***sorted)
{
	const char **v = xmalloc((n + 1) * sizeof(*v));
	for (size_t i = 0; i < n; i++)
		memcpy(&v[i], (const char *)arr + i * elem + name_off, sizeof(*v));
	bool ok = sorted_unique(v, n);
	if (sorted)
		*sorted = v;
	else
		free(v);
	return ok;
}
#define UNIQUE_NAMES(arr, n, sorted) unique_members((arr), (n), sizeof(*(arr)), offsetof(__typeof__(*(arr)), name), (sorted))

static int check_flagset(const struct flagset *fs, struct sbuf *why)
{
	CHECK(fs->name && fs->header && fs->doc && fs->file, "a flag set lacks a name, header or doc");
	for (size_t i = 0; i < fs->nflags; i++) {
		const struct flag *f = &fs->flags[i];
		CHECK(f->name, "flag set '%s': a flag has no name", fs->name);
		CHECK(fs->kind != FS_BITS || f->value || f->mask, "flag '%s' is 0 in a bit set", f->name);
	}
	CHECK(UNIQUE_NAMES(fs->flags, fs->nflags, NULL), "a duplicate flag in '%s'", fs->name);
	bool vb = !fs->value_mask;
	for (size_t i = 0; i < fs->nflags; i++)
		vb |= fs->flags[i].mask && fs->flags[i].value == fs->value_mask;
	CHECK(vb && (!fs->value_mask || fs->kind == FS_BITS), "'%s': its value bits are not a mask flag of it", fs->name);
	return 0;
}

/* No field is named twice, by name or alias (a field may repeat its own name as an alias). */
static bool fields_unique(const struct cstruct *st)
{
	const char **names;
	bool ok = UNIQUE_NAMES(st->fields, st->nfields, &names);
	for (size_t i = 0; ok && i < st->nfields; i++)
		for (size_t k = 0; ok && k < st->fields[i].naliases; k++) {
			const char *a = st->fields[i].aliases[k];
			ok = strcmp(a, st->fields[i].name) == 0 || !bsearch(&a, names, st->nfields, sizeof(*names), cmp_strp);
		}
	free(names);
	return ok;
}

static int check_fields(const struct cstruct *st, unsigned *end, unsigned *natural, struct sbuf *why)
{
	*end = 0;
	*natural = 1;
	for (size_t i = 0; i < st->nfields; i++) {
		const struct field *f = &st->fields[i];
		struct field t;
		CHECK(f->name && f->type_text && ld_parse_ftype(f->type_text, &t), "struct '%s': a field's name or type", st->name);
		CHECK(t.type == f->type && t.elem_size == f->elem_size && t.count == f->count && t.size == f->size,
		      "field '%s': the type does not match '%s'", f->name, f->type_text);
		unsigned align = st->packed ? 1 : f->elem_size;
		CHECK(f->offset <= 1u << 20, "field '%s': offset %u", f->name, f->offset); /* as the loader: no wrap */
		CHECK(f->offset == *end && f->offset % align == 0, "field '%s' at %u: not where the previous one ends (%u)",
		      f->name, f->offset, *end);
		CHECK(!f->string || f->format == FF_PTR, "field '%s': a string shown as a number", f->name);
		CHECK(f->direction == FD_DEFAULT || f->direction == FD_IGNORED || (st->direction == FD_INOUT && f->direction <= FD_INOUT),
		      "field '%s': its direction", f->name);
		*natural = align > *natural ? align : *natural;
		*end = f->offset + f->size;
	}
	return 0;
}

static int check_versions(const struct cstruct *st, struct sbuf *why)
{
	for (size_t i = 0; i < st->nversions; i++) {
		const struct sversion *v = &st->versions[i];
		bool boundary = v->size == st->size;
		for (size_t k = 0; k < st->nfields; k++)
			boundary |= st->fields[k].offset + st->fields[k].size == v->size;
		CHECK(v->size && v->size <= st->size && boundary, "struct '%s': size version %u", st->name, v->size);
		CHECK(!i || (v->size > st->versions[i - 1].size && v->since >= st->versions[i - 1].since),
		      "struct '%s': size versions out of order", st->name);
	}
	for (size_t i = 0; st->nversions && i < st->nfields; i++) {
		const struct field *f = &st->fields[i];
		const struct sversion *cover = NULL;
		for (size_t k = 0; k < st->nversions && !cover; k++)
			if (st->versions[k].size >= f->offset + f->size)
				cover = &st->versions[k];
		CHECK(cover ? f->since >= cover->since && f->zero : f->reserved, "field '%s' and the size versions", f->name);
	}
	return 0;
}

static int check_struct(const struct catalog *c, const struct cstruct *st, struct sbuf *why)
{
	unsigned end, natural;
	CHECK(st->name && st->header && st->doc && st->file && st->direction >= FD_IN && st->direction <= FD_INOUT && st->nfields,
	      "a struct lacks a name, header, doc, direction or fields");
	if (check_fields(st, &end, &natural, why) < 0)
		return -1;
	CHECK(fields_unique(st), "a field of struct '%s' is named twice", st->name);
	for (size_t i = 0; i < st->nfields; i++) {
		const struct field *f = &st->fields[i];
		CHECK((!f->shown_if.text || expr_valid_struct(f->shown_if.code, f->shown_if.ncode, c, st)) &&
			      (!f->written_if.text || expr_valid_struct(f->written_if.code, f->written_if.ncode, c, st)),
		      "struct '%s': the conditions of field '%s'", st->name, f->name);
	}
	for (size_t i = 0; i < st->nview; i++) {
		const struct strace_item *it = &st->view[i];
		CHECK((!it->cond.text || expr_valid_struct(it->cond.code, it->cond.ncode, c, st)) &&
			      it->printer <= decode_printer_count() && (!it->version_name || (it->unknown && st->nversions)),
		      "struct '%s': strace's view, item '%s'", st->name, it->name);
	}
	CHECK(st->align && st->align <= 4096 && !(st->align & (st->align - 1)) && st->align >= natural &&
		      st->size == (end + st->align - 1) / st->align * st->align,
	      "struct '%s': size %u, alignment %u", st->name, st->size, st->align);
	return check_versions(st, why);
}

static int check_features(const struct syscall *sc, struct sbuf *why)
{
	for (size_t i = 0; i < sc->nfeatures; i++) {
		const char *f = sc->features[i], *colon = strchr(f, ':');
		bool ok = !strcmp(f, "available") ? i == 0 : colon != NULL;
		if (ok && colon && !strncmp(f, "size:", 5)) {
			ok = false;
			for (size_t k = 0; sc->st && k < sc->st->nversions; k++)
				ok |= (unsigned)atoi(f + 5) == sc->st->versions[k].size;
		} else if (ok && colon && strncmp(f, "query:", 6)) {
			ok = ld_feature_known(sc, f, (size_t)(colon - f), colon + 1) == 2;
		}
		CHECK(ok, "%s: feature '%s'", sc->name, f);
	}
	const char **v = xmalloc((sc->nfeatures + 1) * sizeof(*v));
	if (sc->nfeatures)
		memcpy(v, sc->features, sc->nfeatures * sizeof(*v));
	bool unique = sorted_unique(v, sc->nfeatures);
	free(v);
	CHECK(unique, "%s: a feature named twice", sc->name);
	for (size_t i = 0; i < sc->nqueries; i++)
		CHECK(sc->queries[i].name && !sc->queries[i].read != !sc->queries[i].auxv,
		      "%s: a probe query", sc->name);
	for (size_t i = 0; i < sc->nprobe_skip_args; i++)
		CHECK(ld_find_arg(sc, sc->probe_skip_args[i]), "%s: skip_args", sc->name);
	for (size_t i = 0; i < sc->nprobe_refuses; i++) {
		const char *f = sc->probe_refuses[i], *colon = strchr(f, ':');
		CHECK(colon && ld_feature_known(sc, f, (size_t)(colon - f), colon + 1) == 2, "%s: refuses '%s'", sc->name, f);
	}
	return 0;
}

/* A size answer as the loader makes them: an errno number only with SA_ERRNO, VER0 only for size 0. */
static bool answer_ok(const struct size_answer *a, bool ver0_ok)
{
	if ((unsigned)a->kind > SA_ERRNO || (a->kind == SA_VER0 && !ver0_ok))
		return false;
	return a->kind == SA_ERRNO ? errno_name(a->err) != NULL : a->err == 0;
}

static int check_size(const struct syscall *sc, struct sbuf *why)
{
	bool named = sc->size_where == SW_ARG || sc->size_where == SW_FIELD || sc->size_where == SW_POINTER, found = false;
	CHECK(!named || sc->size_name, "%s: the size has no name", sc->name);
	CHECK(sc->size_bits == 32 || sc->size_bits == 64, "%s: size bits %u", sc->name, sc->size_bits);
	if (sc->size_where == SW_FIELD)
		found = sc->st && sc->st->size_field && sc->st->size_field == cstruct_find_field(sc->st, sc->size_name);
	for (size_t i = 0; (sc->size_where == SW_ARG || sc->size_where == SW_POINTER) && i < sc->nargs; i++)
		found |= !strcmp(sc->args[i].name, sc->size_name);
	CHECK(!named || found, "%s: the size '%s' is not there", sc->name, sc->size_name);
	const struct size_rules *r = &sc->rules;
	CHECK(answer_ok(&r->zero, true) && answer_ok(&r->below_ver0, false) && (!r->null_errno || errno_name(r->null_errno)) &&
		      (!r->cap || errno_name(r->cap_errno)) && r->tail <= TAIL_LAST && r->writeback <= WB_LAST &&
		      r->min <= 1u << 20 && r->cap <= 1u << 30,
	      "%s: the size rules", sc->name);
	if (r->tail_struct && !ld_tail_struct_ok(sc, why)) {
		sbuf_addf(why, " (%s)", sc->name);
		return -1;
	}
	return 0;
}

/* A check's errnos: at least one, each an errno, the first errno_name, several only with env. */
static bool check_errnos_ok(const struct check *ck)
{
	if (!ck->errnos || !ck->nerrnos || (ck->nerrnos > 1 && !ck->env) || !ck->errno_name ||
	    (ck->lookup_parent && !(ck->env & 1u << ENV_PATH)) ||
	    strcmp(ck->errnos[0], ck->errno_name) || ck->env >> ENV_NKINDS)
		return false;
	for (size_t i = 0; i < ck->nerrnos; i++)
		if (!errno_ok(ck->errnos[i], false))
			return false;
	return true;
}

static int check_checks(const struct catalog *c, const struct syscall *sc, struct sbuf *why)
{
	unsigned char seen[CS_LAST + 1] = { 0 };
	size_t nconds = 0;
	bool copied = false;
	for (size_t i = 0; i < sc->nchecks; i++) {
		const struct check *ck = &sc->checks[i];
		CHECK(ck->text && ck->source && ck->why && (unsigned)ck->step <= CS_LAST && (!ck->until || ck->until > ck->since) &&
			      ck->err == (ck->errno_name ? errno_from_name(ck->errno_name) : 0),
		      "%s: check %zu", sc->name, i + 1);
		if (ck->step == CS_COND) {
			CHECK(check_errnos_ok(ck), "%s: check %zu: its errnos or env", sc->name, i + 1);
			CHECK(ck->errno_name && errno_ok(ck->errno_name, false) && expr_valid(ck->code, ck->ncode, c, sc) &&
				      !ld_output_field_read(sc, ck->code, ck->ncode) &&
				      (copied || !syscall_has_size_steps(sc) || !ld_reads_struct(ck->code, ck->ncode, sc)),
			      "%s: check %zu", sc->name, i + 1);
			nconds++;
			continue;
		}
		CHECK(syscall_has_size_steps(sc) && check_step_applies(sc, ck->step) && !seen[ck->step] && !ck->ncode &&
			      (!copied || ck->step == CS_COPY_OUT) && (ck->step != CS_COPY_IN || !seen[CS_COPY_OUT]) &&
			      !ck->env && (ck->errno_name ? check_errnos_ok(ck) && ck->nerrnos == 1 : !ck->nerrnos),
		      "%s: step %zu", sc->name, i + 1);
		seen[ck->step] = 1;
		copied |= ck->step == CS_COPY_IN;
	}
	for (enum check_step s = CS_NULL; syscall_has_size_steps(sc) && s <= CS_LAST; s++)
		CHECK(seen[s] || !check_step_applies(sc, s), "%s: the step %s is missing", sc->name, check_step_name(s));
	CHECK(nconds == sc->nconds, "%s: the count of conditions", sc->name);
	return 0;
}

static int check_syscall(const struct catalog *c, const struct syscall *sc, struct sbuf *why)
{
	CHECK(sc->name && sc->header && sc->prototype && sc->summary && sc->file,
	      "a syscall lacks a name, kind, header, prototype, summary or safety");
	CHECK(sc->nr_x86_64 >= -1 && sc->nr_x86_64 < 4096 && sc->nr_aarch64 >= -1 && sc->nr_aarch64 < 4096,
	      "%s: a syscall number out of range", sc->name);
	CHECK(!sc->is_ioctl || (sc->ioctl_fd && sc->ioctl_type < 256 && sc->ioctl_nr < 256),
	      "%s: the ioctl", sc->name);
	CHECK(sc->st || (sc->kind != SK_EXTENSIBLE && sc->kind != SK_MULTIPLEXER), "%s needs a struct", sc->name);
	CHECK(sc->direction == FD_DEFAULT || (sc->st && sc->st->direction == FD_INOUT && (sc->direction == FD_IN || sc->direction == FD_OUT)),
	      "%s: its direction", sc->name);
	for (size_t i = 0; i < sc->nargs; i++) {
		CHECK(sc->args[i].name && sc->args[i].type, "%s: an argument lacks a name or type", sc->name);
		struct sarg typed = sc->args[i];
		sarg_type(&typed);
		CHECK(typed.width == sc->args[i].width && typed.is_signed == sc->args[i].is_signed && typed.is_ptr == sc->args[i].is_ptr,
		      "%s: argument %s's width is not its type's", sc->name, sc->args[i].name);
	}
	CHECK(UNIQUE_NAMES(sc->args, sc->nargs, NULL), "%s: an argument named twice", sc->name);
	for (size_t i = 0; i < sc->nerrors; i++)
		CHECK(sc->errors[i].errno_name && sc->errors[i].meaning && errno_ok(sc->errors[i].errno_name, false),
		      "%s: an error", sc->name);
	for (size_t i = 0; i < sc->nlineage; i++)
		CHECK(sc->lineage[i].name && sc->lineage[i].why, "%s: a lineage entry", sc->name);
	for (size_t i = 0; i < sc->nresults; i++)
		CHECK(sc->results[i].text && sc->results[i].source &&
			      expr_valid(sc->results[i].code, sc->results[i].ncode, c, sc),
		      "%s: result %zu", sc->name, i + 1);
	for (size_t i = 0; i < sc->nfills; i++) {
		const struct fill_rule *f = &sc->fills[i];
		const struct cstruct *fst = f->in_arg >= 0 ? (f->in_arg < (int)sc->nargs && f->in_arg < 6 ? sc->args[f->in_arg].st : NULL) :
					    f->entry ? sc->entries.st : sc->st;
		CHECK(sc->st && fst && f->field < fst->nfields && (f->in_arg < 0 || !f->entry) && f->text && f->value_text &&
			      f->source && expr_valid(f->code, f->ncode, c, sc) && expr_valid(f->value_code, f->nvalue_code, c, sc),
		      "%s: fill %zu", sc->name, i + 1);
	}
	CHECK(!sc->entries.st || (sc->entries.name && sc->entries.count_arg >= 0 && sc->entries.count_arg < (int)sc->nargs &&
				  sc->entries.count_arg < 6 && sc->entries.max && sc->entries.st->size),
	      "%s: entries", sc->name);
	for (size_t i = 0; i < sc->neffects; i++) {
		const struct effect_rule *e = &sc->effects[i];
		CHECK(e->text && e->signal_text && e->source && e->why && expr_valid(e->code, e->ncode, c, sc) &&
			      expr_valid(e->signal_code, e->nsignal_code, c, sc),
		      "%s: effect %zu", sc->name, i + 1);
	}
	if (check_size(sc, why) < 0 || check_checks(c, sc, why) < 0)
		return -1;
	return check_features(sc, why);
}

int catalog_check(const struct catalog *c, struct sbuf *why)
{
	for (size_t i = 0; i < c->nflagsets; i++)
		if (check_flagset(&c->flagsets[i], why) < 0)
			return -1;
	for (size_t i = 0; i < c->nstructs; i++)
		if (check_struct(c, &c->structs[i], why) < 0)
			return -1;
	for (size_t i = 0; i < c->nsyscalls; i++)
		if (check_syscall(c, &c->syscalls[i], why) < 0)
			return -1;
	CHECK(UNIQUE_NAMES(c->flagsets, c->nflagsets, NULL), "a flag set named twice");
	CHECK(UNIQUE_NAMES(c->structs, c->nstructs, NULL), "a struct named twice");
	CHECK(UNIQUE_NAMES(c->syscalls, c->nsyscalls, NULL), "a syscall named twice");
	return 0;
}
