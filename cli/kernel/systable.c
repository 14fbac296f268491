#include "kernel/systable.h"
#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>
#include <linux/io_uring.h>
#include <linux/mount.h>
#include <linux/openat2.h>
#include <linux/sched.h>
#include "model/catalog.h"
#include "base/banned.h"

/* Numbers come from <sys/syscall.h> (the kernel's asm/unistd.h) where the build's headers
 * have them. Calls newer than those headers get their numbers here, from the kernel's own
 * tables: arch/x86/entry/syscalls/syscall_64.tbl and include/uapi/asm-generic/unistd.h
 * (aarch64). From 424 on, every architecture but alpha, mips and ia64 shares one number, so
 * one value serves x86_64 and aarch64 alike. */
#ifndef SYS_cachestat
#define SYS_cachestat 451 /* 6.5 */
#endif
#ifndef SYS_statmount
#define SYS_statmount 457 /* 6.8 */
#endif
#ifndef SYS_listmount
#define SYS_listmount 458 /* 6.8 */
#endif
#ifndef SYS_lsm_get_self_attr
#define SYS_lsm_get_self_attr 459 /* 6.8 */
#endif
#ifndef SYS_lsm_set_self_attr
#define SYS_lsm_set_self_attr 460
#endif
#ifndef SYS_lsm_list_modules
#define SYS_lsm_list_modules 461
#endif
#ifndef SYS_setxattrat
#define SYS_setxattrat 463 /* 6.13 */
#endif
#ifndef SYS_getxattrat
#define SYS_getxattrat 464
#endif
#ifndef SYS_open_tree_attr
#define SYS_open_tree_attr 467 /* 6.15 */
#endif
#ifndef SYS_file_getattr
#define SYS_file_getattr 468 /* 6.17 */
#endif
#ifndef SYS_file_setattr
#define SYS_file_setattr 469
#endif

/* The commands of a multiplexer that only read (uapi values, not the catalogue's names):
 * bpf's *_GET_NEXT_ID queries (include/uapi/linux/bpf.h) and the io_uring_register opcode
 * each catalogue entry stands for (include/uapi/linux/io_uring.h). */
static const uint32_t bpf_next_id[] = { 11 /* PROG */, 12 /* MAP */, 23 /* BTF */, 31 /* LINK */ };
static const uint32_t ioring_query[] = { 35 };
static const uint32_t ioring_probe[] = { 8 };
static const uint32_t seccomp_sizes[] = { 3 /* SECCOMP_GET_NOTIF_SIZES, linux/seccomp.h */ };
#define CMDS(a) a, sizeof(a) / sizeof((a)[0])
/* _IOWR(type, nr, 0): the size bits are the call's own */
#define IOWR(type, nr) ((3U << 30) | ((uint32_t)(type) << 8) | (nr))

/* The safety class (catalogue schema "safety") says where a call runs: a namespace call gets a
 * user and mount namespace of its own, a sandbox call's paths are held to the sandbox and need
 * Landlock to write. The build decides it, as it decides the number. */
#define PURE SAFE_PURE
#define SANDBOX SAFE_SANDBOX
#define NAMESPACE SAFE_NAMESPACE
#define PRIVILEGED SAFE_PRIVILEGED

/* The bits in a call's bytes that change what is safe, named by the uapi headers' fields and
 * flags (the build's, not the catalogue's):
 * - a descriptor inside the struct, which the call uses when a flag says so: clone3's cgroup
 *   (CLONE_INTO_CGROUP), mount_setattr's and open_tree_attr's userns_fd (MOUNT_ATTR_IDMAP),
 *   io_uring_setup's wq_fd (IORING_SETUP_ATTACH_WQ);
 * - openat2 writes only with an access mode or flag that writes (O_TMPFILE without its
 *   O_DIRECTORY bit: O_DIRECTORY alone writes nothing), and opens no device with O_PATH or when
 *   it cannot leave the directory (RESOLVE_BENEATH, RESOLVE_IN_ROOT);
 * - open_tree_attr's attr_set/attr_clr change the mount itself (read-only, nosuid, …) unless it
 *   is a clone (OPEN_TREE_CLONE), and a clone is harmless only in the child's own namespace;
 * - clone3 with CLONE_VM and no stack would run the child on xsc's own stack. */
#define OPENAT2_WRITES (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND | (O_TMPFILE & ~O_DIRECTORY))
static const struct sysguard openat2_guard = {
	.writes = SYS_FIELD(struct open_how, flags, OPENAT2_WRITES),
	.no_open = { SYS_FIELD(struct open_how, flags, O_PATH),
		     SYS_FIELD(struct open_how, resolve, RESOLVE_BENEATH | RESOLVE_IN_ROOT) },
};
static const struct sysguard clone3_guard = {
	.fd = SYS_FIELD(struct clone_args, cgroup, 0),
	.fd_when = SYS_FIELD(struct clone_args, flags, CLONE_INTO_CGROUP),
	.stack_when = SYS_FIELD(struct clone_args, flags, CLONE_VM),
	.stack = SYS_FIELD(struct clone_args, stack, 0),
	.stack_size = SYS_FIELD(struct clone_args, stack_size, 0),
};
static const struct sysguard mount_setattr_guard = {
	.fd = SYS_FIELD(struct mount_attr, userns_fd, 0),
	.fd_when = SYS_FIELD(struct mount_attr, attr_set, MOUNT_ATTR_IDMAP),
};
static const struct sysguard open_tree_attr_guard = {
	.fd = SYS_FIELD(struct mount_attr, userns_fd, 0),
	.fd_when = SYS_FIELD(struct mount_attr, attr_set, MOUNT_ATTR_IDMAP),
	.ns_private = SYS_ARG(2, "flags", OPEN_TREE_CLONE),
};
static const struct sysguard io_uring_setup_guard = {
	.fd = SYS_FIELD(struct io_uring_params, wq_fd, 0),
	.fd_when = SYS_FIELD(struct io_uring_params, flags, IORING_SETUP_ATTACH_WQ),
};

/* Past the number and the argument classes, a row may name the descriptor a live call's child
 * prepares (.prep), what the run does differently (.how, enum sysent_how: the calls that
 * would fork xsc, clone3's stub, rseq's release, the calls that only read files, the one that
 * opens its path) and the bits of its bytes that change what is safe (.guard). */
#if defined(__x86_64__) || defined(__aarch64__)
static const struct sysent table[] = {
	{ "bpf", SYS_bpf, PRIVILEGED, "can", CMDS(bpf_next_id), 0 },
	{ "cachestat", SYS_cachestat, SANDBOX, "faan", NULL, 0, 0, .prep = PREP_DIR },
	{ "capget", SYS_capget, PURE, "aa", NULL, 0, 0 }, /* reads the child's own sets (pid 0) */
	{ "clone3", SYS_clone3, SANDBOX, "an", NULL, 0, 0, .how = SH_CLONE3, .guard = &clone3_guard },
	{ "clone", SYS_clone, SANDBOX, "naaan", NULL, 0, 0, .how = SH_FORKS },
#ifdef SYS_fork
	{ "fork", SYS_fork, SANDBOX, "", NULL, 0, 0, .how = SH_FORKS },
	{ "vfork", SYS_vfork, SANDBOX, "", NULL, 0, 0, .how = SH_FORKS },
	{ "rename", SYS_rename, SANDBOX, "pp", NULL, 0, 0 },
#endif
	{ "file_getattr", SYS_file_getattr, SANDBOX, "fpann", NULL, 0, 0, .how = SH_READS_FILES },
	{ "file_setattr", SYS_file_setattr, SANDBOX, "fpann", NULL, 0, 0 },
	{ "io_uring_setup", SYS_io_uring_setup, PURE, "na", NULL, 0, 0, .guard = &io_uring_setup_guard },
	{ "IORING_REGISTER_QUERY", SYS_io_uring_register, PURE, "fcan", CMDS(ioring_query), 0 },
	{ "IORING_REGISTER_PROBE", SYS_io_uring_register, PURE, "fcan", CMDS(ioring_probe), 0, .prep = PREP_IOURING },
	{ "landlock_create_ruleset", SYS_landlock_create_ruleset, PURE, "ann", NULL, 0, 0 },
	{ "renameat", SYS_renameat, SANDBOX, "fpfp", NULL, 0, 0 },
	{ "renameat2", SYS_renameat2, SANDBOX, "fpfpn", NULL, 0, 0 },
	{ "lsm_get_self_attr", SYS_lsm_get_self_attr, PURE, "nann", NULL, 0, 0 },
	{ "lsm_set_self_attr", SYS_lsm_set_self_attr, PRIVILEGED, "nann", NULL, 0, 0 },
	{ "lsm_list_modules", SYS_lsm_list_modules, PURE, "ann", NULL, 0, 0 },
	{ "mount_setattr", SYS_mount_setattr, NAMESPACE, "fpnan", NULL, 0, 0, .guard = &mount_setattr_guard },
	{ "open_tree_attr", SYS_open_tree_attr, NAMESPACE, "fpnan", NULL, 0, 0, .guard = &open_tree_attr_guard },
	{ "openat2", SYS_openat2, SANDBOX, "fpan", NULL, 0, 0, .how = SH_OPENS_PATH, .guard = &openat2_guard },
	/* pid -1 with a cpu counts every process there; the kernel refuses sigtrap without a
	 * task ("avoids signalling random tasks", kernel/events/core.c), so it only reads */
	{ "perf_event_open", SYS_perf_event_open, PURE, "aInfn", NULL, 0, 0 },
	{ "PIDFD_GET_INFO", SYS_ioctl, PURE, "fca", NULL, 0, IOWR(0xFF, 11), .prep = PREP_PIDFD }, /* linux/pidfd.h */
	/* the child's own mount namespace: its id and number of mounts are only read */
	{ "NS_MNT_GET_INFO", SYS_ioctl, PURE, "fca", NULL, 0, (2U << 30) | (0xB7 << 8) | 10, .prep = PREP_MNTNS }, /* linux/nsfs.h, _IOR */
	/* the child's own /proc/self/maps: the query only reads its mappings */
	{ "PROCMAP_QUERY", SYS_ioctl, PURE, "fca", NULL, 0, IOWR(0x66, 17), .prep = PREP_MAPS }, /* linux/fs.h */
	{ "rseq", SYS_rseq, PURE, "annn", NULL, 0, 0, .how = SH_RSEQ_RELEASE },
	/* only the operation that reports sizes: the others install filters or change the mode */
	{ "SECCOMP_GET_NOTIF_SIZES", SYS_seccomp, PURE, "cna", CMDS(seccomp_sizes), 0 },
	{ "sched_setattr", SYS_sched_setattr, PURE, "ian", NULL, 0, 0 },
	{ "sched_getattr", SYS_sched_getattr, PURE, "iann", NULL, 0, 0 },
	{ "statmount", SYS_statmount, PURE, "aann", NULL, 0, 0, .how = SH_READS_FILES },
	{ "listmount", SYS_listmount, PURE, "aann", NULL, 0, 0, .how = SH_READS_FILES },
	{ "statx", SYS_statx, SANDBOX, "fpnna", NULL, 0, 0, .how = SH_READS_FILES },
	{ "UFFDIO_API", SYS_ioctl, PURE, "fca", NULL, 0, IOWR(0xAA, 0x3F), .prep = PREP_UFFD }, /* linux/userfaultfd.h */
	{ "userfaultfd", SYS_userfaultfd, PURE, "n", NULL, 0, 0 },
	{ "setxattrat", SYS_setxattrat, SANDBOX, "fpnaan", NULL, 0, 0 },
	{ "getxattrat", SYS_getxattrat, SANDBOX, "fpnaan", NULL, 0, 0, .how = SH_READS_FILES },
};
#else
static const struct sysent table[] = { { NULL, -1, SAFE_PURE, "", NULL, 0, 0 } };
#endif

const struct sysent *systable_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(table); i++)
		if (table[i].name && !strcmp(table[i].name, name))
			return &table[i];
	return NULL;
}

const char *systable_arch(void)
{
#if defined(__x86_64__)
	return "x86_64";
#elif defined(__aarch64__)
	return "aarch64";
#else
	return "this architecture";
#endif
}

const char *systable_source(void)
{
#if defined(__aarch64__)
	return "include/uapi/asm-generic/unistd.h";
#else
	return "arch/x86/entry/syscalls/syscall_64.tbl";
#endif
}

char systable_class(int role)
{
	static const char classes[] = {
		[AR_FD] = 'f', [AR_PATH] = 'p', [AR_STRUCT] = 'a', [AR_SIZE] = 'n', [AR_FLAGS] = 'n',
		[AR_PID] = 'i', [AR_INT] = 'n', [AR_PTR] = 'a', [AR_CMD] = 'c',
	};
	return role >= 0 && (size_t)role < sizeof(classes) ? classes[role] : '?';
}

uint64_t sysbits_get(const struct sysbits *b, const uint64_t *args, const unsigned char *buf, size_t buflen)
{
	uint64_t v;
	if (!b->name)
		return 0;
	if (b->arg >= 0)
		v = args[b->arg];
	else if (buf && (size_t)b->off + b->size <= buflen)
		v = le_load(buf + b->off, b->size);
	else
		return 0;
	return b->mask ? v & b->mask : v;
}

void sysguard_each(const struct sysguard *g, void (*fn)(const struct sysbits *b, void *ctx), void *ctx)
{
	const struct sysbits *all[] = { &g->fd, &g->fd_when, &g->writes, &g->ns_private, &g->no_open[0],
					&g->no_open[1], &g->stack_when, &g->stack, &g->stack_size };
	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		if (all[i]->name)
			fn(all[i], ctx);
}

uint32_t systable_ioctl_bits(uint64_t request)
{
	return (uint32_t)request & ~(0x3fffU << 16);
}
