#!/bin/sh
# A design script from someone else cannot make xsc grow without bound: every change keeps a
# build of the whole design, so 2,000 'field add' lines took 18 s of CPU and 550 MB. A design
# holds at most 512 items; the one past is refused with the limit, and the design is intact.
set -u
fail=0
{
	echo "struct new big"
	i=0
	while [ $i -lt 600 ]; do echo "field add u64 f$i"; i=$((i + 1)); done
	echo "field add u64 last"
	echo "version add 8 6.0"
	echo "show big --json"
} >many.xsc
"$XSC" --data "$top/data" --keep-going many.xsc >out 2>err </dev/null
rc=$?
[ $rc = 1 ] || { echo "FAIL: exit $rc, expected 1"; fail=1; }
grep -q "^many.xsc:513: a design holds at most 512 " err || { echo "FAIL: field 512 was not refused:"; head -3 err; fail=1; }
[ "$(grep -c 'a design holds at most 512' err)" = 91 ] || { echo "FAIL: not every change past the 512th item was refused"; fail=1; }
grep -q '"name": "f510"' out && ! grep -q '"name": "f511"' out || { echo "FAIL: the design is not 511 fields"; fail=1; }
exit $fail
