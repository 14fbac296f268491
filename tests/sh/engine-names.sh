#!/bin/sh
# Per-call knowledge is data (DESIGN.md §3): the engines (cli/model, sim, kernel, headers,
# docs, teach) name no syscall, struct or flag set of the catalogue in a string literal of
# their code (comments aside), so no engine matches a call by its name. What must be code
# sits in named tables, listed below as FILE NAME with the reason; a new name fails, and so
# does a listed one that is gone (shrink the list).
set -eu
cd "$top"
. "$top/tests/lib.sh"
need python3

# FILE NAME: why the name may stay ("*" for every name of a file, or every file of a name).
allowed='
cli/kernel/systable.c *: the named table of what this build may call live (numbers, argument classes, guards)
cli/kernel/sandbox.c landlock_create_ruleset: the sandbox calls Landlock itself; the step it names is its own
cli/teach/demo.c bpf: the multiplexer demo is about bpf
cli/teach/demo.c bpf_cmd: the multiplexer demo counts bpf commands
cli/teach/demo.c renameat2: the lineage demo is about renameat2
cli/teach/demo.c openat2: the sign-extension demo is about openat2
* constants: the catalogue-wide set of symbolic values (catalogue-format.md), named by the format
'

ALLOWED=$allowed python3 - <<'PY'
import glob, json, os, re, sys
names = set()
for f in glob.glob("data/*.json"):
    if f.endswith("schema.json"):
        continue
    d = json.load(open(f))
    for key in ("syscalls", "structs", "flagsets"):
        names.update(o["name"] for o in d.get(key, []))
allowed = {}
for line in os.environ["ALLOWED"].strip().splitlines():
    where, why = line.split(":", 1)
    f, n = where.split()
    allowed[(f, n)] = False
token = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
bad = 0
for d in ("model", "sim", "kernel", "headers", "docs", "teach"):
    for path in sorted(glob.glob("cli/%s/*.[ch]" % d)):
        text = open(path, encoding="utf-8", errors="replace").read()
        for m in token.finditer(text):
            lit = m.group(0)
            if not lit.startswith('"') or lit[1:-1] not in names:
                continue
            n = lit[1:-1]
            for key in ((path, n), (path, "*"), ("*", n)):
                if key in allowed:
                    allowed[key] = True
                    break
            else:
                line = text.count("\n", 0, m.start()) + 1
                print('%s:%d: "%s" names a catalogue entry in engine code; move the special case into '
                      'the catalogue or a named table' % (path, line, n), file=sys.stderr)
                bad = 1
for (f, n), used in allowed.items():
    if not used:
        print("allowed '%s %s' is no longer there: remove it from the list" % (f, n), file=sys.stderr)
        bad = 1
if not bad:
    print("no catalogue name in engine code outside the named tables (%d names, %d allowed)" % (len(names), len(allowed)))
sys.exit(bad)
PY
