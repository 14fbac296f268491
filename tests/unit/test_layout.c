/* The catalogue's struct layouts against the compiler and the running kernel.
 *
 * 1. The system's uapi headers: for every struct the headers define, offsetof()
 *    and sizeof() of each listed member must equal the catalogue's offset and
 *    size, sizeof(struct X) must be one of the catalogue's sizes (old headers
 *    describe an old version), and published *_SIZE_VER* macros must equal the
 *    catalogue's version of that name. Rows are written by hand below; members
 *    newer than the headers are guarded by LINUX_VERSION_CODE. Bit-fields
 *    (perf_event_attr flags) cannot be measured with offsetof and are left out.
 * 2. The running kernel's BTF (/sys/kernel/btf/vmlinux, read with libbpf): for
 *    every catalogue struct the kernel knows, its size must be one of the
 *    catalogue's sizes; every non-bit-field member must sit on a catalogue field
 *    with the same offset and size (or inside a reserved one), with the same name
 *    unless it is a union member; and every catalogue field must exist in the
 *    kernel (or be the word holding bit-fields). The kernel is the final word.
 */
#include <stddef.h>
#include <stdlib.h>
#include <errno.h>
#include <unistd.h>
#include "tap.h"
#include "model/dataload.h"
#include "model/kver.h"
#include <sys/utsname.h>

#include <linux/version.h>
#include <linux/types.h>
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#define HAVE_OPEN_HOW 1
#endif
#include <linux/sched.h>       /* struct clone_args */
#include <linux/sched/types.h> /* struct sched_attr */
#include <linux/perf_event.h>
#include <linux/mount.h>       /* struct mount_attr */
#include <linux/stat.h>        /* struct statx */
#include <linux/io_uring.h>
#include <linux/userfaultfd.h>
#if __has_include(<linux/landlock.h>)
#include <linux/landlock.h>
#define HAVE_LANDLOCK 1
#endif
#include <linux/rseq.h>
#include <linux/seccomp.h>
#include <linux/fs.h>          /* struct procmap_query (6.11) */
#include <linux/ptrace.h>
#include <linux/nsfs.h>        /* struct mnt_ns_info (6.12) */
#include <linux/capability.h>

#if __has_include(<bpf/btf.h>) && __has_include(<linux/btf.h>)
#include <bpf/btf.h>
#define HAVE_LIBBPF 1
#endif

#define HDR_AT_LEAST(a, b) (LINUX_VERSION_CODE >= KERNEL_VERSION(a, b, 0))

static struct catalog *cat;

/* ---- 1. the uapi headers ---- */

static const struct cstruct *need_struct(const char *name)
{
	const struct cstruct *st = catalog_find_struct(cat, name);
	if (!st)
		ok(0, "the catalogue has struct %s", name);
	return st;
}

static void check_field(const char *sname, const char *fname, size_t off, size_t size)
{
	const struct cstruct *st = need_struct(sname);
	if (!st)
		return;
	const struct field *f = cstruct_find_field(st, fname);
	ok(f && f->offset == off && f->size == size, "header: %s.%s at %zu, %zu bytes", sname, fname, off, size);
	if (!f)
		printf("#   the catalogue has no field '%s'\n", fname);
	else if (f->offset != off || f->size != size)
		printf("#   catalogue: '%s' at %u, %u bytes\n", f->name, f->offset, f->size);
}

static bool size_known(const struct cstruct *st, size_t size)
{
	if (size == st->size)
		return true;
	for (size_t i = 0; i < st->nversions; i++)
		if (st->versions[i].size == size)
			return true;
	return false;
}

static void print_sizes(const struct cstruct *st)
{
	printf("#   catalogue sizes:");
	for (size_t i = 0; i < st->nversions; i++)
		printf(" %u", st->versions[i].size);
	printf(" (struct %u)\n", st->size);
}

static void check_sizeof(const char *sname, size_t size)
{
	const struct cstruct *st = need_struct(sname);
	if (!st)
		return;
	bool good = size_known(st, size);
	ok(good, "header: sizeof(struct %s) = %zu is a catalogue size", sname, size);
	if (!good)
		print_sizes(st);
}

static void check_macro(const char *sname, const char *macro, unsigned value)
{
	const struct cstruct *st = need_struct(sname);
	if (!st)
		return;
	const struct sversion *v = cstruct_find_version(st, macro);
	ok(v && v->size == value, "header: %s = %u is the catalogue's %s version", macro, value, sname);
	if (!v)
		printf("#   struct %s has no version named %s\n", sname, macro);
	else if (v->size != value)
		printf("#   catalogue: %u\n", v->size);
}

#define FIELD(s, m) check_field(#s, #m, offsetof(struct s, m), sizeof(((struct s *)0)->m))
#define SIZE(s) check_sizeof(#s, sizeof(struct s))
#define MACRO(s, m) check_macro(#s, #m, m)

static void check_headers(void)
{
#ifdef HAVE_OPEN_HOW
	FIELD(open_how, flags);
	FIELD(open_how, mode);
	FIELD(open_how, resolve);
	SIZE(open_how);
#endif

	FIELD(clone_args, flags);
	FIELD(clone_args, pidfd);
	FIELD(clone_args, child_tid);
	FIELD(clone_args, parent_tid);
	FIELD(clone_args, exit_signal);
	FIELD(clone_args, stack);
	FIELD(clone_args, stack_size);
	FIELD(clone_args, tls);
	FIELD(clone_args, set_tid);
	FIELD(clone_args, set_tid_size);
	FIELD(clone_args, cgroup);
	SIZE(clone_args);
#ifdef CLONE_ARGS_SIZE_VER0
	MACRO(clone_args, CLONE_ARGS_SIZE_VER0);
#endif
#ifdef CLONE_ARGS_SIZE_VER1
	MACRO(clone_args, CLONE_ARGS_SIZE_VER1);
#endif
#ifdef CLONE_ARGS_SIZE_VER2
	MACRO(clone_args, CLONE_ARGS_SIZE_VER2);
#endif

	FIELD(sched_attr, size);
	FIELD(sched_attr, sched_policy);
	FIELD(sched_attr, sched_flags);
	FIELD(sched_attr, sched_nice);
	FIELD(sched_attr, sched_priority);
	FIELD(sched_attr, sched_runtime);
	FIELD(sched_attr, sched_deadline);
	FIELD(sched_attr, sched_period);
	FIELD(sched_attr, sched_util_min);
	FIELD(sched_attr, sched_util_max);
	SIZE(sched_attr);
#ifdef SCHED_ATTR_SIZE_VER0
	MACRO(sched_attr, SCHED_ATTR_SIZE_VER0);
#endif
#ifdef SCHED_ATTR_SIZE_VER1
	MACRO(sched_attr, SCHED_ATTR_SIZE_VER1);
#endif

	/* the bit-fields at offset 40 are left out: offsetof cannot take them */
	FIELD(perf_event_attr, type);
	FIELD(perf_event_attr, size);
	FIELD(perf_event_attr, config);
	FIELD(perf_event_attr, sample_period);
	FIELD(perf_event_attr, sample_freq);
	FIELD(perf_event_attr, sample_type);
	FIELD(perf_event_attr, read_format);
	FIELD(perf_event_attr, wakeup_events);
	FIELD(perf_event_attr, wakeup_watermark);
	FIELD(perf_event_attr, bp_type);
	FIELD(perf_event_attr, bp_addr);
	FIELD(perf_event_attr, kprobe_func);
	FIELD(perf_event_attr, uprobe_path);
	FIELD(perf_event_attr, config1);
	FIELD(perf_event_attr, bp_len);
	FIELD(perf_event_attr, kprobe_addr);
	FIELD(perf_event_attr, probe_offset);
	FIELD(perf_event_attr, config2);
	FIELD(perf_event_attr, branch_sample_type);
	FIELD(perf_event_attr, sample_regs_user);
	FIELD(perf_event_attr, sample_stack_user);
	FIELD(perf_event_attr, clockid);
	FIELD(perf_event_attr, sample_regs_intr);
	FIELD(perf_event_attr, aux_watermark);
	FIELD(perf_event_attr, sample_max_stack);
	FIELD(perf_event_attr, __reserved_2);
	FIELD(perf_event_attr, aux_sample_size);
#if HDR_AT_LEAST(6, 13)
	FIELD(perf_event_attr, aux_action);
#else
	FIELD(perf_event_attr, __reserved_3);
#endif
	FIELD(perf_event_attr, sig_data);
#if HDR_AT_LEAST(6, 3)
	FIELD(perf_event_attr, config3);
#endif
	SIZE(perf_event_attr);
#ifdef PERF_ATTR_SIZE_VER0
	MACRO(perf_event_attr, PERF_ATTR_SIZE_VER0);
#endif
#ifdef PERF_ATTR_SIZE_VER1
	MACRO(perf_event_attr, PERF_ATTR_SIZE_VER1);
#endif
#ifdef PERF_ATTR_SIZE_VER2
	MACRO(perf_event_attr, PERF_ATTR_SIZE_VER2);
#endif
#ifdef PERF_ATTR_SIZE_VER3
	MACRO(perf_event_attr, PERF_ATTR_SIZE_VER3);
#endif
#ifdef PERF_ATTR_SIZE_VER4
	MACRO(perf_event_attr, PERF_ATTR_SIZE_VER4);
#endif
#ifdef PERF_ATTR_SIZE_VER5
	MACRO(perf_event_attr, PERF_ATTR_SIZE_VER5);
#endif
#ifdef PERF_ATTR_SIZE_VER6
	MACRO(perf_event_attr, PERF_ATTR_SIZE_VER6);
#endif
#ifdef PERF_ATTR_SIZE_VER7
	MACRO(perf_event_attr, PERF_ATTR_SIZE_VER7);
#endif
#ifdef PERF_ATTR_SIZE_VER8
	MACRO(perf_event_attr, PERF_ATTR_SIZE_VER8);
#endif

	FIELD(mount_attr, attr_set);
	FIELD(mount_attr, attr_clr);
	FIELD(mount_attr, propagation);
	FIELD(mount_attr, userns_fd);
	SIZE(mount_attr);
#ifdef MOUNT_ATTR_SIZE_VER0
	MACRO(mount_attr, MOUNT_ATTR_SIZE_VER0);
#endif

	/* spare fields are left out: their names and sizes move as fields are added */
	FIELD(statx, stx_mask);
	FIELD(statx, stx_blksize);
	FIELD(statx, stx_attributes);
	FIELD(statx, stx_nlink);
	FIELD(statx, stx_uid);
	FIELD(statx, stx_gid);
	FIELD(statx, stx_mode);
	FIELD(statx, stx_ino);
	FIELD(statx, stx_size);
	FIELD(statx, stx_blocks);
	FIELD(statx, stx_attributes_mask);
	FIELD(statx, stx_atime.tv_sec);
	FIELD(statx, stx_atime.tv_nsec);
	FIELD(statx, stx_btime.tv_sec);
	FIELD(statx, stx_btime.tv_nsec);
	FIELD(statx, stx_ctime.tv_sec);
	FIELD(statx, stx_ctime.tv_nsec);
	FIELD(statx, stx_mtime.tv_sec);
	FIELD(statx, stx_mtime.tv_nsec);
	FIELD(statx, stx_rdev_major);
	FIELD(statx, stx_rdev_minor);
	FIELD(statx, stx_dev_major);
	FIELD(statx, stx_dev_minor);
	FIELD(statx, stx_mnt_id);
	FIELD(statx, stx_dio_mem_align);
	FIELD(statx, stx_dio_offset_align);
#if HDR_AT_LEAST(6, 10)
	FIELD(statx, stx_subvol);
#endif
#if HDR_AT_LEAST(6, 11)
	FIELD(statx, stx_atomic_write_unit_min);
	FIELD(statx, stx_atomic_write_unit_max);
	FIELD(statx, stx_atomic_write_segments_max);
#endif
#if HDR_AT_LEAST(6, 14)
	FIELD(statx, stx_dio_read_offset_align);
#endif
#if HDR_AT_LEAST(6, 16)
	FIELD(statx, stx_atomic_write_unit_max_opt);
#endif
	SIZE(statx);

	FIELD(io_uring_params, sq_entries);
	FIELD(io_uring_params, cq_entries);
	FIELD(io_uring_params, flags);
	FIELD(io_uring_params, sq_thread_cpu);
	FIELD(io_uring_params, sq_thread_idle);
	FIELD(io_uring_params, features);
	FIELD(io_uring_params, wq_fd);
	FIELD(io_uring_params, resv);
	FIELD(io_uring_params, sq_off.head);
	FIELD(io_uring_params, sq_off.tail);
	FIELD(io_uring_params, sq_off.ring_mask);
	FIELD(io_uring_params, sq_off.ring_entries);
	FIELD(io_uring_params, sq_off.flags);
	FIELD(io_uring_params, sq_off.dropped);
	FIELD(io_uring_params, sq_off.array);
	FIELD(io_uring_params, sq_off.resv1);
	FIELD(io_uring_params, cq_off.head);
	FIELD(io_uring_params, cq_off.tail);
	FIELD(io_uring_params, cq_off.ring_mask);
	FIELD(io_uring_params, cq_off.ring_entries);
	FIELD(io_uring_params, cq_off.overflow);
	FIELD(io_uring_params, cq_off.cqes);
	FIELD(io_uring_params, cq_off.flags);
	FIELD(io_uring_params, cq_off.resv1);
#if HDR_AT_LEAST(6, 5)
	FIELD(io_uring_params, sq_off.user_addr);
	FIELD(io_uring_params, cq_off.user_addr);
#else
	FIELD(io_uring_params, sq_off.resv2);
	FIELD(io_uring_params, cq_off.resv2);
#endif
	SIZE(io_uring_params);

	FIELD(io_uring_probe, last_op);
	FIELD(io_uring_probe, ops_len);
	FIELD(io_uring_probe, resv);
	FIELD(io_uring_probe, resv2);
	SIZE(io_uring_probe);

	FIELD(io_uring_probe_op, op);
	FIELD(io_uring_probe_op, resv);
	FIELD(io_uring_probe_op, flags);
	FIELD(io_uring_probe_op, resv2);
	SIZE(io_uring_probe_op);

	FIELD(uffdio_api, api);
	FIELD(uffdio_api, features);
	FIELD(uffdio_api, ioctls);
	SIZE(uffdio_api);

#ifdef HAVE_LANDLOCK
	FIELD(landlock_ruleset_attr, handled_access_fs);
#if HDR_AT_LEAST(6, 7)
	FIELD(landlock_ruleset_attr, handled_access_net);
#endif
#if HDR_AT_LEAST(6, 12)
	FIELD(landlock_ruleset_attr, scoped);
#endif
	SIZE(landlock_ruleset_attr);
#endif

	FIELD(rseq, cpu_id_start);
	FIELD(rseq, cpu_id);
	FIELD(rseq, rseq_cs);
	FIELD(rseq, flags);
#if HDR_AT_LEAST(6, 3)
	FIELD(rseq, node_id);
	FIELD(rseq, mm_cid);
#endif
	SIZE(rseq);

	FIELD(seccomp_notif_addfd, id);
	FIELD(seccomp_notif_addfd, flags);
	FIELD(seccomp_notif_addfd, srcfd);
	FIELD(seccomp_notif_addfd, newfd);
	FIELD(seccomp_notif_addfd, newfd_flags);
	SIZE(seccomp_notif_addfd);
	FIELD(seccomp_notif, id);
	FIELD(seccomp_notif, pid);
	FIELD(seccomp_notif, flags);
	FIELD(seccomp_notif, data.nr);
	FIELD(seccomp_notif, data.arch);
	FIELD(seccomp_notif, data.instruction_pointer);
	FIELD(seccomp_notif, data.args);
	SIZE(seccomp_notif);
	FIELD(seccomp_notif_sizes, seccomp_notif);
	FIELD(seccomp_notif_sizes, seccomp_notif_resp);
	FIELD(seccomp_notif_sizes, seccomp_data);
	SIZE(seccomp_notif_sizes);
#ifdef PROCMAP_QUERY
	FIELD(procmap_query, size);
	FIELD(procmap_query, query_flags);
	FIELD(procmap_query, query_addr);
	FIELD(procmap_query, vma_start);
	FIELD(procmap_query, vma_end);
	FIELD(procmap_query, vma_flags);
	FIELD(procmap_query, vma_page_size);
	FIELD(procmap_query, vma_offset);
	FIELD(procmap_query, inode);
	FIELD(procmap_query, dev_major);
	FIELD(procmap_query, dev_minor);
	FIELD(procmap_query, vma_name_size);
	FIELD(procmap_query, build_id_size);
	FIELD(procmap_query, vma_name_addr);
	FIELD(procmap_query, build_id_addr);
	SIZE(procmap_query);
#endif
	FIELD(ptrace_syscall_info, op);
	FIELD(ptrace_syscall_info, arch);
	FIELD(ptrace_syscall_info, instruction_pointer);
	FIELD(ptrace_syscall_info, stack_pointer);
	FIELD(ptrace_syscall_info, entry.nr);
	FIELD(ptrace_syscall_info, entry.args);
	FIELD(ptrace_syscall_info, seccomp.ret_data);
	SIZE(ptrace_syscall_info);
	FIELD(ptrace_rseq_configuration, rseq_abi_pointer);
	FIELD(ptrace_rseq_configuration, rseq_abi_size);
	FIELD(ptrace_rseq_configuration, signature);
	FIELD(ptrace_rseq_configuration, flags);
	FIELD(ptrace_rseq_configuration, pad);
	SIZE(ptrace_rseq_configuration);
	FIELD(__user_cap_header_struct, version);
	FIELD(__user_cap_header_struct, pid);
	SIZE(__user_cap_header_struct);
#ifdef NS_MNT_GET_INFO
	FIELD(mnt_ns_info, size);
	FIELD(mnt_ns_info, nr_mounts);
	FIELD(mnt_ns_info, mnt_ns_id);
	SIZE(mnt_ns_info);
	MACRO(mnt_ns_info, MNT_NS_INFO_SIZE_VER0);
#endif
}

/* ---- 2. the running kernel's BTF ---- */

#ifdef HAVE_LIBBPF
static bool named(const struct field *f, const char *name)
{
	if (!strcmp(f->name, name))
		return true;
	for (size_t i = 0; i < f->naliases; i++)
		if (!strcmp(f->aliases[i], name))
			return true;
	return false;
}

static const struct field *field_exact(const struct cstruct *st, size_t off, size_t size)
{
	for (size_t i = 0; i < st->nfields; i++)
		if (st->fields[i].offset == off && st->fields[i].size == size)
			return &st->fields[i];
	return NULL;
}

struct walk {
	const struct btf *btf;
	const struct cstruct *st;
	int bad, notes, bitfields;
	int unions; /* how many unions the walk is inside */
};

/* Kernel -> catalogue: every non-bit-field member of the BTF type lies on a catalogue
 * field of the same offset and size (nested structs may be flattened as "a.b"), or
 * inside a reserved field. */
static void walk_members(struct walk *w, __u32 type_id, size_t base, const char *prefix)
{
	const struct btf_type *t = btf__type_by_id(w->btf, type_id);
	const struct btf_member *m = btf_members(t);
	bool in_union = btf_is_union(t);
	for (__u32 i = 0; i < btf_vlen(t); i++, m++) {
		const char *mname = btf__name_by_offset(w->btf, m->name_off);
		char full[256];
		snprintf(full, sizeof(full), "%s%s", prefix, mname ? mname : "");
		if (btf_member_bitfield_size(t, i)) {
			w->bitfields++;
			continue;
		}
		size_t off = base + btf_member_bit_offset(t, i) / 8;
		__s64 size = btf__resolve_size(w->btf, m->type);
		if (size <= 0) /* flexible array: the end marker (rseq end[], probe ops[]) */
			continue;
		int rid = btf__resolve_type(w->btf, m->type);
		const struct btf_type *mt = rid >= 0 ? btf__type_by_id(w->btf, rid) : NULL;
		const struct field *f = field_exact(w->st, off, (size_t)size);
		if (f) {
			if (!*mname && mt && btf_is_union(mt)) {
				/* an anonymous union kept as one field: its members should be the
				 * field's name and aliases */
				const struct btf_member *um = btf_members(mt);
				for (__u32 j = 0; j < btf_vlen(mt); j++, um++) {
					const char *un = btf__name_by_offset(w->btf, um->name_off);
					if (un && *un && !named(f, un)) {
						printf("#   %s: union member '%s' at %zu is not a name of '%s'\n",
						       w->st->name, un, off, f->name);
						w->notes++;
					}
				}
			} else if (*mname && !named(f, full)) {
				printf("#   %s: kernel '%s' at %zu (%lld bytes), catalogue calls it '%s'%s\n", w->st->name,
				       full, off, (long long)size, f->name, in_union ? " (union member: noted)" : "");
				if (in_union)
					w->notes++;
				else
					w->bad++;
			}
			continue;
		}
		if (mt && btf_is_composite(mt)) {
			char sub[sizeof(full) + 1];
			snprintf(sub, sizeof(sub), "%s%s", full, *mname ? "." : "");
			w->unions += in_union;
			walk_members(w, (__u32)rid, off, *mname ? sub : prefix);
			w->unions -= in_union;
			continue;
		}
		const struct field *c = cstruct_field_at(w->st, off);
		if (c && c->reserved && c->offset + c->size >= off + (size_t)size)
			continue;
		if (c && (in_union || w->unions) && c->offset + c->size >= off + (size_t)size) {
			/* another member of a union the catalogue lays out as one of them
			 * (ptrace_syscall_info's exit.is_error inside entry.args) */
			printf("#   %s: union member '%s' at %zu (%lld bytes) lies inside '%s' (noted)\n", w->st->name,
			       full, off, (long long)size, c->name);
			w->notes++;
			continue;
		}
		printf("#   %s: kernel member '%s' at %zu (%lld bytes) has no catalogue field", w->st->name,
		       *full ? full : "(anonymous)", off, (long long)size);
		if (c)
			printf("; the catalogue has '%s' at %u (%u bytes)", c->name, c->offset, c->size);
		printf("\n");
		w->bad++;
	}
}

/* Catalogue -> kernel: is there a member (at any depth) at off with this size?
 * *bits is set when a bit-field lies inside [off, off + size). */
static bool kernel_has(const struct btf *btf, __u32 type_id, size_t base, size_t off, size_t size, bool *bits)
{
	const struct btf_type *t = btf__type_by_id(btf, type_id);
	const struct btf_member *m = btf_members(t);
	for (__u32 i = 0; i < btf_vlen(t); i++, m++) {
		size_t moff = base + btf_member_bit_offset(t, i) / 8;
		if (btf_member_bitfield_size(t, i)) {
			if (moff >= off && moff < off + size)
				*bits = true;
			continue;
		}
		__s64 msize = btf__resolve_size(btf, m->type);
		if (moff == off && msize == (__s64)size)
			return true;
		int rid = btf__resolve_type(btf, m->type);
		const struct btf_type *mt = rid >= 0 ? btf__type_by_id(btf, rid) : NULL;
		if (mt && btf_is_composite(mt) && moff <= off && off < moff + (size_t)msize &&
		    kernel_has(btf, (__u32)rid, moff, off, size, bits))
			return true;
	}
	return false;
}

static uint32_t running_kver = UINT32_MAX;

static void check_btf_struct(const struct btf *btf, const struct cstruct *st)
{
	__s32 id = btf__find_by_name_kind(btf, st->name, BTF_KIND_STRUCT);
	if (id < 0)
		id = btf__find_by_name_kind(btf, st->name, BTF_KIND_UNION);
	if (id < 0) {
		ok(1, "BTF: struct %s # SKIP the running kernel's BTF does not describe it", st->name);
		return;
	}
	const struct btf_type *t = btf__type_by_id(btf, (__u32)id);
	bool good = size_known(st, t->size);
	ok(good, "BTF: struct %s is %u bytes, a catalogue size", st->name, t->size);
	if (!good)
		print_sizes(st);

	struct walk w = { btf, st, 0, 0, 0 };
	if (btf_is_union(t))
		printf("#   %s is a union: its members overlap, only the catalogue's fields are looked up\n", st->name);
	else
		walk_members(&w, (__u32)id, 0, "");
	ok(!w.bad, "BTF: every member of %s matches a catalogue field (%d bit-fields skipped, %d notes)", st->name,
	   w.bitfields, w.notes);

	int missing = 0;
	for (size_t i = 0; i < st->nfields; i++) {
		const struct field *f = &st->fields[i];
		bool bits = false;
		/* a field newer than the running kernel is not in its BTF (make layout-ref checks it) */
		if (kernel_has(btf, (__u32)id, 0, f->offset, f->size, &bits) || bits || f->reserved ||
		    f->since > running_kver)
			continue;
		printf("#   %s: catalogue field '%s' (%u bytes at %u) is not a kernel member\n", st->name, f->name,
		       f->size, f->offset);
		missing++;
	}
	ok(!missing, "BTF: every catalogue field of %s is a kernel member", st->name);
}
#endif

static void check_btf(void)
{
	const char *path = "/sys/kernel/btf/vmlinux";
#ifndef HAVE_LIBBPF
	ok(1, "BTF # SKIP built without libbpf (install libbpf-dev)");
	(void)path;
#else
	if (access(path, R_OK)) {
		ok(1, "BTF # SKIP %s: %s", path, strerror(errno));
		return;
	}
	struct utsname u;
	if (!uname(&u))
		(void)kver_parse(u.release, &running_kver, 1);
	struct btf *btf = btf__load_vmlinux_btf();
	if (!btf) {
		ok(1, "BTF # SKIP libbpf cannot load the kernel's BTF: %s", strerror(errno));
		return;
	}
	for (size_t i = 0; i < cat->nstructs; i++)
		check_btf_struct(btf, &cat->structs[i]);
	btf__free(btf);
#endif
}

int main(void)
{
	cat = catalog_load(getenv("XSC_TEST_DATA") ? getenv("XSC_TEST_DATA") : "data");
	ok(cat != NULL, "the bundled catalogue loads");
	if (!cat)
		return tap_done();
	check_headers();
	check_btf();
	catalog_free(cat);
	return tap_done();
}
