/* sim: kernels of any version, simulated from the catalogue alone. A call is answered
 * with copy_struct_from_user semantics at the struct size that version knew, the call's
 * own bounds, cap, write-back and quirks, the flags known then, and ENOSYS before the
 * call existed. Fills the same outcome a live call does, so both render alike.
 * Never calls the kernel. */
#ifndef XSC_SIM_H
#define XSC_SIM_H
#include <stdbool.h>
#include <stdint.h>
#include "base/sbuf.h"
#include "model/catalog.h"
#include "model/outcome.h"
#include "model/request.h"

#define EEXTSYS_NOOP 134 /* the errno the CHECK_FIELDS proposal added (asm-generic) */
#define EFTYPE 134       /* the same number in 7.3's uapi: a file of the wrong type (OPENAT2_REGULAR) */
#define CHECK_FIELDS_BIT (1ULL << 63)

struct sim_opts {
	uint32_t kv;          /* the simulated kernel */
	bool check_fields;    /* it implements the 2024 CHECK_FIELDS proposal */
	bool size_only;       /* the size convention alone (the matrix): not the checks of field values that follow it */
};

/* Answers req as the kernel kv would. why gets one reason a line. Returns 0. */
int sim_call(const struct catalog *cat, const struct call_request *req, const struct sim_opts *opt,
	     struct outcome *out, struct sbuf *why);
#endif
