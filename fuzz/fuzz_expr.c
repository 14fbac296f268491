/* libFuzzer target: the check language (model/expr.c) on the bundled catalogue's calls.
 * Input: "NAME\nTEXT\n" then raw bytes. NAME picks a syscall (a struct's name: the struct
 * alone, as a field's shown_if sees it); TEXT is parsed; the raw bytes are the six argument
 * registers, the size, a byte choosing how much of the struct the kernel read, and the
 * struct's bytes (exactly as many as given, so ASan sees a read past them). What parses must
 * pass expr_valid and evaluate; with TEXT "!code" the raw bytes past the registers are taken
 * as forged instructions instead (as a cache could hold them), run only when expr_valid
 * accepts them. check_why is asked for its words on whatever evaluated. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "base/diag.h"
#include "base/sbuf.h"
#include "model/checkwhy.h"
#include "model/dataload.h"
#include "model/expr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct catalog *cat;

/* The next line of in[*at..n), NUL-terminated in a copy the caller frees, or NULL. */
static char *next_line(const uint8_t *in, size_t n, size_t *at)
{
	const uint8_t *nl = memchr(in + *at, '\n', n - *at);
	if (!nl)
		return NULL;
	size_t len = (size_t)(nl - (in + *at));
	char *s = malloc(len + 1);
	if (!s)
		return NULL;
	memcpy(s, in + *at, len);
	s[len] = 0;
	*at += len + 1;
	return s;
}

/* Takes up to len bytes from the input into out, zero-filling what is missing. */
static void take(void *out, size_t len, const uint8_t *in, size_t n, size_t *at)
{
	size_t k = n - *at < len ? n - *at : len;
	memset(out, 0, len);
	memcpy(out, in + *at, k);
	*at += k;
}

static void run(const struct expr_insn *code, size_t ncode, const struct expr_env *env)
{
	struct check ck = { .text = "fuzz", .why = "fuzz", .source = "fuzz", .code = (struct expr_insn *)code, .ncode = ncode };
	struct sbuf sb = SBUF_INIT;
	if (expr_eval(code, ncode, env) == 0x5eed5eed5eed5eedULL)
		sbuf_adds(&sb, "!"); /* keeps the evaluation */
	check_why(&sb, &ck, env);
	sbuf_release(&sb);
}

static void fuzz_one(const struct syscall *sc, const struct cstruct *st, const char *text, const uint8_t *in, size_t n,
		     size_t at)
{
	struct expr_insn code[EXPR_MAX_CODE];
	uint64_t args[6], usize;
	uint8_t seen_pick;
	take(args, sizeof(args), in, n, &at);
	take(&usize, sizeof(usize), in, n, &at);
	take(&seen_pick, 1, in, n, &at);
	int ncode;
	if (!strcmp(text, "!code")) {
		size_t bytes = n - at < sizeof(code) ? n - at : sizeof(code);
		memcpy(code, in + at, bytes);
		at += bytes;
		ncode = (int)(bytes / sizeof(code[0]));
		bool ok = sc ? expr_valid(code, (size_t)ncode, cat, sc) : expr_valid_struct(code, (size_t)ncode, cat, st);
		if (!ok)
			return;
	} else {
		struct expr_scope scope = { cat, sc, st };
		struct sbuf why = SBUF_INIT;
		size_t pos = 0;
		ncode = expr_parse(&scope, text, code, &pos, &why);
		sbuf_release(&why);
		if (ncode < 0) {
			if (pos > strlen(text))
				abort(); /* the fault's place must be in the text */
			return;
		}
		if (!(sc ? expr_valid(code, (size_t)ncode, cat, sc) : expr_valid_struct(code, (size_t)ncode, cat, st)))
			abort(); /* what the parser makes, a cache must take back */
	}
	size_t len = n - at;
	unsigned char *buf = malloc(len ? len : 1);
	if (!buf)
		return;
	memcpy(buf, in + at, len);
	struct expr_env env = { cat, sc, st, buf, len ? seen_pick % (len + 1) : 0, args, usize, 0x060c0000 };
	run(code, (size_t)ncode, &env);
	env.kv = 0x03000000; /* an old kernel: most bits unknown */
	run(code, (size_t)ncode, &env);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	diag_swap_sink(DIAG_DISCARD);
	if (!cat) {
		const char *dir = getenv("XSC_DATA");
		if (!(cat = catalog_load(dir ? dir : "data")))
			abort();
	}
	size_t at = 0;
	char *name = next_line(data, size, &at), *text = name ? next_line(data, size, &at) : NULL;
	const struct syscall *sc = name ? catalog_find_syscall(cat, name) : NULL;
	const struct cstruct *st = sc ? sc->st : name ? catalog_find_struct(cat, name) : NULL;
	if (text && (sc || st))
		fuzz_one(sc, st, text, data, size, at);
	free(name);
	free(text);
	return 0;
}
