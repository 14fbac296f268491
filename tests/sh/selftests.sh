# The kernel's own selftest cases (tests/selftests/NAME.xsc, each citing its selftest file
# and cases) agree in sim and live: every script runs live and under 'target sim' at the
# running kernel's version; live, every 'expect' (the selftest's answer) must hold; each
# call's answer must be the same both ways (an uncertain simulated answer must name the live
# one among its possible ones). A call after a '# disagrees: REASON' line is a disagreement
# known and reported on every run, not a failure; one that agrees again is reported too.
# sched_setattr and sched_getattr have no cases: linux-source-7.3's
# tools/testing/selftests/sched holds only cs_prctl_test.c (core scheduling through prctl).
set -u
. "$top/tests/lib.sh"
need_linux "live calls need Linux (this is $(uname -s))"
need python3 "python3 missing"
rel=$(kernel_release)
. "$top/tests/live/mnt-id.sh"
mnt=$(root_mnt_id)
fail=0 n=0
for t in "$top"/tests/selftests/*.xsc; do
	name=$(basename "$t" .xsc)
	if grep -q @MNT_ID@ "$t" && [ -z "$mnt" ]; then
		echo "SKIP $name: no unique mount id of / (needs python3 and statx STATX_MNT_ID_UNIQUE)"
		continue
	fi
	sed "s/@MNT_ID@/$mnt/g" "$t" >"$name.xsc"
	{ echo "target sim $rel"; cat "$name.xsc"; } >"$name-sim.xsc"
	"$XSC" --data "$top/data" --json --keep-going "$name.xsc" >"$name.live" 2>"$name.live.err" </dev/null
	"$XSC" --data "$top/data" --json --keep-going "$name-sim.xsc" >"$name.sim" 2>"$name.sim.err" </dev/null
	python3 - "$name" <<'PY' || fail=1
import os, re, sys
name = sys.argv[1]
sys.path.insert(0, os.path.join(os.environ["top"], "tests"))
from jsondocs import calls
# the script: which call each line belongs to, and the calls marked as known disagreements
call_of, marked, k, mark = {}, {}, -1, None
for ln, line in enumerate(open(name + ".xsc"), 1):
    s = line.strip()
    if s.startswith("# disagrees:"):
        mark = s[len("# disagrees:"):].strip()
    elif s.startswith("call "):
        k += 1
        if mark:
            marked[k] = mark
        mark = None
    call_of[ln] = k
def failures(path, shift):
    """(call index, message) of each line xsc reported on stderr"""
    out = []
    for line in open(path):
        m = re.match(r".*?\.xsc:(\d+): (.*)", line)
        if m:
            out.append((call_of.get(int(m.group(1)) - shift, -1), m.group(2)))
    return out
def verdict(c):
    return c.get("errno_name") or "ok"
live, sim = calls(name + ".live"), calls(name + ".sim")
if live and all(verdict(c) == "ENOSYS" for c in live):
    print("SKIP %s: ENOSYS on this kernel" % name)
    sys.exit(0)
bad = 0
for i, msg in failures(name + ".live.err", 0):
    bad += 1
    print("%s: live, call %d: %s (the running kernel does not give the selftest's answer)" % (name, i + 1, msg))
for i, msg in failures(name + ".sim.err", 1):
    if i not in marked:
        bad += 1
        print("%s: sim, call %d: %s" % (name, i + 1, msg))
if len(live) != len(sim):
    print("%s: %d live calls, %d simulated" % (name, len(live), len(sim)))
    sys.exit(1)
known = 0
for i, (x, y) in enumerate(zip(live, sim)):
    a, b = verdict(x), verdict(y)
    same = a == b if y.get("certain", True) is not False else a in (y.get("possible") or [])
    if i in marked:
        if same:
            print("%s: call %d agrees now (live %s): drop its mark '%s'" % (name, i + 1, a, marked[i]))
        else:
            known += 1
            print("%s: call %d: known disagreement: live %s, simulated %s: %s\n  %s" % (name, i + 1, a, b, marked[i], x["line"]))
    elif not same:
        bad += 1
        print("%s: call %d: live %s, simulated %s\n  live: %s\n  sim:  %s" % (name, i + 1, a, b, x["line"], (y.get("explanation") or "").strip()))
print("%s: %d calls, %d disagree, %d known disagreements" % (name, len(live), bad, known))
sys.exit(1 if bad else 0)
PY
	n=$((n + 1))
done
[ $n -gt 0 ] || { echo "no selftest scripts could run"; exit 77; }
exit $fail
