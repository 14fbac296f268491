/* structbuf: a named buffer holding one struct, the size passed to the kernel, and the
 * pointers set into it. Buffers never shrink below the struct; growing pads with zeros. */
#ifndef XSC_STRUCTBUF_H
#define XSC_STRUCTBUF_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "base/sbuf.h"
#include "model/catalog.h"
#include "model/value.h"

/* Sizes up to this many bytes are backed by memory; larger ones are only passed on. */
#define STRUCTBUF_MAX_BYTES (1u << 20)

enum reloc_kind { RL_STRING, RL_BUFFER };

struct reloc {
	unsigned offset;
	enum reloc_kind kind;
	char *text;      /* RL_STRING: the copy the pointer points at; RL_BUFFER: buffer name */
	size_t text_len;
};

struct structbuf {
	char *name;
	const struct cstruct *st;
	const struct syscall *sc;  /* the syscall it was made for, or NULL */
	const struct field *size_field; /* where the kernel reads the size, if in the struct */
	unsigned char *data;
	size_t len;                /* bytes backed by memory (>= st->size) */
	uint64_t size;             /* the size passed to the kernel */
	char **notes;              /* per field: what the last set did (sign extension), or NULL */
	struct reloc *relocs;
	size_t nrelocs, relocs_alloc;
};

/* A zeroed buffer at the newest known size (the size field, if any, set to it). */
struct structbuf *structbuf_new(const char *name, const struct cstruct *st, const struct syscall *sc);
void structbuf_free(struct structbuf *sb); /* NULL is fine */
/* Sets the size passed to the kernel; grows (zero-filled) memory up to STRUCTBUF_MAX_BYTES.
 * For structs whose size travels in a field, the field is set as well. */
int structbuf_set_size(struct structbuf *sb, uint64_t size);
/* Sets a field from a parsed value; refuses values that do not fit. */
int structbuf_set_field(struct structbuf *sb, const struct field *f, const struct value *v);
/* Zeroes a field (and drops its pointer). */
void structbuf_unset_field(struct structbuf *sb, const struct field *f);
/* Writes raw bytes at off, growing memory as needed (not the size). */
int structbuf_poke(struct structbuf *sb, uint64_t off, const unsigned char *bytes, size_t n);
/* A scalar field's value (sign-extended for signed types); arrays read their first element. */
uint64_t structbuf_get(const struct structbuf *sb, const struct field *f);
const struct reloc *structbuf_reloc_at(const struct structbuf *sb, unsigned offset);
/* The field of sb's struct called name, or NULL, reported with the nearest name ("did you
 * mean"). */
const struct field *structbuf_field_or_err(const struct structbuf *sb, const char *name);
/* The size the kernel will see: the size field for embedded sizes, else sb->size. */
uint64_t structbuf_kernel_size(const struct structbuf *sb);
#endif
