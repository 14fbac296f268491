# import writes what the header says or refuses it: a *_SIZE_VERn macro past 32 bits was cut
# to 32 (4294967304 became a valid size 8, 2^32 + 24 a size 24), so a header could date a size
# it never names; and a field or offset past 32 bits (a 4 GiB array had size 0 and was
# dropped, the field after it written at offset 8)
set -u
"$XSC" lint "$top/tests/headers/lint/hole.h" >/dev/null 2>&1
[ $? -eq 1 ] || { echo "libclang is not usable here"; exit 77; }
fail=0
for v in 4294967304 4294967320 0x100000018ULL; do
	printf '#include <linux/types.h>\n#define EV_SIZE_VER0 %s\nstruct ev { __u64 a; __u64 b; __u64 c; };\n' "$v" >ev.h
	"$XSC" import ev.h >out.json 2>err.txt
	rc=$?
	[ $rc = 1 ] || { echo "FAIL $v: exit $rc, want 1; $(grep -A2 versions out.json)"; fail=1; }
	grep -q "'size' is 4294967295, out of range" err.txt || { echo "FAIL $v: $(cat err.txt)"; fail=1; }
done
printf '#include <linux/types.h>\nstruct ev { __u64 a; __u8 big[0x100000000]; __u64 c; };\n' >ev.h
"$XSC" import ev.h >out.json 2>err.txt
rc=$?
[ $rc = 1 ] && grep -q 'unknown type "u8\[4294967296\]"' err.txt || { echo "FAIL a 4 GiB array: exit $rc: $(cat err.txt out.json)"; fail=1; }
printf '#include <linux/types.h>\nstruct ev { __u64 a; __u8 big[0x100000000]; };\nstruct ew { struct ev e; __u64 c; };\n' >ev.h
"$XSC" import ev.h >out.json 2>err.txt
rc=$?
[ $rc = 1 ] || { echo "FAIL a field past 4 GiB: exit $rc: $(cat err.txt out.json)"; fail=1; }
printf '#include <linux/types.h>\n#define EV_SIZE_VER0 24\nstruct ev { __u64 a; __u64 b; __u64 c; };\n' >ev.h
"$XSC" import ev.h >out.json 2>err.txt && grep -q '"size": 24' out.json || { echo "FAIL a good header: $(cat err.txt)"; fail=1; }
exit $fail
