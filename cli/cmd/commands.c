#include "cmd/commands.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "base/banned.h"

const struct command commands[] = {
	{ "list", cmd_list, "[--json]", "list the catalogue: syscall, number, since, kind, struct, sizes",
	  "Lists every interface in the catalogue with its x86_64 number (or 'ioctl'), the kernel\n"
	  "that added it, its kind, its struct and the struct's published sizes.",
	  CMD_CATALOG | CMD_JSON, { COMP_NONE } },
	{ "show", cmd_show, "[syscall|struct|flagset] NAME [--json]", "show a syscall, struct or flag set in full",
	  "For a syscall: prototype, arguments, where the size travels and the size rules, the\n"
	  "struct's layout, errors, lineage and notes. For a struct: the layout table (offset,\n"
	  "size, type, field, since, meaning of zero), the size versions and the flag sets.\n"
	  "For a flag set: every flag with its value and kernel version.",
	  CMD_CATALOG | CMD_JSON, { COMP_ENTITY } },
	{ "new", cmd_new, "STRUCT|SYSCALL [as NAME]", "make a zeroed buffer at the newest known size",
	  "Makes a buffer holding the struct (or the syscall's struct), zeroed, at the newest\n"
	  "size the catalogue knows, and makes it current. Its name is the struct's unless\n"
	  "'as NAME' is given; a buffer of the same name is replaced. A struct whose size travels\n"
	  "inside it (sched_attr.size, perf_event_attr.size) gets that field set to the size.",
	  CMD_CATALOG, { COMP_ENTITY, COMP_NONE, COMP_NONE } },
	{ "buffers", cmd_buffers, "[--json]", "list the buffers; '*' marks the current one",
	  "Lists every buffer with its struct and size.", CMD_JSON, { COMP_NONE } },
	{ "use", cmd_use, "NAME", "make another buffer current", "Makes the named buffer current.",
	  0, { COMP_BUFFER } },
	{ "set", cmd_set, "FIELD VALUE", "set a field of the current buffer",
	  "VALUE is a number (42 0x2a 052 0b101 -1), flag names joined by | (O_CREAT|O_EXCL),\n"
	  "a constant (AT_FDCWD, SIGCHLD), an expression with | & ^ + - << >>, a C cast with C's\n"
	  "conversion ((int)0x80000000, (u32)-1), \"text\" (a pointer to a copy of the text) or\n"
	  "&NAME (a pointer to another buffer). A negative value of a narrower type stored in a\n"
	  "wider unsigned field sign-extends, as in C, and dump says so. A value the field cannot\n"
	  "hold is an error that names the field's range; nothing is cut silently.",
	  CMD_CATALOG | CMD_BUFFER, { COMP_FIELD, COMP_VALUE, COMP_VALUE } },
	{ "unset", cmd_unset, "FIELD", "zero a field of the current buffer",
	  "Sets the field's bytes to zero, which for every field of an extensible struct means\n"
	  "the old behaviour.", CMD_CATALOG | CMD_BUFFER, { COMP_FIELD } },
	{ "size", cmd_size, "[N|VERn|+N|-N]", "show or set the size passed to the kernel",
	  "Without an argument, shows the size. N sets it (any number, even far past a page or\n"
	  "with bit 63 set); VERn (or a version macro such as OPEN_HOW_SIZE_VER0) picks a published\n"
	  "size; +N and -N change it. Growing pads with zeros. For structs that carry their size\n"
	  "in a field, the field is set too.", CMD_CATALOG | CMD_BUFFER, { COMP_VERSION } },
	{ "poke", cmd_poke, "OFFSET BYTE...", "write raw bytes anywhere in the buffer",
	  "Writes bytes (0..255 each) at OFFSET, even past the known fields or the size.\n"
	  "The buffer grows as needed; the size passed to the kernel does not change.",
	  CMD_BUFFER, { COMP_NONE } },
	{ "dump", cmd_dump, "[--json]", "annotated hex dump of the current buffer",
	  "Shows, per field, its offset, bytes and decoded value (flags as names plus a hex\n"
	  "remainder), then the bytes past the newest known size as the tail. Nonzero tail bytes\n"
	  "are marked: the kernel refuses them with E2BIG unless it knows the field.",
	  CMD_CATALOG | CMD_BUFFER | CMD_JSON, { COMP_NONE } },
	{ "expect", cmd_expect, "ok|errno E|ret N|size N|field F V|bytes O B...",
	  "assert something about the last call or the current buffer; fails the script if wrong",
	  "Makes scripts and lessons self-checking. About the last call: 'expect ok', 'expect\n"
	  "errno E2BIG', 'expect ret 0'. About the current buffer, which after a call holds what\n"
	  "the kernel wrote back: 'expect size 24', 'expect field flags O_CREAT|O_RDWR',\n"
	  "'expect bytes 24 0 0'. Prints nothing when the assertion holds; otherwise fails with\n"
	  "what was found.",
	  CMD_CATALOG, { COMP_EXPECT, COMP_FIELD, COMP_VALUE } },
	{ "call", cmd_call, "[--unsafe] SYSCALL [ARG=VALUE...]", "invoke a syscall on the running kernel, sandboxed",
	  "Calls SYSCALL with the current buffer (or the newest buffer of its struct, or a zeroed\n"
	  "one) in a forked child inside a fresh sandbox directory, with a timeout (--timeout MS,\n"
	  "2000 by default). Arguments default from the catalogue; ARG=VALUE overrides one.\n"
	  "Prints the call the way strace does, the result, why the kernel answered so (for\n"
	  "EINVAL, follow-up calls find the refused flag bit or field) and every byte it wrote\n"
	  "back, which is then in the buffer. Nothing outside the sandbox changes unless --unsafe\n"
	  "is given. A syscall error is the answer, not a failure of the command.",
	  CMD_CATALOG | CMD_JSON, { COMP_ENTITY, COMP_NONE, COMP_NONE } },
	{ "target", cmd_target, "[live | sim VERSION [--check-fields]]", "call the running kernel or a simulated one",
	  "'target sim 5.6' answers every following 'call' as a 5.6 kernel would, from the\n"
	  "catalogue alone: its struct sizes, bounds, size cap, write-back, quirks and flags, and\n"
	  "ENOSYS before the call existed; the output looks like a live call's. --check-fields\n"
	  "models the 2024 CHECK_FIELDS proposal (bit 63 of the size asks what the kernel accepts;\n"
	  "errno EEXTSYS_NOOP) for openat2, clone3 and mount_setattr. 'target live' goes back to\n"
	  "the running kernel; 'target' says which is in use.",
	  0, { COMP_NONE } },
	{ "matrix", cmd_matrix, "SYSCALL [--format=md|svg] [--json]", "struct versions against kernel versions, simulated",
	  "Rows are the user-space struct versions (each published size, and a 'future' caller\n"
	  "with a nonzero field past the newest); columns the kernels where anything changed for\n"
	  "the call. Each cell is what that pairing gets from the simulator: ok, zero-filled (an\n"
	  "old caller on a newer kernel), zero tail accepted (a newer caller whose extra bytes are\n"
	  "zero), E2BIG, EINVAL or ENOSYS. --format=md writes a Markdown table, --format=svg a\n"
	  "picture for the site.",
	  CMD_CATALOG | CMD_JSON, { COMP_ENTITY } },
	{ "explain", cmd_explain, "[--kernel V] 'STRACE-LINE'", "decode a strace line of a catalogue syscall and explain it",
	  "Paste a line strace printed, such as\n"
	  "  explain 'openat2(AT_FDCWD, \"/\", {flags=O_RDONLY, resolve=0, /* bytes 24..31 */ \"\\x00\\x00\\x00\\x00\\x01\\x00\\x00\\x00\"}, 32) = -1 E2BIG (Argument list too long)'\n"
	  "and xsc rebuilds the struct, lists the sizes it has had in which kernels, and explains\n"
	  "the answer for this kernel (or the version --kernel names), without calling anything.",
	  CMD_CATALOG | CMD_JSON, { COMP_NONE } },
	{ "probe", cmd_probe, "[SYSCALL...] [--no-cache] [--format=c|bitmap] [--json]",
	  "what the running kernel supports: sizes, flags, queries, bitmaps",
	  "For each syscall (all by default): whether it exists (ENOSYS; EPERM as from a seccomp\n"
	  "filter is 'inconclusive: filtered'), its struct size found three ways that must agree\n"
	  "(bisection over one nonzero byte, the size the kernel writes back, its BTF), which\n"
	  "catalogue flags each flags field accepts (one call per bit, with the companions a flag\n"
	  "needs), which bits the catalogue does not know the kernel accepts (catalogue drift),\n"
	  "and the interfaces' own queries (Landlock ABI and errata, io_uring's probe, statmount's\n"
	  "supported mask, rseq's auxv, UFFDIO_API's features). Every call runs in one sandboxed\n"
	  "child; the report says how many calls were made and how long they took. Results are\n"
	  "cached for this boot in $XDG_CACHE_HOME/xsc (--no-cache probes again). --format=c\n"
	  "writes a header of #defines, --format=bitmap the words sys_features() would return.",
	  CMD_CATALOG | CMD_JSON, { COMP_ENTITY, COMP_ENTITY, COMP_ENTITY } },
	{ "features", cmd_features, "[SYSCALL...] [--no-cache] [--json]", "the feature bitmaps as a grid",
	  "One row per syscall, one column per feature bit ('+' supported, '.' not, '?'\n"
	  "inconclusive); with SYSCALL, one line per bit with its name. Bits are the catalogue's\n"
	  "stable numbering: what a sys_features(nr, map, mapsize) system call would return.",
	  CMD_CATALOG | CMD_JSON, { COMP_ENTITY, COMP_ENTITY, COMP_ENTITY } },
	{ "help", cmd_help, "[COMMAND]", "list the commands, or explain one", "", 0, { COMP_COMMAND } },
	{ "quit", cmd_quit, "", "leave xsc (also: end of input)", "", 0, { COMP_NONE } },
	{ NULL, NULL, NULL, NULL, NULL, 0, { COMP_NONE } },
};

const struct command *command_find(const char *name)
{
	for (const struct command *c = commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

int command_usage(const struct command *c)
{
	return usage_err("%s %s", c->name, c->synopsis);
}

int command_run(struct session *s, int argc, char **argv)
{
	const struct command *c = command_find(argv[0]);
	if (!c) {
		const char *best = NULL;
		size_t bestd = (size_t)-1;
		for (const struct command *k = commands; k->name; k++) {
			size_t d = levenshtein(argv[0], k->name);
			if (d < bestd)
				bestd = d, best = k->name;
		}
		if (best && bestd <= 2)
			return usage_err("unknown command '%s' (did you mean '%s'?); try 'help'", argv[0], best);
		return usage_err("unknown command '%s'; try 'help'", argv[0]);
	}
	bool json = s->json;
	int n = 1;
	bool *q = (bool *)s->quoted;
	for (int i = 1; i < argc; i++) {
		if ((c->flags & CMD_JSON) && !strcmp(argv[i], "--json") && !(q && q[i])) {
			json = true;
			free(argv[i]);
			continue;
		}
		if (q)
			q[n] = q[i];
		argv[n++] = argv[i];
	}
	for (int i = n; i < argc; i++)
		argv[i] = NULL; /* moved or freed; the caller frees argc entries */
	/* in --json runs, commands with nothing to report as JSON stay quiet: every
	 * document on stdout is one command's JSON */
	bool quiet = json && !(c->flags & CMD_JSON);
	if ((c->flags & CMD_CATALOG) && !session_catalog(s))
		return -1;
	if ((c->flags & CMD_BUFFER) && !s->cur)
		return err("no current buffer; make one with 'new STRUCT'");
	bool color = s->color == COLOR_ALWAYS || (s->color == COLOR_AUTO && isatty(STDOUT_FILENO));
	const char *nc = getenv("NO_COLOR");
	if (nc && *nc)
		color = false;
	out_init(&s->out, stdout, json, color);
	if (quiet)
		s->out.json = true; /* out_text writes nothing; no JSON calls are made */
	int r = c->fn(s, n, argv);
	out_done(&s->out);
	fflush(stdout);
	return r;
}
