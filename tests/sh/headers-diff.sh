# diff: fixture pairs modelled on clone_args VER0 -> VER1 -> VER2, an undocumented extension
# and a breaking change, each against its golden tests/headers/diff/OLD--NEW.out (REGEN=1
# rewrites them); --json shape; catalogue directories and files as either side.
set -u
T=$(pwd) # scratch files go here (the harness runs us in a temporary directory)
cd "$top" || exit 1
fail=0
D=tests/headers/diff
for pair in clone_v0:clone_v1 clone_v1:clone_v2 clone_v0:clone_v2 clone_v2:clone_undoc clone_v1:clone_break clone_v2:clone_v2; do
	o=${pair%%:*} n=${pair#*:}
	exp=$D/$o--$n.out
	{ "$XSC" diff "$D/$o.h" "$D/$n.h" 2>&1; echo "exit $?"; } >"$T/diff.out"
	if [ "${REGEN:-}" = 1 ]; then cp "$T/diff.out" "$exp"; continue; fi
	diff -u "$exp" "$T/diff.out" || { echo "FAIL diff $o $n"; fail=1; }
done
"$XSC" diff "$D/clone_v1.h" "$D/clone_break.h" --json >"$T/diff.json" 2>/dev/null
[ $? -eq 1 ] || { echo "FAIL diff --json of a break does not exit 1"; fail=1; }
python3 - "$T/diff.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
assert set(d) >= {"old", "new", "changes", "compatible", "undocumented", "breaks"}, d
assert d["breaks"] == 4, d["breaks"]
for c in d["changes"]:
    assert set(c) >= {"scope", "kind", "name", "verdict", "message"}, c
    assert c["verdict"] in ("compatible", "undocumented", "break")
PY
# the catalogue against itself, as a directory and as one file: no changes
out=$("$XSC" diff data data/clone3.json 2>&1)
case $out in *"clone_args"*break*) echo "FAIL catalogue diff: $out"; fail=1 ;; esac
"$XSC" diff data/clone3.json data/clone3.json >"$T/same.out" 2>&1 || { echo "FAIL diff of a file with itself"; cat "$T/same.out"; fail=1; }
grep -q "no changes" "$T/same.out" || { echo "FAIL diff of a file with itself found changes"; fail=1; }
# a header against its own import (a catalogue file): no changes
"$XSC" import linux/sched.h -o "$T/sched.json" 2>/dev/null && "$XSC" diff "$T/sched.json" linux/sched.h >"$T/x.out" 2>&1
grep -q "no changes" "$T/x.out" || { echo "FAIL import vs its header:"; cat "$T/x.out"; fail=1; }
# malformed input: a precise message and a non-zero exit
"$XSC" diff "$D/clone_v0.h" nonexistent.h >"$T/bad.out" 2>&1 && { echo "FAIL diff with a missing file succeeded"; fail=1; }
grep -q "nonexistent.h" "$T/bad.out" || { echo "FAIL: no file name in: $(cat "$T/bad.out")"; fail=1; }
exit $fail
