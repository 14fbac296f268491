/* request: one call as the model sees it: the catalogue's entry, the raw arguments, the
 * struct buffer and its size, made from the session's buffer and ARG=VALUE overrides.
 * The simulator answers a request; the kernel layer (kernel/invoke.h) wraps one in a plan
 * and adds what only a live call needs: guard pages, prepared descriptors, confinement.
 * Where the memory comes from is the caller's choice (struct request_memory), so the
 * kernel layer can ask for guarded pages without this layer knowing of them. */
#ifndef XSC_REQUEST_H
#define XSC_REQUEST_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "model/catalog.h"
#include "model/structbuf.h"

/* Memory for the buffers arguments point at: get returns at least len zeroed bytes and
 * the length to give back to put. */
struct request_memory {
	void *(*get)(size_t len, size_t *map_len);
	void (*put)(void *p, size_t map_len);
};
/* Plain heap memory: enough for the simulator, which reads nothing past a buffer's length. */
extern const struct request_memory request_heap;

struct call_request {
	const struct syscall *sc;
	int nargs;
	uint64_t args[6];
	unsigned char *buf;      /* the struct (request_memory) */
	size_t buflen, map_len;
	int buf_arg;             /* the argument that points at buf, or -1 */
	uint64_t size;           /* what the kernel reads as the size */
	unsigned char *extra;    /* output buffer for another pointer argument */
	size_t extra_len, extra_map;
	int extra_arg;
	uint32_t size_cell;      /* size passed through a pointer (lsm calls) */
	char *strings[6];        /* path and name strings the arguments point at */
	size_t string_map[6];    /* nonzero: strings[i] came from request_memory, of this length */
	void *copies[8];         /* copies of buffers that &NAME pointers point at */
	size_t copy_len[8];
	const char *copy_name[8]; /* the buffers they copy (the request's caller owns the names) */
	size_t ncopies;
	uint32_t *supplied;      /* offsets of 8-byte slots of buf that hold xsc's addresses (heap) */
	size_t nsupplied, supplied_alloc;
	bool buf_override;       /* buf holds an ARG="bytes" override, not the session's buffer */
	unsigned overridden;     /* bit i: an override named argument i */
	bool foreign;            /* it ran outside xsc's sandbox (a strace line): its paths,
				  * descriptors and privilege are not the sandbox's world */
	const struct request_memory *mem;
};

struct buffer_lookup {
	struct structbuf *(*find)(void *ctx, const char *name);
	void *ctx;
};

/* Builds a request. over[] are "NAME=VALUE" overrides; a "string" for a struct or buffer
 * argument is copied into mem (for the call's own struct, it becomes buf). Reports and
 * returns -1 on bad input; release the request either way. */
int request_build(const struct catalog *cat, const struct syscall *sc, const struct structbuf *sb,
		  const struct buffer_lookup *bufs, int nover, char **over, const struct request_memory *mem,
		  struct call_request *req);
void request_release(struct call_request *req);
/* buf's 8 bytes at off hold an address of xsc's (kept out of the session by write-back). */
void request_note_supplied(struct call_request *req, uint32_t off);
#endif
