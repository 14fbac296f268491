# Calls in one guest do not see each other: each runs in a child of its own in a fresh sandbox
# directory, as a live call does, however many calls the guest has already made. A call that
# creates a file and keeps its descriptor open leaves nothing for the next one: the same
# O_CREAT|O_EXCL open succeeds again (no EEXIST) with the same descriptor number (the first
# one's is not open), and a plain open of the name finds nothing (ENOENT). The agent removes a
# call's sandbox after it answers, but before it reads the next call: while a call runs, the
# guest's /tmp (where sandboxes are made) holds one directory, its own (stx_nlink 3). No process
# of a call outlives it, not even as a zombie: processes clone3 makes as the caller's sibling
# (CLONE_PARENT, with and without CLONE_VFORK) are gone before the next call, whose /proc counts
# as many processes (stx_nlink, fs/proc/root.c proc_root_getattr: nr_processes()) as a call before them.
set -u
. "$top/tests/lib.sh"
vm_need 6.1
cat >iso.xsc <<'EOS'
target vm 6.1
new statx
call statx pathname=/proc mask=STATX_NLINK
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
new clone3
set flags CLONE_PARENT
call clone3
set flags CLONE_PARENT|CLONE_VFORK
call clone3
new statx
call statx pathname=/proc mask=STATX_NLINK
target
EOS
$XSC --data "$top/data" iso.xsc >iso.out 2>&1 || { echo "FAIL: a call in the guest saw what the one before it left:"; sed 's/^/    /' iso.out; exit 1; }
# the answers came from the guest (its target line), not from a refusal or the host
n=$(grep -c '^openat2(' iso.out)
[ "$n" = 3 ] || { echo "FAIL: expected 3 calls, got $n:"; sed 's/^/    /' iso.out; exit 1; }
grep -q '^target: vm 6.1 ' iso.out || { echo "FAIL: no guest answered:"; sed 's/^/    /' iso.out; exit 1; }
# the processes /proc counts before the clone3 calls and after them
procs=$(awk '/^statx\(AT_FDCWD, "\/proc"/ { p = 1 } p && /stx_nlink: 0 -> / { print $NF; p = 0 }' iso.out | tr '\n' ' ')
grep -q '^clone3(.*) = [1-9]' iso.out || { echo "FAIL: clone3 made no process in the guest:"; sed 's/^/    /' iso.out; exit 1; }
set -- $procs
[ $# = 2 ] && [ "$1" = "$2" ] ||
	{ echo "FAIL: a process of a call outlived it (/proc's stx_nlink before and after the clone3 calls: $procs):"; sed 's/^/    /' iso.out; exit 1; }
echo "3 calls in one 6.1 guest: each in a fresh sandbox; $1 processes before and after 2 calls of clone3"
