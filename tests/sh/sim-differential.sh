# The simulator at the running kernel's version agrees with the live kernel on every size
# and flag case of the live batteries (tests/live/*.xsc): each call's answer is compared,
# where an answer the simulator cannot know (ENOENT for a missing object, ENODATA for a
# missing attribute: the state of the system, not the rules) counts as "accepted".
set -u
. "$top/tests/lib.sh"
need_linux "not Linux"
rel=$(kernel_release)
. "$top/tests/live/mnt-id.sh"
mnt=$(root_mnt_id)
fail=0 n=0
for t in "$top"/tests/live/*.xsc; do
	name=$(basename "$t" .xsc)
	[ "$name" = statmount ] && [ -z "$mnt" ] && { echo "statmount: skipped, no unique mount id of /"; continue; }
	sed "s/@MNT_ID@/$mnt/g" "$t" >live.xsc
	{ echo "target sim $rel"; cat live.xsc; } >sim.xsc
	"$XSC" --data "$top/data" --json --keep-going live.xsc >live.json 2>/dev/null
	"$XSC" --data "$top/data" --json --keep-going sim.xsc >sim.json 2>/dev/null
	python3 - "$name" live.json sim.json <<'PY' || fail=1
import os, sys
name, live, sim = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, os.path.join(os.environ["top"], "tests"))
from jsondocs import calls
RULES = {"EINVAL", "E2BIG", "ENOTTY", "EFAULT", "ENOSYS", "EEXTSYS_NOOP"}
def verdict(c):
    e = c.get("errno_name")
    return e if e in RULES else "accepted"
a, b = calls(live), calls(sim)
if len(a) != len(b):
    print("%s: %d live calls, %d simulated" % (name, len(a), len(b))); sys.exit(1)
bad = 0
for i, (x, y) in enumerate(zip(a, b)):
    if verdict(x) != verdict(y):
        bad += 1
        print("%s call %d (size %s): live %s, simulated %s\n  live: %s\n  sim:  %s" % (name, i + 1, x["size"], verdict(x), verdict(y), x["line"], y["explanation"].strip()))
print("%s: %d calls, %d disagree" % (name, len(a), bad))
sys.exit(1 if bad else 0)
PY
	n=$((n + 1))
done
[ $n -gt 0 ] || { echo "no live batteries"; exit 77; }
exit $fail
