/* probe, features: what the running kernel supports, as a table, JSON, C or bitmaps. */
#include <stdlib.h>
#include <string.h>
#include "cmd/commands.h"
#include "kernel/features.h"
#include "kernel/vm.h"
#include "kernel/probe.h"
#include "model/xlat.h"
#include "base/banned.h"

static const char *answer_name(enum answer a)
{
	return a == ANS_YES ? "yes" : a == ANS_NO ? "no" : "inconclusive";
}

/* The distinct holders (fields, arguments) of a report's flags, in order. */
static size_t holders(const struct probe_report *r, const char **out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < r->nflags; i++) {
		bool seen = false;
		for (size_t k = 0; k < n && !seen; k++)
			seen = !strcmp(out[k], r->flags[i].holder);
		if (!seen && n < max)
			out[n++] = r->flags[i].holder;
	}
	return n;
}

static void c_ident(struct sbuf *sb, const char *s)
{
	for (; *s; s++)
		sbuf_addch(sb, (*s >= 'a' && *s <= 'z') ? *s - 32 : ((*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')) ? *s : '_');
}

static void print_c(struct out *o, const struct probe_run *run)
{
	out_text(o, "/* Feature bits of the running kernel (Linux %s), as xsc probed them.\n"
		    " * XSC_<SYSCALL>_<FEATURE> is a bit number; XSC_<SYSCALL>_FEATURES the words a\n"
		    " * sys_features(nr, map, mapsize) would fill. Bit numbers are stable. */\n"
		    "#ifndef XSC_KERNEL_FEATURES_H\n#define XSC_KERNEL_FEATURES_H\n", run->kernel);
	for (size_t i = 0; i < run->nreports; i++) {
		const struct probe_report *r = &run->reports[i];
		struct sbuf up = SBUF_INIT;
		c_ident(&up, r->sc->name);
		out_text(o, "\n/* %s */\n", r->sc->name);
		for (size_t b = 0; b < r->nbits; b++) {
			struct sbuf f = SBUF_INIT;
			c_ident(&f, r->sc->features[b]);
			out_text(o, "#define XSC_%s_%s %zu\n", up.buf, f.buf, b);
			sbuf_release(&f);
		}
		out_text(o, "#define XSC_%s_NBITS %zu\n#define XSC_%s_FEATURES {", up.buf, r->nbits, up.buf);
		for (size_t w = 0; w < (r->nbits + 31) / 32; w++)
			out_text(o, "%s 0x%08xu", w ? "," : "", r->bitmap[w]);
		out_text(o, " }\n");
		sbuf_release(&up);
	}
	out_text(o, "\n#endif\n");
}

static void print_bitmap(struct out *o, const struct probe_run *run)
{
	for (size_t i = 0; i < run->nreports; i++) {
		const struct probe_report *r = &run->reports[i];
		out_text(o, "%-24s", r->sc->name);
		for (size_t w = 0; w < (r->nbits + 31) / 32; w++)
			out_text(o, " %08x", r->bitmap[w]);
		out_text(o, "\n");
	}
}

/* Is the struct field holder one the running kernel's struct does not reach? */
static bool holder_past(const struct probe_report *r, const char *holder)
{
	const struct field *f = r->sc->st && r->available == ANS_YES ? cstruct_find_field(r->sc->st, holder) : NULL;
	return f && probe_past_struct(r, (int)f->offset, f->elem_size);
}

/* What qualifies a holder's answers: a field past the kernel's struct, a request mask whose
 * unknown bits the kernel ignores, flags told known by the order of the checks (a descriptor
 * the prober cannot make), and answers that depend on the sandbox's file system. */
static void holder_notes(struct out *o, const struct probe_report *r, const char *holder, bool past, struct sbuf *details)
{
	bool ignores = probe_ignores_unknown(r->sc, holder);
	out_bool(o, "ignores_unknown_bits", ignores);
	out_bool(o, "past_kernel_struct", past);
	if (past)
		sbuf_addf(details, "    %s: past the kernel's %d-byte struct (a nonzero byte there is E2BIG): nothing in it is supported\n",
			  holder, r->ksize);
	if (ignores)
		sbuf_addf(details, "    %s: a request mask: the kernel ignores the bits it does not know, so they were not probed\n", holder);
	struct sbuf order = SBUF_INIT, fs = SBUF_INIT;
	out_arr(o, "by_check_order");
	for (size_t i = 0; i < r->nflags; i++) {
		const struct flag_answer *fa = &r->flags[i];
		if (strcmp(fa->holder, holder) || !fa->name || !fa->unknown_err || fa->answer == ANS_INCONCLUSIVE)
			continue;
		const char *got = fa->err ? errno_name(fa->err) : "success";
		out_obj(o, NULL);
		out_str(o, "flag", fa->name);
		out_str(o, "errno", fa->err ? errno_name(fa->err) : NULL);
		out_str(o, "unknown_errno", errno_name(fa->unknown_err));
		out_end(o);
		sbuf_addf(&order, " %s (%s; an unknown flag gets %s)", fa->name, got ? got : "?", errno_name(fa->unknown_err));
	}
	out_end(o);
	out_arr(o, "filesystem_dependent");
	for (size_t i = 0; i < r->nflags; i++) {
		const struct flag_answer *fa = &r->flags[i];
		if (strcmp(fa->holder, holder) || !fa->name || !fa->fs_dependent)
			continue;
		out_str(o, NULL, fa->name);
		sbuf_addf(&fs, " %s", fa->name);
	}
	out_end(o);
	if (order.len)
		sbuf_addf(details, "    %s: probed with a descriptor that is not open, told by the checks' order:%s\n", holder, order.buf);
	if (fs.len)
		sbuf_addf(details, "    %s: answered on the sandbox's file system (another may answer otherwise):%s\n", holder, fs.buf);
	sbuf_release(&order);
	sbuf_release(&fs);
}

/* The kernel's struct size in JSON, with each way it was measured. */
static void print_ksize_json(struct out *o, const struct probe_report *r)
{
	if (r->ksize >= 0)
		out_u64(o, "kernel_size", (uint64_t)r->ksize);
	else
		out_null(o, "kernel_size");
	out_obj(o, "kernel_size_by");
	if (r->ksize_bisect >= 0) out_u64(o, "bisection", (uint64_t)r->ksize_bisect); else out_null(o, "bisection");
	if (r->ksize_writeback >= 0) out_u64(o, "writeback", (uint64_t)r->ksize_writeback); else out_null(o, "writeback");
	if (r->ksize_btf >= 0) out_u64(o, "btf", (uint64_t)r->ksize_btf); else out_null(o, "btf");
	out_bool(o, "disagree", r->disagree);
	out_end(o);
}

/* One holder's flags: in JSON by answer, in text its count on the headline and, in details,
 * what is not simply "yes". */
static void print_holder(struct out *o, const struct probe_report *r, const char *holder, struct sbuf *details)
{
	static const char *const keys[] = { "supported", "unsupported", "inconclusive", "unknown_bits_accepted" };
	static const enum answer wanted[] = { ANS_YES, ANS_NO, ANS_INCONCLUSIVE };
	unsigned yes = 0, total = 0;
	struct sbuf no = SBUF_INIT, inc = SBUF_INIT, drift = SBUF_INIT;
	out_obj(o, holder);
	for (int pass = 0; pass < 4; pass++) {
		out_arr(o, keys[pass]);
		for (size_t i = 0; i < r->nflags; i++) {
			const struct flag_answer *fa = &r->flags[i];
			if (strcmp(fa->holder, holder))
				continue;
			if (pass == 3) {
				if (!fa->name && fa->answer == ANS_YES) {
					struct sbuf b = SBUF_INIT;
					sbuf_addf(&b, "%#llx", (unsigned long long)fa->bit);
					out_str(o, NULL, b.buf);
					sbuf_addf(&drift, " %s", b.buf);
					sbuf_release(&b);
				}
				continue;
			}
			if (!fa->name || fa->answer != wanted[pass])
				continue;
			out_str(o, NULL, fa->name);
			if (pass == 0)
				yes++;
			if (pass == 1)
				sbuf_addf(&no, " %s", fa->name);
			if (pass == 2)
				sbuf_addf(&inc, " %s (%s)", fa->name, fa->reason ? fa->reason : "?");
		}
		out_end(o);
	}
	for (size_t i = 0; i < r->nflags; i++)
		total += r->flags[i].name && !strcmp(r->flags[i].holder, holder);
	bool past = holder_past(r, holder);
	holder_notes(o, r, holder, past, details);
	out_end(o);
	out_text(o, "  %s %u/%u", holder, yes, total);
	if (no.len && !past)
		sbuf_addf(details, "    %s: unsupported:%s\n", holder, no.buf);
	if (inc.len)
		sbuf_addf(details, "    %s: inconclusive:%s\n", holder, inc.buf);
	if (drift.len)
		sbuf_addf(details, "    %s: bits the catalogue does not know, accepted:%s\n", holder, drift.buf);
	sbuf_release(&no);
	sbuf_release(&inc);
	sbuf_release(&drift);
}

static void print_report(struct out *o, const struct probe_report *r)
{
	const char *hs[16];
	size_t nh = holders(r, hs, 16);
	out_obj(o, NULL);
	out_str(o, "name", r->sc->name);
	out_str(o, "available", answer_name(r->available));
	out_str(o, "reason", r->why);
	print_ksize_json(o, r);

	/* text: one headline, then what is not simply "yes" */
	struct sbuf head = SBUF_INIT;
	sbuf_addf(&head, "%-24s %-12s", r->sc->name, r->available == ANS_YES ? "available" :
		  r->available == ANS_NO ? "absent" : "inconclusive");
	if (r->ksize >= 0)
		sbuf_addf(&head, " size %d", r->ksize);
	if (r->disagree)
		sbuf_addf(&head, " (DISAGREE: bisection %d, write-back %d, BTF %d)", r->ksize_bisect, r->ksize_writeback, r->ksize_btf);
	out_text(o, "%s%s%s", out_color(o, OC_BOLD), head.buf, out_color(o, OC_RESET));
	sbuf_release(&head);

	struct sbuf details = SBUF_INIT; /* printed after the headline */
	out_obj(o, "flags");
	for (size_t h = 0; h < nh; h++)
		print_holder(o, r, hs[h], &details);
	out_end(o);
	if (r->why && r->available != ANS_YES)
		out_text(o, "  (%s)", r->why);
	out_text(o, "\n%s", details.buf);
	sbuf_release(&details);
	out_obj(o, "queries");
	for (size_t q = 0; q < r->nqueries; q++) {
		if (r->queries[q].ok)
			out_s64(o, r->queries[q].name, r->queries[q].value);
		else
			out_null(o, r->queries[q].name);
		if (r->queries[q].ok)
			out_text(o, "    %s = %lld (%#llx)\n", r->queries[q].name, (long long)r->queries[q].value,
				 (unsigned long long)r->queries[q].value);
	}
	out_end(o);
	out_arr(o, "bitmap");
	for (size_t w = 0; w < (r->nbits + 31) / 32; w++)
		out_u64(o, NULL, r->bitmap[w]);
	out_end(o);
	out_u64(o, "syscalls_issued", r->calls);
	out_u64(o, "elapsed_us", r->us);
	out_end(o);
}

/* Options shared by probe and features: --no-cache, --format=… */
struct probe_opts {
	bool no_cache;
	const char *kernel;     /* --kernel VERSION: the prober in a guest of that version */
	const char *format;
	const char **names;
	size_t n;
};

static int parse_opts(struct session *s, int argc, char **argv, struct probe_opts *po, bool formats)
{
	enum { O_NO_CACHE = 256, O_KERNEL, O_FORMAT };
	static const struct cmd_opt opts[] = {
		{ "format", O_FORMAT, "FORMAT" }, { "no-cache", O_NO_CACHE, NULL }, { "kernel", O_KERNEL, "VERSION" }, { 0 },
	};
	memset(po, 0, sizeof(*po));
	po->names = xcalloc((size_t)argc, sizeof(*po->names));
	struct cmd_opt_iter it = CMD_OPT_ITER(s, argc, argv);
	int k;
	while ((k = cmd_opt_next(&it, formats ? opts : opts + 1 /* not --format */)) != CMD_OPT_END) {
		if (k == O_NO_CACHE)
			po->no_cache = true;
		else if (k == O_KERNEL)
			po->kernel = it.value;
		else if (k == O_FORMAT)
			po->format = it.value;
		else if (k == CMD_OPT_OPERAND)
			po->names[po->n++] = it.value;
		else
			return k;
	}
	if (po->format && strcmp(po->format, "c") && strcmp(po->format, "bitmap") && strcmp(po->format, "text"))
		return usage_err("--format takes text, c or bitmap, not '%s'", po->format);
	return 0;
}

/* The answers: the running kernel's (cached per boot), or with --kernel a guest's, probed
 * each time (a guest's boot is its own). */
static int get_answers(struct session *s, const struct probe_opts *po, struct probe_run *run)
{
	if (!po->kernel)
		return features_probe(s->cat, po->names, po->n, po->no_cache, s->timeout_ms, run);
	for (size_t i = 0; i < po->n; i++) {
		const struct syscall *sc = catalog_find_syscall(s->cat, po->names[i]);
		const char *why;
		/* -1 spelled out: the callers read run only when this is not negative */
		if (!sc) {
			err("probe: no syscall named '%s'", po->names[i]);
			return -1;
		}
		if (!probe_supported(sc, &why)) {
			err("probe: cannot probe %s: %s", po->names[i], why);
			return -1;
		}
	}
	struct vm_guest *g = session_guest(s, po->kernel);
	return g ? vm_probe(g, s->cat, po->names, po->n, run) : -1;
}

int cmd_probe(struct session *s, int argc, char **argv)
{
	struct probe_opts po;
	struct probe_run run;
	int r = parse_opts(s, argc, argv, &po, true);
	if (r)
		goto out;
	if ((r = get_answers(s, &po, &run)) < 0)
		goto out;
	struct out *o = &s->out;
	if (po.format && !strcmp(po.format, "c") && !o->json) {
		print_c(o, &run);
	} else if (po.format && !strcmp(po.format, "bitmap") && !o->json) {
		print_bitmap(o, &run);
	} else {
		out_obj(o, NULL);
		out_str(o, "kernel", run.kernel);
		out_text(o, "%s%s: %zu syscalls probed with %u calls in %llu us (one sandboxed child)%s\n",
			 po.kernel ? "" : "Linux ", run.kernel,
			 run.nreports, run.calls, (unsigned long long)run.us,
			 run.cached ? "; answered from this boot's cache (--no-cache probes again and refreshes it)" : "");
		out_bool(o, "cached", run.cached);
		out_arr(o, "syscalls");
		for (size_t i = 0; i < run.nreports; i++)
			print_report(o, &run.reports[i]);
		out_end(o);
		out_u64(o, "syscalls_issued", run.calls);
		out_u64(o, "elapsed_us", run.us);
		out_end(o);
	}
	probe_run_release(&run);
out:
	free(po.names);
	return r;
}

int cmd_features(struct session *s, int argc, char **argv)
{
	struct probe_opts po;
	struct probe_run run;
	int r = parse_opts(s, argc, argv, &po, false);
	if (r)
		goto out;
	if ((r = get_answers(s, &po, &run)) < 0)
		goto out;
	struct out *o = &s->out;
	out_arr(o, NULL);
	for (size_t i = 0; i < run.nreports; i++) {
		const struct probe_report *rep = &run.reports[i];
		out_obj(o, NULL);
		out_str(o, "name", rep->sc->name);
		out_arr(o, "features");
		if (po.n) {
			out_text(o, "%s%s%s (%s%s)\n", out_color(o, OC_BOLD), rep->sc->name, out_color(o, OC_RESET),
				 po.kernel ? "" : "Linux ", run.kernel);
			for (size_t b = 0; b < rep->nbits; b++) {
				bool known, yes = probe_feature(rep, b, &known);
				out_text(o, "  %3zu  %s%-3s%s  %s\n", b, out_color(o, yes ? OC_GREEN : known ? OC_RED : OC_YELLOW),
					 !known ? "?" : yes ? "yes" : "no", out_color(o, OC_RESET), rep->sc->features[b]);
			}
		} else {
			struct sbuf grid = SBUF_INIT;
			for (size_t b = 0; b < rep->nbits; b++) {
				bool known, yes = probe_feature(rep, b, &known);
				sbuf_addch(&grid, !known ? '?' : yes ? '+' : '.');
				if (b % 8 == 7)
					sbuf_addch(&grid, ' ');
			}
			out_text(o, "%-24s %s\n", rep->sc->name, grid.buf);
			sbuf_release(&grid);
		}
		for (size_t b = 0; b < rep->nbits; b++) {
			bool known, yes = probe_feature(rep, b, &known);
			out_obj(o, NULL);
			out_u64(o, "bit", b);
			out_str(o, "name", rep->sc->features[b]);
			out_str(o, "supported", !known ? "inconclusive" : yes ? "yes" : "no");
			out_end(o);
		}
		out_end(o);
		out_end(o);
	}
	if (!po.n)
		out_text(o, "('+' supported, '.' not, '?' inconclusive; bit 0 first; 'features SYSCALL' names the bits)\n");
	out_end(o);
	probe_run_release(&run);
out:
	free(po.names);
	return r;
}
