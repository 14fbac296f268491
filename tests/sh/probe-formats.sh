# probe's formats and its per-boot cache.
#  * --format=c compiles (-Wall -Werror) in a C file using XSC_OPENAT2_… and
#    XSC_OPENAT2_FEATURES, whose words equal the JSON bitmap;
#  * --format=bitmap words, the `features` grid, `features --json` and `features openat2`
#    all equal the JSON bitmap;
#  * the cache: the first probe writes $XDG_CACHE_HOME/xsc/probe.json, a second one is served
#    from it (no probing syscall under strace; a doctored value in the cache shows through),
#    --no-cache probes again and rewrites the cache, a corrupted cache, one of another boot and one of another
#    kernel release are ignored and rewritten; a subset served from the cache counts only
#    its own syscalls.
set -u
. "$top/tests/lib.sh"
need_linux "not Linux"
need python3 "python3 missing"
scratch_dir
export XDG_CACHE_HOME=$d/cache
cache=$XDG_CACHE_HOME/xsc/probe.json
fail=0
no() { echo "FAIL $*"; fail=1; }
x() { "$XSC" --data "$top/data" "$@"; }

# ---- formats, all from one probe (the first run fills the cache) ----
x probe --json >probe.json || no "probe --json exited $?"
[ -s "$cache" ] || no "the first probe wrote no $cache"
x probe --format=bitmap >bitmap.txt || no "probe --format=bitmap exited $?"
x features >grid.txt || no "features exited $?"
x features --json >features.json || no "features --json exited $?"
x features openat2 >openat2.txt || no "features openat2 exited $?"
python3 "$top/tests/probe/formats.py" probe.json bitmap.txt grid.txt openat2.txt features.json "$top/data" || fail=1

x probe --format=c >xsc_features.h || no "probe --format=c exited $?"
want=$(python3 -c 'import json,sys; print(",".join("0x%08xu" % w for w in [s for s in json.load(open("probe.json"))["syscalls"] if s["name"] == "openat2"][0]["bitmap"]))')
cat >use.c <<'C'
#include <stdint.h>
#include <stdio.h>
#include "xsc_features.h"
static const uint32_t openat2_words[] = XSC_OPENAT2_FEATURES;
int main(void)
{
	unsigned b = XSC_OPENAT2_RESOLVE_RESOLVE_CACHED;
	printf("cached=%u", (unsigned)(openat2_words[b / 32] >> (b % 32) & 1));
	for (unsigned w = 0; w < sizeof openat2_words / sizeof openat2_words[0]; w++)
		printf("%s0x%08xu", w ? "," : " ", (unsigned)openat2_words[w]);
	printf(" nbits=%d\n", XSC_OPENAT2_NBITS);
	return 0;
}
C
if command -v cc >/dev/null; then
	if cc -std=c11 -Wall -Wextra -Werror -pedantic -c -o use.o use.c 2>cc.err; then
		cc -o use use.o && ./use >use.out || no "the --format=c program did not run"
		got=$(sed -n 's/^cached=[01] \([^ ]*\) nbits=.*/\1/p' use.out)
		[ "$got" = "$want" ] || no "XSC_OPENAT2_FEATURES is $got, the JSON bitmap $want"
	else
		no "probe --format=c does not compile:"; head -20 cc.err
	fi
else
	echo "no cc: --format=c not compiled"
fi

# ---- the cache ----
calls() { # the probing syscalls a command makes, counted by strace
	strace -f -qq -o st.txt -e trace=openat2,mount_setattr,landlock_create_ruleset,perf_event_open "$@" >/dev/null 2>&1
	grep -cE '(openat2|mount_setattr|landlock_create_ruleset|perf_event_open)\(' st.txt
}
have_strace=false
command -v strace >/dev/null && strace -f -qq -o /dev/null true 2>/dev/null && have_strace=true
if $have_strace; then
	n=$(calls "$XSC" --data "$top/data" probe)
	[ "$n" = 0 ] || no "a second probe issued $n probing syscalls; the cache should answer"
	n=$(calls "$XSC" --data "$top/data" probe --no-cache)
	[ "$n" -gt 0 ] || no "probe --no-cache issued no probing syscall"
else
	echo "no usable strace: syscall counts not checked"
fi
# --no-cache probes again and refreshes the cache: the next run's answer is the refreshing
# run's, elapsed times included
x probe --no-cache --json >fresh.json
python3 - <<'PY' || no "probe --no-cache did not probe again"
import json
a, b = json.load(open("probe.json")), json.load(open("fresh.json"))
assert [s["elapsed_us"] for s in a["syscalls"]] != [s["elapsed_us"] for s in b["syscalls"]]
PY
x probe --json >again.json
python3 -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
sys.exit(a.pop("cached", None) or not b.pop("cached", None) or a != b)' fresh.json again.json ||
	no "a cached probe --json differs from the --no-cache run that refreshed the cache"

# a doctored value shows through: the answer really comes from the file
doctor() { # doctor KEY-SED: rewrite the key, set the total calls to 4242
	python3 - "$cache" "$1" <<'PY'
import json, sys, re
p, how = sys.argv[1], sys.argv[2]
d = json.load(open(p))
f = d["key"].split(" ")
if how == "boot":
    f[1] = "00000000-0000-0000-0000-000000000000"
elif how == "release":
    f[2] = "0.0.0-not-this-kernel"
d["key"] = " ".join(f)
d["calls"] = 4242
json.dump(d, open(p, "w"))
PY
}
total() { x probe --json | python3 -c 'import json,sys
try: print(json.load(sys.stdin)["syscalls_issued"])
except Exception as e: print("no-json")'; }
doctor same
[ "$(total)" = 4242 ] || no "a valid cache of this boot was not used"
doctor boot
[ "$(total)" != 4242 ] || no "a cache of another boot (boot id) was used"
grep -q "$(cat /proc/sys/kernel/random/boot_id)" "$cache" || no "the cache of another boot was not rewritten"
doctor release
[ "$(total)" != 4242 ] || no "a cache of another kernel release was used"

printf '{"key": "xsc-probe-1 garbage' >"$cache"
x probe --json >corrupt.json 2>corrupt.err
rc=$?
[ $rc -eq 0 ] || { no "probe with a corrupted cache exited $rc"; cat corrupt.err; }
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["key"].startswith("xsc-probe-4 ")' "$cache" 2>/dev/null ||
	no "the corrupted cache was not rewritten"
printf '\0\377not json at all' >"$cache"
x probe openat2 >/dev/null 2>&1 || no "probe with a binary-garbage cache failed"
printf '{"key":"%s","syscalls":[{"name":"openat2"}]}' "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["key"])' "$cache")" >"$cache.x"
mv "$cache.x" "$cache"
x probe openat2 --json >partial.json 2>partial.err || no "a cache with the right key but a broken entry made probe fail: $(cat partial.err)"

# a subset from the cache accounts for its own syscalls only, as --no-cache does
x probe openat2 clone3 --json >sub.json
python3 - <<'PY' || fail=1
import json
d = json.load(open("sub.json"))
own = sum(s["syscalls_issued"] for s in d["syscalls"])
if d["syscalls_issued"] != own:
    print("FAIL probe openat2 clone3 (cached) reports syscalls_issued %d at the top, its two syscalls %d" % (d["syscalls_issued"], own))
    raise SystemExit(1)
PY
exit $fail
