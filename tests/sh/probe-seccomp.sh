# A syscall a seccomp filter answers with EPERM is "inconclusive: filtered" (help probe),
# never "available" and never "no": its feature bit 0 stays clear and the others are not
# claimed; the syscalls the filter lets through are probed as usual.
set -u
. "$top/tests/lib.sh"
need_linux "not Linux"
[ "$(uname -m)" = x86_64 ] || { echo "syscall numbers below are x86_64's"; exit 77; }
need cc "no C compiler"
need python3 "python3 missing"
scratch_dir
export XDG_CACHE_HOME=$d/cache
cc -o seccomp-eperm "$top/tests/probe/seccomp-eperm.c" || { echo "FAIL cannot build the filter helper"; exit 1; }
fail=0
for case in openat2:437 landlock_create_ruleset:444 mount_setattr:442; do
	name=${case%%:*} nr=${case#*:}
	./seccomp-eperm "$nr" "$XSC" --data "$top/data" probe --no-cache --json "$name" statx >out.json 2>err.txt
	rc=$?
	[ $rc -eq 0 ] || { echo "FAIL $name filtered: probe exited $rc"; cat err.txt; fail=1; continue; }
	python3 - "$name" out.json <<'PY' || fail=1
import json, sys
name, d = sys.argv[1], json.load(open(sys.argv[2]))
s = {x["name"]: x for x in d["syscalls"]}
f, other = s[name], s["statx"]
bad = []
if f["available"] != "inconclusive" or "filtered" not in (f["reason"] or ""):
    bad.append("available %r, reason %r; expected inconclusive: filtered" % (f["available"], f["reason"]))
if f["bitmap"] and f["bitmap"][0] & 1:
    bad.append("feature bit 0 (available) is set in bitmap %r" % f["bitmap"])
if any(v["supported"] or v["unsupported"] for v in f["flags"].values()):
    bad.append("flag answers given for a filtered call")
if other["available"] != "yes":
    bad.append("statx (not filtered) is %s" % other["available"])
for m in bad:
    print("FAIL %s filtered with EPERM: %s" % (name, m))
sys.exit(1 if bad else 0)
PY
done
exit $fail
