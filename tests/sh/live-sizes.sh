# The size rules of every extensible call xsc can invoke, live: one tests/live/NAME.xsc
# battery per call (size 0, below the first version, each version, newest+8 with a zero and a
# nonzero tail, 4096, 4104, 1<<63|newest), each asserting with 'expect' what the 6.18 kernel
# answers (/work/shared/kernel-facts.md §21 and "Live measurements on 6.18").
# A script whose call answers ENOSYS here is skipped; the whole test is skipped off Linux.
set -u
. "$top/tests/lib.sh"
need_linux "live calls need Linux (this is $(uname -s))"
. "$top/tests/live/mnt-id.sh"
live=$top/tests/live
fail=0 ran=0 skipped=0
echo "kernel $(uname -r)"

# prepare NAME SCRIPT OUT: the script as run (statmount gets the root mount's unique id);
# returns 1 with a reason on stdout when it cannot be prepared
prepare() {
	case $1 in
	statmount)
		id=$(root_mnt_id)
		[ -n "$id" ] || { echo "no unique mount id of / (needs python3 and statx STATX_MNT_ID_UNIQUE)"; return 1; }
		sed "s/@MNT_ID@/$id/g" "$2" >"$3" ;;
	*) cp "$2" "$3" ;;
	esac
}

for s in "$live"/*.xsc; do
	name=$(basename "$s" .xsc)
	# does the running kernel have the call at all?
	$XSC --data "$top/data" -c "call $name" >"$name.probe" 2>&1
	if grep -q '= -1 ENOSYS' "$name.probe"; then
		echo "SKIP $name: ENOSYS on this kernel" >>passed
		skipped=$((skipped + 1))
		continue
	fi
	if ! why=$(prepare "$name" "$s" "$name.xsc"); then
		echo "SKIP $name: $why" >>passed
		skipped=$((skipped + 1))
		continue
	fi
	ran=$((ran + 1))
	timeout 60 $XSC --data "$top/data" "$name.xsc" >"$name.log" 2>&1 </dev/null
	rc=$?
	if [ $rc -ne 0 ]; then
		# failures first (the suite shows the first lines of a failing test's output)
		{
			echo "FAIL $name: exit $rc: $(grep -m1 "^$name.xsc:[0-9]*:" "$name.log")"
			echo "    the end of its log (long lines cut):"
			cut -c1-300 "$name.log" | tail -n 12 | sed 's/^/    | /'
		} >&2
		fail=1
	else
		echo "ok $name ($(grep -c '^  returned\|^  error' "$name.log") calls)" >>passed
	fi
done
[ -f passed ] && cat passed
[ $fail -eq 0 ] || exit 1
if [ $ran -eq 0 ]; then
	echo "no live script could run ($skipped skipped)"
	exit 77
fi
exit 0
