#include "docs/docgen.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "base/diag.h"
#include "kernel/probe.h"
#include "model/census.h"
#include "model/describe.h"
#include "model/errtable.h"
#include "model/kver.h"
#include "model/xlat.h"
#include "base/banned.h"


#define INDEX_TITLE "Reference"
#define CENSUS_TITLE "Census"

/* A file name for a page: letters, digits, '_', '-', '.' only. */
static void file_name(struct sbuf *sb, const char *name)
{
	for (const char *p = name; *p; p++)
		sbuf_addch(sb, md_is_alnum((unsigned char)*p) || *p == '_' || *p == '-' ? *p : '_');
}

/* ---- the page set ---- */

struct doc_page *doc_set_add(struct doc_set *set, const char *path, const char *title, const char *section,
			     bool markdown)
{
	ALLOC_GROW(set->pages, set->n + 1, set->alloc);
	struct doc_page *p = &set->pages[set->n++];
	p->path = xstrdup(path);
	p->title = xstrdup(title);
	p->section = xstrdup(section);
	sbuf_init(&p->text);
	p->markdown = markdown;
	return p;
}

void doc_set_release(struct doc_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		free(set->pages[i].path);
		free(set->pages[i].title);
		free(set->pages[i].section);
		sbuf_release(&set->pages[i].text);
	}
	FREE_AND_NULL(set->pages);
	set->n = set->alloc = 0;
}

/* "struct X" and "syscall X" name one kind of page (only: 1, 0); else any (-1). Returns X. */
static const char *topic_kind(const char *topic, int *only)
{
	*only = -1;
	if (!strncmp(topic, "struct ", 7))
		return *only = 1, topic + 7;
	if (!strncmp(topic, "syscall ", 8))
		return *only = 0, topic + 8;
	return topic;
}

void doc_link_list(struct sbuf *sb, const struct doc_link *links, size_t n, const char *prefix)
{
	for (size_t i = 0; i < n; i++) {
		sbuf_adds(sb, "- [");
		md_text(sb, links[i].title);
		sbuf_addf(sb, "](%s%s)\n", prefix, links[i].path);
	}
}

const struct doc_page *doc_set_find(const struct doc_set *set, const char *topic)
{
	static const char *const prefixes[] = { "syscalls/", "structs/", "" };
	int only;
	const char *want = topic_kind(topic, &only);
	for (int k = 0; k < 3; k++) {
		if (only >= 0 && k != only)
			continue;
		struct sbuf path = SBUF_INIT;
		sbuf_addf(&path, "%s", prefixes[k]);
		file_name(&path, want);
		sbuf_adds(&path, ".md");
		for (size_t i = 0; i < set->n; i++)
			if (set->pages[i].markdown && !strcmp(set->pages[i].path, path.buf)) {
				sbuf_release(&path);
				return &set->pages[i];
			}
		sbuf_release(&path);
	}
	return NULL;
}

/* ---- pieces of pages ---- */

static const char *kv(uint32_t v, char buf[16])
{
	return kver_str(v, buf);
}

static void since_badge(struct sbuf *sb, uint32_t v)
{
	char b[16];
	sbuf_addf(sb, "`since %s`", kv(v, b));
}

/* A fact no source confirms carries an "unverified" badge beside its "since" (the site styles
 * the code span `unverified`); the census page counts them. */
static void unverified_badge(struct sbuf *sb, const struct provenance *pv)
{
	if (pv->unverified)
		sbuf_adds(sb, " `unverified`");
}

/* A fact's own source, after its meaning. */
static void source_note(struct sbuf *sb, const struct provenance *pv, bool after_text)
{
	if (!pv->source)
		return;
	sbuf_adds(sb, after_text ? " (source: " : "source: ");
	md_text(sb, pv->source);
	sbuf_adds(sb, after_text ? ")" : "");
}

static void link_struct(struct sbuf *sb, const char *from_dir, const struct cstruct *st, const char *anchor)
{
	sbuf_adds(sb, "[");
	md_code(sb, st->name, true);
	sbuf_addf(sb, "](%sstructs/", from_dir);
	file_name(sb, st->name);
	sbuf_addf(sb, ".md%s%s)", anchor ? "#" : "", anchor ? anchor : "");
}

static void link_syscall(struct sbuf *sb, const char *from_dir, const struct syscall *sc)
{
	sbuf_adds(sb, "[");
	md_code(sb, sc->name, true);
	sbuf_addf(sb, "](%ssyscalls/", from_dir);
	file_name(sb, sc->name);
	sbuf_adds(sb, ".md)");
}

static void self_anchor(struct sbuf *sb, const char *prefix, const char *name)
{
	sbuf_adds(sb, "[");
	md_code(sb, name, true);
	sbuf_adds(sb, "](#");
	md_anchor_id(sb, prefix, name);
	sbuf_adds(sb, " \"anchor\")");
}

static void url_or_text(struct sbuf *sb, const char *u)
{
	bool ok = !strncmp(u, "https://", 8) || !strncmp(u, "http://", 7);
	for (const unsigned char *p = (const unsigned char *)u; ok && *p; p++)
		ok = *p > 0x20 && *p < 0x7f && !strchr("<>\"'`\\", *p);
	if (ok)
		sbuf_addf(sb, "<%s>", u);
	else
		md_text(sb, u);
}

static void layout_table(struct sbuf *sb, const struct cstruct *st)
{
	sbuf_adds(sb, "| offset | size | type | field | since | zero means | doc |\n"
		      "|---:|---:|---|---|---|---|---|\n");
	for (size_t i = 0; i < st->nfields; i++) {
		const struct field *f = &st->fields[i];
		sbuf_addf(sb, "| %u | %u | ", f->offset, f->size);
		md_code(sb, f->type_text, true);
		sbuf_adds(sb, " | ");
		self_anchor(sb, "field-", f->name);
		for (size_t k = 0; k < f->naliases; k++) {
			sbuf_adds(sb, " / ");
			md_code(sb, f->aliases[k], true);
		}
		sbuf_adds(sb, " | ");
		since_badge(sb, f->since);
		unverified_badge(sb, &f->prov);
		sbuf_adds(sb, " | ");
		if (f->reserved)
			sbuf_adds(sb, "reserved, must be zero");
		else
			md_text(sb, f->zero);
		sbuf_adds(sb, " | ");
		md_text(sb, f->doc);
		if (f->flagset) {
			sbuf_adds(sb, f->doc ? " (flags: [" : "flags: [");
			md_code(sb, f->flagset->name, true);
			sbuf_adds(sb, "](#");
			md_anchor_id(sb, "flagset-", f->flagset->name);
			sbuf_adds(sb, f->doc ? "))" : ")");
		}
		source_note(sb, &f->prov, f->doc || f->flagset);
		sbuf_adds(sb, " |\n");
	}
}

static void versions_table(struct sbuf *sb, const struct cstruct *st)
{
	char b[16];
	if (!st->nversions) {
		sbuf_addf(sb, "Not size-versioned: the struct has a fixed size of %u bytes; it grows, if at all, "
			      "into reserved space.\n", st->size);
		return;
	}
	sbuf_adds(sb, "| version | size | since | last field | added |\n|---|---:|---|---|---|\n");
	for (size_t i = 0; i < st->nversions; i++) {
		const struct sversion *v = &st->versions[i];
		const struct field *last = cstruct_version_last_field(st, i);
		sbuf_adds(sb, "| ");
		if (v->name)
			md_code(sb, v->name, true);
		else
			sbuf_addf(sb, "VER%zu (no macro)", i);
		if (v->internal) {
			sbuf_adds(sb, " (kernel-internal: ");
			md_code(sb, v->internal, true);
			sbuf_adds(sb, ", not in the uapi headers)");
		}
		sbuf_addf(sb, " | %u | ", v->size);
		since_badge(sb, v->since);
		unverified_badge(sb, &v->prov);
		sbuf_adds(sb, " | ");
		if (last)
			md_code(sb, last->name, true);
		sbuf_adds(sb, " | ");
		bool any = false, inside, later = false;
		for (size_t k = 0; k < st->nfields; k++) {
			const struct field *f = &st->fields[k];
			if (!f->reserved && cstruct_field_version(st, f, &inside) == i && !inside) {
				sbuf_adds(sb, any ? ", " : "");
				md_code(sb, f->name, true);
				any = true;
			}
		}
		if (!i)
			sbuf_adds(sb, any ? " (the first version)" : "the first version");
		/* fields that came later inside this version's bytes, each with its release */
		for (size_t k = 0; k < st->nfields; k++) {
			const struct field *f = &st->fields[k];
			if (!f->reserved && cstruct_field_version(st, f, &inside) == i && inside) {
				sbuf_adds(sb, later ? ", " : "; later inside these bytes: ");
				md_code(sb, f->name, true);
				char kv[16];
				sbuf_addf(sb, " (%s)", kver_str(f->since, kv));
				later = true;
			}
		}
		if (v->prov.source) {
			sbuf_adds(sb, "; ");
			source_note(sb, &v->prov, false);
		}
		sbuf_adds(sb, " |\n");
	}
	(void)b;
}

static void flagset_section(struct sbuf *sb, const struct flagset *fs, const char *level)
{
	sbuf_addf(sb, "\n%s Flag set ", level);
	md_code(sb, fs->name, false);
	sbuf_adds(sb, "\n\n[](#");
	md_anchor_id(sb, "flagset-", fs->name);
	sbuf_adds(sb, " \"anchor\")");
	md_text(sb, fs->doc);
	sbuf_addf(sb, " (%s", fs->kind == FS_BITS ? "bits, OR-able" : "an enumeration: one value");
	if (fs->header) {
		sbuf_adds(sb, ", ");
		md_code(sb, fs->header, false);
	}
	sbuf_adds(sb, ")\n\n| flag | value | since | meaning |\n|---|---:|---|---|\n");
	for (size_t i = 0; i < fs->nflags; i++) {
		const struct flag *f = &fs->flags[i];
		char v[24];
		sbuf_adds(sb, "| ");
		self_anchor(sb, "flag-", f->name);
		sbuf_adds(sb, " | ");
		md_code(sb, describe_flag_value(fs, f, v), true);
		sbuf_adds(sb, " | ");
		since_badge(sb, f->since);
		unverified_badge(sb, &f->prov);
		sbuf_adds(sb, " | ");
		md_text(sb, f->doc);
		if (f->mask)
			sbuf_adds(sb, f->doc ? " (a combination, not a single bit)" : "a combination, not a single bit");
		if (f->ncompanions) {
			sbuf_adds(sb, f->doc || f->mask ? "; needs " : "needs ");
			for (size_t k = 0; k < f->ncompanions; k++) {
				sbuf_adds(sb, k ? ", " : "");
				md_code(sb, f->companions[k], true);
			}
		}
		source_note(sb, &f->prov, f->doc || f->mask || f->ncompanions);
		sbuf_adds(sb, " |\n");
	}
}

/* The bullet saying where the caller puts the struct's size. */
static void size_where(struct sbuf *sb, const struct describe_item *it)
{
	switch ((enum size_where)it->kind) {
	case SW_ARG:
		sbuf_adds(sb, "a separate argument, ");
		md_code(sb, it->value, false);
		sbuf_addf(sb, " (%u-bit). The kernel reads the struct once, with its size already known.\n", (unsigned)it->num);
		break;
	case SW_FIELD:
		sbuf_adds(sb, "inside the struct, in field ");
		md_code(sb, it->value, false);
		sbuf_addf(sb, " (%u-bit). The kernel reads the size first and then the struct: two fetches from user "
			      "memory (see the guide on [the double fetch](../../guide/size-and-versions.md#where-the-size-lives)).\n",
			  (unsigned)it->num);
		break;
	case SW_IOCTL: sbuf_adds(sb, "encoded in the ioctl request number (`_IOC_SIZE`).\n"); break;
	case SW_POINTER:
		sbuf_adds(sb, "in and out through the pointer ");
		md_code(sb, it->value, false);
		sbuf_adds(sb, ".\n");
		break;
	case SW_NONE: sbuf_adds(sb, "nowhere: the struct has a fixed size.\n"); break;
	}
}

/* The words after a rule's label; the answer in code, as the catalogue spells it. */
static void size_rule(struct sbuf *sb, const struct describe_item *it)
{
	static const char *const writeback[] = {
		[WB_NONE] = "none; the kernel writes nothing back about the size.\n",
		[WB_SIZE_ON_E2BIG] = "on `E2BIG` the kernel writes its own size into the size field, so the caller learns "
				     "what the kernel knows.\n",
		[WB_SIZE_ON_SUCCESS] = "on success the kernel writes the size it used.\n",
		[WB_REQUIRED_SIZE] = "on `E2BIG` the kernel writes the size it needs through the size pointer.\n",
	};
	char b[16];
	switch (it->rule) {
	case DR_WHERE: size_where(sb, it); return;
	case DR_MIN: sbuf_addf(sb, "%llu bytes.\n", (unsigned long long)it->num); return;
	case DR_CAP:
		sbuf_addf(sb, "%llu bytes; more is `%s`", (unsigned long long)it->num, it->value);
		if (it->since)
			sbuf_addf(sb, " (the cap exists `since %s`)", kv(it->since, b));
		sbuf_adds(sb, ".\n");
		return;
	case DR_WRITEBACK: sbuf_adds(sb, writeback[it->kind]); return;
	case DR_ORDER:
		md_text(sb, it->value);
		sbuf_adds(sb, "\n");
		return;
	case DR_ZERO:
		if (it->kind == SA_VER0) {
			sbuf_adds(sb, "taken as the first version (VER0).\n");
			return;
		}
		break;
	case DR_TAIL:
		if (it->kind == TAIL_E2BIG) {
			sbuf_adds(sb, "must all be zero, else `E2BIG`.\n");
			return;
		}
		break;
	case DR_TAIL_STRUCT:
		sbuf_addf(sb, "`%s`, at most %llu bytes: the call's struct is its first part, and the checks say where each "
			      "release's ends.\n", it->value, (unsigned long long)it->num);
		return;
	case DR_BELOW_VER0:
	case DR_NRULES: break;
	}
	md_code(sb, it->value, false);
	sbuf_adds(sb, ".\n");
}

/* The size rules as bullets, from the items `show` renders too. */
static void size_rules(struct sbuf *sb, const struct syscall *sc)
{
	struct describe d;
	describe_size(sc, &d);
	for (size_t i = 0; i < d.n; i++) {
		sbuf_addf(sb, "- **%s:** ", d.items[i].label);
		size_rule(sb, &d.items[i]);
	}
}

static void feature_meaning(struct sbuf *sb, const struct syscall *sc, const char *feat)
{
	const char *colon = strchr(feat, ':');
	if (!strcmp(feat, "available")) {
		sbuf_adds(sb, "the call exists (not `ENOSYS`)");
	} else if (!strncmp(feat, "size:", 5)) {
		sbuf_addf(sb, "the kernel takes the %s-byte struct", feat + 5);
		if (sc->st)
			for (size_t i = 0; i < sc->st->nversions; i++)
				if (sc->st->versions[i].size == (unsigned)atoi(feat + 5) && sc->st->versions[i].name) {
					sbuf_adds(sb, " (");
					md_code(sb, sc->st->versions[i].name, true);
					sbuf_adds(sb, ")");
				}
	} else if (!strncmp(feat, "query:", 6)) {
		sbuf_adds(sb, "the interface's own query ");
		md_code(sb, feat + 6, true);
		sbuf_adds(sb, " answers");
	} else if (colon) {
		struct sbuf holder = SBUF_INIT;
		sbuf_add(&holder, feat, (size_t)(colon - feat));
		md_code(sb, holder.buf, true);
		sbuf_adds(sb, " accepts [");
		md_code(sb, colon + 1, true);
		sbuf_adds(sb, "](#");
		md_anchor_id(sb, "flag-", colon + 1);
		sbuf_adds(sb, ")");
		sbuf_release(&holder);
	} else {
		md_text(sb, feat);
	}
}

static const struct probe_report *find_report(const struct probe_run *run, const struct syscall *sc)
{
	for (size_t i = 0; run && i < run->nreports; i++)
		if (run->reports[i].sc == sc)
			return &run->reports[i];
	return NULL;
}

static void probe_section(struct sbuf *sb, const struct probe_run *run, const struct syscall *sc)
{
	const struct probe_report *r = find_report(run, sc);
	sbuf_adds(sb, "\n## On this kernel\n\nProbed on Linux ");
	md_code(sb, run->kernel, false);
	sbuf_adds(sb, " by `xsc site --probe`.\n\n");
	if (!r) {
		sbuf_adds(sb, "Not probed (the prober has no recipe for this call).\n");
		return;
	}
	sbuf_addf(sb, "- available: **%s**", r->available == ANS_YES ? "yes" : r->available == ANS_NO ? "no" : "inconclusive");
	if (r->why) {
		sbuf_adds(sb, " (");
		md_text(sb, r->why);
		sbuf_adds(sb, ")");
	}
	sbuf_adds(sb, "\n");
	if (r->ksize >= 0)
		sbuf_addf(sb, "- the kernel's struct size: **%d** bytes\n", r->ksize);
	sbuf_addf(sb, "- syscalls issued: %u\n", r->calls);
	if (r->nbits) {
		sbuf_adds(sb, "\n| bit | feature | here |\n|---:|---|---|\n");
		for (size_t b = 0; b < r->nbits; b++) {
			bool known;
			bool set = probe_feature(r, b, &known);
			sbuf_addf(sb, "| %zu | ", b);
			md_code(sb, sc->features[b], true);
			sbuf_addf(sb, " | %s |\n", !known ? "inconclusive" : set ? "yes" : "no");
		}
	}
}

/* One row of the error table; the first row of each errno carries its anchor. */
static void error_row(struct sbuf *sb, const struct errtable *t, const struct errrow *r, bool prose)
{
	sbuf_adds(sb, "| ");
	if (errtable_first(t, r->errno_name) == r)
		self_anchor(sb, "errno-", r->errno_name);
	else
		md_code(sb, r->errno_name, true);
	if (r->errnos[strlen(r->errno_name)]) { /* an env check's others: "/ENOTDIR" */
		sbuf_adds(sb, " ");
		md_code(sb, r->errnos + strlen(r->errno_name), true);
	}
	sbuf_adds(sb, " | ");
	md_text(sb, r->why);
	if (r->depends) {
		sbuf_adds(sb, " *(depends on ");
		md_text(sb, r->depends);
		sbuf_adds(sb, ")*");
	}
	if (prose) {
		sbuf_adds(sb, " |\n");
		return;
	}
	sbuf_adds(sb, " | ");
	if (r->cond)
		md_code(sb, r->cond, true);
	struct sbuf k = SBUF_INIT;
	errrow_kernels(&k, r);
	sbuf_adds(sb, " | ");
	md_text(sb, k.buf);
	sbuf_adds(sb, " | ");
	md_text(sb, r->source);
	sbuf_adds(sb, " |\n");
	sbuf_release(&k);
}

/* The call's errors, generated from its size steps and checks in the kernel's order (as the
 * simulator runs them), then those that depend on the world, then the prose no check covers. */
static void errors_section(struct sbuf *sb, const struct syscall *sc)
{
	struct errtable t;
	errtable_build(&t, sc);
	static const char *const head[] = {
		"\n## Errors\n\nGenerated from the size steps and the call's checks, in the kernel's order: the first "
		"that holds is the answer.\n\n| errno | when | if | kernels | source |\n|---|---|---|---|---|\n",
		"\n### Errors that depend on the world\n\nThey depend on state outside the arguments (paths, "
		"descriptors, pointers, privilege, ...).\n\n| errno | when | if | kernels | source |\n|---|---|---|---|---|\n",
		"\n### Errors not yet written as checks\n\nThe catalogue's prose, for what no check gives yet.\n\n"
		"| errno | meaning |\n|---|---|\n",
	};
	for (int part = 0; part < 3; part++) {
		bool any = false;
		for (size_t i = 0; i < t.n; i++) {
			const struct errrow *r = &t.rows[i];
			int p = r->kind == ER_ENV ? 1 : r->kind == ER_PROSE ? 2 : 0;
			if (p != part)
				continue;
			if (!any)
				sbuf_adds(sb, part == 2 && !sc->nconds ?
						      "\n### Errors in the catalogue's prose\n\nThis call has no checks yet; "
						      "its prose stands until they are written.\n\n| errno | meaning |\n|---|---|\n" :
						      head[part]);
			any = true;
			error_row(sb, &t, r, part == 2);
		}
	}
	errtable_release(&t);
}

/* ---- pages ---- */

/* The title, the summary line of facts (since, kind, numbers, header, safety) and the prototype. */
static void syscall_head(struct sbuf *sb, const struct syscall *sc)
{
	sbuf_adds(sb, "# ");
	md_text(sb, sc->name);
	sbuf_adds(sb, "\n\n");
	md_text(sb, sc->summary);
	sbuf_adds(sb, "\n\n");
	since_badge(sb, sc->since);
	sbuf_adds(sb, " · kind **");
	md_text(sb, sc_kind_name(sc->kind));
	sbuf_adds(sb, "** · ");
	if (sc->is_ioctl) {
		sbuf_adds(sb, "ioctl on ");
		md_text(sb, sc->ioctl_fd);
		sbuf_addf(sb, ", type %#x, nr %u", sc->ioctl_type, sc->ioctl_nr);
	} else {
		if (sc->nr_x86_64 >= 0) sbuf_addf(sb, "x86\\_64 %ld", sc->nr_x86_64); else sbuf_adds(sb, "not on x86\\_64");
		if (sc->nr_aarch64 >= 0) sbuf_addf(sb, " · aarch64 %ld", sc->nr_aarch64); else sbuf_adds(sb, " · not on aarch64");
	}
	sbuf_adds(sb, " · ");
	md_code(sb, sc->header, false);
	sbuf_adds(sb, " · safety ");
	md_text(sb, safety_name(sc->safety));
	if (sc->simulation_only) {
		sbuf_adds(sb, "\n\nSimulation only: ");
		md_text(sb, sc->simulation_only);
	}
	sbuf_adds(sb, "\n\n## Prototype\n\n```c\n");
	for (const char *p = sc->prototype; *p; p++)
		sbuf_addch(sb, (unsigned char)*p < 0x20 ? ' ' : *p); /* a fence cannot be closed from inside a line */
	sbuf_adds(sb, "\n```\n\n");
}

static void args_section(struct sbuf *sb, const struct syscall *sc)
{
	if (!sc->nargs)
		return;
	sbuf_adds(sb, "## Arguments\n\n| argument | type | role | default | doc |\n|---|---|---|---|---|\n");
	for (size_t i = 0; i < sc->nargs; i++) {
		const struct sarg *a = &sc->args[i];
		sbuf_adds(sb, "| ");
		self_anchor(sb, "arg-", a->name);
		sbuf_adds(sb, " | ");
		md_code(sb, a->type, true);
		sbuf_addf(sb, " | %s | ", arg_role_name(a->role));
		if (a->def)
			md_code(sb, a->def, true);
		sbuf_adds(sb, " | ");
		md_text(sb, a->doc);
		if (a->st) {
			sbuf_adds(sb, a->doc ? " " : "");
			link_struct(sb, "../", a->st, NULL);
		}
		if (a->flagset) {
			sbuf_adds(sb, a->doc ? " flags: [" : "flags: [");
			md_code(sb, a->flagset->name, true);
			sbuf_adds(sb, "](#");
			md_anchor_id(sb, "flagset-", a->flagset->name);
			sbuf_adds(sb, ")");
		}
		sbuf_adds(sb, " |\n");
	}
}

static void struct_section(struct sbuf *sb, const struct cstruct *st)
{
	if (!st)
		return;
	sbuf_adds(sb, "\n## Struct ");
	md_code(sb, st->name, false);
	sbuf_adds(sb, "\n\n");
	md_text(sb, st->doc);
	sbuf_addf(sb, " (%u bytes; its own page: ", st->size);
	link_struct(sb, "../", st, NULL);
	sbuf_adds(sb, ")\n\n");
	layout_table(sb, st);
	sbuf_adds(sb, "\n### Size versions\n\n");
	versions_table(sb, st);
}

/* Every flag set the call's arguments and its struct's fields take, each once. */
static void flags_section(struct sbuf *sb, const struct syscall *sc)
{
	const struct flagset *sets[48];
	size_t n = 0;
	for (size_t i = 0; i < sc->nargs; i++) {
		bool seen = !sc->args[i].flagset;
		for (size_t k = 0; k < n && !seen; k++)
			seen = sets[k] == sc->args[i].flagset;
		if (!seen && n < ARRAY_SIZE(sets))
			sets[n++] = sc->args[i].flagset;
	}
	n = cstruct_flagsets(sc->st, sets, n, ARRAY_SIZE(sets));
	if (n) {
		sbuf_adds(sb, "\n## Flags\n");
		for (size_t i = 0; i < n; i++)
			flagset_section(sb, sets[i], "###");
	}
}

static void lineage_section(struct sbuf *sb, const struct docgen_input *in, const struct syscall *sc)
{
	if (!sc->nlineage)
		return;
	sbuf_adds(sb, "\n## Lineage\n\n");
	for (size_t i = 0; i < sc->nlineage; i++) {
		const struct lineage *l = &sc->lineage[i];
		const struct syscall *other = catalog_find_syscall(in->cat, l->name);
		sbuf_adds(sb, "- ");
		if (other)
			link_syscall(sb, "../", other);
		else
			md_code(sb, l->name, false);
		sbuf_adds(sb, " ");
		since_badge(sb, l->since);
		sbuf_adds(sb, ": ");
		md_text(sb, l->why);
		sbuf_adds(sb, "\n");
	}
}

static void features_section(struct sbuf *sb, const struct syscall *sc)
{
	if (!sc->nfeatures)
		return;
	sbuf_adds(sb, "\n## Feature bits\n\nThe stable bit numbers of this call's features: what a "
		      "`sys_features(nr, map, mapsize)` system call would return, and what `xsc probe "
		      "--format=c` writes as `#define`s. Append only: a bit never changes its number.\n\n"
		      "| bit | feature | set when |\n|---:|---|---|\n");
	for (size_t i = 0; i < sc->nfeatures; i++) {
		sbuf_addf(sb, "| %zu | ", i);
		md_code(sb, sc->features[i], true);
		sbuf_adds(sb, " | ");
		feature_meaning(sb, sc, sc->features[i]);
		sbuf_adds(sb, " |\n");
	}
}

static void probe_notes_section(struct sbuf *sb, const struct syscall *sc)
{
	if (!sc->probe_note && !sc->nprobe_set && !sc->nprobe_args)
		return;
	sbuf_adds(sb, "\n## Probe notes\n\n");
	if (sc->nprobe_set || sc->nprobe_args) {
		sbuf_adds(sb, "The prober's harmless baseline call sets");
		for (size_t i = 0; i < sc->nprobe_set; i++) {
			sbuf_adds(sb, i ? ", " : " ");
			md_code(sb, sc->probe_set[i], false);
		}
		if (sc->nprobe_args) {
			sbuf_adds(sb, sc->nprobe_set ? " and the arguments" : " the arguments");
			for (size_t i = 0; i < sc->nprobe_args; i++) {
				sbuf_adds(sb, i ? ", " : " ");
				md_code(sb, sc->probe_args[i], false);
			}
		}
		sbuf_adds(sb, ".\n\n");
	}
	if (sc->probe_note) {
		md_text(sb, sc->probe_note);
		sbuf_adds(sb, "\n");
	}
}

/* The matrix section of page idx; its SVG picture becomes a page of its own. */
static void matrix_section(const struct docgen_input *in, struct doc_set *set, size_t idx, const struct syscall *sc)
{
	struct sbuf *sb = &set->pages[idx].text;
	sbuf_adds(sb, "\n## Compatibility matrix\n\n");
	struct sbuf svg = SBUF_INIT;
	if (in->matrix && !in->matrix(in->ctx, sc, sb, &svg)) {
		if (svg.len) {
			struct sbuf sp = SBUF_INIT;
			sbuf_adds(&sp, "matrix/");
			file_name(&sp, sc->name);
			sbuf_adds(&sp, ".svg");
			struct doc_page *img = doc_set_add(set, sp.buf, sc->name, "Matrix", false);
			sbuf_add(&img->text, svg.buf, svg.len);
			sb = &set->pages[idx].text; /* the array may have moved */
			/* one matrix on the page (the table, which scrolls on a phone); the picture,
			 * unreadable when shrunk to a page, is a link */
			sbuf_adds(sb, "\nThe same matrix [as a picture](../");
			sbuf_addf(sb, "%s) (SVG).\n", sp.buf);
			sbuf_release(&sp);
		}
	} else {
		/* HOOK(matrix): filled from `matrix SYSCALL --format=md|svg` once the command exists. */
		sbuf_adds(sb, "Not generated: this build of xsc has no `matrix` command yet.\n");
	}
	sbuf_release(&svg);
}

/* "## TITLE" and one bullet per item, each written by item(); nothing when there are none. */
static void list_section(struct sbuf *sb, const char *title, const char *const *items, size_t n,
			 void (*item)(struct sbuf *, const char *))
{
	if (!n)
		return;
	sbuf_addf(sb, "\n## %s\n\n", title);
	for (size_t i = 0; i < n; i++) {
		sbuf_adds(sb, "- ");
		item(sb, items[i]);
		sbuf_adds(sb, "\n");
	}
}

static void syscall_page(const struct docgen_input *in, struct doc_set *set, const struct syscall *sc)
{
	struct sbuf path = SBUF_INIT;
	sbuf_adds(&path, "syscalls/");
	file_name(&path, sc->name);
	sbuf_adds(&path, ".md");
	size_t idx = set->n;
	struct sbuf *sb = &doc_set_add(set, path.buf, sc->name, "Syscalls", true)->text;
	sbuf_release(&path);

	syscall_head(sb, sc);
	args_section(sb, sc);
	sbuf_adds(sb, "\n## Size rules\n\n");
	size_rules(sb, sc);
	struct_section(sb, sc->st);
	flags_section(sb, sc);
	errors_section(sb, sc);
	lineage_section(sb, in, sc);
	features_section(sb, sc);
	probe_notes_section(sb, sc);
	matrix_section(in, set, idx, sc);
	sb = &set->pages[idx].text; /* the matrix's picture may have moved the array */
	if (in->probe)
		probe_section(sb, in->probe, sc);
	list_section(sb, "Notes", sc->notes, sc->nnotes, md_text);
	list_section(sb, "Links", sc->links, sc->nlinks, url_or_text);
}

static void struct_title(struct sbuf *sb, const struct cstruct *st)
{
	sbuf_addf(sb, "struct %s", st->name);
}

static void struct_page(const struct docgen_input *in, struct doc_set *set, const struct cstruct *st)
{
	struct sbuf path = SBUF_INIT;
	sbuf_adds(&path, "structs/");
	file_name(&path, st->name);
	sbuf_adds(&path, ".md");
	struct sbuf title = SBUF_INIT;
	struct_title(&title, st);
	struct doc_page *pg = doc_set_add(set, path.buf, title.buf, "Structs", true);
	struct sbuf *sb = &pg->text;
	sbuf_release(&path);
	sbuf_release(&title);

	sbuf_adds(sb, "# struct ");
	md_text(sb, st->name);
	sbuf_adds(sb, "\n\n");
	md_text(sb, st->doc);
	sbuf_addf(sb, "\n\n%u bytes · ", st->size);
	md_code(sb, st->header, false);
	enum fdir way = (enum fdir)describe_direction(NULL, st).kind;
	sbuf_addf(sb, " · direction %s", way == FD_OUT ? "out (the kernel fills it)" :
		  way == FD_INOUT ? "in and out" : "in (the caller fills it)");
	if (st->packed)
		sbuf_adds(sb, " · packed");
	if (st->align)
		sbuf_addf(sb, " · aligned(%u)", st->align);
	if (st->size_field) {
		sbuf_adds(sb, " · its size travels inside it, in ");
		md_code(sb, st->size_field->name, false);
	}
	sbuf_adds(sb, "\n\n## Layout\n\n");
	layout_table(sb, st);
	sbuf_adds(sb, "\n## Size versions\n\n");
	versions_table(sb, st);

	const struct flagset *sets[32];
	size_t n = cstruct_flagsets(st, sets, 0, ARRAY_SIZE(sets));
	if (n) {
		sbuf_adds(sb, "\n## Flags\n");
		for (size_t i = 0; i < n; i++)
			flagset_section(sb, sets[i], "###");
	}

	bool any = false;
	for (size_t i = 0; i < in->cat->nsyscalls; i++) {
		const struct syscall *sc = &in->cat->syscalls[i];
		bool uses = sc->st == st;
		for (size_t k = 0; k < sc->nargs && !uses; k++)
			uses = sc->args[k].st == st;
		if (!uses)
			continue;
		sbuf_adds(sb, any ? "" : "\n## Used by\n\n");
		sbuf_adds(sb, "- ");
		link_syscall(sb, "../", sc);
		sbuf_adds(sb, ": ");
		md_text(sb, sc->summary);
		sbuf_adds(sb, "\n");
		any = true;
	}
}

static void index_page(const struct docgen_input *in, struct doc_set *set)
{
	char b[16];
	struct doc_page *pg = doc_set_add(set, "index.md", INDEX_TITLE, "Reference", true);
	struct sbuf *sb = &pg->text;
	sbuf_adds(sb, "# xsc reference\n\nGenerated by `xsc docs` from the catalogue in `data/`; do not edit "
		      "by hand (a test fails when these pages are stale). The conventions behind every page are "
		      "explained in the guide.\n\n");
	if (in->nguide) {
		sbuf_adds(sb, "## Guide\n\n");
		doc_link_list(sb, in->guide, in->nguide, "../");
		sbuf_adds(sb, "\n");
	}
	sbuf_adds(sb, "## Syscalls\n\n| syscall | since | kind | struct | sizes | summary |\n|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < in->cat->nsyscalls; i++) {
		const struct syscall *sc = &in->cat->syscalls[i];
		sbuf_adds(sb, "| ");
		link_syscall(sb, "", sc);
		sbuf_addf(sb, " | %s | ", kv(sc->since, b));
		md_text(sb, sc_kind_name(sc->kind));
		sbuf_adds(sb, " | ");
		if (sc->st)
			link_struct(sb, "", sc->st, NULL);
		sbuf_adds(sb, " | ");
		for (size_t k = 0; sc->st && k < sc->st->nversions; k++)
			sbuf_addf(sb, "%s%u", k ? "/" : "", sc->st->versions[k].size);
		sbuf_adds(sb, " | ");
		md_text(sb, sc->summary);
		sbuf_adds(sb, " |\n");
	}
	sbuf_adds(sb, "\n## Structs\n\n| struct | size | versions | doc |\n|---|---:|---|---|\n");
	for (size_t i = 0; i < in->cat->nstructs; i++) {
		const struct cstruct *st = &in->cat->structs[i];
		sbuf_adds(sb, "| ");
		link_struct(sb, "", st, NULL);
		sbuf_addf(sb, " | %u | ", st->size);
		for (size_t k = 0; k < st->nversions; k++)
			sbuf_addf(sb, "%s%u", k ? "/" : "", st->versions[k].size);
		sbuf_adds(sb, " | ");
		md_text(sb, st->doc);
		sbuf_adds(sb, " |\n");
	}
	sbuf_adds(sb, "\n## Commands\n\nThe [command reference](commands.md) lists every command of xsc.\n");
	if (in->census && in->census->ntrees)
		sbuf_adds(sb, "\n## Census\n\nThe [census](census.md) holds the catalogue to the kernel sources: every site "
			      "that copies a struct of the caller's size, and how each is accounted for.\n");
	if (in->nlessons) {
		sbuf_adds(sb, "\n## Lessons\n\n");
		doc_link_list(sb, in->lessons, in->nlessons, "../");
	}
}

/* ---- the census page ---- */

static void census_versions(struct sbuf *sb, const uint32_t *v, size_t n)
{
	char b[16];
	for (size_t i = 0; i < n; i++)
		sbuf_addf(sb, "%s%s", i ? " " : "", kv(v[i], b));
}

static void census_account(struct sbuf *sb, const struct docgen_input *in, const struct census_site *s)
{
	const struct syscall *sc = s->account == CA_INTERFACE ? catalog_find_syscall(in->cat, s->detail) : NULL;
	if (sc) {
		link_syscall(sb, "", sc);
		return;
	}
	sbuf_adds(sb, s->account == CA_EXCLUDED ? "excluded: " : "**unaccounted**: ");
	if (s->account == CA_PENDING)
		sbuf_adds(sb, "pending ");
	else if (s->account == CA_INTERFACE)
		sbuf_adds(sb, "not in the catalogue: ");
	if (s->detail)
		md_text(sb, s->detail);
	else
		sbuf_adds(sb, "no account");
}

static void census_site_row(struct sbuf *sb, const struct docgen_input *in, const struct census_site *s)
{
	sbuf_adds(sb, "| ");
	md_code(sb, s->file, true);
	sbuf_adds(sb, " | ");
	md_code(sb, s->function, true);
	sbuf_adds(sb, " | ");
	for (size_t k = 0; k < s->nby; k++) {
		sbuf_adds(sb, k ? ", " : "");
		md_text(sb, s->by[k]);
	}
	sbuf_adds(sb, " | ");
	census_versions(sb, s->in, s->nin);
	sbuf_adds(sb, " | ");
	census_account(sb, in, s);
	sbuf_adds(sb, " |\n");
}

/* Per tree: sites, catalogued, excluded, unaccounted. */
static void census_summary(struct sbuf *sb, const struct docgen_input *in, const struct census *c)
{
	char b[16];
	sbuf_adds(sb, "| tree | sites | catalogued | excluded | unaccounted |\n|---|---:|---:|---:|---:|\n");
	size_t last_unaccounted = 0;
	for (size_t t = 0; t < c->ntrees; t++) {
		size_t n = 0, cat = 0, ex = 0;
		for (size_t i = 0; i < c->nsites; i++) {
			const struct census_site *s = &c->sites[i];
			if (!census_site_in(s, c->trees[t]))
				continue;
			n++;
			ex += s->account == CA_EXCLUDED;
			cat += s->account == CA_INTERFACE && census_accounted(s, in->cat);
		}
		sbuf_addf(sb, "| %s | %zu | %zu | %zu | %zu |\n", kv(c->trees[t], b), n, cat, ex, n - cat - ex);
		last_unaccounted = n - cat - ex;
	}
	sbuf_addf(sb, "\n**%zu unaccounted** on %s, the newest tree: ", last_unaccounted,
		  kv(c->trees[c->ntrees - 1], b));
	sbuf_adds(sb, last_unaccounted ? "a site of an interface the catalogue does not hold yet (\"pending\") is "
					 "counted here until it does.\n\n"
				       : "every site is a catalogued interface or excluded with its reason.\n\n");
}

/* One dated fact of the catalogue: a struct's field or size version, or a flag set's flag. */
struct dated_fact {
	const char *kind, *owner, *name;
	uint32_t since;
	const struct provenance *prov;
};

/* Calls fn for every field, size version and flag, the one walk the census counts over. */
static void each_dated_fact(const struct catalog *cat, void (*fn)(const struct dated_fact *, void *), void *ctx)
{
	for (size_t i = 0; i < cat->nstructs; i++) {
		const struct cstruct *st = &cat->structs[i];
		for (size_t k = 0; k < st->nfields; k++)
			fn(&(struct dated_fact){ "field", st->name, st->fields[k].name, st->fields[k].since,
						 &st->fields[k].prov }, ctx);
		for (size_t k = 0; k < st->nversions; k++) {
			char size[32];
			snprintf(size, sizeof(size), "%u bytes", st->versions[k].size);
			fn(&(struct dated_fact){ "size version", st->name, st->versions[k].name ? st->versions[k].name : size,
						 st->versions[k].since, &st->versions[k].prov }, ctx);
		}
	}
	for (size_t i = 0; i < cat->nflagsets; i++) {
		const struct flagset *fs = &cat->flagsets[i];
		for (size_t k = 0; k < fs->nflags; k++)
			fn(&(struct dated_fact){ "flag", fs->name, fs->flags[k].name, fs->flags[k].since, &fs->flags[k].prov },
			   ctx);
	}
}

/* The unverified facts as table rows, counted by whether they are about 5.0 or later, and the
 * facts about 5.0 and later with neither a source of their own nor an unverified mark (their
 * header, held to the uapi headers by the layout test, bounds their since from above only). */
struct fact_counts {
	struct sbuf list;
	size_t recent, older, unsourced;
};

static void count_fact(const struct dated_fact *f, void *ctx)
{
	struct fact_counts *c = ctx;
	bool recent = f->since >= KVER(5, 0, 0);
	char b[16];
	if (!f->prov->unverified) {
		c->unsourced += recent && !f->prov->source;
		return;
	}
	recent ? c->recent++ : c->older++;
	sbuf_addf(&c->list, "| %s | ", f->kind);
	md_code(&c->list, f->owner, true);
	sbuf_adds(&c->list, " | ");
	md_code(&c->list, f->name, true);
	sbuf_addf(&c->list, " | %s |\n", kv(f->since, b));
}

/* The facts no source confirms, by whether they are about a kernel of 5.0 or later. */
static void census_unverified(struct sbuf *sb, const struct catalog *cat)
{
	struct fact_counts c = { SBUF_INIT, 0, 0, 0 };
	each_dated_fact(cat, count_fact, &c);
	sbuf_addf(sb, "## Unverified facts\n\nFacts of the catalogue (fields, size versions, flags) whose \"since\" no "
		      "source confirms yet, marked `unverified` in data and shown with an *unverified* badge: "
		      "**%zu** about kernels 5.0 and later, **%zu** older. **%zu** about kernels 5.0 and later have "
		      "no source of their own and no unverified mark (their header, held to the uapi headers of "
		      "a few releases by the layout test, bounds their since from above only).\n\n",
		  c.recent, c.older, c.unsourced);
	if (c.list.len)
		sbuf_addf(sb, "| fact | of | name | since |\n|---|---|---|---|\n%s\n", c.list.buf);
	sbuf_release(&c.list);
}

static void census_page(const struct docgen_input *in, struct doc_set *set)
{
	const struct census *c = in->census;
	char b[16], b2[16];
	struct doc_page *pg = doc_set_add(set, "census.md", CENSUS_TITLE, "Reference", true);
	struct sbuf *sb = &pg->text;
	sbuf_adds(sb, "# Census: every extensible interface, accounted for\n\n");
	md_text(sb, c->about);
	sbuf_adds(sb, "\n\nTrees: Debian's `linux-source` ");
	census_versions(sb, c->trees, c->ntrees);
	sbuf_adds(sb, ". A site is a function of a tree; *found by* names the helper or pattern that found it.\n\n");
	census_summary(sb, in, c);
	census_unverified(sb, in->cat);
	if (c->ntrees > 1) {
		uint32_t newest = c->trees[c->ntrees - 1], before = c->trees[c->ntrees - 2];
		sbuf_addf(sb, "## New in %s since %s\n\n| file | function | found by | trees | account |\n"
			      "|---|---|---|---|---|\n", kv(newest, b), kv(before, b2));
		for (size_t i = 0; i < c->nsites; i++)
			if (census_site_in(&c->sites[i], newest) && !census_site_in(&c->sites[i], before))
				census_site_row(sb, in, &c->sites[i]);
		sbuf_adds(sb, "\n");
	}
	sbuf_adds(sb, "## Sites\n\n| file | function | found by | trees | account |\n|---|---|---|---|---|\n");
	for (size_t i = 0; i < c->nsites; i++)
		census_site_row(sb, in, &c->sites[i]);
	sbuf_adds(sb, "\n## What is searched\n\n| helper | defined in | since | what it does |\n|---|---|---|---|\n");
	for (size_t i = 0; i < c->nhelpers; i++) {
		const struct census_helper *h = &c->helpers[i];
		sbuf_adds(sb, "| ");
		md_code(sb, h->name, true);
		sbuf_adds(sb, " | ");
		md_code(sb, h->where, true);
		sbuf_addf(sb, " | %s | ", kv(h->since, b));
		md_text(sb, h->doc);
		sbuf_adds(sb, " |\n");
	}
	sbuf_adds(sb, "\nHelper-free patterns (a size convention written by hand), each a regular expression over "
		      "the lines of its path:\n\n| pattern | path | what it finds |\n|---|---|---|\n");
	for (size_t i = 0; i < c->npatterns; i++) {
		const struct census_helper *h = &c->patterns[i];
		sbuf_adds(sb, "| ");
		md_text(sb, h->name);
		sbuf_adds(sb, " | ");
		md_code(sb, h->where, true);
		sbuf_adds(sb, " | ");
		md_text(sb, h->doc);
		sbuf_adds(sb, " |\n");
	}
}

/* Whether a page named name is wanted: all are when want (a file name) is NULL. */
static bool wanted(const char *want, const char *name)
{
	if (!want)
		return true;
	struct sbuf n = SBUF_INIT;
	file_name(&n, name);
	bool eq = !strcmp(n.buf, want);
	sbuf_release(&n);
	return eq;
}

/* The reference pages; with want (a file name) non-NULL, only those doc_set_find could
 * return for it. */
static void reference(const struct docgen_input *in, const char *want, int only, struct doc_set *out)
{
	if (only < 0 && wanted(want, "index"))
		index_page(in, out);
	if (only < 0 && wanted(want, "commands"))
		docgen_commands_page(in, out);
	if (only < 0 && in->census && in->census->ntrees && wanted(want, "census"))
		census_page(in, out);
	for (size_t i = 0; i < in->cat->nsyscalls && only != 1; i++)
		if (wanted(want, in->cat->syscalls[i].name))
			syscall_page(in, out, &in->cat->syscalls[i]);
	for (size_t i = 0; i < in->cat->nstructs && only != 0; i++)
		if (wanted(want, in->cat->structs[i].name))
			struct_page(in, out, &in->cat->structs[i]);
}

void docgen_reference(const struct docgen_input *in, struct doc_set *out)
{
	reference(in, NULL, -1, out);
}

void docgen_reference_topic(const struct docgen_input *in, const char *topic, struct doc_set *out)
{
	int only;
	struct sbuf want = SBUF_INIT;
	file_name(&want, topic_kind(topic, &only));
	reference(in, want.buf, only, out);
	sbuf_release(&want);
}

char **docgen_reference_titles(const struct docgen_input *in, size_t *n)
{
	const struct catalog *cat = in->cat;
	char **t = xcalloc(2 + cat->nsyscalls + cat->nstructs, sizeof(*t));
	*n = 0;
	t[(*n)++] = xstrdup(INDEX_TITLE);
	t[(*n)++] = xstrdup(DOCGEN_COMMANDS_TITLE);
	for (size_t i = 0; i < cat->nsyscalls; i++)
		t[(*n)++] = xstrdup(cat->syscalls[i].name);
	for (size_t i = 0; i < cat->nstructs; i++) {
		struct sbuf s = SBUF_INIT;
		struct_title(&s, &cat->structs[i]);
		t[(*n)++] = sbuf_detach(&s);
	}
	return t;
}
