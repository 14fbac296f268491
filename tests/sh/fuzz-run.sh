# fuzz/run.sh (make fuzz) on the real libFuzzer targets (make test builds them): it sums the
# executions of every process, fails when a target finds anything and names the input, and
# whatever ends a process (a finding, SIGKILL, the runner's own SIGTERM) leaves no process
# and no scratch directory behind.
set -u
T=$(mktemp -d "$PWD/fuzz-run.XXXXXX")
bin=$top/build/fuzz
export XSC_SANDBOX_DIR="$T/shm"
mkdir "$XSC_SANDBOX_DIR"
unset FUZZ_OPTS
fail=0
no() { echo "FAIL $*"; fail=1; }
for t in fuzz_value fuzz_header; do
	[ -x "$bin/$t" ] || { echo "FAIL $bin/$t is not built (make fuzz-build)"; exit 1; }
done
empty() { [ -z "$(ls -A "$XSC_SANDBOX_DIR")" ] || no "$1: left $(ls -A "$XSC_SANDBOX_DIR" | tr '\n' ' ')in the scratch base"; }
# waits up to 30 s of the clock for pid $1 to end: the runner's own grace is 5 s, and a
# machine busy with a whole make test stretches every sleep and ps of its cleanup
ended() {
	until=$(($(date +%s) + 30))
	while kill -0 "$1" 2>/dev/null && [ "$(date +%s)" -lt $until ]; do sleep 0.1; done
	! kill -0 "$1" 2>/dev/null
}

# two processes of the value parser, 2 s: exit 0, one line per process, and the total is their sum
sh "$top/fuzz/run.sh" -s 2 -j 2 -o "$T/out" fuzz_value >"$T/ok.out" 2>&1
rc=$?
[ $rc -eq 0 ] || no "clean run: exit $rc"
a=$(sed -n 's/^   lane 1 (seed [0-9]*): \([0-9]*\) executions$/\1/p' "$T/ok.out")
b=$(sed -n 's/^   lane 2 (seed [0-9]*): \([0-9]*\) executions$/\1/p' "$T/ok.out")
if [ -n "$a" ] && [ -n "$b" ] && [ "$a" -gt 0 ] && [ "$b" -gt 0 ]; then
	grep -qx "fuzz_value: $((a + b)) executions, 0 failures" "$T/ok.out" || no "clean run: no per-target total $((a + b))"
	[ "$(tail -n 1 "$T/ok.out")" = "fuzz: 1 target, $((a + b)) executions, 0 failed" ] || no "clean run: last line"
else
	no "clean run: no executions per process"
fi
[ -s "$T/out/logs/fuzz_value.1.log" ] && [ -s "$T/out/logs/fuzz_value.2.log" ] || no "clean run: logs missing"
empty "clean run"
[ $fail -eq 0 ] || cat "$T/ok.out"

# a finding (libFuzzer's own out-of-memory check, set to 1 MB): exit 1, the reason, the input kept
FUZZ_OPTS=-rss_limit_mb=1 sh "$top/fuzz/run.sh" -s 5 -o "$T/out" fuzz_value >"$T/oom.out" 2>&1
rc=$?
[ $rc -eq 1 ] || no "finding: exit $rc, not 1"
grep -q '^   lane 1 (seed [0-9]*): FAILED after [0-9]* executions: libFuzzer: out-of-memory' "$T/oom.out" || no "finding: no reason"
input=$(sed -n 's/^      input: //p' "$T/oom.out")
[ -n "$input" ] && [ -f "$input" ] || no "finding: the input is not named or not kept"
[ "$(tail -n 1 "$T/oom.out")" = "fuzz: 1 target, $(sed -n 's/^fuzz_value: \([0-9]*\) executions, FAILED (1 of 1 processes)$/\1/p' "$T/oom.out") executions, 1 failed" ] ||
	no "finding: summary lines"
empty "finding"

# the header front end, SIGKILLed mid-run: its lanes' scratch directories are removed anyway
sh "$top/fuzz/run.sh" -s 60 -j 2 -o "$T/out" fuzz_header >"$T/kill.out" 2>&1 &
r=$!
i=0 # until both processes have made a header scratch directory
while [ "$(ls -d "$XSC_SANDBOX_DIR"/xsc-fuzz-*/xsc-header-* 2>/dev/null | wc -l)" -lt 2 ] && [ $i -lt 200 ]; do
	sleep 0.1
	i=$((i + 1))
done
kids=$(pgrep -P $r)
[ "$(echo $kids | wc -w)" -eq 2 ] || no "SIGKILL: $(echo $kids | wc -w) fuzz processes, not 2"
kill -KILL $kids
ended $r || { no "SIGKILL: the runner did not end"; kill -KILL $r; }
wait $r
rc=$?
[ $rc -eq 1 ] || no "SIGKILL: exit $rc, not 1"
[ "$(grep -c 'FAILED after .*: exit status 137 (signal 9)$' "$T/kill.out")" -eq 2 ] || no "SIGKILL: not reported"
empty "SIGKILL"

# the runner itself stopped by SIGTERM: exit 130, its processes and scratch directories gone
sh "$top/fuzz/run.sh" -s 60 -j 2 -o "$T/out" fuzz_header >"$T/term.out" 2>&1 &
r=$!
i=0
while [ "$(pgrep -P $r | wc -l)" -lt 2 ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kids=$(pgrep -P $r)
sleep 1
kill -TERM $r
ended $r || { no "SIGTERM: the runner did not end"; kill -KILL $r; }
wait $r
rc=$?
[ $rc -eq 130 ] || no "SIGTERM: exit $rc, not 130"
for k in $kids; do ended "$k" || { no "SIGTERM: fuzz process $k left running"; kill -KILL "$k"; }; done
grep -qx 'fuzz/run.sh: interrupted' "$T/term.out" || no "SIGTERM: not reported"
empty "SIGTERM"

# bad arguments: exit 2 with a reason, nothing run
for args in "-s 0 fuzz_value" "-j x fuzz_value" "fuzz_nothing" ""; do
	# shellcheck disable=SC2086 # the words are the arguments
	sh "$top/fuzz/run.sh" -o "$T/out" $args >"$T/bad.out" 2>&1
	rc=$?
	[ $rc -eq 2 ] && [ -s "$T/bad.out" ] || no "'$args': exit $rc"
done
sh "$top/fuzz/run.sh" fuzz_nothing 2>&1 | grep -qx "fuzz/run.sh: no target 'fuzz_nothing' in $bin (make fuzz-build)" ||
	no "unknown target: message"

[ $fail -eq 0 ] || for f in "$T"/*.out; do echo "--- $f"; cat "$f"; done
rm -rf "$T"
exit $fail
