#include "model/request.h"
#include <stdlib.h>
#include <string.h>
#include "base/diag.h"
#include "model/value.h"
#include "base/banned.h"

#define EXTRA_LEN 4096

/* On a 64-byte boundary, as a program lays out a struct whose alignment the kernel checks
 * (struct rseq: 32, and AT_RSEQ_ALIGN's 64 past 32 bytes): a simulated call then answers the
 * same whatever boundary malloc would have given (16, or 32 by chance), natively and in the
 * WebAssembly build. */
static void *heap_get(size_t len, size_t *map_len)
{
	void *p = NULL;
	*map_len = len ? len : 1;
	if (posix_memalign(&p, 64, *map_len) != 0)
		die("out of memory");
	return memset(p, 0, *map_len);
}

static void heap_put(void *p, size_t map_len)
{
	(void)map_len;
	free(p);
}

const struct request_memory request_heap = { heap_get, heap_put };

static const char *find_override(int nover, char **over, const char *name)
{
	size_t n = strlen(name);
	for (int i = 0; i < nover; i++)
		if (!strncmp(over[i], name, n) && over[i][n] == '=')
			return over[i] + n + 1;
	return NULL;
}

static const char *role_what(enum arg_role r)
{
	switch (r) {
	case AR_FD: return "a descriptor";
	case AR_PID: return "a pid";
	case AR_CMD: return "a command";
	default: return "a number";
	}
}

/* Bytes for a struct or buffer argument, in the request's memory like the session's buffer
 * (a live call's is guarded: the kernel reads zeros up to the page end, then faults, and
 * never xsc's heap). */
static void *mem_copy(const struct call_request *req, const void *bytes, size_t n, size_t len, size_t *map_len)
{
	unsigned char *p = req->mem->get(n > len ? n : len, map_len);
	memcpy(p, bytes, n);
	return p;
}

/* Sets argument i from text; *text_len gets the length of a "string" value (else 0). */
static int arg_value(const struct catalog *cat, const struct sarg *a, const char *text, bool raw_path,
		     struct call_request *req, int i, size_t *text_len)
{
	*text_len = 0;
	if (raw_path && text[0] != '"') {
		req->strings[i] = xstrdup(text);
		req->args[i] = (uint64_t)(uintptr_t)req->strings[i];
		return 0;
	}
	struct value v;
	if (value_parse(cat, a->flagset, text, &v) < 0)
		return err("argument '%s' of %s: cannot use '%s'", a->name, req->sc->name, text);
	int r = 0;
	if (v.kind == VK_STRING && (a->role == AR_STRUCT || a->role == AR_PTR)) {
		req->strings[i] = mem_copy(req, v.text, v.text_len, v.text_len + 1, &req->string_map[i]);
		req->args[i] = (uint64_t)(uintptr_t)req->strings[i];
		*text_len = v.text_len;
	} else if (v.kind == VK_STRING && a->role == AR_PATH) {
		req->strings[i] = xmalloc(v.text_len + 1);
		memcpy(req->strings[i], v.text, v.text_len);
		req->strings[i][v.text_len] = '\0';
		req->args[i] = (uint64_t)(uintptr_t)req->strings[i];
	} else if (v.kind == VK_STRING) {
		r = err("argument '%s' of %s is %s; a \"string\" does not fit it", a->name, req->sc->name, role_what(a->role));
	} else if (v.kind == VK_INT) {
		req->args[i] = v.bits;
	} else {
		r = err("argument '%s': &BUFFER is only for struct fields", a->name);
	}
	value_release(&v);
	return r;
}


/* buf's 8 bytes at off hold an address of xsc's (invoke_writeback keeps it out of the session) */
void request_note_supplied(struct call_request *req, uint32_t off)
{
	ALLOC_GROW(req->supplied, req->nsupplied + 1, req->supplied_alloc);
	req->supplied[req->nsupplied++] = off;
}

static int request_buffer(const struct structbuf *sb, const struct buffer_lookup *bufs, struct call_request *req)
{
	req->buflen = sb->len;
	req->buf = req->mem->get(sb->len, &req->map_len);
	memcpy(req->buf, sb->data, sb->len);
	req->nsupplied = 0; /* the slots of an earlier buffer (ARG=&NAME replaced it) */
	for (size_t i = 0; i < sb->nrelocs; i++) {
		const struct reloc *r = &sb->relocs[i];
		uint64_t addr;
		if (r->kind == RL_STRING) {
			addr = (uint64_t)(uintptr_t)r->text;
		} else {
			struct structbuf *o = bufs ? bufs->find(bufs->ctx, r->text) : NULL;
			if (!o)
				return err("field at offset %u points at buffer '%s', which no longer exists", r->offset, r->text);
			if (req->ncopies == ARRAY_SIZE(req->copies))
				return err("too many &BUFFER pointers in one struct");
			void *copy = xmalloc(o->len);
			memcpy(copy, o->data, o->len);
			req->copy_len[req->ncopies] = o->len;
			req->copy_name[req->ncopies] = o->name;
			req->copies[req->ncopies++] = copy;
			addr = (uint64_t)(uintptr_t)copy;
		}
		memcpy(req->buf + r->offset, &addr, 8);
		request_note_supplied(req, r->offset);
	}
	req->size = req->sc->size_where == SW_FIELD ? structbuf_kernel_size(sb) : sb->size;
	return 0;
}

/* Every override names an argument of sc. */
static int check_override_names(const struct syscall *sc, int nover, char **over)
{
	for (int i = 0; i < nover; i++) {
		const char *eq = strchr(over[i], '=');
		bool known = false;
		for (size_t k = 0; eq && k < sc->nargs; k++)
			known |= strlen(sc->args[k].name) == (size_t)(eq - over[i]) &&
				 !strncmp(sc->args[k].name, over[i], (size_t)(eq - over[i]));
		if (!known) {
			struct sbuf names = SBUF_INIT;
			for (size_t k = 0; k < sc->nargs; k++)
				sbuf_addf(&names, "%s%s", k ? ", " : "", sc->args[k].name);
			int r = eq ? err("%s has no argument '%.*s' (its arguments: %s)", sc->name, (int)(eq - over[i]), over[i], names.buf)
				   : usage_err("call: arguments are NAME=VALUE, not '%s'", over[i]);
			sbuf_release(&names);
			return r;
		}
	}
	return 0;
}

/* Would argument a carry the session's buffer? */
static bool takes_buffer(const struct sarg *a, const struct structbuf *sb, const struct call_request *req)
{
	return sb && req->buf_arg < 0 && (a->role == AR_STRUCT || a->role == AR_PTR) &&
	       (a->st == sb->st || (a->role == AR_STRUCT && !a->st));
}

/* ARG="bytes" for the call's own struct: the bytes become the buffer, zero-filled to the
 * session buffer's length, so the checks and the kernel read the same memory. */
static void adopt_override(struct call_request *req, int i, size_t text_len, const struct structbuf *sb)
{
	size_t map_len;
	unsigned char *p = mem_copy(req, req->strings[i], text_len, sb->len, &map_len);
	req->mem->put(req->strings[i], req->string_map[i]);
	req->strings[i] = NULL;
	req->string_map[i] = 0;
	if (req->buf)
		req->mem->put(req->buf, req->map_len);
	req->buf = p;
	req->map_len = map_len;
	req->buflen = text_len > sb->len ? text_len : sb->len;
	req->buf_arg = i;
	req->buf_override = true;
	req->args[i] = (uint64_t)(uintptr_t)p;
}

/* ARG=&NAME for a struct argument: buffer NAME's bytes, guarded and checked like the
 * current buffer; for the call's own struct it replaces the current buffer. */
static int override_buffer(const struct sarg *a, const char *name, const struct structbuf *sb,
			   const struct buffer_lookup *bufs, struct call_request *req, int i)
{
	struct structbuf *o = bufs ? bufs->find(bufs->ctx, name) : NULL;
	if (!o)
		return err("argument '%s': there is no buffer named '%s'", a->name, name);
	if (a->st && o->st != a->st)
		return err("argument '%s' of %s is a struct %s, but buffer '%s' is a struct %s", a->name, req->sc->name,
			   a->st->name, name, o->st ? o->st->name : "of no kind");
	if (!takes_buffer(a, sb, req)) {
		req->strings[i] = mem_copy(req, o->data, o->len, o->len, &req->string_map[i]);
		req->args[i] = (uint64_t)(uintptr_t)req->strings[i];
		return 0;
	}
	if (req->buf)
		req->mem->put(req->buf, req->map_len);
	req->buf = NULL;
	if (request_buffer(o, bufs, req) < 0)
		return -1;
	req->buf_arg = i;
	req->buf_override = o != sb;
	req->args[i] = (uint64_t)(uintptr_t)req->buf;
	return 0;
}

static int override_arg(const struct catalog *cat, const struct sarg *a, const char *text, const struct structbuf *sb,
			const struct buffer_lookup *bufs, struct call_request *req, int i)
{
	size_t text_len;
	bool buffer = takes_buffer(a, sb, req);
	if (text[0] == '&' && (a->role == AR_STRUCT || a->role == AR_PTR))
		return override_buffer(a, text + 1, sb, bufs, req, i);
	if (arg_value(cat, a, text, a->role == AR_PATH, req, i, &text_len) < 0)
		return -1;
	if (buffer && req->string_map[i])
		adopt_override(req, i, text_len, sb);
	if (a->role == AR_SIZE && req->sc->size_where == SW_POINTER) {
		/* size=N is what the pointer points at, not an address of the user's choosing */
		if (req->args[i] > UINT32_MAX)
			return err("argument '%s' of %s: %llu does not fit the u32 it points at", a->name, req->sc->name,
				   (unsigned long long)req->args[i]);
		req->size = req->size_cell = (uint32_t)req->args[i];
		req->args[i] = (uint64_t)(uintptr_t)&req->size_cell;
	} else if (a->role == AR_SIZE) {
		req->size = req->args[i];
	}
	return 0;
}

static uint64_t ioctl_request(const struct syscall *sc, uint64_t size)
{
	return ((uint64_t)sc->ioctl_dir << 30) | (size << 16) | (sc->ioctl_type << 8) | sc->ioctl_nr;
}

/* An argument no override names: the buffer, an output buffer, the size, an ioctl's
 * request, or the catalogue's default. */
static int default_arg(const struct catalog *cat, const struct sarg *a, const struct structbuf *sb,
		       struct call_request *req, int i)
{
	const struct syscall *sc = req->sc;
	size_t text_len;
	switch (a->role) {
	case AR_STRUCT:
	case AR_PTR:
		if (takes_buffer(a, sb, req)) {
			req->args[i] = (uint64_t)(uintptr_t)req->buf;
			req->buf_arg = i;
		} else if (a->def) {
			return arg_value(cat, a, a->def, false, req, i, &text_len);
		} else if (req->extra_arg < 0) {
			req->extra_len = a->st && a->st->size > EXTRA_LEN ? a->st->size : EXTRA_LEN;
			req->extra = req->mem->get(req->extra_len, &req->extra_map);
			req->extra_arg = i;
			req->args[i] = (uint64_t)(uintptr_t)req->extra;
		}
		return 0;
	case AR_SIZE:
		if (sc->size_where == SW_POINTER) {
			/* with no struct buffer the size describes the output buffer */
			req->size = req->size_cell = (uint32_t)(sb ? req->size : EXTRA_LEN);
			req->args[i] = (uint64_t)(uintptr_t)&req->size_cell;
		} else {
			req->args[i] = req->size;
		}
		return 0;
	case AR_CMD:
		if (sc->is_ioctl && sc->size_where == SW_IOCTL) {
			if (req->size > 0x3fff)
				return err("size %llu cannot be encoded in an ioctl number (14 bits: at most 16383)",
					   (unsigned long long)req->size);
			req->args[i] = ioctl_request(sc, req->size);
			return 0;
		}
		break;
	default:
		break;
	}
	if (a->def && arg_value(cat, a, a->def, a->role == AR_PATH && a->def[0] != '"', req, i, &text_len) < 0)
		return -1;
	return 0;
}
/* The call's entries after its struct (io_uring_probe's ops[]): the buffer grows to hold as
 * many as their count argument says, zeroed, at most the catalogue's max; the struct the
 * session holds stays as it is (write-back copies only its bytes). */
static void request_entries(struct call_request *req)
{
	const struct call_entries *e = &req->sc->entries;
	if (!e->st || !req->buf || req->buf_arg < 0)
		return;
	uint64_t n = req->args[e->count_arg];
	if (req->sc->args[e->count_arg].width == 4)
		n = (uint32_t)n;
	size_t need = req->sc->st->size + (size_t)(n < e->max ? n : e->max) * e->st->size;
	if (need <= req->buflen)
		return;
	size_t map_len;
	unsigned char *p = req->mem->get(need, &map_len);
	memcpy(p, req->buf, req->buflen);
	req->mem->put(req->buf, req->map_len);
	req->buf = p;
	req->buflen = need;
	req->map_len = map_len;
	req->args[req->buf_arg] = (uint64_t)(uintptr_t)p;
}

int request_build(const struct catalog *cat, const struct syscall *sc, const struct structbuf *sb,
		  const struct buffer_lookup *bufs, int nover, char **over, const struct request_memory *mem,
		  struct call_request *req)
{
	memset(req, 0, sizeof(*req));
	req->sc = sc;
	req->mem = mem;
	req->buf_arg = req->extra_arg = -1;
	if (sc->nargs > 6)
		return err("%s has more than six arguments", sc->name);
	req->nargs = (int)sc->nargs;
	if (check_override_names(sc, nover, over) < 0)
		return -1;
	if (sb && sc->st && sb->st != sc->st) {
		bool other_struct_arg = false;
		for (size_t k = 0; k < sc->nargs; k++)
			other_struct_arg |= sc->args[k].st == sb->st;
		if (!other_struct_arg)
			return err("the current buffer is struct %s but %s takes struct %s; 'new %s' makes one",
				   sb->st->name, sc->name, sc->st->name, sc->name);
	}
	if (sb && request_buffer(sb, bufs, req) < 0)
		return -1;
	for (int i = 0; i < req->nargs; i++) {
		const char *text = find_override(nover, over, sc->args[i].name);
		if (text)
			req->overridden |= 1u << i;
		if ((text ? override_arg(cat, &sc->args[i], text, sb, bufs, req, i) : default_arg(cat, &sc->args[i], sb, req, i)) < 0)
			return -1;
	}
	request_entries(req);
	return 0;
}

void request_release(struct call_request *req)
{
	if (req->buf)
		req->mem->put(req->buf, req->map_len);
	free(req->supplied);
	if (req->extra)
		req->mem->put(req->extra, req->extra_map);
	for (int i = 0; i < 6; i++) {
		if (req->string_map[i])
			req->mem->put(req->strings[i], req->string_map[i]);
		else
			free(req->strings[i]);
	}
	for (size_t i = 0; i < req->ncopies; i++)
		free(req->copies[i]);
	memset(req, 0, sizeof(*req));
}
