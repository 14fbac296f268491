/* matrix: which user-space struct versions work with which kernels. */
#include <string.h>
#include "cmd/commands.h"
#include "sim/matrix.h"
#include "base/banned.h"

int cmd_matrix(struct session *s, int argc, char **argv)
{
	const char *format = "text", *name = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--format=", 9))
			format = argv[i] + 9;
		else if (!name)
			name = argv[i];
		else
			return command_usage(command_find("matrix"));
	}
	if (!name)
		return command_usage(command_find("matrix"));
	if (strcmp(format, "text") && strcmp(format, "md") && strcmp(format, "svg"))
		return usage_err("matrix: --format takes text, md or svg, not '%s'", format);
	const struct syscall *sc = session_find_syscall(s, name);
	if (!sc) {
		struct suggest sg = SUGGEST_INIT(name, 3);
		for (size_t k = 0; k < s->cat->nsyscalls; k++)
			suggest_add(&sg, s->cat->syscalls[k].name);
		const char *best = suggest_best(&sg);
		return best ? err("no syscall named '%s' (did you mean '%s'?)", name, best) : err("no syscall named '%s'", name);
	}
	struct matrix m;
	if (matrix_build(s->cat, sc, &m) < 0)
		return -1;
	struct out *o = &s->out;
	struct sbuf sb = SBUF_INIT;
	if (!strcmp(format, "svg") && !o->json) {
		matrix_svg(&m, &sb);
		out_puts(o, sb.buf);
	} else if (!strcmp(format, "md") && !o->json) {
		matrix_markdown(&m, &sb);
		out_puts(o, sb.buf);
	} else {
		size_t lw = 12;
		for (size_t r = 0; r < m.nrows; r++)
			if (strlen(m.row_label[r]) > lw)
				lw = strlen(m.row_label[r]);
		out_text(o, "%s: user-space struct versions (rows) against simulated kernels (columns)\n", sc->name);
		struct sbuf line = SBUF_INIT;
		for (size_t c = 0; c < m.ncols; c++) {
			sbuf_pad(&line, lw + 2 + c * 20);
			sbuf_adds(&line, m.col_label[c]);
		}
		out_text(o, "%s\n", line.buf);
		out_obj(o, NULL);
		out_str(o, "syscall", sc->name);
		out_str(o, "struct", sc->st->name);
		out_arr(o, "kernels");
		for (size_t c = 0; c < m.ncols; c++)
			out_str(o, NULL, m.col_label[c]);
		out_end(o);
		out_arr(o, "rows");
		for (size_t r = 0; r < m.nrows; r++) {
			sbuf_reset(&line);
			sbuf_adds(&line, m.row_label[r]);
			out_obj(o, NULL);
			out_str(o, "label", m.row_label[r]);
			out_u64(o, "size", m.row_size[r]);
			out_arr(o, "cells");
			for (size_t c = 0; c < m.ncols; c++) {
				sbuf_pad(&line, lw + 2 + c * 20);
				sbuf_adds(&line, matrix_cell_name(&m, r, c));
				out_str(o, NULL, matrix_cell_name(&m, r, c));
			}
			out_end(o);
			out_end(o);
			out_text(o, "%s\n", line.buf);
		}
		out_end(o);
		out_end(o);
		sbuf_release(&line);
	}
	sbuf_release(&sb);
	matrix_release(&m);
	return 0;
}
