# The catalogue's facts checked by real kernels: in a guest of each of Debian's 5.10, 6.1,
# 6.12, 6.18 and 7.3, every size version and every flag the catalogue dates at or before
# that kernel (its full version: 6.1.192, so the stable backports it records count) is
# called alone from the plainest call, and the kernel must answer as 'target sim' at that
# version says (tests/difftest.py --facts: one batch, one guest per version; the condition
# checks those calls reach are checked on the way, and counted). Two guests at a time.
set -u
. "$top/tests/lib.sh"
vm_need 5.10 6.1 6.12 6.18 7.3
fail=0
run() {
	python3 "$top/tests/difftest.py" --xsc "$XSC" --data "$top/data" --facts --vm "$1" >"$1.out" 2>&1
	echo $? >"$1.rc"
}
for pair in "5.10 6.1" "6.12 6.18" "7.3"; do
	for v in $pair; do
		run "$v" &
	done
	wait
done
for v in 5.10 6.1 6.12 6.18 7.3; do
	if [ "$(cat "$v.rc")" != 0 ] || ! grep -q '^difftest: facts: ' "$v.out"; then
		echo "FAIL: the $v kernel disagrees with the catalogue:"
		sed 's/^/    /' "$v.out"
		fail=1
	else
		grep '^difftest: facts: ' "$v.out"
	fi
done
exit $fail
