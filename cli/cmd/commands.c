#include "cmd/commands.h"
#include "base/pager.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__wasm__)
#include "wasm/native.h"
#endif
#include "base/banned.h"

const struct command commands[] = {
	{ "list", cmd_list, "[--json]", "list the catalogue: syscall, number, since, kind, struct, sizes",
	  "Lists every interface in the catalogue with its x86_64 number (or 'ioctl'), the kernel\n"
	  "that added it, its kind, its struct and the struct's published sizes.",
	  CMD_CATALOG | CMD_JSON | CMD_PAGE, { COMP_NONE } },
	{ "show", cmd_show, "[syscall|struct|flagset] NAME [--json]", "show a syscall, struct or flag set in full",
	  "For a syscall: prototype, arguments, where the size travels and the size rules, the\n"
	  "struct's layout, errors, lineage and notes. For a struct: the layout table (offset,\n"
	  "size, type, field, since, meaning of zero), the size versions and the flag sets.\n"
	  "For a flag set: every flag with its value and kernel version.",
	  CMD_CATALOG | CMD_JSON | CMD_PAGE, { COMP_ENTITY } },
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
	  CMD_CATALOG | CMD_BUFFER | CMD_JSON | CMD_PAGE, { COMP_NONE } },
	{ "expect", cmd_expect, "ok|errno E|ret N|size N|field F V|bytes O B...",
	  "assert something about the last call or the current buffer; fails the script if wrong",
	  "Makes scripts and lessons self-checking. About the last call: 'expect ok', 'expect\n"
	  "errno E2BIG', 'expect ret 0'. About the current buffer, which after a call holds what\n"
	  "the kernel wrote back: 'expect size 24', 'expect field flags O_CREAT|O_RDWR',\n"
	  "'expect bytes 24 0 0'. Prints nothing when the assertion holds; otherwise fails with\n"
	  "what was found.",
	  CMD_CATALOG, { COMP_EXPECT, COMP_FIELD, COMP_VALUE } },
	{ "call", cmd_call, "[--unsafe] [--verbose] SYSCALL [ARG=VALUE...]", "invoke a syscall on the running kernel, sandboxed",
	  "Calls SYSCALL with the current buffer (or the newest buffer of its struct, or a zeroed\n"
	  "one) in a forked child inside a fresh sandbox directory, with a timeout (--timeout MS,\n"
	  "2000 by default). Arguments default from the catalogue; ARG=VALUE overrides one.\n"
	  "Prints the call the way strace does (as strace -v with --verbose), the result, why\n"
	  "the kernel answered so (for EINVAL, follow-up calls find the refused flag bit or\n"
	  "field) and every byte it wrote back, which is then in the buffer. ARG=\"bytes\"\n"
	  "(zero-filled to the buffer's length) or ARG=&NAME (buffer NAME) for a struct argument\n"
	  "is passed instead of the buffer and checked as it would be. Nothing outside the\n"
	  "sandbox changes unless --unsafe is given: without it, paths that leave the sandbox\n"
	  "for writing (or to open a device or FIFO), descriptors other than AT_FDCWD and xsc's\n"
	  "own, pids other than 0, raw addresses, and commands or ioctl requests xsc does not\n"
	  "know to be harmless are refused, and the call notes which checks --unsafe lifted.\n"
	  "Syscall numbers, argument kinds and ioctl requests come from xsc's build, never from\n"
	  "the catalogue; a solution 'lesson --check' runs may not use --unsafe. A syscall error\n"
	  "is the answer, not a failure of the command.",
	  CMD_CATALOG | CMD_JSON, { COMP_ENTITY, COMP_NONE, COMP_NONE } },
	{ "target", cmd_target, "[live | sim VERSION [--check-fields] | vm VERSION]",
	  "call the running kernel, a simulated one, or a real one in qemu",
	  "'target sim 5.6' answers every following 'call' as a 5.6 kernel would, from the\n"
	  "catalogue alone: its struct sizes, bounds, size cap, write-back, quirks and flags, and\n"
	  "ENOSYS before the call existed; the output looks like a live call's. --check-fields\n"
	  "models the 2024 CHECK_FIELDS proposal (bit 63 of the size asks what the kernel accepts;\n"
	  "errno EEXTSYS_NOOP) for openat2, clone3 and mount_setattr. 'target vm 6.1' runs the\n"
	  "calls in a real kernel of that version ('kernels' lists them; 'kernels fetch' gets\n"
	  "them): a guest in qemu, booted on the first call (a few seconds) and kept for the next,\n"
	  "with xsc's own call runner as its /init, so a call is sandboxed, printed, explained and\n"
	  "written back as a live one is. Guests have no network and 256 MiB, power off after ten\n"
	  "idle minutes, and stop on 'target live' or 'target sim', at the end of the session and\n"
	  "when xsc dies. KVM is used where kvm_intel or kvm_amd is loaded, else software\n"
	  "emulation. 'target live' goes back to the running kernel; 'target' says which is in use.",
	  0, { COMP_NONE } },
	{ "matrix", cmd_matrix, "SYSCALL [--format=md|svg] [--measured] [--kernel V...] [--host] [--reports DIR...] [--json]",
	  "struct versions against kernel versions, simulated and measured",
	  "Rows are the user-space struct versions (each published size, and a 'future' caller\n"
	  "with a nonzero field past the newest); columns the kernels where anything changed for\n"
	  "the call. Each cell is what that pairing gets from the simulator: ok, zero-filled (an\n"
	  "old caller on a newer kernel), zero tail accepted (a newer caller whose extra bytes are\n"
	  "zero), E2BIG, EINVAL or ENOSYS. --format=md writes a Markdown table, --format=svg a\n"
	  "picture for the site. --measured makes each row's call in every fetched real kernel\n"
	  "(guests in qemu, two at a time; --kernel V picks some, --host adds the running kernel)\n"
	  "and shows what each answered after the simulated columns, marking with '!' an answer\n"
	  "that is not what the simulator says at that kernel's exact version; a row that cannot\n"
	  "run in a guest says why. --reports DIR shows the measurements of the reports in DIR\n"
	  "('measure' writes them) instead of making them. The picture has the measured columns\n"
	  "too, a cell that differs outlined.",
	  CMD_CATALOG | CMD_JSON | CMD_PAGE, { COMP_ENTITY } },
	{ "measure", cmd_measure, "[SYSCALL...] [--vm] [--kernel V...] [--host] [-o FILE | --dir DIR] [--parallel N] [--force] [--json]",
	  "make every matrix row in real kernels and write a report",
	  "Makes the matrix rows of every interface that has a matrix (or of those named) in the\n"
	  "running kernel (the default, or --host), in every fetched real kernel (--vm: guests in\n"
	  "qemu, --parallel at a time, two by default) or in those --kernel names, and writes a\n"
	  "report: the kernels (version, Debian package and version, qemu or host, TCG or KVM),\n"
	  "the day, the machine, and every case with each kernel's outcome. -o FILE writes one\n"
	  "report; --dir DIR one per interface (DIR/NAME.json; 'make measure' writes data/measured\n"
	  "so); else the report is printed. An existing file is replaced only with --force. A\n"
	  "report made on another machine (each host of a fleet, each kernel of a distribution's\n"
	  "CI: 'xsc measure -o host.json') joins the others in 'matrix --reports DIR' and 'site\n"
	  "--measured DIR'. The last line says how many calls were made, how long it took and how\n"
	  "many answers differ from the simulator.",
	  CMD_CATALOG | CMD_JSON | CMD_EFFECTS, { COMP_ENTITY, COMP_ENTITY, COMP_ENTITY } },
	{ "explain", cmd_explain, "[--kernel V] 'STRACE-LINE' | FILE | -", "decode strace lines of catalogue syscalls and explain them",
	  "Paste a line strace printed, such as\n"
	  "  explain 'openat2(AT_FDCWD, \"/\", {flags=O_RDONLY, resolve=0, /* bytes 24..31 */ \"\\x00\\x00\\x00\\x00\\x01\\x00\\x00\\x00\"}, 32) = -1 E2BIG (Argument list too long)'\n"
	  "and xsc rebuilds the struct, lists the sizes it has had in which kernels, and explains\n"
	  "the answer for this kernel (or the version --kernel names, one the catalogue knows,\n"
	  "anywhere on the line), without calling anything. A flags-only call (renameat2, clone)\n"
	  "says which flags came in which release. FILE (or - for standard input) is a whole\n"
	  "strace log, as strace -f -o FILE writes it with any of -t/-tt/-ttt/-r/-T, -y/-yy, -v,\n"
	  "-X raw|abbrev|verbose: every call of the catalogue in it is explained (an unfinished\n"
	  "call joined with its resumed line), the other calls, signals and exits counted. Where\n"
	  "strace's ... hides fields it says so, and a size the kernel wrote back on E2BIG gives\n"
	  "the size of its struct.",
	  CMD_CATALOG | CMD_JSON, { COMP_NONE } },
	{ "probe", cmd_probe, "[SYSCALL...] [--kernel VERSION] [--no-cache] [--format=c|bitmap] [--json]",
	  "what the running kernel supports: sizes, flags, queries, bitmaps",
	  "For each syscall (all by default): whether it exists (ENOSYS; EPERM as from a seccomp\n"
	  "filter is 'inconclusive: filtered'), its struct size found three ways that must agree\n"
	  "(bisection over one nonzero byte, the size the kernel writes back, its BTF), which\n"
	  "catalogue flags each flags field accepts (one call per bit, with the companions a flag\n"
	  "needs), which bits the catalogue does not know the kernel accepts (catalogue drift),\n"
	  "and the interfaces' own queries (Landlock ABI and errata, io_uring's probe, statmount's\n"
	  "supported mask, rseq's auxv, UFFDIO_API's features). Every call runs in one sandboxed\n"
	  "child; the report says how many calls were made and how long they took. Results are\n"
	  "cached in $XDG_CACHE_HOME/xsc for this boot and these privileges (uid, capabilities,\n"
	  "seccomp, no_new_privs), and used only while the cache is yours alone; --no-cache\n"
	  "probes again and refreshes the cache. Formats: --format=c writes a header of\n"
	  "#defines, --format=bitmap the words sys_features() would return. --kernel 6.1 runs\n"
	  "the prober in a real kernel of that version instead ('target vm'; not cached).",
	  CMD_CATALOG | CMD_JSON | CMD_EFFECTS, { COMP_ENTITY, COMP_ENTITY, COMP_ENTITY } },
	{ "features", cmd_features, "[SYSCALL...] [--kernel VERSION] [--no-cache] [--json]", "the feature bitmaps as a grid",
	  "One row per syscall, one column per feature bit ('+' supported, '.' not, '?'\n"
	  "inconclusive); with SYSCALL, one line per bit with its name. Bits are the catalogue's\n"
	  "stable numbering: what a sys_features(nr, map, mapsize) system call would return.\n"
	  "--kernel 6.1 shows a real kernel's, probed in a guest ('target vm').",
	  CMD_CATALOG | CMD_JSON | CMD_EFFECTS | CMD_PAGE, { COMP_ENTITY, COMP_ENTITY, COMP_ENTITY } },
	{ "kernels", cmd_kernels, "[fetch [VERSION...]] [--json]", "the real kernels 'target vm' boots, and fetching them",
	  "Lists the real kernels xsc knows (data/kernels/debian.json: Debian's cloud kernel\n"
	  "images of 5.10, 6.1, 6.12, 6.18 and 7.3), the Debian package and version of each, and\n"
	  "whether its image is in xsc's cache ($XSC_KERNEL_DIR, else $XDG_CACHE_HOME/xsc/kernels).\n"
	  "'kernels fetch' downloads the missing ones (or those named) with apt: each suite is read\n"
	  "through a private apt directory in the cache, so the system's apt configuration and\n"
	  "lists are never changed; apt checks the archive's signature and the package's hash; the\n"
	  "package is found through Debian's meta-packages, so the list does not go stale. Only\n"
	  "the vmlinuz is kept, with a manifest of its package, version, size and SHA-256.",
	  CMD_CATALOG | CMD_JSON | CMD_EFFECTS, { COMP_NONE } },
	{ "doc", cmd_doc, "TOPIC", "a documentation page in the terminal",
	  "TOPIC is a syscall or struct name ('struct rseq' when both exist), 'reference',\n"
	  "'commands', 'lessons', or a page of the guide or a lesson by its file name\n"
	  "('size-and-versions', '02-e2big-and-einval').\n"
	  "Renders headings, tables, code and emphasis; with colour on, links are OSC 8\n"
	  "hyperlinks to the site's anchors (XSC_SITE_URL, else build/site when it exists).",
	  CMD_CATALOG | CMD_PAGE, { COMP_ENTITY } },
	{ "docs", cmd_docs, "[-o DIR] [--man FILE] [--completion FILE] [--force]", "generate the Markdown reference from the catalogue",
	  "Writes the reference (docs/reference/ of the source tree by default): an index, one page\n"
	  "per syscall and per struct (layout with an anchor per field, size versions, flags with\n"
	  "their kernel versions, errors, size rules, lineage, feature bits, probe notes, the\n"
	  "compatibility matrix) and the command reference. The output is deterministic; a test\n"
	  "fails when the committed pages are stale. DIR must be new, empty or made by docs: its\n"
	  ".xsc-docs lists the files written, the only ones a later run removes. --man writes the man page xsc.1 (through\n"
	  "cmark's man renderer), --completion the bash completion script; an existing FILE is\n"
	  "refused unless --force, which replaces it whole, keeping its mode.",
	  CMD_CATALOG | CMD_EFFECTS, { COMP_NONE, COMP_FILE, COMP_FILE } },
	{ "site", cmd_site, "[-o DIR] [--templates DIR] [--probe] [--measured DIR]", "build the static HTML site (build/site/ by default)",
	  "Renders the guide, the reference, the command reference and the lessons with cmark-gfm\n"
	  "(safe mode) into a static site: navigation, breadcrumbs, anchors per field and flag,\n"
	  "version badges, a search index that works from file://, dark mode. The same input\n"
	  "gives the same bytes; the site is built beside DIR and swapped into place, keeping what\n"
	  "DIR holds that xsc did not write (.git/, CNAME). DIR must be new, empty, a site xsc\n"
	  "built or a bare GitHub Pages checkout. --probe adds this kernel's probe results to\n"
	  "every syscall page. Each matrix shows the real kernels measured in the catalogue's\n"
	  "measured/ reports ('make measure'); --measured DIR adds the reports in DIR ('measure\n"
	  "-o FILE' on other machines or kernels), so one table holds them all. The templates\n"
	  "(template.html, xsc.css, xsc.js, console.js) come from --templates DIR, else site/ beside the\n"
	  "catalogue's directory, else beside the default catalogue (the build's or the installed\n"
	  "one), so 'xsc --data MYDIR site' works for a catalogue of one's own.",
	  CMD_CATALOG | CMD_EFFECTS, { COMP_NONE, COMP_FILE, COMP_NONE } },
	{ "import", cmd_import, "SRC [-o FILE [--force]] [--since V] [--include DIR] [FETCH-OPTIONS]", "a uapi header (path or URL) as catalogue JSON",
	  "Parses the header SRC (a path, linux/NAME.h under /usr/include, or an http, https or\n"
	  "file URL) with libclang and writes its structs (offsets, sizes and alignment from the\n"
	  "compiler), *_SIZE_VERn versions and flag macros grouped by prefix as catalogue JSON,\n"
	  "to stdout or FILE (an existing FILE only with --force). Every entry is dated --since V (default: the system headers'\n"
	  "version). The output is loaded back before it is written, so it is ready to merge.\n"
	  "--include DIR: a kernel's installed uapi headers (make headers), searched for includes\n"
	  "before /usr/include, its linux/version.h giving the default --since.\n"
	  "FETCH-OPTIONS: --timeout MS, --connect-timeout MS, --max-size BYTES (4 MiB), --cache DIR.",
	  CMD_EFFECTS, { COMP_FILE, COMP_NONE, COMP_NONE } },
	{ "lint", cmd_lint, "SRC... [--json] [FETCH-OPTIONS]", "check uapi headers against the extensible-struct conventions",
	  "Reports, compiler style (FILE:LINE:COL: warning|error: message [RULE], the source line\n"
	  "and a caret), every place SRC breaks a convention: implicit holes and tail padding,\n"
	  "sizes not a multiple of 8, signed or non-fixed-width types, raw pointers and long, size\n"
	  "versions missing, off field boundaries or behind the layout, multiplexer unions, sizes\n"
	  "inside the struct, fields with no word on what zero means. Rules are listed in\n"
	  "docs/guide/lint-rules.md; '/* xsc-lint: ignore RULE */' on the line (or the line above)\n"
	  "silences one. Fails (exit 1) when an error is found.",
	  CMD_JSON | CMD_EFFECTS | CMD_PAGE, { COMP_FILE, COMP_FILE, COMP_FILE } },
	{ "diff", cmd_diff, "OLD NEW [--json] [FETCH-OPTIONS]", "every extension and ABI break between two header or catalogue versions",
	  "OLD and NEW are headers (paths or URLs) or catalogues (a directory or a .json file).\n"
	  "Per struct: fields added (where, how big), removed, moved or retyped, size changes\n"
	  "and whether a VERn macro documents each; per flag group: flags added, removed or\n"
	  "renumbered. Each change gets a verdict: compatible extension, undocumented extension\n"
	  "(warning) or ABI break (error). Fails (exit 1) on an ABI break.",
	  CMD_JSON | CMD_EFFECTS | CMD_PAGE, { COMP_FILE, COMP_FILE, COMP_NONE } },
	{ "demo", cmd_demo, "[NAME] [--sim VERSION] [--verbose] [--json]", "a teaching demo: real commands, narrated",
	  "Without NAME, lists the demos. Each demo runs real xsc commands (in a scratch session:\n"
	  "your buffers and target are untouched) and prints them with their output and a few\n"
	  "lines of narration: sign-extension, double-fetch, multiplexer, lineage, probing-cost,\n"
	  "no-op-query, vdso-counter. Live calls go to the running kernel; --sim VERSION sends them\n"
	  "to a simulated kernel instead, so the output is the same everywhere. --verbose (and\n"
	  "--json) add the numbers that vary from run to run, such as double-fetch's race counts.",
	  CMD_CATALOG | CMD_JSON | CMD_PAGE, { COMP_NONE } },
	{ "lesson", cmd_lesson, "[N [STEP] | resume | progress | stop] [--check FILE.xsc | --solution] [--json]",
	  "guided, self-checking workshop lessons",
	  "Without N, lists the lessons (docs/lessons/NN-name.md). 'lesson N' starts lesson N (at\n"
	  "STEP when given): it states the step's task and what it waits for; after each command you\n"
	  "type, the lesson checks the step's conditions and moves on when they hold. A step about a\n"
	  "call passes only on a call made during it, judged right after that call (its target and\n"
	  "buffer), and a call that does not pass says what was seen and what was wanted. 'lesson'\n"
	  "alone then shows where you are, 'lesson stop' ends it. Progress is kept in\n"
	  "$XDG_STATE_HOME/xsc/lessons: 'lesson resume' goes back to the step you were at, 'lesson\n"
	  "progress' shows how far you got in each. --solution prints the lesson's solution\n"
	  "(docs/lessons/solutions/NN.xsc); --check FILE.xsc runs a solution script in a fresh\n"
	  "session and fails, naming the first step not passed and why, unless it solves every step.\n"
	  "The solution may not use --unsafe, write files or run 'lesson', and is read up to 1 MiB.",
	  CMD_CATALOG | CMD_JSON, { COMP_NONE, COMP_FILE, COMP_FILE } },
	{ "transcript", cmd_transcript, "[FILE.md [--force] | off]", "record the session as Markdown",
	  "From now on, every command and its output is appended to FILE.md as it finishes; the\n"
	  "file is synced when recording stops. An existing FILE.md is refused unless --force,\n"
	  "which replaces it whole and keeps its mode. 'transcript off' stops; without an argument,\n"
	  "says where it goes. The global option --transcript FILE.md starts recording at start-up.\n"
	  "A script (FILE.xsc, -c, standard input) is treated as someone else's: its transcript,\n"
	  "export, import -o, docs, site and --cache DIR write only beneath the current directory\n"
	  "(a relative path, no '..', no symbolic link), --force included, unless xsc itself was\n"
	  "started with --unsafe; a solution run by 'lesson --check' writes no files at all.",
	  0, { COMP_FILE } },
	{ "struct", cmd_struct, "new NAME [since V]", "design a struct for a hypothetical syscall",
	  "Starts a struct that exists only in this session. Add fields with 'field add', publish\n"
	  "sizes with 'version add', make a syscall of it with 'syscall new'; then 'new', 'set',\n"
	  "'dump', 'show', 'matrix' and 'call' (under 'target sim') use it like a catalogue\n"
	  "entry, and 'export' writes it out. Fields default to since V (7.0 when not given).",
	  CMD_CATALOG | CMD_DESIGN, { COMP_NONE } },
	{ "field", cmd_field, "add TYPE NAME [since V] [zero MEANING] [flagset NAME] [at OFFSET]",
	  "append a field to the struct being designed",
	  "TYPE is u8 u16 u32 u64 s8 s16 s32 s64 aligned_u64 or char[N]. The field goes at the\n"
	  "next naturally aligned offset; an offset ('at') that leaves a hole, overlaps or is\n"
	  "misaligned is refused as the catalogue loader refuses it. 'zero' says what 0 means\n"
	  "(the old behaviour); 'flagset' attaches a designed flag set, which needs an unsigned\n"
	  "field. A field without 'since' takes the date of the next 'version add'.",
	  CMD_CATALOG | CMD_DESIGN, { COMP_NONE } },
	{ "flagset", cmd_flagset, "new NAME", "design a flag set",
	  "Starts a set of flag bits; 'flag add' fills it and 'field add … flagset NAME' or\n"
	  "'syscall new … flags=NAME' uses it.", CMD_CATALOG | CMD_DESIGN, { COMP_NONE } },
	{ "flag", cmd_flag, "add NAME VALUE [since V]", "add a flag to the flag set being designed",
	  "VALUE is a number or an expression (0x4, 1<<2); bits may not repeat another flag's.\n"
	  "A simulated kernel older than V refuses the flag with EINVAL.", CMD_CATALOG | CMD_DESIGN, { COMP_NONE } },
	{ "version", cmd_version, "add SIZE SINCE", "publish a size of the struct being designed",
	  "Declares that kernels from SINCE on know the struct up to SIZE bytes (NAME_SIZE_VERn).\n"
	  "SIZE must end on a field and grow; SINCE may not go back.", CMD_CATALOG | CMD_DESIGN, { COMP_NONE } },
	{ "syscall", cmd_syscall, "new NAME struct=STRUCT [flags=FLAGSET] [since V]", "design a syscall taking a designed struct",
	  "The syscall takes (struct STRUCT *uargs, size_t usize), plus an unsigned int flags\n"
	  "argument with flags=. It follows the convention: size below VER0 is EINVAL, above a\n"
	  "page E2BIG, copy_struct_from_user in between. 'target sim V' answers it; it is never\n"
	  "called live.", CMD_CATALOG | CMD_DESIGN, { COMP_NONE } },
	{ "export", cmd_export, "NAME DIR [--force]", "write a design as catalogue JSON, uapi header and skeletons",
	  "Writes DIR/NAME.json (loadable with --data DIR), DIR/NAME.h (the uapi header),\n"
	  "DIR/NAME_kernel.c (SYSCALL_DEFINE with the size bounds, copy_struct_from_user and flag\n"
	  "validation) and DIR/NAME_test.c (a kselftest of the size cases). The JSON goes through\n"
	  "the catalogue loader first. Existing files are refused unless --force, which replaces\n"
	  "each whole, keeping its mode.",
	  CMD_CATALOG | CMD_EFFECTS, { COMP_NONE, COMP_FILE } },
	{ "handout", cmd_handout, "[-o FILE.pdf|FILE.html] [--force]", "a two-page cheat sheet for a room, to print",
	  "Writes a printable cheat sheet made from the catalogue and the command table: the\n"
	  "convention in one picture, the commands the lessons use, the size versions of every\n"
	  "extensible struct and the errnos the catalogue documents. Without -o, the HTML goes to\n"
	  "standard output; FILE.pdf is printed by headless Chromium (CHROMIUM names another\n"
	  "browser). An existing FILE is refused unless --force.",
	  CMD_CATALOG | CMD_EFFECTS, { COMP_NONE, COMP_FILE, COMP_NONE } },
	{ "save", cmd_save, "FILE [--force]", "write the session as a script that rebuilds it",
	  "Writes FILE (whole or not at all) with the commands that rebuild this session: the\n"
	  "target, the structs, flag sets and syscalls designed in it, and every buffer (its\n"
	  "struct, size, bytes and pointers), the current one last; 'load FILE' or 'xsc FILE'\n"
	  "replays it, so a session can be handed to a neighbour. An existing FILE is refused\n"
	  "unless --force. A script writes only beneath the current directory, as 'transcript'.",
	  CMD_EFFECTS, { COMP_FILE } },
	{ "load", cmd_load, "FILE.xsc|FILE.md", "run a saved session, a script or a transcript's commands",
	  "Runs FILE's commands in this session, as a script (stopping at the first failure,\n"
	  "FILE:LINE: in messages). FILE.md is a transcript ('transcript', --transcript): its xsc\n"
	  "blocks run again in order, its state block first, and a command that failed when it\n"
	  "was recorded fails again without stopping the rest. Read up to 1 MiB; NUL bytes and\n"
	  "devices are refused.",
	  CMD_EFFECTS, { COMP_FILE } },
	{ "help", cmd_help, "[COMMAND]", "list the commands, or explain one", "", CMD_PAGE, { COMP_COMMAND } },
	{ "quit", cmd_quit, "", "leave xsc (also: end of input)", "", 0, { COMP_NONE } },
	{ NULL, NULL, NULL, NULL, NULL, 0, { COMP_NONE } },
};

const struct global_option global_options[] = {
	{ "data", GO_DATA, "DIR", "the catalogue directory (also XSC_DATA)" },
	{ "json", GO_JSON, NULL, "JSON output for every listing command" },
	{ "color", GO_COLOR, "WHEN", "auto (default), always or never; NO_COLOR turns it off" },
	{ "keep-going", GO_KEEP_GOING, NULL, "in scripts, go on after a failing command" },
	{ "timeout", GO_TIMEOUT, "MS", "how long a live call may take (default 2000)" },
	{ "unsafe", GO_UNSAFE, NULL, "let live calls change things outside their sandbox, and scripts write files anywhere" },
	{ "transcript", GO_TRANSCRIPT, "FILE", "record every command and its output in FILE (Markdown)" },
	{ "no-pager", GO_NO_PAGER, NULL, "never page long output (on a terminal it goes through $PAGER, else less -FRX)" },
	{ "width", GO_WIDTH, "N", "wrap text to N columns (default: the terminal's; 0 never wraps)" },
	{ "force", GO_FORCE, NULL, "let --transcript, export, import -o and docs replace existing files" },
	{ "verbose", GO_VERBOSE, NULL, "call lines as strace -v writes them: no abbreviated structs" },
	{ NULL, GO_CMDS, "CMDS", "run commands separated by ';'" },
	{ "help", GO_HELP, NULL, "this text; 'xsc help' lists the commands" },
	{ "version", GO_VERSION, NULL, "the version" },
	{ NULL, 0, NULL, NULL },
};

const char *global_option_flag(const struct global_option *g, char buf[32])
{
	if (g->key < 256 && g->name)
		snprintf(buf, 32, "-%c, --%s", g->key, g->name);
	else if (g->key < 256)
		snprintf(buf, 32, "-%c", g->key);
	else
		snprintf(buf, 32, "--%s", g->name);
	return buf;
}

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

const struct verb *cmd_verb_find(const struct verb *verbs, const char *word)
{
	for (const struct verb *v = verbs; v->name; v++)
		if (!strcmp(v->name, word))
			return v;
	return NULL;
}

/* The table's last row, whose handler (if any) takes a word that is no verb. */
static const struct verb *other_words(const struct verb *verbs)
{
	while (verbs->name)
		verbs++;
	return verbs;
}

int cmd_select(struct session *s, const struct verb *verbs, const char *noun, int argc, char **argv)
{
	if (argc < 2)
		return cmd_usage(s);
	const struct verb *v = cmd_verb_find(verbs, argv[1]);
	if (!v)
		v = other_words(verbs);
	if (!v->fn)
		return cmd_unknown_verb(s, verbs, noun, argv[1]);
	if ((v->flags & CMD_EFFECTS) && s->no_effects) /* a command's other verbs may have none */
		return err("'%s %s' is disabled in this session", s->running->name, argv[1]);
	if ((v->flags & CMD_BUFFER) && !s->cur)
		return err("no current buffer; make one with 'new STRUCT'");
	return v->fn(s, argc, argv);
}

int cmd_unknown_verb(const struct session *s, const struct verb *verbs, const char *noun, const char *word)
{
	struct suggest sg = SUGGEST_INIT(word, 2);
	struct sbuf names = SBUF_INIT;
	for (const struct verb *v = verbs; v->name; v++) {
		sbuf_addf(&names, "%s%s", names.len ? ", " : "", v->name);
		suggest_add(&sg, v->name);
	}
	const char *best = suggest_best(&sg);
	int r = best ? usage_err("%s: unknown %s '%s' (did you mean '%s'?)", s->running->name, noun, word, best)
		     : usage_err("%s: unknown %s '%s' (%s)", s->running->name, noun, word, names.buf);
	sbuf_release(&names);
	return r;
}

int cmd_usage(const struct session *s)
{
	if (!s->running)
		BUG("cmd_usage outside a command");
	return command_usage(s->running);
}

/* Takes the command's --json (unless quoted) out of argv; returns argc after. */
static int strip_json(const struct session *s, const struct command *c, int argc, char **argv, bool *json)
{
	int n = 1;
	bool *q = (bool *)s->quoted;
	for (int i = 1; i < argc; i++) {
		if ((c->flags & CMD_JSON) && !strcmp(argv[i], "--json") && !(q && q[i])) {
			*json = true;
			free(argv[i]);
			continue;
		}
		if (q)
			q[n] = q[i];
		argv[n++] = argv[i];
	}
	for (int i = n; i < argc; i++)
		argv[i] = NULL; /* moved or freed; the caller frees argc entries */
	return n;
}

static int unknown_command(const char *name)
{
	struct suggest sg = SUGGEST_INIT(name, 2);
	for (const struct command *k = commands; k->name; k++)
		suggest_add(&sg, k->name);
	const char *best = suggest_best(&sg);
	if (best)
		return usage_err("unknown command '%s' (did you mean '%s'?); try 'help'", name, best);
	return usage_err("unknown command '%s'; try 'help'", name);
}

/* The preconditions of c's row, checked once here rather than in each handler. */
static int preconditions(struct session *s, const struct command *c, int argc, char **argv)
{
#if defined(__wasm__)
	/* what the build leaves out is refused here, before the command reaches it */
	const char *why = wasm_needs_native(argc, argv);
	if (why)
		return err("%s needs the native program: %s (this is xsc built for WebAssembly)", c->name, why);
#else
	(void)argc;
	(void)argv;
#endif
	if ((c->flags & CMD_EFFECTS) && s->no_effects)
		return err("'%s' is disabled in this session", c->name);
	if ((c->flags & CMD_CATALOG) && !session_catalog(s))
		return -1;
	if ((c->flags & CMD_BUFFER) && !s->cur)
		return err("no current buffer; make one with 'new STRUCT'");
	return 0;
}

/* The handler of c, as the running command; a design command's words, as given, go to the
 * session's design log when it succeeds (the handler may keep or change argv). */
static int run_row(struct session *s, const struct command *c, int n, char **argv)
{
	char **design = NULL;
	if (c->flags & CMD_DESIGN) {
		design = xcalloc((size_t)n + 1, sizeof(*design));
		for (int i = 0; i < n; i++)
			design[i] = xstrdup(argv[i]);
	}
	const struct command *was = s->running;
	s->running = c;
	int r = c->fn(s, n, argv);
	s->running = was;
	if (design) {
		if (!r)
			design_log_add(s, n, design);
		for (int i = 0; i < n; i++)
			free(design[i]);
		free(design);
	}
	return r;
}

int command_run(struct session *s, int argc, char **argv)
{
	const struct command *c = command_find(argv[0]);
	bool json = s->json;
	int n = c ? strip_json(s, c, argc, argv, &json) : argc;
	bool color = s->color == COLOR_ALWAYS || (s->color == COLOR_AUTO && isatty(fileno(s->out_fp)));
	const char *nc = getenv("NO_COLOR");
	if (nc && *nc)
		color = false;
	/* in --json runs, commands with nothing to report as JSON stay quiet: every
	 * document on stdout is one command's JSON, or its error */
	out_init(&s->out, s->out_fp, json || s->json, color);
	/* the width is the terminal's, measured before a pager takes standard output */
	s->columns = s->width >= 0 ? (unsigned)s->width : term_columns();
	struct pager pg = { 0, -1 };
	FILE *diag_was = diag_set_stream(s->err_fp);
	struct session_errors errs = session_errors_begin(s, json || s->json);
	int r = !c ? unknown_command(argv[0]) : preconditions(s, c, n, argv);
	if (!r && c) {
		if ((c->flags & CMD_PAGE) && s->pager && s->out_fp == stdout) /* not while caught */
			pager_start(&pg);
		r = run_row(s, c, n, argv);
	}
	bool wrote = s->out.json && !s->out.first[0];
	out_done(&s->out);
	session_errors_end(s, errs, r, wrote);
	diag_set_stream(diag_was);
	fflush(s->out_fp);
	pager_stop(&pg);
	return r;
}
