#include "base/landlock.h"
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "base/banned.h"

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif

/* struct landlock_ruleset_attr as of ABI 6; older kernels get a prefix of it */
struct ll_ruleset_attr {
	uint64_t handled_access_fs, handled_access_net, scoped;
};

struct ll_path_beneath {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

long landlock_version(void) { return syscall(SYS_landlock_create_ruleset, NULL, 0, LL_CREATE_RULESET_VERSION); }

uint64_t landlock_write_access(int abi)
{
	uint64_t a = LL_FS_WRITE_FILE | LL_FS_REMOVE_DIR | LL_FS_REMOVE_FILE | LL_FS_MAKE_CHAR | LL_FS_MAKE_DIR |
		     LL_FS_MAKE_REG | LL_FS_MAKE_SOCK | LL_FS_MAKE_FIFO | LL_FS_MAKE_BLOCK | LL_FS_MAKE_SYM;
	if (abi >= 2)
		a |= LL_FS_REFER;
	if (abi >= 3)
		a |= LL_FS_TRUNCATE;
	if (abi >= 5)
		a |= LL_FS_IOCTL_DEV;
	return a;
}

int landlock_ruleset(int abi, uint64_t handled_fs, uint64_t scoped)
{
	struct ll_ruleset_attr attr = { handled_fs, 0, 0 };
	size_t size = offsetof(struct ll_ruleset_attr, handled_access_net);
	if (abi >= 6 && scoped) {
		attr.scoped = scoped;
		size = sizeof(attr);
	}
	return (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
}

int landlock_allow(int ruleset, uint64_t access, int fd)
{
	struct ll_path_beneath rule = { access, fd };
	return (int)syscall(SYS_landlock_add_rule, ruleset, LL_RULE_PATH_BENEATH, &rule, 0);
}

int landlock_restrict(int ruleset) { return (int)syscall(SYS_landlock_restrict_self, ruleset, 0); }

int landlock_usable_abi(void)
{
	static int abi = -1;
	if (abi < 0) {
		const char *pretend = getenv("XSC_TEST_NO_LANDLOCK");
		long r = pretend && !strcmp(pretend, "1") ? -1 : landlock_version();
		abi = r > 0 ? (int)r : 0;
	}
	return abi;
}
