/* decode: calls and structs written the way strace writes them, so a line from xsc can be
 * compared with strace's own: names for flags, {field=value, …} up to the size the caller
 * passed, a size too small shown as the address, nonzero tail bytes as
 * `/\* bytes A..B *\/ "\x.."`, and what the kernel wrote back as `=> {size=56}`. */
#ifndef XSC_DECODE_H
#define XSC_DECODE_H
#include <stddef.h>
#include <stdint.h>
#include "base/sbuf.h"
#include "model/catalog.h"
#include "model/outcome.h"

/* Signal number v by name (constants.json's SIG*, strace's SIGRTMIN and SIGRT_n), else the number. */
void decode_signal(struct sbuf *sb, const struct catalog *cat, uint64_t v);
/* One field's value as strace shows it. data holds the struct. */
void decode_field(struct sbuf *sb, const struct catalog *cat, const struct field *f, const unsigned char *data);
/* One field's value in a buffer of xsc's, as dump and expect show it beside the bytes: what
 * a pointer field points at by name (&BUFFER, "text"), an array summed up ("all zero"), a
 * number with its hex, flags as the call line names them. The same walk as decode_field's,
 * in the other look. */
struct structbuf;
void decode_field_buffer(struct sbuf *sb, const struct structbuf *b, const struct field *f);
enum {
	DECODE_VERBOSE = 1, /* strace -v: no abbreviation (statx's fields past stx_size) */
	DECODE_ENTRY = 2,   /* what the kernel reads, on the call's entry: an out field is left out */
};
/* {f=v, …} for the bytes the kernel was given: size bytes of data (len of them readable). */
void decode_struct(struct sbuf *sb, const struct catalog *cat, const struct cstruct *st,
		   const unsigned char *data, size_t len, uint64_t size, uint64_t addr);
/* The same in a style: DECODE_VERBOSE or 0 (strace's default abbreviations). */
void decode_struct_as(struct sbuf *sb, const struct catalog *cat, const struct cstruct *st,
		      const unsigned char *data, size_t len, uint64_t size, uint64_t addr, unsigned style);
/* The named printers of strace's views (perf's config by type): 1 + the index of name, or 0;
 * and how many there are. */
unsigned decode_printer_find(const char *name);
unsigned decode_printer_count(void);
/* The size of st that a line shows for size: the first version's where sc reads size 0 as
 * that (sched_attr), else size. */
uint64_t decode_shown_size(const struct syscall *sc, const struct cstruct *st, uint64_t size);
/* The size strace shows an output struct at: the size the kernel wrote into its size field
 * (sched_getattr's attr.size) when that is smaller than size, else size. */
uint64_t decode_out_size(const struct cstruct *st, const unsigned char *data, size_t len, uint64_t size);
/* The whole line: name(args) = ret or = -1 ENAME (text). buf_arg is the argument holding
 * the struct (-1: none). */
void decode_call(struct sbuf *sb, const struct catalog *cat, const struct syscall *sc,
		 const struct outcome *o, int buf_arg);
/* The same in a style (DECODE_VERBOSE: as strace -v). An output struct (statx's, sched_getattr's)
 * is shown as the kernel left it, or as its address when the call failed. */
void decode_call_as(struct sbuf *sb, const struct catalog *cat, const struct syscall *sc,
		    const struct outcome *o, int buf_arg, unsigned style);
#endif
