/* straceline: one line of strace's output read back in the catalogue's terms: the call, its
 * struct's bytes (zero where the line shows nothing), the size the kernel was given, the
 * raw arguments that are numbers, and the answer. Reads text only: no session, no kernel;
 * what explain, or a test, does with it is theirs. */
#ifndef XSC_STRACELINE_H
#define XSC_STRACELINE_H
#include <stdbool.h>
#include <stdint.h>
#include "model/catalog.h"
#include "model/structbuf.h"

struct strace_line {
	const struct syscall *sc;
	struct structbuf *b;     /* the struct argument's bytes (owned) */
	int buf_arg;             /* its argument index */
	char *struct_text;       /* that argument as written: {…}, or the address strace printed
				  * for a struct too small to decode (owned) */
	uint64_t size;           /* what the kernel read as the size */
	bool struct_null;        /* the line gives the struct as NULL */
	uint64_t args[6];        /* the size and the arguments strace shows as numbers, flags or
				  * NULL; what it shows otherwise stays 0 */
	char *strings[6];        /* the path arguments' strings (owned), else NULL */
	unsigned char *shown[6]; /* a pointer argument strace read and printed ({…}, […], "…"):
				  * its bytes (owned; the fields parsed where the catalogue knows
				  * the struct, else zeros), so the pointer is non-NULL and mapped */
	bool answered;           /* the line ends in "= RESULT" */
	long ret;
	int err;                 /* errno when ret == -1 */
};

/* Reads text ("[pid 7] openat2(AT_FDCWD, "/", {flags=O_RDONLY, resolve=0}, 24) = 3"): a
 * catalogue syscall, its struct as strace writes it (fields by name, comments dropped, a
 * "/\* bytes A..B *\/" tail, "=> {…}" write-back ignored), "= N" or "= -1 ENAME (text)".
 * Reports what it cannot read and returns -1; release l either way. */
int strace_line_parse(const struct catalog *cat, const char *text, struct strace_line *l);
void strace_line_release(struct strace_line *l);
#endif
