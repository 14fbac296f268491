/* a union of per-command structs, selected by a command field */
#include <linux/types.h>
struct mux_attr {
	__u32 cmd; /* 0: none */
	__u32 pad; /* must be zero */
	union {
		struct { __u64 a; } create;
		struct { __u64 b; } destroy;
	} u;
};
#define MUX_ATTR_SIZE_VER0 16
