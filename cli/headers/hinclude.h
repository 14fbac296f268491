/* hinclude: what a header's #include directives would open, checked before libclang opens
 * any of it. libclang reads an included file to its end whatever it is: "/dev/zero" grows
 * without bound, a FIFO or /dev/stdin blocks, /proc/kcore is the machine's memory. So every
 * directive, in the header and (recursively) in the local headers it includes, is resolved
 * as the compiler would resolve it, and refused unless it names a regular file outside
 * /dev (/dev/shm aside), /proc and /sys, of at most 16 MiB. Directives are read as the
 * lexer reads them: after '#' or its digraph '%:', a byte order mark or Unicode spaces,
 * with CR and CRLF as newlines and splices whose backslash blanks follow. What else opens
 * a file is checked the same way: __has_include, __has_include_next, and the dependency
 * pragma (#pragma or _Pragma), wherever they stand in a line. Also refused: a file name
 * made by a macro (#include MACRO, an operand of those operators that is no literal, which
 * no uapi header uses and which could not be checked), includes nested deeper than 64, and
 * more than 1024 local files. System headers (/usr/include, /usr/lib) are not read. A
 * directive inside #if 0 is checked too: refusing it costs nothing a real header needs.
 * A text scan can still miss what the compiler sees, so it is not the boundary: with
 * Landlock, the parse's child may open only the files the scan accepted (hinclude_confine).
 * Without Landlock, what is left (a spelling the scan misses, a file swapped between this
 * check and the parse) is bounded by the parse's own memory and time limits (header.h). */
#ifndef XSC_HINCLUDE_H
#define XSC_HINCLUDE_H
#include <stddef.h>
#include <sys/types.h>

#define HINCLUDE_MAX_DEPTH 64
#define HINCLUDE_MAX_FILES 1024
#define HINCLUDE_MAX_SIZE ((size_t)16 << 20)

/* The files a scan let through: each by its real path and the inode the scan checked. */
struct hinclude_file {
	char *path;
	dev_t dev;
	ino_t ino;
};
struct hinclude_files {
	struct hinclude_file *v;
	size_t n, alloc;
};
void hinclude_files_release(struct hinclude_files *f);

/* text (named shown in messages) lives in directory here, for its quoted includes; dirs are
 * the -I and system directories in search order. 0, or -1 after err() naming the directive,
 * its line and why. The files it accepts (the local headers it read, and the system
 * headers named directly) are added to *accepted, unless NULL. */
int hinclude_check(const char *shown, const char *here, const char *text, size_t len, const char *const *dirs,
		   size_t ndirs, struct hinclude_files *accepted);
/* The boundary the scan is checked against: this process (the parse's child) may from now on
 * read only the files f holds (each its checked inode), and files beneath scratch and the
 * directories dirs (the system and clang's own include directories), and write only beneath
 * scratch. So a file the scan missed, however the text names it (a digraph, a pragma,
 * __has_include), fails to open inside libclang. abi: landlock_usable_abi(); 0 does
 * nothing (the scan alone stands). 0, or -1 after err(). */
int hinclude_confine(const struct hinclude_files *f, const char *scratch, const char *const *dirs, size_t ndirs,
		     int abi);
#endif
