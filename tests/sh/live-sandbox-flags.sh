# A call that makes its sandbox's entries immutable or append-only (file_setattr, which root
# may do) must not leave the sandbox behind: xsc clears those flags to remove it. The calls
# must succeed for the test to mean anything; a kernel without file_setattr (before 6.17)
# or a file system without the flags skips it.
set -u
. "$top/tests/lib.sh"
need_linux "live calls need Linux"
[ "$(id -u)" -eq 0 ] || { echo "needs root (CAP_LINUX_IMMUTABLE)"; exit 77; }
d=$(mktemp -d) && cd "$d" || exit 1
trap 'chattr -R -ia "$d" 2>/dev/null; rm -rf "$d"' EXIT
mkdir sandboxes
export XSC_SANDBOX_DIR=$d/sandboxes
"$XSC" --data "$top/data" >probe.out 2>&1 <<'CMDS'
new file_setattr as fa
set fa_xflags FS_XFLAG_IMMUTABLE
call file_setattr pathname=file
expect ok
CMDS
if [ $? -ne 0 ]; then
	echo "file_setattr cannot make a file immutable here:"
	tail -n 3 probe.out
	exit 77
fi
fail=0
"$XSC" --data "$top/data" >xsc.log 2>&1 <<'CMDS' || { echo "FAIL: a call failed:"; grep -B3 'expect' xsc.log | head; fail=1; }
new file_setattr as fa
set fa_xflags FS_XFLAG_IMMUTABLE
call file_setattr pathname=file
expect ok
call file_setattr pathname=dir
expect ok
call file_setattr pathname=.
expect ok
set fa_xflags FS_XFLAG_APPEND
call file_setattr pathname=file
expect ok
call file_setattr pathname=.
expect ok
set fa_xflags FS_XFLAG_IMMUTABLE|FS_XFLAG_APPEND
call file_setattr pathname=dir
expect ok
CMDS
left=$(ls -A sandboxes)
if [ -n "$left" ]; then
	echo "FAIL: $(echo "$left" | wc -l) sandboxes left behind:"
	for s in $left; do lsattr -d "sandboxes/$s" "sandboxes/$s"/* 2>&1 | sed 's/^/    /'; done
	fail=1
fi
exit $fail
