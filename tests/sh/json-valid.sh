# Every --json output parses and holds the keys DESIGN.md §2 promises.
set -u
. "$top/tests/lib.sh"
need python3
X() { "$XSC" --data "$top/data" "$@"; }
fail=0
check() { # NAME PYTHON-CHECK < json
	if ! python3 -m json.tool >/dev/null 2>json.err <"$1"; then
		echo "FAIL $2: not valid JSON: $(cat json.err)"
		fail=1
		return
	fi
	if ! python3 - "$1" "$2" "$3" <<'PY'
import json, sys
path, name, code = sys.argv[1:4]
d = json.load(open(path))
def need(obj, keys, where):
    missing = [k for k in keys if k not in obj]
    if missing:
        raise SystemExit("%s: %s lacks %s" % (name, where, ", ".join(missing)))
exec(code)
PY
	then fail=1; fi
}

X list --json >list.json || { echo "FAIL: list --json exited $?"; fail=1; }
check list.json "list --json" '
assert isinstance(d, list) and d, "list: not a non-empty array"
for e in d:
    need(e, ["name", "kind", "since", "nr", "struct", "sizes"], e.get("name"))
    need(e["nr"], ["x86_64", "aarch64"], e["name"] + ".nr")
    assert isinstance(e["sizes"], list), e["name"] + ": sizes is not an array"
names = [e["name"] for e in d]
assert "openat2" in names and "clone3" in names, "list: openat2 or clone3 missing"
'

# every syscall and every struct, shown as JSON
python3 -c 'import json,sys; [print(e["name"]) for e in json.load(open(sys.argv[1]))]' list.json >syscalls.txt
python3 -c 'import json,sys; print("\n".join(sorted({e["struct"] for e in json.load(open(sys.argv[1])) if e["struct"]})))' list.json >structs.txt
while read -r sc; do
	X show "$sc" --json >sc.json || { echo "FAIL: show $sc --json exited $?"; fail=1; continue; }
	check sc.json "show $sc --json" '
need(d, ["name", "kind", "since", "nr", "struct", "args"], "syscall")
assert "size_arg" in d or "size_field" in d or d["kind"] != "extensible" or d.get("size_where") in ("ioctl", "pointer"), \
    name + ": an extensible syscall has neither size_arg nor size_field"
need(d["nr"], ["x86_64", "aarch64"], "nr")
assert "rules" not in d, name + ": the size rules are described once, as size_rules"
assert isinstance(d.get("size_rules"), list) and d["size_rules"][0]["rule"] == "where", name + ": size_rules"
for a in d["args"]:
    need(a, ["name", "type", "role"], "an argument")
'
done <syscalls.txt
while read -r st; do
	X show "$st" --json >st.json || { echo "FAIL: show $st --json exited $?"; fail=1; continue; }
	check st.json "show $st --json" '
if "layout" in d:  # a syscall of the same name (rseq, statx): its struct is the layout
    d = d["layout"]
need(d, ["name", "size", "fields", "versions"], "struct")
for f in d["fields"]:
    need(f, ["name", "type", "offset", "size", "since"], "a field")
for v in d["versions"]:
    need(v, ["name", "size", "since"], "a version")
'
done <structs.txt
[ -s syscalls.txt ] && [ -s structs.txt ] || { echo "FAIL: no syscalls or structs listed"; fail=1; }

X --json show resolve_flags >fs.json
check fs.json "show resolve_flags --json" '
need(d, ["name", "kind", "flags"], "flag set")
for f in d["flags"]:
    need(f, ["name", "value", "since"], "a flag")
'
X buffers --json >b0.json
check b0.json "buffers --json (none)" 'assert d == [], "buffers: expected []"'
X -c 'new openat2; new clone3 as c; buffers --json' | sed -n '/^\[/,$p' >b.json
check b.json "buffers --json" '
assert [b["name"] for b in d] == ["open_how", "c"], d
for b in d:
    need(b, ["name", "struct", "size", "current"], "a buffer")
assert d[1]["current"] and not d[0]["current"]
'
X -c 'new sched_setattr; size VER0; poke 60 1; size 64; dump --json' | sed -n '/^{/,$p' >dump.json
check dump.json "dump --json" '
need(d, ["name", "struct", "size", "kernel_size", "fields", "tail"], "dump")
assert d["size"] == 64 and d["kernel_size"] == 64, d["size"]
for f in d["fields"]:
    need(f, ["name", "offset", "size", "type", "bytes", "value", "decoded", "passed"], "a field")
assert d["tail"]["nonzero"] == [60], d["tail"]
'
# JSON strings escape what they must: a control character and a quote
X -c 'new clone3; set pidfd "a\"b\tc\x01"; dump --json' | sed -n '/^{/,$p' >esc.json
check esc.json "dump --json with escapes" '
f = [f for f in d["fields"] if f["name"] == "pidfd"][0]
assert f["decoded"].startswith("\"a\\\"b"), f["decoded"]
'
# a report of the running kernel: what model/measured.h reads back
X measure openat2 clone3 --json >measure.json
check measure.json "measure --json" '
need(d, ["format", "date", "machine", "kernels", "interfaces"], "report")
assert d["format"] == "xsc-measured-1", d["format"]
for k in d["kernels"]:
    need(k, ["version", "where", "accelerator", "package", "package_version", "release"], "a kernel")
assert [f["name"] for f in d["interfaces"]] == ["openat2", "clone3"], d["interfaces"]
for f in d["interfaces"]:
    for c in f["cases"]:
        need(c, ["row", "size", "outcomes", "not_run"], "a case")
        assert sorted(c["outcomes"]) == sorted(k["version"] for k in d["kernels"]), c
'
mkdir rep && X measure openat2 -o rep/host.json >/dev/null && X matrix openat2 --reports rep --json >mm.json
check mm.json "matrix --reports --json" '
need(d, ["syscall", "kernels", "measured_kernels", "rows"], "matrix")
for r in d["rows"]:
    need(r, ["label", "size", "cells", "measured"], "a row")
    for c in r["measured"]:
        need(c, ["kernel", "outcome", "simulated", "certain", "differs"], "a measured cell")
'
exit $fail
