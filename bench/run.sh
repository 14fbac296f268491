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

awk -v r="$ratio" -v l="$load" 'BEGIN { bad = (r > 1.5) + (l > 1000); if (bad) print "bench: " bad " budget(s) exceeded"; exit bad > 0 }'
