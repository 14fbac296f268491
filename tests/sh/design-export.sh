# a designed syscall exported: the JSON loads as a catalogue, the header compiles, the
# skeletons are there; an unwritable directory is a clear error
set -u
fail=0
cat >design.xsc <<'XSC'
flagset new frob_flags
flag add FROB_FAST 0x1
flag add FROB_SLOW 0x2 since 7.1
struct new frob_args
field add u64 flags flagset frob_flags zero "no flags"
field add aligned_u64 path zero "no path"
field add char[16] tag zero "no tag"
version add 32 7.0
field add u32 level since 7.2 zero "default level"
field add u32 pad zero "reserved"
version add 40 7.2
syscall new frob struct=frob_args flags=frob_flags
export frob xsc-export
XSC
"$XSC" --data "$top/data" design.xsc >log 2>&1 || { cat log; exit 1; }
for f in frob.json frob.h frob_kernel.c frob_test.c; do
	[ -s "xsc-export/$f" ] || { echo "FAIL xsc-export/$f missing"; fail=1; }
done
ls xsc-export | grep -q tmp && { echo "FAIL temporary files left"; fail=1; }
cc -fsyntax-only -Wall -Wextra -Werror -x c xsc-export/frob.h || { echo "FAIL header does not compile"; fail=1; }
printf '#include "frob.h"\n_Static_assert(sizeof(struct frob_args) == FROB_ARGS_SIZE_VER1, "size");\n_Static_assert(FROB_ARGS_SIZE_VER0 == 32, "ver0");\n' >check.c
cc -fsyntax-only -Ixsc-export check.c || { echo "FAIL header layout"; fail=1; }
"$XSC" --data xsc-export list >list.out 2>&1 || { echo "FAIL exported JSON does not load"; cat list.out; fail=1; }
grep -q '^frob .*frob_args *32/40' list.out || { echo "FAIL list"; cat list.out; fail=1; }
"$XSC" --data xsc-export -c 'show frob; new frob; set flags FROB_SLOW; set tag 1; expect field flags FROB_SLOW; dump' >sim.out 2>&1 ||
	{ echo "FAIL the exported catalogue in use"; cat sim.out; fail=1; }
grep -q 'copy_struct_from_user' xsc-export/frob_kernel.c && grep -q 'return -E2BIG' xsc-export/frob_kernel.c &&
	grep -q 'FROB_ARGS_SIZE_VER0' xsc-export/frob_kernel.c && grep -q 'FROB_FLAGS_VALID' xsc-export/frob_kernel.c ||
	{ echo "FAIL kernel skeleton"; fail=1; }
grep -q 'TEST(size_below_ver0_is_einval)' xsc-export/frob_test.c && grep -q 'TEST(above_a_page_is_e2big)' xsc-export/frob_test.c ||
	{ echo "FAIL selftest skeleton"; fail=1; }
# the kselftest skeleton compiles against a stand-in harness
mkdir -p st/sub && cp xsc-export/frob_test.c st/sub/ && mkdir -p st/linux && cp xsc-export/frob.h st/linux/
printf '#define TEST(n) static void n(void)\n#define ASSERT_EQ(a, b) ((void)((a) == (b)))\n#define TEST_HARNESS_MAIN int main(void) { return 0; }\n' >st/kselftest_harness.h
cc -fsyntax-only -Ist st/sub/frob_test.c 2>cc.err || { echo "FAIL selftest does not compile"; cat cc.err; fail=1; }
# the exported catalogue answers in the simulator like any other entry (it has no number)
"$XSC" --data xsc-export -c 'new frob; target sim 7.0; call frob; expect ok; size +8; poke 40 1; call frob; expect errno E2BIG' >o 2>e ||
	{ echo "FAIL the exported syscall in the simulator"; cat o e; fail=1; }
"$XSC" --data xsc-export matrix frob >o 2>e || { echo "FAIL matrix of the exported syscall"; cat e; fail=1; }
# refusals
"$XSC" --data "$top/data" --unsafe -c 'struct new a; field add u64 f; version add 8 7.0; export a /proc/xsc-nope' >o 2>e && { echo "FAIL export into /proc"; fail=1; }
grep -q "cannot create directory '/proc/xsc-nope'" e || { echo "FAIL message"; cat e; fail=1; }
"$XSC" --data "$top/data" -c 'struct new a; field add u64 f; field add u32 g; version add 12 7.0; export a here' >o 2>e && { echo "FAIL tail padding exported"; fail=1; }
grep -q "implicit tail padding" e && [ ! -e here/a.json ] || { echo "FAIL loader message"; cat e; fail=1; }
exit $fail
