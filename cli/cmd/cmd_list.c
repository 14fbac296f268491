#include <string.h>
#include "cmd/commands.h"
#include "model/kver.h"
#include "base/banned.h"

int cmd_list(struct session *s, int argc, char **argv)
{
	(void)argv;
	if (argc != 1)
		return cmd_usage(s);
	const struct catalog *c = s->cat;
	struct out *o = &s->out;
	out_arr(o, NULL);
	out_text(o, "%s%-24s %5s  %-7s %-13s %-22s %s%s\n", out_color(o, OC_BOLD), "NAME", "NR", "SINCE",
		 "KIND", "STRUCT", "SIZES", out_color(o, OC_RESET));
	for (size_t i = 0; i < c->nsyscalls; i++) {
		const struct syscall *sc = &c->syscalls[i];
		char kv[16], nr[24];
		struct sbuf sizes = SBUF_INIT;
		if (sc->st)
			for (size_t k = 0; k < sc->st->nversions; k++)
				sbuf_addf(&sizes, "%s%u", k ? "/" : "", sc->st->versions[k].size);
		if (sc->st && !sc->st->nversions)
			sbuf_addf(&sizes, "(%u fixed)", sc->st->size);
		if (sc->is_ioctl)
			snprintf(nr, sizeof(nr), "ioctl");
		else if (sc->nr_x86_64 < 0)
			snprintf(nr, sizeof(nr), "-");
		else
			snprintf(nr, sizeof(nr), "%ld", sc->nr_x86_64);
		out_text(o, "%-24s %5s  %-7s %-13s %-22s %s\n", sc->name, nr, kver_str(sc->since, kv), sc_kind_name(sc->kind),
			 sc->st ? sc->st->name : "-", sizes.len ? sizes.buf : "-");
		sbuf_release(&sizes);

		out_obj(o, NULL);
		out_str(o, "name", sc->name);
		out_str(o, "kind", sc_kind_name(sc->kind));
		out_str(o, "since", kver_str(sc->since, kv));
		out_obj(o, "nr");
		if (sc->nr_x86_64 < 0)
			out_null(o, "x86_64");
		else
			out_u64(o, "x86_64", (uint64_t)sc->nr_x86_64);
		if (sc->nr_aarch64 < 0)
			out_null(o, "aarch64");
		else
			out_u64(o, "aarch64", (uint64_t)sc->nr_aarch64);
		out_end(o);
		out_bool(o, "ioctl", sc->is_ioctl);
		out_str(o, "struct", sc->st ? sc->st->name : NULL);
		out_arr(o, "sizes");
		for (size_t k = 0; sc->st && k < sc->st->nversions; k++)
			out_u64(o, NULL, sc->st->versions[k].size);
		out_end(o);
		out_end(o);
	}
	out_end(o);
	return 0;
}
