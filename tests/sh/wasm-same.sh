#!/bin/sh
# The WebAssembly build (make wasm, issue 29) answers as the native program: every golden
# transcript of tests/cli that stays under 'target sim' (it has one, never leaves it for
# 'target live' or 'target vm', and makes no call or probe before it) runs in
# build/wasm/xsc.wasm under node, through the browser console's JavaScript WASI
# (cli/wasm/loader.mjs, cli/wasm/wasi.js), and must equal its .out byte for byte, exit status
# included; the one line that says where it ran is this test's summary. The module stays within its budget: 1.5 MiB gzipped.
set -eu
. "$top/tests/lib.sh"
need node "node is missing (make deps installs it)"
wasm=${XSC_WASM:-$top/build/wasm/xsc.wasm}
# make test builds the module first: a build that failed is a failure, not a missing toolchain
# (unless a later make wasm built it)
failed=${BUILD:-$top/build}/wasm-failed.log
[ -n "${XSC_WASM:-}" ] || [ ! -f "$failed" ] || [ "$wasm" -nt "$failed" ] ||
	{ echo "FAIL: the WebAssembly build failed: $(grep -m1 -E 'error|Error' "$failed" || tail -1 "$failed")"; exit 1; }
[ -f "$wasm" ] || { echo "no $wasm (make wasm builds it; make wasm-deps installs its toolchain)"; exit 77; }
size=$(gzip -9c "$wasm" | wc -c)
budget=$((1536 * 1024))
[ "$size" -le "$budget" ] || { echo "FAIL: xsc.wasm is $size bytes gzipped, above the budget of $budget"; exit 1; }

# the scripts: a 'target sim' line, no other target, nothing that reaches a kernel before it
sim_only() {
	awk '/^[ \t]*target[ \t]+(live|vm)([ \t]|$)/ { bad = 1 }
	     /^[ \t]*target[ \t]+sim[ \t]/ { sim = 1 }
	     !sim && /^[ \t]*(call|probe|measure)([ \t]|$)/ { bad = 1 }
	     END { exit !(sim && !bad) }' "$1"
}

w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
n=0 same=0 fail=0
for t in "$top"/tests/cli/*.xsc; do
	sim_only "$t" || continue
	b=$(basename "$t" .xsc)
	args=$(sed -n '1s/^#! *args: *//p' "$t")
	n=$((n + 1))
	# as tests/run.sh runs it natively: from tests/cli, the script by its name
	( cd "$top/tests/cli" && eval "XSC_WASM=\"\$wasm\" timeout 120 node \
		\"\$top/cli/wasm/loader.mjs\" --data /top/data $args \"$b.xsc\"" ) >"$w/got" 2>&1 </dev/null && rc=0 || rc=$?
	echo "exit $rc" >>"$w/got"
	if diff -u "$top/tests/cli/$b.out" "$w/got" >"$w/diff"; then
		same=$((same + 1))
	else
		echo "FAIL: tests/cli/$b differs in the WebAssembly build:"
		head -20 "$w/diff" | sed 's/^/    /'
		fail=1
	fi
done
echo "wasm-same: under node $(node --version) (WebAssembly, wasm32-wasi): $same of $n simulated transcripts as native; xsc.wasm $size bytes gzipped (budget $budget)"
[ "$n" -ge 20 ] || { echo "FAIL: only $n transcripts stay under target sim; the selection is broken"; exit 1; }
exit $fail
