#include "teach/demo.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "base/diag.h"
#include "kernel/probe.h"
#include "model/kver.h"
#include "base/banned.h"

void demo_result_init(struct demo_result *r)
{
	memset(r, 0, sizeof(*r));
	sbuf_init(&r->text);
}

void demo_result_release(struct demo_result *r)
{
	sbuf_release(&r->text);
	r->nfacts = 0;
}

static void fact(struct demo_result *r, const char *key, uint64_t v, bool varies)
{
	if (r->nfacts < DEMO_MAX_FACTS)
		r->facts[r->nfacts++] = (struct demo_fact){ key, v, varies };
}

static uint64_t now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/* ---- the double fetch ---- */

#define KSIZE 64u          /* the "kernel's" struct */
#define HUGE_SIZE 65536u   /* what the flipper writes between the check and the use */

struct shared {
	_Atomic uint32_t size;      /* the size embedded in the user's struct */
	atomic_bool stop;
	unsigned char payload[KSIZE];
};

static void *flipper(void *arg)
{
	struct shared *sh = arg;
	while (!atomic_load_explicit(&sh->stop, memory_order_relaxed)) {
		atomic_store_explicit(&sh->size, KSIZE / 2, memory_order_relaxed);
		atomic_store_explicit(&sh->size, HUGE_SIZE, memory_order_relaxed);
	}
	return NULL;
}

/* Work between the check and the use, as a kernel does (permission checks, allocation). */
static void window(void)
{
	for (volatile int i = 0; i < 64; i++)
		;
}

/* The naive design: check the embedded size, then fetch it again for the copy. */
static bool copy_naive(struct shared *sh, unsigned char *k)
{
	uint32_t checked = atomic_load_explicit(&sh->size, memory_order_relaxed);
	if (checked > KSIZE)
		return false; /* refused: fine */
	window();
	uint32_t used = atomic_load_explicit(&sh->size, memory_order_relaxed);
	if (used > KSIZE)
		return true; /* would have copied `used` bytes into a KSIZE buffer */
	memcpy(k, sh->payload, used);
	return false;
}

/* The fix for embedded sizes (sched_setattr): fetch the size once, use that copy. */
static bool copy_fetch_once(struct shared *sh, unsigned char *k)
{
	uint32_t size = atomic_load_explicit(&sh->size, memory_order_relaxed);
	if (size > KSIZE)
		return false;
	window();
	memcpy(k, sh->payload, size);
	return size > KSIZE;
}

/* The extensible-struct design: the size is an argument, a value nobody else can change. */
static bool copy_separate(struct shared *sh, size_t usize, unsigned char *k)
{
	if (usize > KSIZE)
		return false;
	window();
	memcpy(k, sh->payload, usize);
	return usize > KSIZE;
}

int race_double_fetch(uint64_t iterations, unsigned ms, struct race_result *r)
{
	static struct shared sh; /* shared with the flipper thread */
	unsigned char k[KSIZE];
	pthread_t t;
	memset(r, 0, sizeof(*r));
	atomic_store(&sh.size, KSIZE / 2);
	atomic_store(&sh.stop, false);
	if (pthread_create(&t, NULL, flipper, &sh))
		return err("double-fetch: cannot start the racing thread");
	uint64_t start = now_us(), deadline = start + (uint64_t)ms * 1000u;
	for (uint64_t i = 0; i < iterations; i++) {
		r->naive_fooled += copy_naive(&sh, k);
		r->fetch_once_fooled += copy_fetch_once(&sh, k);
		r->separate_fooled += copy_separate(&sh, KSIZE / 2, k);
		r->iterations++;
		if (!(i & 1023) && now_us() > deadline)
			break;
	}
	atomic_store(&sh.stop, true);
	pthread_join(t, NULL);
	r->elapsed_us = now_us() - start;
	return 0;
}

static int compute_race(const struct catalog *cat, const struct demo_opts *o, struct demo_result *r)
{
	struct race_result rr;
	(void)cat;
	(void)o;
	if (race_double_fetch(50000000, 1000, &rr) < 0)
		return -1;
	sbuf_addf(&r->text, "Two threads, racing for real: one flips the embedded size between %u and %u; the other copies\n"
			    "a %u-byte struct with each design, over and over.\n", KSIZE / 2, HUGE_SIZE, KSIZE);
	if (rr.naive_fooled)
		sbuf_adds(&r->text, "naive (size read twice): FOOLED: it checked a small size, then copied with a huge one.\n");
	else
		sbuf_adds(&r->text, "naive (size read twice): not fooled this run: the window is narrow, but it is there.\n");
	sbuf_adds(&r->text, "fetch once (the embedded size read once, as sched_setattr does): never fooled.\n"
			    "separate size argument (openat2, clone3): never fooled: nothing can change a value in a register.\n");
	if (o->verbose)
		sbuf_addf(&r->text, "tries %llu, naive fooled %llu, fetch-once fooled %llu, separate fooled %llu, %llu ms\n",
			  (unsigned long long)rr.iterations, (unsigned long long)rr.naive_fooled,
			  (unsigned long long)rr.fetch_once_fooled, (unsigned long long)rr.separate_fooled,
			  (unsigned long long)rr.elapsed_us / 1000);
	fact(r, "iterations", rr.iterations, true);
	fact(r, "naive_fooled", rr.naive_fooled, true);
	fact(r, "fetch_once_fooled", rr.fetch_once_fooled, false);
	fact(r, "separate_fooled", rr.separate_fooled, false);
	fact(r, "elapsed_us", rr.elapsed_us, true);
	return 0;
}

/* ---- figures from the catalogue ---- */

static int compute_multiplexer(const struct catalog *cat, const struct demo_opts *o, struct demo_result *r)
{
	(void)o;
	const struct syscall *bpf = catalog_find_syscall(cat, "bpf");
	const struct flagset *cmds = catalog_find_flagset(cat, "bpf_cmd");
	if (!bpf || !bpf->st || !cmds)
		return err("the catalogue has no bpf (or no bpf_cmd): the multiplexer demo needs them");
	size_t n = 0, ext = 0;
	for (size_t i = 0; i < cat->nsyscalls; i++)
		if (cat->syscalls[i].kind == SK_EXTENSIBLE)
			ext++;
	for (size_t i = 0; i < cmds->nflags; i++)
		n += !cmds->flags[i].mask;
	sbuf_addf(&r->text, "bpf(cmd, attr, size): %zu commands share one union bpf_attr of %u bytes (%zu members in the catalogue).\n",
		  n, bpf->st->size, bpf->st->nfields);
	sbuf_addf(&r->text, "Each command has its own last field; CHECK_ATTR(cmd) demands zero bytes after it (EINVAL),\n"
			    "so the 'size' says nothing about which version of a command the caller speaks.\n"
			    "The catalogue's %zu extensible calls each have one struct, and its size is its version.\n", ext);
	sbuf_addf(&r->text, "bpf's size argument is %u bits: a 64-bit size is cut before any check.\n", bpf->size_bits);
	fact(r, "bpf_commands", n, false);
	fact(r, "bpf_attr_size", bpf->st->size, false);
	fact(r, "size_bits", bpf->size_bits, false);
	return 0;
}

static int compute_lineage(const struct catalog *cat, const struct demo_opts *o, struct demo_result *r)
{
	(void)o;
	const struct syscall *sc = catalog_find_syscall(cat, "renameat2");
	if (!sc)
		return err("the catalogue has no renameat2");
	char kv[16];
	for (size_t i = 0; i < sc->nlineage; i++) {
		const struct syscall *p = catalog_find_syscall(cat, sc->lineage[i].name);
		sbuf_addf(&r->text, "%-10s %-7s %s\n", sc->lineage[i].name, kver_str(sc->lineage[i].since, kv),
			  p ? p->prototype : "");
		sbuf_addf(&r->text, "           replaced because: %s\n", sc->lineage[i].why);
	}
	sbuf_addf(&r->text, "%-10s %-7s %s\n", sc->name, kver_str(sc->since, kv), sc->prototype);
	sbuf_addf(&r->text, "Three syscalls for one job, because the first two had no flags argument.\n");
	fact(r, "generations", sc->nlineage + 1, false);
	return 0;
}

static size_t flag_features(const struct syscall *sc)
{
	size_t n = 0;
	for (size_t i = 0; i < sc->nfeatures; i++)
		n += strchr(sc->features[i], ':') && strncmp(sc->features[i], "size:", 5) && strncmp(sc->features[i], "query:", 6);
	return n;
}

static int compute_probing(const struct catalog *cat, const struct demo_opts *o, struct demo_result *r)
{
	const struct syscall *sc = catalog_find_syscall(cat, "openat2");
	if (!sc)
		return err("the catalogue has no openat2");
	size_t flags = flag_features(sc);
	/* trial and error at its cheapest: one call to see the call exists, a bisection over a
	 * page for the struct size (12 calls), one call per flag bit */
	uint64_t planned = 1 + 12 + flags;
	sbuf_addf(&r->text, "openat2 has %zu feature bits in the catalogue (%zu of them flag bits).\n", sc->nfeatures, flags);
	sbuf_addf(&r->text, "Trial and error needs at least %llu calls: 1 to see it exists, 12 to bisect the struct size\n"
			    "over a page, 1 per flag bit, each in a sandbox because a call that works does something.\n",
		  (unsigned long long)planned);
	fact(r, "planned_calls", planned, false);
	if (!o->sim_kv) {
		struct probe_run run;
		const char *names[] = { "openat2" };
		if (probe_run(cat, names, 1, o->timeout_ms, &run) < 0)
			return -1;
		sbuf_addf(&r->text, "The probe just made those calls on this kernel%s", o->verbose ? "" : ".\n");
		if (o->verbose)
			sbuf_addf(&r->text, ": %u calls in %llu us.\n", run.calls, (unsigned long long)run.us);
		fact(r, "probe_calls", run.calls, true);
		fact(r, "probe_us", run.us, true);
		probe_run_release(&run);
	}
	sbuf_addf(&r->text, "A sys_features(nr, map, mapsize) syscall would answer all %zu bits with 1 call and no side effects:\n"
			    "xsc_sys_features() in <xsc/sys_features.h> is that API, answered from the probe's cache.\n",
		  sc->nfeatures);
	fact(r, "bitmap_calls", 1, false);
	return 0;
}

/* When a feature of sc came, from the catalogue: 0 when unknown. */
static uint32_t feature_since(const struct catalog *cat, const struct syscall *sc, const char *feat)
{
	(void)cat;
	if (!strcmp(feat, "available"))
		return sc->since;
	if (!strncmp(feat, "size:", 5)) {
		for (size_t i = 0; sc->st && i < sc->st->nversions; i++)
			if ((unsigned)atoi(feat + 5) == sc->st->versions[i].size)
				return sc->st->versions[i].since;
		return 0;
	}
	const char *colon = strchr(feat, ':');
	if (!colon || !strncmp(feat, "query:", 6))
		return 0;
	char holder[64];
	size_t n = (size_t)(colon - feat);
	if (n >= sizeof(holder))
		return 0;
	memcpy(holder, feat, n);
	holder[n] = '\0';
	const struct flagset *fs = NULL;
	const struct field *f = sc->st ? cstruct_find_field(sc->st, holder) : NULL;
	if (f)
		fs = f->flagset;
	for (size_t i = 0; !fs && i < sc->nargs; i++)
		if (!strcmp(sc->args[i].name, holder))
			fs = sc->args[i].flagset;
	for (size_t i = 0; fs && i < fs->nflags; i++)
		if (!strcmp(fs->flags[i].name, colon + 1))
			return fs->flags[i].since > sc->since ? fs->flags[i].since : sc->since;
	return 0;
}

/* Under --sim: the bitmap sys_features would return on that kernel, from the catalogue's
 * dates of each feature ('?' for one it does not date, such as a query's answer). */
static int compute_sim_bitmap(const struct catalog *cat, const struct demo_opts *o, struct demo_result *r)
{
	const struct syscall *sc = catalog_find_syscall(cat, "openat2");
	char kv[16];
	if (!sc)
		return err("the catalogue has no openat2");
	size_t set = 0, unknown = 0;
	struct sbuf bits = SBUF_INIT;
	for (size_t i = 0; i < sc->nfeatures; i++) {
		uint32_t v = feature_since(cat, sc, sc->features[i]);
		sbuf_addch(&bits, !v ? '?' : v <= o->sim_kv ? '+' : '.');
		set += v && v <= o->sim_kv;
		unknown += !v;
	}
	sbuf_addf(&r->text, "On a simulated %s kernel, from the catalogue's dates (bit 0 first; '+' set,\n"
			    "'.' clear, '?' undated):\n"
			    "openat2  %s\n%zu of %zu bits set, in 1 call and no side effects.\n",
		  kver_str(o->sim_kv, kv), bits.buf, set, sc->nfeatures);
	fact(r, "sim_bits_set", set, false);
	fact(r, "sim_bits_undated", unknown, false);
	sbuf_release(&bits);
	return 0;
}

static int compute_vdso(const struct catalog *cat, const struct demo_opts *o, struct demo_result *r)
{
	(void)o;
	/* the newest release in which two different syscalls gained a feature */
	uint32_t best = 0;
	const struct syscall *s1 = NULL, *s2 = NULL;
	const char *f1 = NULL, *f2 = NULL;
	size_t b1 = 0, b2 = 0;
	for (size_t i = 0; i < cat->nsyscalls; i++) {
		const struct syscall *a = &cat->syscalls[i];
		for (size_t x = 0; x < a->nfeatures; x++) {
			uint32_t v = feature_since(cat, a, a->features[x]);
			if (!v || v <= best || v == a->since)
				continue;
			for (size_t k = i + 1; k < cat->nsyscalls; k++) {
				const struct syscall *b = &cat->syscalls[k];
				for (size_t y = 0; y < b->nfeatures; y++)
					if (feature_since(cat, b, b->features[y]) == v && v != b->since && v > best) {
						best = v;
						s1 = a, f1 = a->features[x], b1 = x;
						s2 = b, f2 = b->features[y], b2 = y;
					}
			}
		}
	}
	if (!best)
		return err("vdso-counter: the catalogue has no release in which two syscalls gained a feature");
	/* the release before it, and the counter there: every feature the catalogue dates */
	uint32_t prev = 0;
	uint64_t count = 0;
	for (size_t i = 0; i < cat->nsyscalls; i++)
		for (size_t x = 0; x < cat->syscalls[i].nfeatures; x++) {
			uint32_t v = feature_since(cat, &cat->syscalls[i], cat->syscalls[i].features[x]);
			if (v && v < best && v > prev)
				prev = v;
		}
	for (size_t i = 0; i < cat->nsyscalls; i++)
		for (size_t x = 0; x < cat->syscalls[i].nfeatures; x++) {
			uint32_t v = feature_since(cat, &cat->syscalls[i], cat->syscalls[i].features[x]);
			count += v && v <= prev;
		}
	char pv[16], bv[16];
	kver_str(prev, pv);
	kver_str(best, bv);
	sbuf_addf(&r->text, "A vDSO feature counter: one number that grows by one with every feature a kernel gains.\n");
	sbuf_addf(&r->text, "%s gained, among others, %s %s and %s %s.\n", bv, s1->name, f1, s2->name, f2);
	sbuf_addf(&r->text, "plain %-8s counter %llu\n", pv, (unsigned long long)count);
	sbuf_addf(&r->text, "kernel A: %s + backport of %s %s: counter %llu\n", pv, s1->name, f1, (unsigned long long)count + 1);
	sbuf_addf(&r->text, "kernel B: %s + backport of %s %s: counter %llu\n", pv, s2->name, f2, (unsigned long long)count + 1);
	sbuf_addf(&r->text, "Same number, different kernels: 'does %s have %s?' has no answer in a counter.\n", s1->name, f1);
	sbuf_addf(&r->text, "Per-syscall bitmaps answer it: %s bit %zu is 1 on A and 0 on B; %s bit %zu is 0 on A and 1 on B.\n",
		  s1->name, b1, s2->name, b2);
	fact(r, "counter_plain", count, false);
	fact(r, "counter_a", count + 1, false);
	fact(r, "counter_b", count + 1, false);
	fact(r, "bit_a", b1, false);
	fact(r, "bit_b", b2, false);
	return 0;
}

/* ---- the demos ---- */

static const struct demo_step sign_extension[] = {
	{ DS_SAY, "Flags fields are u64. Store a C int with bit 31 set and C sign-extends it: bits 32..63 become ones.", NULL },
	{ DS_RUN, "new open_how", NULL },
	{ DS_RUN, "set resolve (int)0x80000000", NULL },
	{ DS_RUN, "dump", NULL },
	{ DS_SAY, "None of those bits is a RESOLVE_* flag. openat2 refuses unknown bits instead of ignoring them:", NULL },
	{ DS_RUN, "target live", NULL },
	{ DS_RUN, "call openat2", NULL },
	{ DS_SAY, "As unsigned int the value stays in bit 31: still unknown, still EINVAL, but no longer 33 bits of damage.", NULL },
	{ DS_RUN, "set resolve (unsigned)0x80000000", NULL },
	{ DS_RUN, "expect field resolve 0x80000000", NULL },
	{ DS_SAY, "The convention: flags are unsigned, in user space too. The uapi headers' RESOLVE_*\n"
		  "are plain int constants (0x01 to 0x20, far from bit 31); clone3's flags past bit 31\n"
		  "are ULL (CLONE_CLEAR_SIGHAND is 1ULL << 32): include/uapi/linux/openat2.h, sched.h.", NULL },
	{ 0, NULL, NULL },
};

static const struct demo_step double_fetch[] = {
	{ DS_SAY, "sched_attr and perf_event_attr carry their size inside the struct:", NULL },
	{ DS_RUN, "new sched_attr", NULL },
	{ DS_RUN, "expect size 56", NULL },
	{ DS_SAY, "A kernel that reads that size once to check it and again to copy can be fooled by a second thread.", NULL },
	{ DS_COMPUTE, NULL, compute_race },
	{ DS_SAY, "Hence openat2, clone3 and the newer calls pass the size as an argument.", NULL },
	{ 0, NULL, NULL },
};

static const struct demo_step multiplexer[] = {
	{ DS_COMPUTE, NULL, compute_multiplexer },
	{ DS_SAY, "The 32-bit size hazard, on a simulated {sim} kernel with the CHECK_FIELDS proposal:\n"
		  "bit 63, its query bit, falls off and the command runs.", NULL },
	{ DS_RUN, "target sim {sim} --check-fields", NULL },
	{ DS_RUN, "new bpf", NULL },
	{ DS_RUN, "size 1<<63|168", NULL },
	{ DS_RUN, "call bpf", NULL },
	{ DS_SAY, "An extensible call with a 64-bit size hears the question and does nothing:", NULL },
	{ DS_RUN, "new openat2", NULL },
	{ DS_RUN, "size 1<<63|24", NULL },
	{ DS_RUN, "call openat2", NULL },
	{ 0, NULL, NULL },
};

static const struct demo_step lineage[] = {
	{ DS_SAY, "From the catalogue's lineage data:", NULL },
	{ DS_COMPUTE, NULL, compute_lineage },
	{ DS_SAY, "renameat2 in a sandbox, which holds a file 'a' and no 'b': RENAME_NOREPLACE renames\n"
		  "a to b, since no b exists (an existing b would be EEXIST, a missing a ENOENT).", NULL },
	{ DS_RUN, "target live", NULL },
	{ DS_RUN, "call renameat2", NULL },
	{ DS_SAY, "An unknown flag bit is refused, so new flags can be probed:", NULL },
	{ DS_RUN, "call renameat2 flags=0x80", NULL },
	{ 0, NULL, NULL },
};

static const struct demo_step probing_cost[] = {
	{ DS_COMPUTE, NULL, compute_probing },
	{ DS_SAY, "The bitmap, as sys_features would return it (one bit per catalogue feature):", NULL },
	{ DS_LIVE_RUN, "features openat2", NULL },
	{ DS_SIM_COMPUTE, NULL, compute_sim_bitmap },
	{ 0, NULL, NULL },
};

static const struct demo_step no_op_query[] = {
	{ DS_SAY, "CHECK_FIELDS (2024 proposal): bit 63 of the size asks 'what do you accept?' and the call does nothing.", NULL },
	{ DS_RUN, "target sim {sim} --check-fields", NULL },
	{ DS_RUN, "new openat2", NULL },
	{ DS_RUN, "size 1<<63|24", NULL },
	{ DS_RUN, "call openat2", NULL },
	{ DS_SAY, "The struct now holds every flag bit that kernel accepts:", NULL },
	{ DS_RUN, "dump", NULL },
	{ DS_SAY, "No kernel merged it. Without it, {kernel} reads the same call as a huge size:", NULL },
	{ DS_RUN, "target live", NULL },
	{ DS_RUN, "new openat2", NULL },
	{ DS_RUN, "size 1<<63|24", NULL },
	{ DS_RUN, "call openat2", NULL },
	{ 0, NULL, NULL },
};

static const struct demo_step vdso_counter[] = {
	{ DS_COMPUTE, NULL, compute_vdso },
	{ DS_SAY, "Distributions backport features one by one, so a count cannot stand for a set.", NULL },
	{ 0, NULL, NULL },
};

const struct demo demos[] = {
	{ "sign-extension", "an int flags value in a u64 field sign-extends", sign_extension, "openat2" },
	{ "double-fetch", "a size embedded in the struct, read twice, against a separate size argument", double_fetch, NULL },
	{ "multiplexer", "bpf's one union against the extensible calls", multiplexer, "openat2" },
	{ "lineage", "rename, renameat, renameat2: why every new call needs flags", lineage, "renameat2" },
	{ "probing-cost", "trial and error against one bitmap query", probing_cost, "openat2" },
	{ "no-op-query", "CHECK_FIELDS in the simulator against a kernel without it", no_op_query, "openat2" },
	{ "vdso-counter", "why one counter cannot answer per-feature questions", vdso_counter, NULL },
	{ NULL, NULL, NULL, NULL },
};

const struct demo *demo_find(const char *name)
{
	for (const struct demo *d = demos; d->name; d++)
		if (!strcmp(d->name, name))
			return d;
	return NULL;
}
