/* landlock: the kernel's Landlock interface (syscalls 444-446), for the two domains xsc
 * makes: a live call's child (writes only beneath its sandbox, sandbox.c) and a header
 * parse's child (reads only of the files its include scan accepted, hinclude.c). The
 * constants are the uapi's (linux/landlock.h), spelled here because the build machine's
 * headers may predate the kernel it runs on. */
#ifndef XSC_LANDLOCK_H
#define XSC_LANDLOCK_H
#include <stdint.h>

#define LL_CREATE_RULESET_VERSION (1U << 0)
#define LL_RULE_PATH_BENEATH 1
#define LL_FS_EXECUTE (1ULL << 0)
#define LL_FS_WRITE_FILE (1ULL << 1)
#define LL_FS_READ_FILE (1ULL << 2)
#define LL_FS_REMOVE_DIR (1ULL << 4)
#define LL_FS_REMOVE_FILE (1ULL << 5)
#define LL_FS_MAKE_CHAR (1ULL << 6)
#define LL_FS_MAKE_DIR (1ULL << 7)
#define LL_FS_MAKE_REG (1ULL << 8)
#define LL_FS_MAKE_SOCK (1ULL << 9)
#define LL_FS_MAKE_FIFO (1ULL << 10)
#define LL_FS_MAKE_BLOCK (1ULL << 11)
#define LL_FS_MAKE_SYM (1ULL << 12)
#define LL_FS_REFER (1ULL << 13)     /* ABI 2 (5.19) */
#define LL_FS_TRUNCATE (1ULL << 14)  /* ABI 3 (6.2) */
#define LL_FS_IOCTL_DEV (1ULL << 15) /* ABI 5 (6.10) */
#define LL_SCOPE_ABSTRACT_UNIX (1ULL << 0) /* ABI 6 (6.12) */
#define LL_SCOPE_SIGNAL (1ULL << 1)

/* The newest ABI the kernel offers, or -1 with errno (ENOSYS, EOPNOTSUPP). */
long landlock_version(void);
/* The newest Landlock ABI this kernel offers (LANDLOCK_CREATE_RULESET_VERSION), 0 when it
 * has none (ENOSYS, EOPNOTSUPP: not built, or not enabled at boot) or when the environment
 * says XSC_TEST_NO_LANDLOCK=1 (tests pretend a kernel without it). Asked once per process;
 * call it in the parent, before fork. */
int landlock_usable_abi(void);
/* Every write-type file access the ABI knows. */
uint64_t landlock_write_access(int abi);
/* A ruleset handling handled_fs, and with ABI 6 or newer scoped (0 for none): its
 * descriptor, or -1 with errno. Async-signal-safe, as are the two below. */
int landlock_ruleset(int abi, uint64_t handled_fs, uint64_t scoped);
/* Allows access beneath fd (a directory), or on fd itself (a file: file rights only).
 * 0, or -1 with errno. */
int landlock_allow(int ruleset, uint64_t access, int fd);
/* This thread and the threads and processes it makes from now on enter the domain. */
int landlock_restrict(int ruleset);
#endif
