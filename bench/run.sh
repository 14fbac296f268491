#!/bin/sh
# make bench: every budget measured side by side with its reference in this run, as ratios.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
BUILD=${BUILD:-build}
B=$BUILD/bench
mkdir -p "$B"
CC=${CC:-cc}
$CC -O2 -o "$B/hello" bench/hello.c $(pkg-config --libs readline)
$CC -O2 -o "$B/timeit" bench/timeit.c
$CC -O2 -std=c11 -D_GNU_SOURCE -Icli -o "$B/loadcat" bench/loadcat.c "$BUILD/libxsc-core.a" $(pkg-config --libs jansson)
N=${BENCH_RUNS:-300}
NL=${BENCH_LIVE_RUNS:-7}

echo "== start-up: 'xsc -c quit' against a hello-world linked with readline (median of $N runs)"
ref=$("$B/timeit" "$N" "$B/hello")
xsc=$("$B/timeit" "$N" "$BUILD/xsc" -c quit)
ratio=$(awk -v a="$xsc" -v b="$ref" 'BEGIN { printf "%.2f", a / b }')
echo "  hello-world ${ref} us, xsc -c quit ${xsc} us, ratio ${ratio} (budget 1.5)"
echo "  reproduce: $B/timeit $N $BUILD/xsc -c quit; $B/timeit $N $B/hello"

echo "== catalogue load (median of 200 loads of data/)"
export XDG_CACHE_HOME="$B/cache"
rm -rf "$XDG_CACHE_HOME"
cold=$(XSC_NO_CACHE=1 "$B/loadcat" data 200)
load=$("$B/loadcat" data 200)
echo "  from the cache ${load} us (budget 1000 us); parsing the JSON every time ${cold} us"
echo "  reproduce: XDG_CACHE_HOME=$B/cache $B/loadcat data 200; XSC_NO_CACHE=1 $B/loadcat data 200"

echo "== live call: one 'call openat2', from a script of 1,000 calls, against bench/callref.c (median of $NL runs)"
# informational: PASS/OVER is printed, the exit status stays with the budgets above
$CC -O2 -std=c11 -D_GNU_SOURCE -o "$B/callref" bench/callref.c
{ echo "new openat2"; i=0; while [ $i -lt 1000 ]; do echo "call openat2"; i=$((i + 1)); done; } >"$B/live1000.xsc"
sbx=/dev/shm
[ -d "$sbx" ] && [ -w "$sbx" ] || sbx=${TMPDIR:-/tmp}
if [ "$(uname -s)" = Linux ] &&
	lref=$("$B/timeit" "$NL" "$B/callref" 1000 "$sbx" 2>/dev/null) &&
	lxsc=$(XSC_SANDBOX_DIR=$sbx "$B/timeit" "$NL" "$BUILD/xsc" --data data "$B/live1000.xsc" 2>/dev/null); then
	awk -v x="$lxsc" -v r="$lref" 'BEGIN {
		xc = x / 1000; rc = r / 1000; q = xc / rc
		printf "  callref %.1f us per call, xsc %.1f us per call, ratio %.2f (target 2): %s\n", rc, xc, q, q <= 2 ? "PASS" : "OVER"
		printf "  1,000 calls from a script: %.3f s (budget 0.5 s): %s\n", x / 1e6, x <= 500000 ? "PASS" : "OVER"
	}'
else
	echo "  live calls could not be measured here (not Linux, or a call failed): SKIP"
fi
echo "  reproduce: XSC_SANDBOX_DIR=$sbx $B/timeit $NL $BUILD/xsc --data data $B/live1000.xsc; $B/timeit $NL $B/callref 1000 $sbx"

awk -v r="$ratio" -v l="$load" 'BEGIN { bad = (r > 1.5) + (l > 1000); if (bad) print "bench: " bad " budget(s) exceeded"; exit bad > 0 }'
