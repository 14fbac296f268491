/* vmwire: what travels between xsc and the agent in a guest (target vm) over the serial
 * line. Both ends treat the other's bytes as hostile: a frame is a magic word, a type and a
 * length (at most VW_MAX), then the payload; a payload is fixed-width little-endian numbers
 * and length-prefixed byte strings, each bounded, decoded by a reader that refuses any
 * overrun, any count or length past its bound and any byte left over. Pure: no I/O, no
 * kernel calls (fuzz/fuzz_vmwire.c runs the decoders on arbitrary bytes). */
#ifndef XSC_VMWIRE_H
#define XSC_VMWIRE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/sbuf.h"

#define VW_MAGIC 0x31435358u /* "XSC1" */
#define VW_HEADER 12         /* magic, type, length: u32 each */
#define VW_MAX (4u << 20)    /* the largest payload either end accepts: PROBE carries the whole catalogue, past 1 MiB since its sources */
#define VW_MAX_BYTES (256u << 10) /* the largest buffer in a payload */
#define VW_MAX_SLOTS 16

/* PROBE: the catalogue's files, for the agent to probe with (probe --kernel); PROBED: the
 * answers, as features_answers_text writes them. */
enum vw_type { VW_HELLO = 1, VW_CALL, VW_RESULT, VW_QUIT, VW_PROBE, VW_PROBED };

/* What an argument of a call points at in the agent's memory (else its value as given). */
enum vw_arg { VA_RAW, VA_BUF, VA_EXTRA, VA_STRING, VA_SIZE_CELL, VA_NKINDS };

struct vw_bytes {
	unsigned char *p; /* heap; NULL when len is 0 */
	uint32_t len;
};

/* An 8-byte slot of the struct buffer that holds an address xsc put there: a copy of a
 * buffer that &NAME points at (copy), or a string. */
struct vw_slot {
	uint32_t off;
	bool copy;
	struct vw_bytes data;
};

struct vw_call {
	char name[64];            /* the syscall, NUL-terminated */
	uint64_t nr;
	uint32_t flags;           /* VC_* */
	uint32_t safety, prep, size_where;
	int32_t prep_arg, buf_arg, extra_arg;
	uint32_t timeout_ms;
	uint32_t nargs;           /* at most 6 */
	uint64_t args[6];
	uint8_t kind[6];          /* enum vw_arg */
	uint8_t role[6];          /* enum arg_role of each argument */
	uint64_t size;
	uint32_t size_cell;
	struct vw_bytes buf;
	uint32_t extra_len;       /* an output buffer, zeroed (at most VW_MAX_BYTES) */
	struct vw_bytes strings[6];
	uint8_t string_guarded[6]; /* a struct or buffer argument's bytes (guarded pages), not a path */
	struct vw_slot slots[VW_MAX_SLOTS];
	uint32_t nslots;
	uint32_t stack_off, stack_len; /* clone3 with CLONE_VM: a stack xsc supplies (0: none) */
};
enum { VC_NS = 1 << 0, VC_CLONE3 = 1 << 1, VC_RSEQ_RELEASE = 1 << 2, VC_UNSAFE = 1 << 3 };

struct vw_result {
	uint32_t stage;
	int64_t ret;
	int32_t err, signal;
	int64_t prep_value;       /* the descriptor the agent prepared, or -1 */
	uint32_t size_cell;
	uint64_t elapsed_us;
	struct vw_bytes setup_error, after, extra;
	struct vw_bytes copies[8];
	uint32_t ncopies;
};

struct vw_hello {
	struct vw_bytes release, version; /* uname's, NUL-terminated */
	uint32_t landlock_abi;
	uint32_t shm;             /* 1: later frames go through the shared memory (below) */
};

/* The serial line is slow into the guest (qemu's 16550 takes a few bytes per interrupt:
 * about 13 KB/s under TCG, measured), so after the greeting, frames travel in memory the
 * host and the guest share (qemu's ivshmem-plain device, whose BAR 2 the agent maps through
 * sysfs): xsc's at offset 0, the agent's at VW_SHM_HALF, each a whole frame as on the line;
 * the line carries one byte, VW_DOORBELL, per frame, saying "a frame is there". The reader
 * copies the frame out before reading its header, so the writer cannot change what is
 * checked after the check. */
#define VW_SHM_SIZE (4u << 20)
#define VW_SHM_HALF (VW_SHM_SIZE / 2)
#define VW_DOORBELL 'F'

/* The catalogue's files in a PROBE frame: names are plain (letters, digits, '_', '-', one
 * ".json"), at most VW_MAX_FILES of them. */
#define VW_MAX_FILES 64
struct vw_files {
	char name[VW_MAX_FILES][64];
	struct vw_bytes data[VW_MAX_FILES];
	uint32_t n;
};
void vw_encode_files(const struct vw_files *f, struct sbuf *out);
int vw_decode_files(const unsigned char *p, size_t len, struct vw_files *f);
void vw_files_release(struct vw_files *f);

/* A frame's header, checked: 0, or -1 when the magic, type or length is wrong. */
int vw_header(const unsigned char h[VW_HEADER], enum vw_type *type, uint32_t *len);
/* Appends a whole frame (header and payload) to out. */
void vw_frame(struct sbuf *out, enum vw_type type, const struct sbuf *payload);

void vw_encode_call(const struct vw_call *c, struct sbuf *out);
void vw_encode_result(const struct vw_result *r, struct sbuf *out);
void vw_encode_hello(const struct vw_hello *h, struct sbuf *out);
/* 0 with *c filled (release it), or -1 with nothing to release. */
int vw_decode_call(const unsigned char *p, size_t len, struct vw_call *c);
int vw_decode_result(const unsigned char *p, size_t len, struct vw_result *r);
int vw_decode_hello(const unsigned char *p, size_t len, struct vw_hello *h);
void vw_call_release(struct vw_call *c);
void vw_result_release(struct vw_result *r);
void vw_hello_release(struct vw_hello *h);
/* A frame in shared memory (VW_SHM_HALF bytes at area): copied out whole, header checked. 0
 * with its type and payload (heap, *len bytes), or -1. */
int vw_shm_take(const volatile unsigned char *area, enum vw_type *type, unsigned char **payload, uint32_t *len);
#endif
