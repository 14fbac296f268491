# The output fields a simulated call fills from the catalogue ("fills") hold what the live
# kernel writes: each script runs live and under 'target sim' at the running kernel's version,
# and every field the simulated explanation says it knows ("the catalogue knows what it
# writes: FIELD = VALUE ...") must end with the live call's bytes. Fields the simulator says
# it cannot know are not compared. The buffer is set to nonzero values first, so a write of
# zero shows.
set -u
. "$top/tests/lib.sh"
need_linux "not Linux"
need python3
scratch_dir
rel=$(kernel_release)
cat >fills.xsc <<'XSC'
new sched_getattr
set sched_policy 1
set sched_flags 1
set sched_nice 5
set sched_priority 3
set sched_deadline 7
set sched_period 9
call sched_getattr
set sched_policy 2
set sched_nice -3
set sched_deadline 1
size VER0
call sched_getattr
XSC
# PIDFD_GET_INFO's mask on the live pidfd xsc prepares (its own process): the bits it answers
cat >pidfd.xsc <<'XSC'
new PIDFD_GET_INFO
set mask PIDFD_INFO_PID|PIDFD_INFO_CREDS
call PIDFD_GET_INFO
set mask 0
call PIDFD_GET_INFO
set mask PIDFD_INFO_COREDUMP
call PIDFD_GET_INFO
XSC
rc=0
for t in sched_attr:fills pidfd_info:pidfd; do
st=${t%%:*} x=${t#*:}
"$XSC" --data "$top/data" --json show $st >layout.json
"$XSC" --data "$top/data" --json $x.xsc >live.json 2>live.err || { cat live.err; exit 1; }
{ echo "target sim $rel"; cat $x.xsc; } >sim.xsc
"$XSC" --data "$top/data" --json sim.xsc >sim.json 2>sim.err || { cat sim.err; exit 1; }
echo "$st:"
python3 - layout.json live.json sim.json <<'PY' || rc=1
import json, os, re, sys
sys.path.insert(0, os.path.join(os.environ["top"], "tests"))
from jsondocs import calls, docs
layout = docs(open(sys.argv[1]).read())[0]
fields = {f["name"]: f for f in layout["fields"]}
live, sim = calls(sys.argv[2]), calls(sys.argv[3])
if len(live) != len(sim) or not live:
    print("%d live calls, %d simulated" % (len(live), len(sim))); sys.exit(1)
bad = compared = 0
for i, (l, s) in enumerate(zip(live, sim)):
    if l.get("errno_name") or s.get("errno_name"):
        print("call %d failed: live %s, sim %s" % (i + 1, l.get("errno_name"), s.get("errno_name"))); bad += 1; continue
    m = re.search(r"the catalogue knows what it writes: (.*)", s["explanation"])
    known = re.findall(r"(\w+) = \d+", m.group(1)) if m else []
    if not known:
        print("call %d: the simulator claims no field" % (i + 1)); bad += 1; continue
    lw = {w["offset"]: w["after"] for w in l["writeback"]}
    sw = {w["offset"]: w["after"] for w in s["writeback"]}
    for name in known:
        f = fields[name]
        for off in range(f["offset"], f["offset"] + f["size"]):
            compared += 1
            if lw.get(off) != sw.get(off):
                print("call %d (size %d): %s byte %d: live %s, simulated %s" % (i + 1, l["size"], name, off, lw.get(off), sw.get(off)))
                bad += 1
    if not bad:
        print("call %d (size %d): %s agree" % (i + 1, l["size"], ", ".join(known)))
print("sim-fills: %d calls, %d bytes compared, %d differ" % (len(live), compared, bad))
sys.exit(1 if bad else 0)
PY
done
exit $rc
