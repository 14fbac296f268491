/* libFuzzer target: the 'target vm' wire (kernel/vmwire.h) as either end reads it, and the
 * agent's plan made of a call (kernel/vmagent.h; nothing runs). The first byte picks what the
 * rest is: a frame header, a call, a result, a greeting or a probe's catalogue files. A call that decodes must encode
 * back to the same bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "base/diag.h"
#include "kernel/vmagent.h"
#include "kernel/vmwire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void call(const uint8_t *p, size_t n)
{
	struct vw_call c;
	if (vw_decode_call(p, n, &c) < 0)
		return;
	struct sbuf again = SBUF_INIT, why = SBUF_INIT;
	vw_encode_call(&c, &again);
	if (again.len != n || memcmp(again.buf, p, n))
		abort();
	sbuf_release(&again);
	struct vm_agent_call a;
	vm_agent_plan(&a, &c, &why);
	vm_agent_release(&a);
	sbuf_release(&why);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	diag_swap_sink(DIAG_DISCARD);
	if (!size)
		return 0;
	const uint8_t *p = data + 1;
	size_t n = size - 1;
	struct vw_result r;
	struct vw_hello h;
	struct vw_files f;
	enum vw_type t;
	uint32_t len;
	switch (data[0] % 5) {
	case 0:
		if (n >= VW_HEADER && vw_header(p, &t, &len) == 0 && len > VW_MAX)
			abort();
		break;
	case 1:
		call(p, n);
		break;
	case 2:
		if (vw_decode_result(p, n, &r) == 0)
			vw_result_release(&r);
		break;
	case 3:
		if (vw_decode_hello(p, n, &h) == 0)
			vw_hello_release(&h);
		break;
	default:
		if (vw_decode_files(p, n, &f) == 0)
			vw_files_release(&f);
		break;
	}
	return 0;
}
