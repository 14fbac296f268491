# lint stays linear in the number of structs: a generated header of 20,000 structs, each
# with a size version and two flags, within a time bound that the quadratic versions (55 to
# 62 s for the structs alone; 19 s more for the macros) do not meet; linear, it takes about
# 1.3 s. Then 20,000 size versions that name no struct (matching each against every struct
# took over 60 s; now 0.9 s).
set -u
. "$top/tests/lib.sh"
need python3
"$XSC" lint "$top/tests/headers/lint/hole.h" >/dev/null 2>&1
[ $? -le 1 ] || { echo "libclang is not usable here"; exit 77; }
python3 - <<'PY'
out = ["#include <linux/types.h>"]
for i in range(20000):
    out.append("struct s%d {\n\t__u32 a;\n\t__u64 b; /* 0: none */\n};\n"
               "#define S%d_SIZE_VER0 16\n#define F%d_X 0x1\n#define F%d_Y 0x2" % (i, i, i, i))
open("many.h", "w").write("\n".join(out) + "\n")
out = ["#include <linux/types.h>"]
for i in range(20000):
    out.append("struct s%d { __u64 a; };\n#define NOPE%d_SIZE_VER0 8" % (i, i))
open("orphans.h", "w").write("\n".join(out) + "\n")
PY
fail=0
start=$(date +%s)
timeout 30 "$XSC" lint --max-size 100000000 many.h >out.txt 2>err.txt
rc=$?
took=$(($(date +%s) - start))
[ $rc -eq 1 ] || { echo "FAIL lint: exit $rc: $(tail -3 err.txt)"; fail=1; }
grep -q '^20000 errors, 20000 warnings, 0 notes$' out.txt || { echo "FAIL lint: $(tail -1 out.txt)"; fail=1; }
[ $took -le 20 ] || { echo "FAIL lint of 20,000 structs took $took s"; fail=1; }
echo "lint of 20,000 structs: $took s"
start=$(date +%s)
timeout 30 "$XSC" lint --max-size 100000000 orphans.h >out.txt 2>err.txt
rc=$?
took=$(($(date +%s) - start))
[ $rc -eq 1 ] || { echo "FAIL orphan versions: exit $rc: $(tail -3 err.txt)"; fail=1; }
grep -q '^20000 errors, 0 warnings, 0 notes$' out.txt || { echo "FAIL orphan versions: $(tail -1 out.txt)"; fail=1; }
[ $took -le 20 ] || { echo "FAIL lint of 20,000 versions naming no struct took $took s"; fail=1; }
echo "lint of 20,000 versions naming no struct: $took s"
exit $fail
