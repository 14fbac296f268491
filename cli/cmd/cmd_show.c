#include <string.h>
#include "cmd/commands.h"
#include "model/describe.h"
#include "model/errtable.h"
#include "model/kver.h"
#include "model/xlat.h"
#include "base/banned.h"

/* A fact's provenance in JSON: its own source (null: its header's, held to the uapi headers by
 * the layout test) and whether no source confirms its "since". */
static void show_provenance(struct out *o, const struct provenance *pv)
{
	out_str(o, "source", pv->source);
	out_bool(o, "unverified", pv->unverified);
}

static void show_flagset_entries(struct out *o, const struct flagset *fs)
{
	char kv[16], v[24];
	out_arr(o, "flags");
	for (size_t i = 0; i < fs->nflags; i++) {
		const struct flag *f = &fs->flags[i];
		describe_flag_value(fs, f, v);
		out_text(o, "    %-36s %-20s %-8s %s%s\n", f->name, v, kver_str(f->since, kv), f->doc ? f->doc : "",
			 f->prov.unverified ? " (unverified)" : "");
		out_obj(o, NULL);
		out_str(o, "name", f->name);
		out_str(o, "value", v);
		out_str(o, "since", kv);
		out_bool(o, "mask", f->mask);
		out_str(o, "doc", f->doc);
		show_provenance(o, &f->prov);
		out_end(o);
	}
	out_end(o);
}

static void show_flagset(struct out *o, const struct flagset *fs)
{
	out_text(o, "  %s%s%s (%s, %s): %s\n", out_color(o, OC_BOLD), fs->name, out_color(o, OC_RESET),
		 fs->kind == FS_BITS ? "bits" : "enum", fs->header, fs->doc);
	out_obj(o, NULL);
	out_str(o, "name", fs->name);
	out_str(o, "kind", fs->kind == FS_BITS ? "bits" : "enum");
	out_str(o, "header", fs->header);
	out_str(o, "doc", fs->doc);
	show_flagset_entries(o, fs);
	out_end(o);
}

/* A struct's layout, as call sc (NULL: any call) uses it: the way the struct and each field
 * travel ("in/out" structs name their fields' own ways). */
static void show_layout(struct out *o, const struct cstruct *st, const struct syscall *sc)
{
	char kv[16];
	struct describe_item dir = describe_direction(sc, st);
	enum fdir way = (enum fdir)dir.kind;
	out_text(o, "struct %s%s%s  (%s, %u bytes%s%s)  %s\n", out_color(o, OC_BOLD), st->name, out_color(o, OC_RESET),
		 st->header, st->size, st->packed ? ", packed" : "",
		 !dir.num ? (way == FD_OUT ? ", output" : way == FD_INOUT ? ", in/out" : "") :
		 way == FD_OUT ? ", in/out, output in this call" : ", in/out, input in this call",
		 st->doc);
	out_text(o, "  %s%4s %5s  %-12s %-24s %-7s %s%s\n", out_color(o, OC_DIM), "OFF", "SIZE", "TYPE", "FIELD", "SINCE",
		 "ZERO MEANS", out_color(o, OC_RESET));
	out_str(o, "name", st->name);
	out_str(o, "header", st->header);
	out_u64(o, "size", st->size);
	out_str(o, "direction", fdir_name(st->direction));
	out_arr(o, "fields");
	for (size_t i = 0; i < st->nfields; i++) {
		const struct field *f = &st->fields[i];
		struct sbuf name = SBUF_INIT;
		sbuf_adds(&name, f->name);
		for (size_t k = 0; k < f->naliases; k++)
			sbuf_addf(&name, "/%s", f->aliases[k]);
		if (f->direction != FD_DEFAULT && (way == FD_INOUT || f->direction == FD_IGNORED))
			sbuf_addf(&name, " (%s)", fdir_name(f->direction)); /* its own way in a struct that goes both */
		out_text(o, "  %4u %5u  %-12s %-24s %-7s %s%s\n", f->offset, f->size, f->type_text, name.buf,
			 kver_str(f->since, kv), f->reserved ? "(reserved, must be zero)" : f->zero ? f->zero : "",
			 f->prov.unverified ? " (unverified)" : "");
		sbuf_release(&name);
		out_obj(o, NULL);
		out_str(o, "name", f->name);
		out_str(o, "type", f->type_text);
		out_u64(o, "offset", f->offset);
		out_u64(o, "size", f->size);
		out_str(o, "since", kv);
		out_str(o, "zero", f->zero);
		out_str(o, "doc", f->doc);
		out_str(o, "flagset", f->flagset ? f->flagset->name : NULL);
		out_bool(o, "reserved", f->reserved);
		out_str(o, "direction", fdir_name(field_direction(sc, st, f)));
		show_provenance(o, &f->prov);
		out_arr(o, "aliases");
		for (size_t k = 0; k < f->naliases; k++)
			out_str(o, NULL, f->aliases[k]);
		out_end(o);
		out_end(o);
	}
	out_end(o);
	out_text(o, "size versions:%s\n", st->nversions ? "" : " none (not size-versioned)");
	out_arr(o, "versions");
	for (size_t i = 0; i < st->nversions; i++) {
		const struct sversion *v = &st->versions[i];
		const struct field *last = cstruct_version_last_field(st, i);
		unsigned end = last ? last->offset + last->size : 0;
		out_text(o, "  %-28s %5u  %-7s ", v->name ? v->name : "(no macro)", v->size, kver_str(v->since, kv));
		if (last)
			out_text(o, "ends after '%s'", last->name);
		if (end < v->size)
			out_text(o, "%s%u bytes of padding", last ? ", then " : "", v->size - end);
		if (v->internal)
			out_text(o, "; a kernel-internal name (%s), not in the uapi headers", v->internal);
		if (v->prov.unverified)
			out_text(o, " (unverified)");
		out_text(o, "\n");
		out_obj(o, NULL);
		out_str(o, "name", v->name);
		out_u64(o, "size", v->size);
		out_str(o, "since", kv);
		out_str(o, "internal", v->internal);
		show_provenance(o, &v->prov);
		out_end(o);
	}
	out_end(o);
}

static void show_struct(struct out *o, const struct cstruct *st)
{
	out_obj(o, NULL);
	show_layout(o, st, NULL);
	const struct flagset *sets[32];
	size_t n = cstruct_flagsets(st, sets, 0, ARRAY_SIZE(sets));
	out_text(o, "%s", n ? "flag sets:\n" : "");
	out_arr(o, "flagsets");
	for (size_t i = 0; i < n; i++)
		show_flagset(o, sets[i]);
	out_end(o);
	out_end(o);
}

/* The size rules as one line of text, from the items the reference renders too. */
static void size_sentence(struct sbuf *sb, const struct describe *d)
{
	char kv[16];
	for (size_t i = 0; i < d->n; i++) {
		const struct describe_item *it = &d->items[i];
		switch (it->rule) {
		case DR_WHERE:
			switch ((enum size_where)it->kind) {
			case SW_ARG: sbuf_addf(sb, "argument '%s' (%u-bit)", it->value, (unsigned)it->num); break;
			case SW_FIELD: sbuf_addf(sb, "field '%s' inside the struct (%u-bit)", it->value, (unsigned)it->num); break;
			case SW_IOCTL: sbuf_adds(sb, "encoded in the ioctl number (_IOC_SIZE)"); break;
			case SW_POINTER: sbuf_addf(sb, "in/out through the pointer '%s'", it->value); break;
			case SW_NONE: sbuf_adds(sb, "none: the struct has a fixed size"); break;
			}
			break;
		case DR_ZERO: sbuf_addf(sb, "; size 0: %s", it->kind == SA_VER0 ? "taken as VER0" : it->value); break;
		case DR_BELOW_VER0: sbuf_addf(sb, "; below the first version: %s", it->value); break;
		case DR_MIN: sbuf_addf(sb, "; minimum %llu", (unsigned long long)it->num); break;
		case DR_CAP:
			sbuf_addf(sb, "; above %llu: %s", (unsigned long long)it->num, it->value);
			if (it->since)
				sbuf_addf(sb, " (since %s)", kver_str(it->since, kv));
			break;
		case DR_TAIL:
			sbuf_addf(sb, "; bytes past the kernel's size: %s",
				  it->kind == TAIL_E2BIG ? "must be zero, else E2BIG" : it->value);
			break;
		case DR_TAIL_STRUCT:
			sbuf_addf(sb, " (the kernel's size: struct %s's, %llu bytes at most; the struct is its first part)", it->value,
				  (unsigned long long)it->num);
			break;
		case DR_WRITEBACK:
			if (it->kind != WB_NONE)
				sbuf_addf(sb, "; write-back: %s", it->value);
			break;
		case DR_ORDER: /* the reference's; too long for the one line */
		case DR_NRULES: break;
		}
	}
}

/* The same items in JSON: each rule with its words and its answer. */
static void size_items_json(struct out *o, const struct describe *d)
{
	char kv[16];
	out_arr(o, "size_rules");
	for (size_t i = 0; i < d->n; i++) {
		const struct describe_item *it = &d->items[i];
		out_obj(o, NULL);
		out_str(o, "rule", it->key);
		out_str(o, "label", it->label);
		out_str(o, "value", it->rule == DR_WHERE && it->kind == SW_NONE ? size_where_name(SW_NONE) : it->value);
		if (it->rule == DR_MIN || it->rule == DR_CAP)
			out_u64(o, "bytes", it->num);
		if (it->rule == DR_WHERE) {
			out_str(o, "where", size_where_name((enum size_where)it->kind));
			if (it->kind == SW_ARG || it->kind == SW_FIELD)
				out_u64(o, "bits", it->num);
		}
		if (it->rule == DR_CAP)
			out_str(o, "since", it->since ? kver_str(it->since, kv) : NULL);
		out_end(o);
	}
	out_end(o);
}

/* An env check's errnos and what it depends on. */
static void show_env_json(struct out *o, const struct check *ck)
{
	if (!ck || !ck->env)
		return;
	out_arr(o, "errnos");
	for (size_t k = 0; k < ck->nerrnos; k++)
		out_str(o, NULL, ck->errnos[k]);
	out_end(o);
	out_arr(o, "env");
	for (int k = 0; k < ENV_NKINDS; k++)
		if (ck->env & 1u << k)
			out_str(o, NULL, env_kind_name((enum env_kind)k));
	out_end(o);
}

/* The call's checks as written, the size steps among them ("step"), for JSON readers that
 * evaluate them. */
static void show_checks_json(struct out *o, const struct syscall *sc)
{
	char a[16], b[16];
	out_arr(o, "checks");
	for (size_t i = 0; i < sc->nchecks; i++) {
		const struct check *ck = &sc->checks[i];
		out_obj(o, NULL);
		if (ck->step != CS_COND)
			out_str(o, "step", check_step_name(ck->step));
		out_str(o, "errno", ck->errno_name);
		show_env_json(o, ck);
		out_str(o, "if", ck->text);
		out_str(o, "since", kver_str(ck->since, a));
		if (ck->until)
			out_str(o, "until", kver_str(ck->until, b));
		out_str(o, "source", ck->source);
		out_str(o, "why", ck->why);
		out_end(o);
	}
	out_end(o);
}

static void show_error_row(struct out *o, const struct errrow *r)
{
	char a[16], b[16];
	struct sbuf k = SBUF_INIT;
	errrow_kernels(&k, r);
	out_text(o, "  %-10s %s\n", r->errnos, r->why);
	if (r->cond)
		out_text(o, "             if %s  [%s%s%s; %s]\n", r->cond, k.buf,
			 r->depends ? "; depends on " : "", r->depends ? r->depends : "", r->source);
	else if (r->kind != ER_PROSE)
		out_text(o, "             [%s; %s]\n", k.buf, r->source);
	out_obj(o, NULL);
	out_str(o, "errno", r->errno_name);
	show_env_json(o, r->check);
	out_str(o, "meaning", r->why);
	out_str(o, "kind", errrow_kind_name(r->kind));
	out_str(o, "if", r->cond);
	out_str(o, "since", r->since ? kver_str(r->since, a) : NULL);
	out_str(o, "until", r->until ? kver_str(r->until, b) : NULL);
	out_str(o, "source", r->source);
	out_end(o);
	sbuf_release(&k);
}

/* The error table, generated from the size steps and the checks: those the arguments decide,
 * then those that depend on the world, then the prose no check covers yet. */
static void show_errors(struct out *o, const struct syscall *sc)
{
	struct errtable t;
	errtable_build(&t, sc);
	out_arr(o, "errors");
	for (int part = 0; part < 3; part++) {
		bool any = false;
		for (size_t i = 0; i < t.n; i++) {
			const struct errrow *r = &t.rows[i];
			if ((part == 0) != (r->kind != ER_ENV && r->kind != ER_PROSE) || (part == 1) != (r->kind == ER_ENV))
				continue;
			if (!any)
				out_text(o, "%s", part == 0 ? "errors (in the kernel's order; the first that holds is the answer):\n" :
						  part == 1 ? "errors that depend on the world (paths, descriptors, privilege, ...):\n" :
						  sc->nconds ? "errors not yet written as checks (the catalogue's prose, trimmed as checks come):\n" :
						  "errors in the catalogue's prose (this call has no checks yet):\n");
			any = true;
			show_error_row(o, r);
		}
	}
	out_end(o);
	show_checks_json(o, sc);
	errtable_release(&t);
}

/* The call's identity: name, prototype, kind, numbers, header, safety. */
static void show_identity(struct out *o, const struct syscall *sc)
{
	static const char *const ioc_macro[] = { [IOD_NONE] = "", [IOD_W] = "W", [IOD_R] = "R", [IOD_RW] = "WR" }; /* _IO, _IOW, … */
	char kv[16];
	out_text(o, "%s%s%s — %s\n  %s\n", out_color(o, OC_BOLD), sc->name, out_color(o, OC_RESET), sc->summary,
		 sc->prototype);
	out_text(o, "  kind %s · since %s · ", sc_kind_name(sc->kind), kver_str(sc->since, kv));
	if (sc->is_ioctl)
		out_text(o, "ioctl on %s, _IO%s(%#x, %u) · ", sc->ioctl_fd, ioc_macro[sc->ioctl_dir], sc->ioctl_type, sc->ioctl_nr);
	else
		out_text(o, "x86_64 %ld · aarch64 %ld · ", sc->nr_x86_64, sc->nr_aarch64);
	out_text(o, "%s · safety %s\n", sc->header, safety_name(sc->safety));
	if (sc->simulation_only)
		out_text(o, "  simulation only: %s\n", sc->simulation_only);
	out_str(o, "name", sc->name);
	out_str(o, "kind", sc_kind_name(sc->kind));
	out_str(o, "since", kv);
	out_str(o, "summary", sc->summary);
	out_str(o, "prototype", sc->prototype);
	out_str(o, "header", sc->header);
	out_str(o, "safety", safety_name(sc->safety));
	out_str(o, "simulation_only", sc->simulation_only);
	out_obj(o, "nr");
	if (sc->nr_x86_64 < 0) out_null(o, "x86_64"); else out_u64(o, "x86_64", (uint64_t)sc->nr_x86_64);
	if (sc->nr_aarch64 < 0) out_null(o, "aarch64"); else out_u64(o, "aarch64", (uint64_t)sc->nr_aarch64);
	out_end(o);
	out_str(o, "struct", sc->st ? sc->st->name : NULL);
	if (sc->st)
		out_str(o, "direction", describe_direction(sc, sc->st).value);
}

static void show_args(struct out *o, const struct syscall *sc)
{
	out_text(o, "arguments:\n");
	out_arr(o, "args");
	for (size_t i = 0; i < sc->nargs; i++) {
		const struct sarg *a = &sc->args[i];
		if (a->def)
			out_text(o, "  %-12s %-7s %-28s default %s\n", a->name, arg_role_name(a->role), a->type, a->def);
		else
			out_text(o, "  %-12s %-7s %s\n", a->name, arg_role_name(a->role), a->type);
		out_obj(o, NULL);
		out_str(o, "name", a->name);
		out_str(o, "type", a->type);
		out_str(o, "role", arg_role_name(a->role));
		out_str(o, "default", a->def);
		out_str(o, "flagset", a->flagset ? a->flagset->name : NULL);
		out_end(o);
	}
	out_end(o);
}

/* Where the size travels and what the kernel does with each size. */
static void show_size(struct out *o, const struct syscall *sc)
{
	struct describe d;
	describe_size(sc, &d);
	struct sbuf sz = SBUF_INIT;
	size_sentence(&sz, &d);
	out_text(o, "size: %s\n", sz.buf);
	sbuf_release(&sz);
	size_items_json(o, &d);
	if (sc->size_where == SW_ARG)
		out_str(o, "size_arg", sc->size_name);
	else if (sc->size_where == SW_FIELD)
		out_str(o, "size_field", sc->size_name);
	out_str(o, "size_where", size_where_name(sc->size_where));
}

/* The layout of the call's struct, then the flag sets of its arguments and of the struct,
 * each once. */
static void show_layout_and_flagsets(struct out *o, const struct syscall *sc)
{
	const struct flagset *sets[48];
	size_t n = 0;
	for (size_t i = 0; i < sc->nargs; i++)
		if (sc->args[i].flagset && n < ARRAY_SIZE(sets))
			sets[n++] = sc->args[i].flagset;
	if (sc->st) {
		n = cstruct_flagsets(sc->st, sets, n, ARRAY_SIZE(sets));
		out_text(o, "\n");
		out_obj(o, "layout");
		show_layout(o, sc->st, sc);
		out_end(o);
	}
	out_text(o, "%s", n ? "flag sets:\n" : "");
	out_arr(o, "flagsets");
	for (size_t i = 0; i < n; i++) {
		bool dup = false;
		for (size_t k = 0; k < i; k++)
			dup |= sets[k] == sets[i];
		if (!dup)
			show_flagset(o, sets[i]);
	}
	out_end(o);
}

/* Lineage, notes and links. */
static void show_history(struct out *o, const struct syscall *sc)
{
	char kv[16];
	out_text(o, "%s", sc->nlineage ? "lineage:\n" : "");
	out_arr(o, "lineage");
	for (size_t i = 0; i < sc->nlineage; i++) {
		out_text(o, "  %s (%s): %s\n", sc->lineage[i].name, kver_str(sc->lineage[i].since, kv), sc->lineage[i].why);
		out_obj(o, NULL);
		out_str(o, "name", sc->lineage[i].name);
		out_str(o, "since", kv);
		out_str(o, "why", sc->lineage[i].why);
		out_end(o);
	}
	out_end(o);
	out_text(o, "%s", sc->nnotes ? "notes:\n" : "");
	out_arr(o, "notes");
	for (size_t i = 0; i < sc->nnotes; i++) {
		out_text(o, "  - %s\n", sc->notes[i]);
		out_str(o, NULL, sc->notes[i]);
	}
	out_end(o);
	out_arr(o, "links");
	for (size_t i = 0; i < sc->nlinks; i++) {
		out_text(o, "  %s\n", sc->links[i]);
		out_str(o, NULL, sc->links[i]);
	}
	out_end(o);
}

static void show_syscall(struct out *o, const struct syscall *sc)
{
	out_obj(o, NULL);
	show_identity(o, sc);
	show_args(o, sc);
	show_size(o, sc);
	show_layout_and_flagsets(o, sc);
	show_errors(o, sc);
	show_history(o, sc);
	out_end(o);
}

int cmd_show(struct session *s, int argc, char **argv)
{
	/* "show struct rseq" picks the struct when a syscall has the same name */
	const char *kind = argc == 3 ? argv[1] : NULL;
	if ((argc != 2 && argc != 3) || (kind && strcmp(kind, "syscall") && strcmp(kind, "struct") && strcmp(kind, "flagset")))
		return cmd_usage(s);
	const char *name = argv[argc - 1];
	const struct catalog *c = s->cat;
	const struct syscall *sc = !kind || !strcmp(kind, "syscall") ? session_find_syscall(s, name) : NULL;
	const struct cstruct *st = !kind || !strcmp(kind, "struct") ? session_find_struct(s, name) : NULL;
	const struct flagset *fs = !kind || !strcmp(kind, "flagset") ? session_find_flagset(s, name) : NULL;
	if (sc)
		show_syscall(&s->out, sc);
	else if (st)
		show_struct(&s->out, st);
	else if (fs)
		show_flagset(&s->out, fs);
	else {
		struct suggest sg = SUGGEST_INIT(name, 3);
		for (size_t i = 0; i < c->nsyscalls; i++)
			suggest_add(&sg, c->syscalls[i].name);
		for (size_t i = 0; i < c->nstructs; i++)
			suggest_add(&sg, c->structs[i].name);
		for (size_t i = 0; i < c->nflagsets; i++)
			suggest_add(&sg, c->flagsets[i].name);
		return suggest_err(&sg, "'list' shows them", "no syscall, struct or flag set named '%s'", name);
	}
	return 0;
}
