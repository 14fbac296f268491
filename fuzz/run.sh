#!/bin/sh
# Runs libFuzzer targets and says how it went: executions, seeds, and every failure with
# its log and the input that set it off. Exit status 1 when any target failed, 130 when
# interrupted. `make fuzz` calls it; run it directly for long campaigns:
#   fuzz/run.sh [-s SECONDS] [-j LANES] [-b BINDIR] [-o OUTDIR] TARGET...
#     -s  seconds per target (60)         -j  processes per target, each its own seed (1)
#     -b  where the targets are built (build/fuzz)
#     -o  corpora, crash inputs, logs and cache (build/fuzz): OUTDIR/corpus/TARGET grows
#         from fuzz/corpus/TARGET, OUTDIR/crashes/TARGET gets what fails, OUTDIR/logs/TARGET.N.log
#   FUZZ_OPTS  libFuzzer options, after this script's (-entropic=0 when unset: entropic
#              scheduling's bookkeeping was half the REPL target's time, perf)
# Each process gets a scratch directory of its own (XSC_SANDBOX_DIR), removed when it ends
# however it ends, so a process killed mid-parse leaves nothing in /dev/shm.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
seconds=60 lanes=1 bindir=$top/build/fuzz outdir=$top/build/fuzz
usage() { echo "usage: fuzz/run.sh [-s SECONDS] [-j LANES] [-b BINDIR] [-o OUTDIR] TARGET..." >&2; exit 2; }
while getopts s:j:b:o: opt; do
	case $opt in
	s) seconds=$OPTARG ;;
	j) lanes=$OPTARG ;;
	b) bindir=$OPTARG ;;
	o) outdir=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -gt 0 ] || usage
for n in "$seconds" "$lanes"; do
	case $n in '' | *[!0-9]* | 0*) echo "fuzz/run.sh: '$n' is not a positive whole number" >&2; exit 2 ;; esac
done
for t; do
	[ -x "$bindir/$t" ] || { echo "fuzz/run.sh: no target '$t' in $bindir (make fuzz-build)" >&2; exit 2; }
	[ -d "$top/fuzz/corpus/$t" ] || { echo "fuzz/run.sh: no seed corpus fuzz/corpus/$t" >&2; exit 2; }
done

# Longest input per target: as long as its real inputs (a catalogue file, a header, a few lines).
max_len() {
	case $1 in
	fuzz_catalog | fuzz_docs) echo 32768 ;;
	fuzz_header) echo 8192 ;;
	fuzz_repl | fuzz_mdhtml) echo 4096 ;;
	*) echo 1024 ;;
	esac
}

shm=${XSC_SANDBOX_DIR:-/dev/shm}
[ -d "$shm" ] && [ -w "$shm" ] || shm=${TMPDIR:-/tmp}
pids='' scratch=''
running() { s=$(ps -o stat= -p "$1" 2>/dev/null) && [ "${s#Z}" = "$s" ]; }
# SIGTERM first (libFuzzer then prints its final stats); SIGKILL what is left after 5 s:
# fuzz_header was seen to survive SIGTERM that came during its start-up
cleanup() {
	if [ -n "$pids" ]; then
		kill -TERM $pids 2>/dev/null
		# 5 s of the clock, not 50 turns: each turn's sleep and ps take longer on a loaded machine
		until=$(($(date +%s) + 5)) left=$pids
		while [ -n "$left" ] && [ "$(date +%s)" -lt $until ]; do
			sleep 0.1
			still=''
			for p in $left; do running "$p" && still="$still $p"; done
			left=$still
		done
		[ -z "$left" ] || kill -KILL $left 2>/dev/null
		wait $pids 2>/dev/null
	fi
	[ -z "$scratch" ] || rm -rf $scratch
	pids='' scratch=''
}
trap 'cleanup; echo "fuzz/run.sh: interrupted" >&2; exit 130' INT TERM HUP

total=0 failed=0
for t; do
	mkdir -p "$outdir/corpus/$t" "$outdir/crashes/$t" "$outdir/logs" "$outdir/cache" || exit 1
	echo "== $t ($lanes x $seconds s)"
	before=$(ls "$outdir/crashes/$t" | wc -l)
	lane=1
	while [ $lane -le "$lanes" ]; do
		dir=$(mktemp -d "$shm/xsc-fuzz-XXXXXX") || exit 1
		scratch="$scratch $dir"
		# shellcheck disable=SC2086 # FUZZ_OPTS is a list of options
		XSC_SANDBOX_DIR=$dir XSC_DATA=$top/data XDG_CACHE_HOME=$outdir/cache \
			"$bindir/$t" -max_total_time="$seconds" -print_final_stats=1 -max_len="$(max_len "$t")" \
			-artifact_prefix="$outdir/crashes/$t/" ${FUZZ_OPTS--entropic=0} \
			"$outdir/corpus/$t" "$top/fuzz/corpus/$t" >"$outdir/logs/$t.$lane.log" 2>&1 &
		pids="$pids $!"
		lane=$((lane + 1))
	done
	lane=1 sum=0 bad=0
	for pid in $pids; do
		wait "$pid"
		rc=$?
		log=$outdir/logs/$t.$lane.log
		seed=$(sed -n 's/^INFO: Seed: \([0-9]*\).*/\1/p' "$log" | head -n 1)
		runs=$(sed -n 's/^stat::number_of_executed_units: \([0-9]*\).*/\1/p' "$log" | tail -n 1)
		why=$(sed -n 's/^SUMMARY: \(.*\)/\1/p; s/^==[0-9]*== *ERROR: \(.*\)/\1/p' "$log" | head -n 1)
		if [ $rc -eq 0 ] && [ -z "$why" ]; then
			echo "   lane $lane (seed ${seed:-?}): ${runs:-0} executions"
		else
			bad=$((bad + 1))
			[ -n "$why" ] || why="exit status $rc$([ $rc -gt 128 ] && echo " (signal $((rc - 128)))")"
			echo "   lane $lane (seed ${seed:-?}): FAILED after ${runs:-?} executions: $why"
			echo "      log: $log"
		fi
		sum=$((sum + ${runs:-0}))
		lane=$((lane + 1))
	done
	pids='' # all reaped: cleanup only removes the scratch directories
	cleanup
	new=$(($(ls "$outdir/crashes/$t" | wc -l) - before))
	if [ $new -gt 0 ]; then
		ls -t "$outdir/crashes/$t" | head -n $new | sed "s|^|      input: $outdir/crashes/$t/|"
		[ $bad -gt 0 ] || bad=$new
	fi
	total=$((total + sum))
	if [ $bad -eq 0 ]; then
		echo "$t: $sum executions, 0 failures"
	else
		failed=$((failed + 1))
		echo "$t: $sum executions, FAILED ($bad of $lanes processes)"
	fi
done
echo "fuzz: $# target$([ $# -gt 1 ] && echo s), $total executions, $failed failed"
[ $failed -eq 0 ]
