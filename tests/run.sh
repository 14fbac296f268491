#!/bin/sh
# The whole suite. Each test prints one PASS/FAIL/SKIP line; the last line is
# "N passed, N failed[, N skipped]". Exit status 1 when anything failed.
#   unit/*.c       C unit tests (TAP); every "ok"/"not ok" line counts
#   cli/*.xsc      golden transcripts: stdout+stderr and the exit status must equal cli/NAME.out
#   catalog/*.json hostile catalogues (or catalog/*.sh printing one): must be refused with catalog/NAME.err
#   sh/*.sh        shell tests: exit 0 pass, 77 skip, anything else fail
#   fuzz corpus    fuzz/corpus/TARGET/* replayed through each libFuzzer target
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$top/$BUILD ;; esac
XSC=$BUILD/xsc
export XSC BUILD top
export NO_COLOR=1 LC_ALL=C
unset XSC_DATA
cd "$top" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
# the kernel images 'make kernels' fetched stay where they are (the VM tests boot them)
XSC_KERNEL_DIR=${XSC_KERNEL_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/xsc/kernels}
export XSC_KERNEL_DIR
# keep the user's history and state out of the tests
export HOME=$tmp/home XDG_STATE_HOME=$tmp/state XDG_CACHE_HOME=$tmp/cache
mkdir -p "$HOME"
pass=0 fail=0 skip=0
ok() { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && sed 's/^/    /' "$2" | head -40; }
skipped() { skip=$((skip + 1)); echo "SKIP $1${2:+: $2}"; }

# C unit tests
for t in "$BUILD"/tests/*; do
	[ -x "$t" ] || continue
	name=unit/$(basename "$t")
	"$t" >"$tmp/unit.out" 2>&1
	rc=$?
	n_ok=$(grep -c '^ok ' "$tmp/unit.out")
	n_bad=$(grep -c '^not ok ' "$tmp/unit.out")
	pass=$((pass + n_ok))
	fail=$((fail + n_bad))
	grep '^not ok ' "$tmp/unit.out" | sed "s|^|FAIL $name: |"
	if [ $rc -ne 0 ] && [ "$n_bad" -eq 0 ]; then
		bad "$name (exit $rc)" "$tmp/unit.out"
	else
		echo "PASS $name ($n_ok checks)"
	fi
done

# golden transcripts
for t in "$top"/tests/cli/*.xsc; do
	[ -e "$t" ] || continue
	name=cli/$(basename "$t" .xsc)
	args=$(sed -n '1s/^#! *args: *//p' "$t")
	( cd "$top/tests/cli" && eval "\"\$XSC\" --data \"\$top/data\" $args \"\$(basename \"\$t\")\"" ) \
		>"$tmp/got" 2>&1 </dev/null
	echo "exit $?" >>"$tmp/got"
	if diff -u "${t%.xsc}.out" "$tmp/got" >"$tmp/diff" 2>&1; then ok "$name"; else bad "$name" "$tmp/diff"; fi
done

# hostile catalogues
for t in "$top"/tests/catalog/*.json "$top"/tests/catalog/*.sh; do
	[ -e "$t" ] || continue
	base=${t%.*}
	name=catalog/$(basename "$base")
	rm -rf "$tmp/cat" && mkdir "$tmp/cat"
	case $t in
	*.sh) sh "$t" >"$tmp/cat/fixture.json" ;;
	*) cp "$t" "$tmp/cat/fixture.json" ;;
	esac
	( cd "$tmp/cat" && timeout 20 "$XSC" --data . list ) >/dev/null 2>"$tmp/err"
	rc=$?
	echo "exit $rc" >>"$tmp/err"
	if diff -u "$base.err" "$tmp/err" >"$tmp/diff" 2>&1; then ok "$name"; else bad "$name" "$tmp/diff"; fi
done

# fuzz regression corpus: every input that ever mattered, replayed (fuzz/replay.c)
for t in "$BUILD"/fuzz/replay_*; do
	[ -x "$t" ] || continue
	name=${t##*/replay_}
	if XSC_DATA="$top/data" timeout 300 "$t" "$top/fuzz/corpus/$name" >"$tmp/fuzz.out" 2>&1; then
		ok "fuzz/$name ($(tail -n 1 "$tmp/fuzz.out"))"
	else
		bad "fuzz/$name" "$tmp/fuzz.out"
	fi
done

# shell tests
for t in "$top"/tests/sh/*.sh; do
	[ -e "$t" ] || continue
	name=sh/$(basename "$t" .sh)
	# each test in a directory of its own: files one test leaves (a server's port file)
	# must not be read by the next
	rm -rf "$tmp/sh" && mkdir "$tmp/sh"
	( cd "$tmp/sh" && sh "$t" ) >"$tmp/sh.out" 2>&1
	rc=$?
	case $rc in
	0) ok "$name" ;;
	77) skipped "$name" "$(tail -n 1 "$tmp/sh.out")" ;;
	*) bad "$name" "$tmp/sh.out" ;;
	esac
done

if [ $skip -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ $fail -eq 0 ]
