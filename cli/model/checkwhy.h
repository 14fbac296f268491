/* checkwhy: the words for one of a call's checks that held, on that call: the check's own
 * sentence and its source, and for unknown(X) which bits of X no kernel of that version
 * knows (how many, which, whether X is a sign-extended negative int, and the flags among
 * them that later kernels added). Used by the explanations of live calls and of strace
 * lines, which run the simulator's check walk and name the check it stopped at, and by the
 * simulator itself, so a simulated and a live answer read alike. */
#ifndef XSC_CHECKWHY_H
#define XSC_CHECKWHY_H
#include "base/sbuf.h"
#include "model/catalog.h"
#include "model/expr.h"

/* Appends one line or more, each ending in '\n'. env is the call as the check saw it. */
void check_why(struct sbuf *sb, const struct check *ck, const struct expr_env *env);
#endif
