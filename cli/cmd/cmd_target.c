/* target: where 'call' goes, the running kernel or a simulated one. */
#include <string.h>
#include "cmd/commands.h"
#include "kernel/explain.h"
#include "model/kver.h"
#include "base/banned.h"

int cmd_target(struct session *s, int argc, char **argv)
{
	char kv[16];
	if (argc == 1) {
		if (s->sim)
			out_text(&s->out, "target: a simulated %s kernel%s\n", kver_str(s->sim_kv, kv),
				 s->check_fields ? " implementing CHECK_FIELDS" : "");
		else
			out_text(&s->out, "target: the running kernel (%s)\n", kver_str(running_kernel(), kv));
		return 0;
	}
	if (!strcmp(argv[1], "live") && argc == 2) {
		s->sim = false;
		s->check_fields = false;
		return 0;
	}
	if (strcmp(argv[1], "sim") || argc < 3 || argc > 4 || (argc == 4 && strcmp(argv[3], "--check-fields")))
		return command_usage(command_find("target"));
	uint32_t v;
	if (session_kernel_arg(s, "target sim", argv[2], &v) < 0)
		return -1;
	s->sim = true;
	s->sim_kv = kver_release(v);
	s->check_fields = argc == 4;
	return 0;
}
