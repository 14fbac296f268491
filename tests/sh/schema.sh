#!/bin/sh
# data/schema.json is a valid draft 2020-12 schema, every data/*.json file
# validates against it, and a few files the loader refuses are refused by the
# schema too. Needs python3 with the jsonschema module (Debian: python3-jsonschema).
set -u
top=${top:-$(cd "$(dirname "$0")/../.." && pwd)}
py=
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import jsonschema' 2>/dev/null; then
		py=$p
		break
	fi
done
if [ -z "$py" ]; then
	echo "skip: no python3 with the jsonschema module (apt-get install python3-jsonschema)"
	exit 77
fi
exec "$py" - "$top/data" <<'PY'
import glob, json, os, sys
import jsonschema

data = sys.argv[1]
with open(os.path.join(data, "schema.json")) as f:
    schema = json.load(f)
cls = jsonschema.Draft202012Validator
try:
    cls.check_schema(schema)
except jsonschema.SchemaError as e:
    print("schema.json is not a valid draft 2020-12 schema:", e.message)
    sys.exit(1)
v = cls(schema)
bad = 0
files = sorted(f for f in glob.glob(os.path.join(data, "*.json")) if os.path.basename(f) != "schema.json")
for path in files:
    with open(path) as f:
        doc = json.load(f)
    errs = sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path))
    for e in errs[:10]:
        where = "/".join(str(p) for p in e.absolute_path) or "(top)"
        print("%s: %s: %s" % (os.path.basename(path), where, e.message[:300]))
    bad += len(errs) > 0
print("%d of %d catalogue files valid" % (len(files) - bad, len(files)))

# Things the loader refuses must be refused by the schema as well.
F = {"name": "a", "type": "u32", "offset": 0, "since": "5.6", "zero": "z"}
def st(**kw):
    s = {"name": "s", "header": "h", "doc": "d", "fields": [dict(F)], "versions": []}
    s.update(kw)
    return {"structs": [s]}
def fl(kind, **kw):
    f = {"name": "A", "value": 1, "since": "5.6"}
    f.update(kw)
    return {"flagsets": [{"name": "x", "kind": kind, "header": "h", "doc": "d", "flags": [f]}]}
def sc(**kw):
    s = {"name": "c", "kind": "legacy", "nr": {"x86_64": 1, "aarch64": None}, "since": "2.6",
         "header": "h", "prototype": "p", "summary": "s", "args": [], "size": {"where": "none"},
         "errors": [], "safety": "pure"}
    s.update(kw)
    return {"syscalls": [s]}
good = [st(), fl("bits", value="0x100000000"), fl("enum", value="-100"), fl("bits", value=0, mask=True),
        fl("enum", value="-0x8000000000000000"), sc(), sc(rules={"zero": "ver0", "cap": None}),
        sc(checks=[{"if": "1", "errno": "EINVAL", "since": "5.6", "until": "6.1", "source": "s", "why": "w"}])]
refused = {
    "unknown top-level key": {"structs": [], "extra": 1},
    "unknown struct key": st(union=True),
    "unknown field key": st(fields=[dict(F, bitfield=1)]),
    "bad type": st(fields=[dict(F, type="u65")]),
    "array too long": st(fields=[dict(F, type="u8[65537]")]),
    "kernel version": st(fields=[dict(F, since="5")]),
    "kernel version part > 255": st(fields=[dict(F, since="5.256")]),
    "direction": st(direction="both"),
    "align not a power of two": st(align=12),
    "no fields": st(fields=[]),
    "negative value in a bit set": fl("bits", value=-1),
    "negative literal in a bit set": fl("bits", value="-0x1"),
    "not a C literal": fl("enum", value="1<<3"),
    "0 in a bit set without mask": fl("bits", value="0x0"),
    "hex past 2^64": fl("bits", value="0x10000000000000000"),
    "negative past -2^63": fl("enum", value="-9223372036854775809"),
    "size bits": sc(size={"where": "arg", "name": "n", "bits": 48}),
    "named size without a name": sc(size={"where": "field"}),
    "extensible without a struct": sc(kind="extensible"),
    "third architecture": sc(nr={"x86_64": 1, "aarch64": 2, "riscv64": 3}),
    "errno name": sc(errors=[{"errno": "EWHATEVER", "meaning": "m"}]),
    "ok as an error": sc(errors=[{"errno": "ok", "meaning": "m"}]),
    "safety": sc(safety="unsafe"),
    "check without a source": sc(checks=[{"if": "1", "errno": "EINVAL", "since": "5.6", "why": "w"}]),
    "check with an unknown key": sc(checks=[{"if": "1", "errno": "EINVAL", "since": "5.6", "source": "s", "why": "w", "then": 1}]),
    "check errno": sc(checks=[{"if": "1", "errno": "ok", "since": "5.6", "source": "s", "why": "w"}]),
}
for name, doc in refused.items():
    if v.is_valid(doc):
        print("schema accepts what the loader refuses:", name)
        bad += 1
for doc in good:
    errs = list(v.iter_errors(doc))
    if errs:
        print("schema refuses a good fragment:", json.dumps(doc), errs[0].message)
        bad += 1
sys.exit(1 if bad else 0)
PY
