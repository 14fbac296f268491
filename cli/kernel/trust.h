/* trust: may a planned call run live? Two questions, kept apart because --unsafe answers
 * only the second:
 *   - is the interface the one this build knows (trust_interface)? The catalogue names a
 *     call; the number it enters, its arguments' classes and an ioctl's request come from
 *     the build (systable), so no catalogue can turn `call statx` into unlinkat;
 *   - can the sandbox vouch for every argument value (trust_args)? Whatever their source
 *     (the buffer, an override, a default), descriptors, pids, commands, addresses and
 *     paths are checked as the kernel will read them. */
#ifndef XSC_TRUST_H
#define XSC_TRUST_H
#include <stdbool.h>
#include <stddef.h>
#include "base/sbuf.h"
#include "kernel/systable.h"
#include "model/catalog.h"

struct call_plan;

/* Returns 0 with *se set, or -1 (reported) when the catalogue's entry is not the call this
 * build would make: unknown, another number, other argument classes, another ioctl. */
int trust_interface(const struct syscall *sc, const struct sysent **se);
/* Appends a line to why for each argument the sandbox cannot vouch for, naming it and
 * saying why; returns how many. */
size_t trust_args(const struct call_plan *plan, const struct sysent *se, struct sbuf *why);
/* Bit i set: argument i is an address xsc did not make (a raw number, allowed by --unsafe),
 * which xsc itself must never read, e.g. to print a string. */
unsigned trust_raw_addresses(const struct call_plan *plan);
/* Whether the call, with these arguments as the kernel will read them, may write files
 * (invoke_run refuses such calls without Landlock unless --unsafe). */
bool trust_writes_files(const struct call_plan *plan);
#endif
