/* expect: assertions that make scripts and lessons check themselves. */
#include <string.h>
#include "cmd/commands.h"
#include "model/decode.h"
#include "model/value.h"
#include "model/xlat.h"
#include "base/banned.h"

static int expect_field(struct session *s, int argc, char **argv)
{
	if (argc < 4)
		return cmd_usage(s);
	const struct field *f = find_field_or_err(s, argv[2]);
	if (!f)
		return -1;
	struct value v;
	if (parse_field_value(s, f, argc, argv, 3, &v) < 0)
		return -1;
	struct sbuf got = SBUF_INIT;
	decode_field_buffer(&got, s->cur, f);
	int r = 0;
	if (v.kind == VK_INT) {
		uint64_t want, have = structbuf_get(s->cur, f);
		bool ext;
		struct sbuf why = SBUF_INIT;
		if (f->count)
			r = err("expect field: '%s' is an array; use 'expect bytes'", f->name);
		else if (value_convert(&v, f->elem_size * 8, ftype_signed(f->type), &want, &ext, &why) < 0)
			r = err("expect field %s: the expected value cannot be stored in it: %s", f->name, why.buf);
		else {
			uint64_t m = f->elem_size >= 8 ? ~0ULL : (1ULL << (f->elem_size * 8)) - 1;
			if ((want & m) != (have & m))
				r = err("expectation failed: field %s is %s, expected %#llx", f->name, got.buf,
					(unsigned long long)(want & m));
		}
		sbuf_release(&why);
	} else {
		const struct reloc *rl = structbuf_reloc_at(s->cur, f->offset);
		bool same = rl && (rl->kind == RL_STRING) == (v.kind == VK_STRING) && rl->text_len == v.text_len &&
			    !memcmp(rl->text, v.text, v.text_len);
		if (!same)
			r = err("expectation failed: field %s is %s", f->name, got.buf);
	}
	sbuf_release(&got);
	value_release(&v);
	return r;
}

static int parse_uint(struct session *s, const char *text, uint64_t *out)
{
	struct value v;
	if (value_parse(s->cat, NULL, text, &v) < 0)
		return -1;
	if (v.kind != VK_INT || (v.is_signed && (int64_t)v.bits < 0)) {
		value_release(&v);
		return err("'%s' is not a non-negative number", text);
	}
	*out = v.bits;
	return 0;
}

/* The last call, for an assertion about it (ok, errno NAME, ret N: argc words in all): 0 with
 * *o when it ran to completion, else the refusal (reported). */
static int last_call(struct session *s, int argc, char **argv, int want_argc, const struct outcome **o)
{
	if (!s->have_last)
		err("expect %s: no call has been made yet", argv[1]);
	else if (s->last.stage != OS_CALLED)
		err("expectation failed: the last call (%s) did not run to completion", s->last_sc->name);
	else
		*o = &s->last;
	if (!*o)
		return -1;
	return argc != want_argc ? cmd_usage(s) : 0;
}

static int expect_ok(struct session *s, int argc, char **argv)
{
	const struct outcome *o = NULL;
	int r = last_call(s, argc, argv, 2, &o);
	if (r || o->ret != -1)
		return r;
	const char *en = errno_name(o->err);
	return err("expectation failed: %s returned -1 %s, expected success", s->last_sc->name, en ? en : "");
}

static int expect_errno(struct session *s, int argc, char **argv)
{
	const struct outcome *o = NULL;
	int r = last_call(s, argc, argv, 3, &o);
	if (r)
		return r;
	const char *en = o->ret == -1 ? errno_name(o->err) : NULL;
	int want = errno_from_name(argv[2]);
	if (want < 0)
		return err("expect errno: unknown errno name '%s'", argv[2]);
	if (o->ret != -1)
		return err("expectation failed: %s returned %ld, expected -1 %s", s->last_sc->name, o->ret, argv[2]);
	if (o->err != want)
		return err("expectation failed: %s failed with %s, expected %s", s->last_sc->name, en ? en : "?", argv[2]);
	return 0;
}

static int expect_ret(struct session *s, int argc, char **argv)
{
	const struct outcome *o = NULL;
	struct value v;
	int r = last_call(s, argc, argv, 3, &o);
	if (r)
		return r;
	if (value_parse(s->cat, NULL, argv[2], &v) < 0)
		return -1;
	uint64_t want = v.bits;
	value_release(&v);
	if ((uint64_t)o->ret != want)
		return err("expectation failed: %s returned %ld, expected %lld", s->last_sc->name, o->ret, (long long)want);
	return 0;
}

static int expect_size(struct session *s, int argc, char **argv)
{
	uint64_t want = 0;
	if (argc != 3)
		return cmd_usage(s);
	if (parse_uint(s, argv[2], &want) < 0)
		return -1;
	if (s->cur->size != want)
		return err("expectation failed: size is %llu, expected %llu", (unsigned long long)s->cur->size,
			   (unsigned long long)want);
	return 0;
}

static int expect_bytes(struct session *s, int argc, char **argv)
{
	uint64_t off = 0, byte = 0;
	if (argc < 4)
		return cmd_usage(s);
	if (parse_uint(s, argv[2], &off) < 0)
		return -1;
	for (int i = 3; i < argc; i++) {
		if (parse_uint(s, argv[i], &byte) < 0)
			return -1;
		uint64_t at = off + (uint64_t)(i - 3);
		unsigned have = at < s->cur->len ? s->cur->data[at] : 0;
		if (byte > 255)
			return err("a byte is 0..255, not '%s'", argv[i]);
		if (have != byte)
			return err("expectation failed: byte %llu is 0x%02x, expected 0x%02x", (unsigned long long)at,
				   have, (unsigned)byte);
	}
	return 0;
}

int cmd_expect(struct session *s, int argc, char **argv)
{
	static const struct verb verbs[] = {
		{ "ok", expect_ok, 0 },
		{ "errno", expect_errno, 0 },
		{ "ret", expect_ret, 0 },
		{ "size", expect_size, CMD_BUFFER },
		{ "field", expect_field, CMD_BUFFER },
		{ "bytes", expect_bytes, CMD_BUFFER },
		{ NULL, NULL, 0 },
	};
	return cmd_select(s, verbs, "assertion", argc, argv);
}
