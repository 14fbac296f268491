/* systable: what this build itself knows about each interface it may call live. The
 * catalogue comes from outside (--data, XSC_DATA, an import), so it may describe calls but
 * never decide what runs: the syscall number, the class of every argument, the commands a
 * multiplexer may be given, the request an ioctl entry encodes and the safety class (whether the
 * call gets a namespace, whether it needs Landlock) all come from here. */
#ifndef XSC_SYSTABLE_H
#define XSC_SYSTABLE_H
#include <stddef.h>
#include <stdint.h>
#include "model/catalog.h"

/* The descriptor a live call's child makes for the call's fd argument (kernel/invoke.h). */
enum prep_kind { PREP_NONE, PREP_PIDFD, PREP_UFFD, PREP_IOURING, PREP_DIR, PREP_MAPS, PREP_MNTNS, PREP_LAST = PREP_MNTNS };

/* What a live run does differently for a call, each for a reason only code can act on. */
enum sysent_how {
	SH_FORKS = 1 << 0,         /* would run a second copy of xsc: never called live */
	SH_CLONE3 = 1 << 1,        /* through a stub whose child exits at once; xsc may supply a stack */
	SH_RSEQ_RELEASE = 1 << 2,  /* glibc's rseq registration is given back first */
	SH_READS_FILES = 1 << 3,   /* with its paths it only reads: no Landlock needed to write */
	SH_OPENS_PATH = 1 << 4,    /* opens what its path names: a device or FIFO there acts on the open */
};

/* Bits this build reads in a call to decide what is safe: of an argument (arg >= 0, its
 * catalogue name) or of a field of the call's struct (arg < 0), placed by the build's own
 * uapi header (offsetof), never by the catalogue. trust_interface refuses a catalogue that
 * names or places them otherwise, so what a line shows is what was judged. */
struct sysbits {
	const char *name;      /* NULL: none */
	int arg;
	unsigned short off, size;
	uint64_t mask;         /* the bits that matter (0 for a whole field: a descriptor, an address) */
};
#define SYS_ARG(i, nm, m) { nm, i, 0, 0, m }
#define SYS_FIELD(type, member, m) { #member, -1, offsetof(type, member), sizeof(((type *)0)->member), m }

/* What only code may decide about a call's bytes, each named by field or argument. */
struct sysguard {
	struct sysbits fd, fd_when;   /* a descriptor inside the struct, used with a bit of fd_when */
	struct sysbits writes;        /* with none of these bits the call writes no file */
	struct sysbits ns_private;    /* in its own mount namespace, with one of these it changes only that */
	struct sysbits no_open[2];    /* with one of these its path is not opened as a file (no device acts) */
	struct sysbits stack_when, stack, stack_size; /* a child on xsc's stack unless xsc gives it one */
};

/* One letter per argument, in order:
 *   f  a descriptor          p  a path              a  an address (struct or buffer)
 *   i  a pid (0: the caller)  I  a pid where -1 means every process on a cpu, count-only
 *   c  a command or request  n  a number (size, flags, int) */
struct sysent {
	const char *name;      /* the catalogue's name for the interface */
	long nr;               /* the syscall it enters on this architecture */
	enum safety safety;    /* how it is confined (model/catalog.h) */
	const char *args;
	const uint32_t *cmds;  /* for a 'c' argument of a multiplexer: the commands known harmless */
	size_t ncmds;
	uint32_t ioctl;        /* for an ioctl: _IOC(dir, type, nr, 0); the size bits are the call's */
	enum prep_kind prep;   /* the descriptor its fd argument gets when none is named */
	unsigned how;          /* enum sysent_how */
	const struct sysguard *guard; /* NULL: nothing in its bytes changes what is safe */
};

/* NULL when this build does not know the interface (or it is not on this architecture). */
const struct sysent *systable_find(const char *name);
/* The architecture the table is for ("x86_64", "aarch64"), and where its numbers come from. */
const char *systable_arch(void);
const char *systable_source(void);
/* The argument class letter of a catalogue role (enum arg_role). */
char systable_class(int role);
/* Whether b is set: a value the call has is read as the build placed it (0 when the bytes
 * stop before it); its mask applied. */
uint64_t sysbits_get(const struct sysbits *b, const uint64_t *args, const unsigned char *buf, size_t buflen);
/* Each named sysbits of a guard, for fn (trust_interface holds them to the catalogue). */
void sysguard_each(const struct sysguard *g, void (*fn)(const struct sysbits *b, void *ctx), void *ctx);
/* The request bits an ioctl number has apart from its size field. */
uint32_t systable_ioctl_bits(uint64_t request);
#endif
