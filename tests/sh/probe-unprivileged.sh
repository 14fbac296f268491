# probe as nobody (uid/gid 65534, no groups, via setpriv): `probe --no-cache --json` exits 0,
# never crashes, keeps DESIGN §4's shape; nothing root finds supported comes back "no" for
# want of privilege (bpf, perf_event_open, the namespace flags: "inconclusive" with a reason,
# or still "yes"), and the kernel's own answers (sizes, queries) are the same as root's.
set -u
. "$top/tests/lib.sh"
need_linux "not Linux"
[ "$(id -u)" = 0 ] || { echo "not root: cannot drop to uid 65534"; exit 77; }
need setpriv "setpriv missing"
need python3 "python3 missing"
scratch_dir
# a world-readable copy: the tree (or $HOME) may not be reachable for nobody
mkdir -p w/home
cp "$XSC" w/xsc && cp -r "$top/data" w/data || exit 1
chmod -R a+rX w && chmod 755 "$d" && chown 65534:65534 w/home
nobody() {
	( cd w/home && HOME=$d/w/home XDG_CACHE_HOME=$d/w/home/cache XDG_STATE_HOME=$d/w/home/state \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@" )
}
nobody id -u | grep -qx 65534 || { echo "setpriv could not drop to 65534"; exit 77; }
XDG_CACHE_HOME=$d/rootcache "$XSC" --data "$top/data" probe --no-cache --json >root.json || { echo "FAIL root probe exited $?"; exit 1; }
nobody "$d/w/xsc" --data "$d/w/data" probe --no-cache --json >user.json 2>user.err
rc=$?
if [ $rc -ne 0 ]; then
	echo "FAIL probe as uid 65534 exited $rc"; head -20 user.err; exit 1
fi
nobody "$d/w/xsc" --data "$d/w/data" probe --no-cache >user.txt 2>&1 || { echo "FAIL text probe as uid 65534 exited $?"; exit 1; }
python3 "$top/tests/probe/facts.py" user.json "$top/data" || exit 1
python3 - root.json user.json user.txt <<'PY'
import json, re, sys
root, user = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
text = open(sys.argv[3]).read()
bad = 0
def fail(m):
    global bad
    bad += 1
    print("FAIL " + m)
def answers(d):
    m = {}
    for s in d["syscalls"]:
        m[(s["name"], "available")] = s["available"]
        for h, v in s["flags"].items():
            for k in ("supported", "unsupported", "inconclusive"):
                for f in v.get(k, []):
                    m[(s["name"], h + ":" + f)] = k.replace("supported", "yes").replace("unyes", "no")
    return m
R, U = answers(root), answers(user)
ru = {s["name"]: s for s in root["syscalls"]}
uu = {s["name"]: s for s in user["syscalls"]}
if set(ru) != set(uu):
    fail("root probed %s, nobody %s" % (sorted(ru), sorted(uu)))
changed = 0
for k, a in R.items():
    b = U.get(k)
    if a in ("yes", "inconclusive") and b == "no":
        fail("%s %s: root says %s, nobody says no (privilege is not absence)" % (k[0], k[1], a))
    if a == "yes" and b == "inconclusive":
        changed += 1
# every inconclusive answer carries its reason in the text report
for s in user["syscalls"]:
    if s["available"] != "yes" and not s["reason"]:
        fail("%s: available %s without a reason" % (s["name"], s["available"]))
    for h, v in s["flags"].items():
        for f in v.get("inconclusive", []):
            if not re.search(r"%s: inconclusive:.*\b%s \([^)]+\)" % (re.escape(h), re.escape(f)), text):
                fail("%s %s:%s inconclusive without a reason in the text report" % (s["name"], h, f))
# bpf and perf, which need privilege, never answer "no"
for n in ("bpf", "perf_event_open"):
    s = uu.get(n)
    if s is None:
        fail("%s not probed as nobody" % n)
        continue
    if s["available"] == "no":
        fail("%s: available no as nobody (%s)" % (n, s["reason"]))
    for h, v in s["flags"].items():
        for f in v["unsupported"]:
            if R.get((n, h + ":" + f)) != "no":
                fail("%s %s:%s unsupported as nobody" % (n, h, f))
# what the kernel says does not depend on who asks
for n, s in ru.items():
    t = uu.get(n)
    if not t or s["available"] != "yes" or t["available"] != "yes":
        continue
    if s["kernel_size"] != t["kernel_size"]:
        fail("%s: kernel_size %r as root, %r as nobody" % (n, s["kernel_size"], t["kernel_size"]))
    for q, v in s["queries"].items():
        if t["queries"].get(q) not in (v, None):
            fail("%s: query %s = %r as root, %r as nobody" % (n, q, v, t["queries"].get(q)))
print("nobody: %d answers checked, %d yes->inconclusive for want of privilege" % (len(R), changed))
sys.exit(1 if bad else 0)
PY
