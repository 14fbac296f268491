/* libFuzzer target: the catalogue loader on one hostile file, and what loads simulated: each
 * call (the first 16) at its first kernel and a late one, with a buffer of the struct's size
 * filled with 0xff, at sizes 0, the struct's, one past the buffer and 2^64-1, with the struct
 * pointer NULL too, so the checks' compiled conditions and the size steps run on hostile data. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "base/diag.h"
#include "base/sbuf.h"
#include "model/dataload.h"
#include "model/kver.h"
#include "model/outcome.h"
#include "model/request.h"
#include "sim/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void simulate(const struct catalog *c, const struct syscall *sc, uint32_t kv, uint64_t usize, bool null)
{
	struct call_request req;
	memset(&req, 0, sizeof(req));
	req.sc = sc;
	req.nargs = sc->nargs < 6 ? (int)sc->nargs : 6;
	req.extra_arg = -1;
	req.buf_arg = null ? -1 : syscall_struct_arg(sc);
	req.buflen = sc->st ? sc->st->size : 0;
	req.buf = malloc(req.buflen ? req.buflen : 1);
	if (!req.buf)
		return;
	memset(req.buf, 0xff, req.buflen);
	req.size = usize;
	if (req.buf_arg >= 0 && req.buf_arg < 6)
		req.args[req.buf_arg] = (uint64_t)(uintptr_t)req.buf;
	else
		req.buf_arg = -1;
	struct sim_opts so = { kv, true, false };
	struct outcome o;
	struct sbuf why = SBUF_INIT;
	sim_call(c, &req, &so, &o, &why);
	outcome_release(&o);
	sbuf_release(&why);
	free(req.buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *names[] = { "fuzz.json" };
	const char *texts[] = { (const char *)data };
	size_t lens[] = { size };
	diag_swap_sink(DIAG_DISCARD);
	struct catalog *c = catalog_load_buffers(names, texts, lens, 1);
	for (size_t i = 0; c && i < c->nsyscalls && i < 16; i++) {
		const struct syscall *sc = &c->syscalls[i];
		size_t len = sc->st ? sc->st->size : 0;
		uint64_t sizes[] = { 0, len, len + 1, UINT64_MAX };
		for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			simulate(c, sc, sc->since, sizes[k], false);
			simulate(c, sc, KVER(7, 3, 0), sizes[k], k == 1);
		}
	}
	catalog_free(c);
	return 0;
}
