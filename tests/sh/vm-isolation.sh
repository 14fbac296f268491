# Calls in one guest do not see each other: each runs in a child of its own in a fresh sandbox
# directory, as a live call does, however many calls the guest has already made. A call that
# creates a file and keeps its descriptor open leaves nothing for the next one: the same
# O_CREAT|O_EXCL open succeeds again (no EEXIST) with the same descriptor number (the first
# one's is not open), and a plain open of the name finds nothing (ENOENT). The agent removes a
# call's sandbox after it answers, but before it reads the next call: while a call runs, the
# guest's /tmp (where sandboxes are made) holds one directory, its own (stx_nlink 3).
set -u
. "$top/tests/lib.sh"
vm_need 6.1
cat >iso.xsc <<'EOS'
target vm 6.1
new openat2
set flags O_WRONLY|O_CREAT|O_EXCL
set mode 0600
call openat2 pathname=left-behind
expect ret 4
call openat2 pathname=left-behind
expect ret 4
new openat2 as plain
set flags O_RDONLY
call openat2 pathname=left-behind
expect errno ENOENT
new statx
call statx pathname=/tmp mask=STATX_NLINK
expect field stx_nlink 3
call statx pathname=/tmp mask=STATX_NLINK
expect field stx_nlink 3
target
EOS
$XSC --data "$top/data" iso.xsc >iso.out 2>&1 || { echo "FAIL: a call in the guest saw what the one before it left:"; sed 's/^/    /' iso.out; exit 1; }
# the answers came from the guest (its target line), not from a refusal or the host
n=$(grep -c '^openat2(' iso.out)
[ "$n" = 3 ] || { echo "FAIL: expected 3 calls, got $n:"; sed 's/^/    /' iso.out; exit 1; }
grep -q '^target: vm 6.1 ' iso.out || { echo "FAIL: no guest answered:"; sed 's/^/    /' iso.out; exit 1; }
echo "3 calls in one 6.1 guest: each in a fresh sandbox"
