# --transcript FILE.md and 'transcript FILE.md' record commands and their outputs as Markdown
set -u
fail=0
# a directory of its own: an existing t.md (another test's, in the shared directory) is refused
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cd "$w" || exit 1
"$XSC" --data "$top/data" --transcript t.md -c 'new openat2; size 32; dump; nosuch' >out 2>err
[ $? = 2 ] || { echo "FAIL exit status"; fail=1; }
grep -q '^new openat2$' t.md && grep -q '^open_how: struct open_how, 24 bytes' t.md && grep -q "unknown command 'nosuch'" t.md ||
	{ echo "FAIL transcript content"; cat t.md; fail=1; }
grep -q '^```xsc$' t.md || { echo "FAIL fences"; fail=1; }
# the output still reaches the terminal
grep -q '^open_how: struct open_how' out || { echo "FAIL stdout"; fail=1; }
ls | grep -q 't.md.tmp' && { echo "FAIL temporary file left"; fail=1; }
printf 'new clone3\ntranscript u.md\nsize VER1\ntranscript off\nsize VER0\n' | "$XSC" --data "$top/data" >/dev/null 2>&1
# the commands before 'transcript' are not recorded; the state they made is, as commands
# that rebuild it (load replays it first)
grep -q '^size VER1$' u.md && ! grep -q 'VER0' u.md && ! grep -qx 'new clone3' u.md || { echo "FAIL transcript command"; cat u.md; fail=1; }
grep -qx 'new clone3 as clone_args' u.md && grep -q '^Recorded on .* by xsc .* on Linux .*; calls went to the running kernel' u.md ||
	{ echo "FAIL the state and header of a transcript started late"; cat u.md; fail=1; }
"$XSC" --data "$top/data" --transcript /proc/nope/t.md -c 'list' >/dev/null 2>e && { echo "FAIL unwritable"; fail=1; }
grep -q "cannot write the transcript" e || { echo "FAIL message"; cat e; fail=1; }
# an existing file is refused, and kept, unless --force
"$XSC" --data "$top/data" --transcript t.md -c 'list' >/dev/null 2>e && { echo "FAIL replaced an existing file"; fail=1; }
grep -q -- "exists; --force replaces it" e && grep -q '^nosuch$' t.md || { echo "FAIL refusal"; cat e; fail=1; }
"$XSC" --data "$top/data" --force --transcript t.md -c 'list' >/dev/null 2>e && grep -q '^list$' t.md && ! grep -q nosuch t.md ||
	{ echo "FAIL --force"; cat e; fail=1; }
exit $fail
