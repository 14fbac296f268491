# The differential test against the real strace (tests/stracetest.py) on a fixed seed: 200
# random calls run live under the installed strace, default and -v; xsc's line must equal
# strace's for at least the share below of the lines strace decodes fully (issue 30; the
# figure on 3000 cases is 'make stracetest'). Skips without strace or ptrace.
set -u
. "$top/tests/lib.sh"
need_linux "not Linux"
need python3 "no python3"
need strace "no strace"
strace -qq -e trace=none true 2>/dev/null || { echo "strace cannot trace here"; exit 77; }
python3 "$top/tests/stracetest.py" --xsc "$XSC" --data "$top/data" --cases 200 --seed 30 \
	--min-share 72 --no-minimise --quiet >out.txt 2>&1
rc=$?
cat out.txt
exit $rc
