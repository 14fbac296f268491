# lint: every bad fixture in tests/headers/lint/ against its golden NAME.out (REGEN=1 rewrites
# them), --json shape, and the system uapi headers of the catalogue's structs: no errors.
set -u
T=$(pwd) # scratch files go here (the harness runs us in a temporary directory)
cd "$top" || exit 1
fail=0
for h in tests/headers/lint/*.h; do
	exp=${h%.h}.out
	{ "$XSC" lint "$h" 2>&1; echo "exit $?"; } >"$T/lint.out" 2>&1
	if [ "${REGEN:-}" = 1 ]; then cp "$T/lint.out" "$exp"; continue; fi
	if ! diff -u "$exp" "$T/lint.out"; then echo "FAIL lint $h"; fail=1; fi
done
n=$(ls tests/headers/lint/*.h | wc -l)
[ "$n" -ge 12 ] || { echo "FAIL only $n lint fixtures"; fail=1; }
# --json: an array of {file, line, col, severity, rule, message}
"$XSC" lint tests/headers/lint/hole.h tests/headers/lint/zero_doc.h --json >"$T/lint.json" 2>/dev/null
python3 - "$T/lint.json" <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
assert isinstance(d, list) and len(d) == 3, d
for f in d:
    assert set(f) == {"file", "line", "col", "severity", "rule", "message"}, f
    assert f["severity"] in ("error", "warning", "note") and f["rule"].isupper()
PY
# a header that crashes libclang 14 (found by fuzz_header): a clear error, exit 1, no scratch
# directory left, and (under make check) nothing leaked
mkdir -p "$T/scratch"
XSC_SANDBOX_DIR="$T/scratch" "$XSC" lint fuzz/corpus/fuzz_header/libclang_crash.h >"$T/crash.out" 2>&1
rc=$?
[ $rc -eq 1 ] || { echo "FAIL lint on a libclang crash: exit $rc"; cat "$T/crash.out"; fail=1; }
grep -q "libclang_crash.h': libclang crashed while parsing it" "$T/crash.out" ||
	{ echo "FAIL lint on a libclang crash: no clear error"; cat "$T/crash.out"; fail=1; }
! grep -q "Sanitizer" "$T/crash.out" || { echo "FAIL lint on a libclang crash:"; cat "$T/crash.out"; fail=1; }
[ -z "$(ls -A "$T/scratch")" ] || { echo "FAIL lint on a libclang crash left $(ls "$T/scratch")"; fail=1; }
# every rule is documented
for r in $(sed -n 's/^	{ "\([A-Z0-9_]*\)", HD_.*/\1/p' cli/headers/lint.c); do
	grep -q "^## $r\$" docs/guide/lint-rules.md || { echo "FAIL rule $r is not in docs/guide/lint-rules.md"; fail=1; }
done
# the system headers that define the catalogue's structs and follow the conventions: no errors
for h in linux/openat2.h linux/sched/types.h linux/sched.h linux/mount.h linux/perf_event.h \
	linux/landlock.h linux/rseq.h linux/stat.h linux/io_uring.h linux/userfaultfd.h; do
	# (linux/fs.h is left out: its legacy files_stat_struct uses long, a real LONG_FIELD error)
	[ -e "/usr/include/$h" ] || continue
	"$XSC" lint "$h" >"$T/sys.out" 2>&1 || { echo "FAIL lint $h reports errors:"; grep ': error:' "$T/sys.out" | head; fail=1; }
done
exit $fail
