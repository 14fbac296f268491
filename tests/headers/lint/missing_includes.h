/* several includes that cannot be found: each is reported once, at its first line, and
 * one parse more gives them all empty stand-ins */
#include <linux/types.h>
#include <linux/xsc_missing_a.h>
#include "xsc/missing/b.h"
#include <linux/xsc_missing_a.h>
#include <linux/../xsc_missing_dotdot.h>
#include <linux/../xsc_missing_dotdot.h>
struct mis_args {
	__u64 flags; /* 0: none */
};
#define MIS_ARGS_SIZE_VER0 8
