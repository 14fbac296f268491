/* measured: reports of calls measured in real kernels ('measure', data/measured/NAME.json).
 * A report names the kernels it measured (full version, where: a guest in qemu or the host
 * itself, the accelerator, Debian's package and its version), the day and the machine,
 * and for each interface the matrix rows it called (label, size) with each kernel's
 * outcome: "ok", an errno name, or why there is none. Reports come from other machines
 * (a fleet's hosts, a distribution's CI), so the loader treats every byte as hostile: one
 * document of bounded size, no duplicate or unknown keys, every string of its own
 * alphabet and length, every outcome keyed by a kernel of the report, every kernel
 * answered in every case; an error names the file and the path of the value. */
#ifndef XSC_MEASURED_H
#define XSC_MEASURED_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/out.h"

#define MEASURED_FORMAT "xsc-measured-1"
#define MEASURED_FILE_MAX (4u << 20)
#define MEASURED_MAX_KERNELS 64
#define MEASURED_MAX_IFACES 512
#define MEASURED_MAX_CASES 64

struct measured_kernel {
	char *version;          /* "6.1.192": unique in its report, a column's name */
	char *where;            /* "qemu" or "host" */
	char *accelerator;      /* "TCG", "KVM", or NULL (the host) */
	char *package;          /* Debian's image package, or NULL */
	char *package_version;  /* "6.1.192-3", or NULL */
	char *release;          /* uname -r of a host, or NULL */
};

struct measured_case {
	char *row;              /* the matrix row's label: "VER1 (80)" */
	uint64_t size;
	char **outcome;         /* one per kernel of the report, in its order */
	char *not_run;          /* why the call cannot be made, or NULL */
};

struct measured_iface {
	char *name;
	struct measured_case *cases;
	size_t ncases;
};

struct measured_report {
	char *source;           /* the file it came from (messages, labels), or NULL */
	char *date, *machine;
	struct measured_kernel *kernels;
	size_t nkernels;
	struct measured_iface *ifaces;
	size_t nifaces;
};

/* The outcome words other than errno names. */
#define MO_OK "ok"
#define MO_NOT_RUN "not run"
#define MO_NO_ANSWER "no answer"
#define MO_TIMEOUT "timeout"
#define MO_SIGNALED "signaled"
#define MO_SETUP "setup failed"

/* Parses one report (name for messages). 0 with r filled (release it), or -1 (reported as
 * "NAME: PATH: what is wrong") with nothing to release. */
int measured_parse(const char *name, const char *text, size_t len, struct measured_report *r);
/* Reads and parses path. */
int measured_load(const char *path, struct measured_report *r);
/* Every *.json of dir in name order, appended to *reps (*n of them). A directory that does
 * not exist is empty when missing_ok. 0, or -1 (reported) at the first bad report. */
int measured_load_dir(const char *dir, bool missing_ok, struct measured_report **reps, size_t *n);
void measured_release(struct measured_report *r);
void measured_release_all(struct measured_report *reps, size_t n);
/* The report as one JSON document through o (a JSON-mode out): stable key order, the
 * order of r's arrays; what measured_parse reads back. */
void measured_write(struct out *o, const struct measured_report *r);
/* One kernel's members (version, where, accelerator, package, package_version, release). */
void measured_kernel_write(struct out *o, const struct measured_kernel *k);
const struct measured_iface *measured_find(const struct measured_report *r, const char *iface);
/* Is s an outcome word or an errno name? */
bool measured_outcome_ok(const char *s);

/* The columns one interface has over many reports: each kernel of a report that measured
 * the interface, once (the same kernel, where and package in two reports with the same
 * answers is one column; with different answers, two, each labelled with its file). */
struct measured_column {
	const struct measured_report *rep;
	const struct measured_kernel *k;
	const struct measured_iface *ifc;
	size_t ki;              /* k's index in rep */
	char *label;            /* "6.1.192", or "6.1.192 (host.json)" */
	size_t order;           /* the order met: columns sort by version, then by it */
};
struct measured_view {
	struct measured_column *cols;
	size_t ncols;
};
void measured_view_build(const struct measured_report *reps, size_t n, const char *iface, struct measured_view *v);
void measured_view_release(struct measured_view *v);
/* Column c's outcome for the row (label and size), or NULL when it was not measured. */
const char *measured_view_outcome(const struct measured_view *v, size_t c, const char *row, uint64_t size);
#endif
