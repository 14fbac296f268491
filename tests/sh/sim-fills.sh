# The output fields a simulated call fills from the catalogue ("fills") hold what the live
# kernel writes: each script runs live and under 'target sim' at the running kernel's version,
# and every field the simulated explanation says it knows ("the catalogue knows what it
# writes[ into WHERE]: FIELD = VALUE ...") must end with the live call's bytes: in the call's
# struct, in each entry after it ("into ops[0..3]", io_uring_probe's), or in the struct another
# argument points at ("into smbuf", statmount's). Fields the simulator says it cannot know are
# not compared. The buffer is set to nonzero values first, where the call allows, so a write of
# zero shows.
set -u
. "$top/tests/lib.sh"
. "$top/tests/live/mnt-id.sh"
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
# IORING_REGISTER_PROBE on the ring xsc prepares: last_op, ops_len and each entry (nr_args 256
# is clamped to the opcodes the kernel knows); the write-back makes the header nonzero, so
# each call starts from a new buffer
cat >probe.xsc <<'XSC'
new IORING_REGISTER_PROBE
call IORING_REGISTER_PROBE nr_args=4
new IORING_REGISTER_PROBE
call IORING_REGISTER_PROBE nr_args=0
new IORING_REGISTER_PROBE
call IORING_REGISTER_PROBE nr_args=256
XSC
# statmount of the root mount: mask, size and supported_mask in smbuf
mnt=$(root_mnt_id)
cat >statmount.xsc <<XSC
new statmount
set mnt_id $mnt
set param STATMOUNT_SB_BASIC|STATMOUNT_MNT_BASIC|STATMOUNT_SUPPORTED_MASK
call statmount
set param STATMOUNT_SB_BASIC
call statmount
set param STATMOUNT_FS_TYPE|STATMOUNT_MNT_ROOT
call statmount bufsize=4096
set param 0x8000
call statmount
set param STATMOUNT_MNT_BASIC|STATMOUNT_SUPPORTED_MASK
call statmount bufsize=100
XSC
set -- sched_attr:fills pidfd_info:pidfd
if [ "$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo 0)" != 0 ]; then
	echo "io_uring_probe: skipped, kernel.io_uring_disabled is $(cat /proc/sys/kernel/io_uring_disabled)"
else
	set -- "$@" io_uring_probe:probe
fi
if [ -z "$mnt" ]; then
	echo "statmount: skipped, no unique mount id for / (statx STATX_MNT_ID_UNIQUE)"
else
	set -- "$@" mnt_id_req:statmount
fi
rc=0
for t; do
st=${t%%:*} x=${t#*:}
for s in $st io_uring_probe_op statmount; do "$XSC" --data "$top/data" --json show struct $s; done >layout.json
"$XSC" --data "$top/data" --json $x.xsc >live.json 2>live.err || { cat live.err; exit 1; }
{ echo "target sim $rel"; cat $x.xsc; } >sim.xsc
"$XSC" --data "$top/data" --json sim.xsc >sim.json 2>sim.err || { cat sim.err; exit 1; }
echo "$st:"
python3 - layout.json live.json sim.json <<'PY' || rc=1
import os, re, sys
sys.path.insert(0, os.path.join(os.environ["top"], "tests"))
from jsondocs import calls, docs
layouts = docs(open(sys.argv[1]).read())
main, entry, smbuf = ({f["name"]: f for f in d["fields"]} for d in layouts)
esize = layouts[1]["size"]
hsize = layouts[0]["size"]
live, sim = calls(sys.argv[2]), calls(sys.argv[3])
if len(live) != len(sim) or not live:
    print("%d live calls, %d simulated" % (len(live), len(sim))); sys.exit(1)

def claims(text):
    """(where, field) for each field a 'the catalogue knows what it writes' line names."""
    out = []
    for m in re.finditer(r"the catalogue knows what it writes(?: into ([\w\[\].]+))?: (.*)", text):
        body, depth, plain = m.group(2), 0, ""
        for c in body:  # the sources, in parentheses, name no field
            depth += c == "("
            plain += c if depth == 0 else ""
            depth -= c == ")"
        out += [(m.group(1) or "", name) for name in re.findall(r"(\w+) = \d+", plain)]
    return out

def offsets(where, name):
    """The bytes of the claimed field: in the struct, in each entry, or in the argument's."""
    m = re.match(r"(\w+)\[(\d+)\.\.(\d+)\]$", where)
    if m:
        f = entry[name]
        return [("wb", hsize + i * esize + o) for i in range(int(m.group(2)), int(m.group(3)) + 1)
                for o in range(f["offset"], f["offset"] + f["size"])]
    f = smbuf[name] if where else main[name]
    return [("filled" if where else "wb", o) for o in range(f["offset"], f["offset"] + f["size"])]

bad = compared = 0
for i, (l, s) in enumerate(zip(live, sim)):
    if l.get("errno_name") or s.get("errno_name"):
        print("call %d failed: live %s, sim %s" % (i + 1, l.get("errno_name"), s.get("errno_name"))); bad += 1; continue
    known = claims(s["explanation"])
    if not known:
        print("call %d: the simulator claims no field" % (i + 1)); bad += 1; continue
    got = {}
    for who, c in (("live", l), ("sim", s)):
        got[who, "wb"] = {w["offset"]: w["after"] for w in c["writeback"]}
        got[who, "filled"] = {w["offset"]: w["after"] for w in c.get("filled", [])}
    before = bad
    for where, name in known:
        for kind, off in offsets(where, name):
            compared += 1
            lv, sv = got["live", kind].get(off, 0 if kind == "filled" else None), got["sim", kind].get(off, 0 if kind == "filled" else None)
            if lv != sv:
                print("call %d: %s%s byte %d: live %s, simulated %s" % (i + 1, where + " " if where else "", name, off, lv, sv))
                bad += 1
    if bad == before:
        print("call %d: %s agree" % (i + 1, ", ".join((w + " " if w else "") + n for w, n in known)))
print("sim-fills: %d calls, %d bytes compared, %d differ" % (len(live), compared, bad))
sys.exit(1 if bad else 0)
PY
done
exit $rc
