# import: the system's linux/openat2.h, linux/sched/types.h, linux/mount.h and linux/sched.h
# yield layouts equal to the catalogue's, field by field; the output loads as a catalogue.
set -u
T=$(pwd) # scratch files go here (the harness runs us in a temporary directory)
cd "$top" || exit 1
for h in linux/openat2.h linux/sched/types.h linux/mount.h linux/sched.h; do
	[ -e "/usr/include/$h" ] || { echo "no /usr/include/$h"; exit 77; }
done
fail=0
mkdir -p "$T/imp"
for h in linux/openat2.h linux/sched/types.h linux/mount.h linux/sched.h; do
	f="$T"/imp/$(echo "$h" | tr / _).json
	"$XSC" import "$h" -o "$f" || { echo "FAIL import $h"; fail=1; continue; }
	# loadable by the catalogue loader on its own
	mkdir -p "$T/imp/one" && rm -f "$T"/imp/one/*.json && cp "$f" "$T"/imp/one/x.json
	"$XSC" --data "$T"/imp/one show "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["structs"][0]["name"])' "$f")" >/dev/null ||
		{ echo "FAIL $f does not load"; fail=1; }
done
python3 - "$top/data" "$T/imp" <<'PY' || fail=1
import json, os, sys
data, imp = sys.argv[1:3]
cat = {}
for fn in os.listdir(data):
    if fn.endswith(".json") and fn != "schema.json":
        for s in json.load(open(os.path.join(data, fn))).get("structs", []):
            cat[s["name"]] = s
got = {}
for fn in os.listdir(imp):
    if fn.endswith(".json"):
        for s in json.load(open(os.path.join(imp, fn))).get("structs", []):
            got[s["name"]] = s
bad = 0
for name in ("open_how", "sched_attr", "mount_attr", "clone_args"):
    c, g = cat[name], got.get(name)
    if not g:
        print("FAIL %s not imported" % name); bad = 1; continue
    cf = [(f["name"], f["type"], f["offset"]) for f in c["fields"]]
    gf = [(f["name"], f["type"], f["offset"]) for f in g["fields"]]
    if cf != gf:
        print("FAIL %s fields differ:\n  catalogue %s\n  imported  %s" % (name, cf, gf)); bad = 1
    # every size version the header publishes is the catalogue's
    cv = {v["name"]: v["size"] for v in c["versions"]}
    for v in g["versions"]:
        if cv.get(v["name"]) != v["size"]:
            print("FAIL %s: %s = %s, catalogue %s" % (name, v["name"], v["size"], cv.get(v["name"]))); bad = 1
sys.exit(bad)
PY
# a struct that grew past its last size macro (pidfd_info in 6.16 and 6.17) imports with its
# size as a version without a name, and loads
f="$T/past.json"
"$XSC" import "$top/tests/headers/lint/past_ver.h" -o "$f" 2>"$T/err.txt" || { echo "FAIL past_ver.h: $(cat "$T/err.txt")"; fail=1; }
python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))["structs"][0]["versions"]; sys.exit(0 if [(x.get("name"), x["size"]) for x in v] == [("PV_ARGS_SIZE_VER0", 16), (None, 24)] else "FAIL past_ver.h versions %s" % v)' "$f" || fail=1
mkdir -p "$T/past" && cp "$f" "$T/past/x.json"
"$XSC" --data "$T/past" show pv_args >/dev/null || { echo "FAIL past_ver.h's import does not load"; fail=1; }
# malformed input never crashes: binary, empty, garbage
printf '\0\1\2' >"$T/bin.h"; : >"$T/empty.h"; printf 'struct { int ; ;;; }}}} #define\n' >"$T/junk.h"
"$XSC" import "$T/bin.h" >/dev/null 2>"$T/err.txt"; [ $? -eq 1 ] && grep -q "NUL" "$T/err.txt" || { echo "FAIL binary input: $(cat "$T/err.txt")"; fail=1; }
"$XSC" import "$T/empty.h" >/dev/null 2>"$T/err.txt" || { echo "FAIL empty header: $(cat "$T/err.txt")"; fail=1; }
"$XSC" import "$T/junk.h" >/dev/null 2>"$T/err.txt"; [ $? -eq 1 ] || { echo "FAIL junk header was accepted"; fail=1; }
"$XSC" lint "$T/junk.h" >/dev/null 2>&1; [ $? -eq 1 ] || { echo "FAIL lint of junk did not fail"; fail=1; }
exit $fail
