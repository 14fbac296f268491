# save and load (issue 28): a session handed to a neighbour as a replayable script, and a
# transcript replayed; atomic writes, existing files kept, hostile files refused precisely.
set -u
fail=0
D="--data $top/data"
bad() { echo "FAIL $1"; shift; for f in "$@"; do sed 's/^/    | /' "$f"; done; fail=1; }

# a session: a target, a design, buffers with flags, a tail byte, a string pointer, a pointer
# to another buffer; the current buffer is not the last made
cat >session.xsc <<'X'
target sim 5.4
struct new my_args
field add u64 flags
field add u64 extra since 7.1 zero 'no extra'
version add 8 7.0
version add 16 7.1
syscall new my_call struct=my_args
new my_args as m
set extra 5
new openat2 as o
set flags O_RDWR|O_CREAT
set mode 0644
size 32
poke 28 1
new clone3
set stack "a \"quoted\" text; # not a comment"
new mount_setattr as ms
set userns_fd 3
use o
save s.xsc
X
"$XSC" $D session.xsc >out 2>err || bad "the session" out err
grep -qx 'saved 4 buffers to s.xsc' out || bad "save's report" out
# loaded elsewhere and saved again: the same script, and the same dump and target
"$XSC" $D -c 'load s.xsc; save s2.xsc; dump; target; buffers' >out2 2>err || bad "load" out2 err
cmp -s s.xsc s2.xsc || { diff s.xsc s2.xsc; bad "a loaded session saved again differs"; }
grep -q '^target: a simulated 5.4 kernel' out2 || bad "the target after load" out2
grep -q '^     24  00 00 00 00 01 00 00 00  (tail)  *!! nonzero at 28$' out2 || bad "the tail byte after load" out2
grep -q '^\* o  *struct open_how' out2 || bad "the current buffer after load" out2
"$XSC" $D -c 'load s.xsc; use clone_args; dump' >out3 2>err || bad "load + dump" out3 err
grep -q 'stack  *"a \\"quoted\\" text; # not a comment"' out3 || bad "the string pointer after load" out3
"$XSC" $D -c 'load s.xsc; new my_args; size VER0; call my_call' >out4 2>err || bad "the design after load" out4 err
grep -q '^my_call(' out4 || bad "a designed call after load" out4
# the script is an ordinary script too
"$XSC" $D s.xsc >/dev/null 2>err || bad "xsc s.xsc" err

# an existing file is kept unless --force; nothing half-written is left
echo keep >k.xsc
"$XSC" $D -c 'new openat2; save k.xsc' >/dev/null 2>err && bad "save over an existing file"
grep -q "'k.xsc' exists; --force replaces it" err && [ "$(cat k.xsc)" = keep ] || bad "the refusal" err
"$XSC" $D -c 'new openat2; save k.xsc --force' >/dev/null 2>err && grep -q '^new openat2 as open_how$' k.xsc || bad "--force" err k.xsc
ls -a | grep -q '^\.xsc-tmp' && bad "a temporary file was left"
"$XSC" $D -c 'save /proc/nope/x.xsc' >/dev/null 2>err && bad "save into /proc"
"$XSC" $D -c 'save' >/dev/null 2>err; [ $? = 2 ] || bad "save without a file is not a usage error" err

# hostile files: a NUL byte, a device, a directory, a file past 1 MiB, a missing one
printf 'new openat2\n\000dump\n' >nul.xsc
"$XSC" $D -c 'load nul.xsc' >/dev/null 2>err && bad "a NUL byte loaded"
grep -q "'nul.xsc' holds a NUL byte: not a script" err || bad "the NUL message" err
for f in /dev/zero . nosuch.xsc; do
	timeout 10 "$XSC" $D -c "load $f" >/dev/null 2>err; rc=$?
	[ $rc = 1 ] || bad "load $f: exit $rc" err
done
head -c 1100000 /dev/zero | tr '\0' '#' >big.xsc
"$XSC" $D -c 'load big.xsc' >/dev/null 2>err && bad "a file past 1 MiB loaded"
grep -q "is longer than 1048576 bytes" err || bad "the size message" err
# a loaded script is someone else's: it writes only beneath the current directory
echo "save $PWD/../escaped.xsc" >esc.xsc
"$XSC" $D -c 'load esc.xsc' >/dev/null 2>err && bad "a loaded script saved outside"
grep -q "a script writes only beneath the current directory" err || bad "the write refusal" err
# a solution checked by lesson --check loads nothing
echo 'load s.xsc' >sol.xsc
"$XSC" $D lesson 1 --check sol.xsc >/dev/null 2>err
grep -q "loads no files" err || bad "load in lesson --check" err

# a transcript records the kernel, the target and the date, the session before it as a
# block of its own, and replays: the same outputs again
SOURCE_DATE_EPOCH=0 "$XSC" $D -c 'new openat2; set mode 0644; target sim 5.6; transcript t.md; dump; set resolve RESOLVE_CACHED; call openat2; nosuch' >/dev/null 2>&1
grep -q "^Recorded on 1970-01-01 00:00 UTC by xsc [0-9.]* on Linux $(uname -r | sed 's/[.[*^$]/\\&/g'); calls went to a simulated 5.6 kernel" t.md ||
	bad "the transcript's header" t.md
grep -q '^target sim 5.6$' t.md && grep -q '^poke 8 164 1' t.md || bad "the state block" t.md
"$XSC" $D --transcript t2.md -c 'load t.md' >out5 2>err5; rc=$?
[ $rc = 2 ] || bad "the replay's exit (the recorded usage error again): $rc" out5 err5
grep -q "^t.md:[0-9]*: usage: unknown command 'nosuch'" err5 || bad "the replayed failure names the transcript's line" err5
grep -q '^openat2(AT_FDCWD, ".", {flags=O_RDONLY, mode=0644, resolve=RESOLVE_CACHED}, 24) = -1 EINVAL' out5 || bad "the replayed call" out5
exit $fail
