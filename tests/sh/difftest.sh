# The differential tester (tests/difftest.py) on a fixed seed: 200 random calls, live and
# under 'target sim' at the running kernel's version. The size convention is modelled
# exactly, so every size-only case (only the size and the tail vary) must agree; the run must
# compare at least 150 cases. The overall agreement is printed, not asserted (issue 24).
set -u
[ "$(uname -s)" = Linux ] || { echo "not Linux"; exit 77; }
command -v python3 >/dev/null || { echo "no python3"; exit 77; }
python3 "$top/tests/difftest.py" --xsc "$XSC" --data "$top/data" --cases 200 --seed 24 \
	--check-size-only --min-compared 150 --quiet >out.txt 2>&1
rc=$?
grep -v '^  ' out.txt
exit $rc
