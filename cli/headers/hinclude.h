/* hinclude: what a header's #include directives would open, checked before libclang opens
 * any of it. libclang reads an included file to its end whatever it is: "/dev/zero" grows
 * without bound, a FIFO or /dev/stdin blocks, /proc/kcore is the machine's memory. So every
 * directive, in the header and (recursively) in the local headers it includes, is resolved
 * as the compiler would resolve it, and refused unless it names a regular file outside
 * /dev (/dev/shm aside), /proc and /sys, of at most 16 MiB. Also refused: a file name made by a macro
 * (#include MACRO, which no uapi header uses and which could not be checked), includes
 * nested deeper than 64, and more than 1024 local files. System headers (/usr/include,
 * /usr/lib) are not read. A directive inside #if 0 is checked too: refusing it costs
 * nothing a real header needs. What is left (a file swapped between this check and the
 * parse) is bounded by the parse's own memory and time limits (header.h). */
#ifndef XSC_HINCLUDE_H
#define XSC_HINCLUDE_H
#include <stddef.h>

#define HINCLUDE_MAX_DEPTH 64
#define HINCLUDE_MAX_FILES 1024
#define HINCLUDE_MAX_SIZE ((size_t)16 << 20)

/* text (named shown in messages) lives in directory here, for its quoted includes; dirs are
 * the -I and system directories in search order. 0, or -1 after err() naming the directive,
 * its line and why. */
int hinclude_check(const char *shown, const char *here, const char *text, size_t len, const char *const *dirs,
		   size_t ndirs);
#endif
