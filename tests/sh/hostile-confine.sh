# The live child is a confinement boundary (DESIGN §7): real attempts to change a victim
# outside the sandbox through what xsc inherits (descriptors 0-5 opened on a victim directory
# or file by the shell that runs it; these with --unsafe, which lifts the argument checks
# that would refuse the descriptor numbers, and Landlock, but not the closing of every
# inherited descriptor), its current directory, or paths (absolute, /proc/self/fd, a struct
# override; without --unsafe). After each attempt
# the victims must be untouched: entries, content, mode, owner, times, xattrs, lsattr flags,
# the mount's read-only bit, and /dev/null's xattrs. Each attempt must have run: xsc exits 0
# (the call's error is its answer) or 1 with a refusal. Run as root and, through setpriv, as
# uid 65534 owning its own victims (so only xsc's confinement stands between the call and
# them, not file permissions). A Landlock-less kernel is tested with XSC_TEST_NO_LANDLOCK=1:
# calls that may write through a path are then refused without --unsafe.
set -u
. "$top/tests/lib.sh"
need_linux "live calls need Linux"
need python3 "python3 (for the victims' snapshots) is not installed"
need lsattr "lsattr (e2fsprogs) is not installed"
w=$(mktemp -d /tmp/xsc-confine.XXXXXX) || exit 1
trap 'chattr -R -ia "$w" 2>/dev/null; rm -rf "$w"' EXIT INT TERM
chmod 755 "$w"
mkdir "$w/data" "$w/home" "$w/sandboxes" "$w/out"
cp "$XSC" "$w/xsc" && cp "$top"/data/*.json "$w/data/" || exit 1
chmod -R a+rX "$w"
fail=0 n=0

# snap DIR: everything about the victims a call could change, one line per fact
snap() {
	python3 - "$1" <<'PY'
import hashlib, os, subprocess, sys
root = sys.argv[1]
def xattrs(p):
    try:
        return sorted((n, os.getxattr(p, n, follow_symlinks=False).hex()) for n in os.listxattr(p, follow_symlinks=False))
    except OSError as e:
        return "xattrs: " + e.strerror
paths = [root] + sorted(os.path.join(d, f) for d, ds, fs in os.walk(root) for f in ds + fs)
for p in paths:
    st = os.lstat(p)
    rel = os.path.relpath(p, root)
    if rel == "out.txt":  # xsc's own output goes there: only what a call could change
        print(rel, oct(st.st_mode), st.st_uid, st.st_gid, xattrs(p))
        continue
    body = hashlib.sha256(open(p, "rb").read()).hexdigest()[:16] if os.path.isfile(p) else "-"
    print(rel, oct(st.st_mode), st.st_uid, st.st_gid, st.st_size, st.st_mtime_ns, st.st_ctime_ns, body, xattrs(p))
print("lsattr", subprocess.run(["lsattr", "-d"] + paths, capture_output=True, text=True).stdout.replace(root, "V"))
print("mount read-only", bool(os.statvfs(root).f_flag & os.ST_RDONLY))
print("/dev/null", xattrs("/dev/null"), oct(os.stat("/dev/null").st_mode))
PY
}

# victims UID: a directory with a data file, an executable, a subdirectory and the file that
# becomes xsc's stdout, all owned by UID
victims() {
	V=$w/victims-$1
	rm -rf "$V"
	mkdir -p "$V/sub"
	printf 'secret\n' >"$V/data.txt"
	printf '#!/bin/sh\n' >"$V/exe"
	: >"$V/out.txt"
	chmod 640 "$V/data.txt"
	chmod 755 "$V/exe" "$V" "$V/sub"
	chown -R "$1:$1" "$V"
}

# as WHO: run the rest of the arguments as root or as uid 65534
as() {
	who=$1
	shift
	if [ "$who" = root ]; then
		env HOME="$w/home" XSC_SANDBOX_DIR="$w/sandboxes" "$@"
	else
		env -i PATH=/usr/bin:/bin HOME="$w/home" XSC_SANDBOX_DIR="$w/sandboxes" NO_COLOR=1 LC_ALL=C \
			${XSC_TEST_NO_LANDLOCK:+XSC_TEST_NO_LANDLOCK=$XSC_TEST_NO_LANDLOCK} \
			setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	fi
}

# attempt WHO NAME REDIRECTIONS SCRIPT: run the xsc SCRIPT with the shell REDIRECTIONS ($V
# is the victim directory) from the victim directory, and check the victims afterwards
attempt() {
	who=$1 name=$2 redir=$3
	n=$((n + 1))
	printf '%s\n' "$4" >"$w/attempt.xsc"
	rm -f "$w/out/err" "$w/out/log"
	chmod 644 "$w/attempt.xsc"
	as "$who" sh -c "V='$V'; cd \"\$V\" && exec timeout 20 '$w/xsc' --data '$w/data' '$w/attempt.xsc' 2>'$w/out/err' $redir" >"$w/out/log" 2>&1
	rc=$?
	snap "$V" >"$w/after"
	if ! diff -u "$w/before" "$w/after" >"$w/diff"; then
		echo "FAIL [$who] $name: a victim changed:"
		sed 's/^/    /' "$w/diff" | head -20
		fail=1
		chattr -R -ia "$V" 2>/dev/null
		victims "$uid" # afresh for the next attempt
	elif [ $rc -ne 0 ] && ! { [ $rc -eq 1 ] && { grep -q 'refusing\|unsafe\|cannot write the output' "$w/out/err" ||
		case $redir in 2\<*) true ;; *) false ;; esac; }; }; then # (with stderr on the victim, a refusal is not seen)
		echo "FAIL [$who] $name: the attempt did not run (exit $rc):"
		sed 's/^/    /' "$w/out/err" "$w/out/log" | head -8
		fail=1
	else
		answer=$(grep -h -m1 '^  error\|^  returned\|refusing\|why: the sandbox\|cannot write the output' "$w/out/err" "$w/out/log" "$V/out.txt" 2>/dev/null | head -n 1)
		echo "ok [$who] $name: ${answer:-no output (stdout was the victim)}"
	fi
	: >"$V/out.txt"
	snap "$V" >"$w/before"
}

# The victims of a "[who] name" line: V is $w/victims-UID. stdout is $w/log unless redirected.
attempts() {
	who=$1
	uid=0
	[ "$who" = root ] || uid=65534
	victims $uid
	snap "$V" >"$w/before"
	chown "$uid" "$w/sandboxes" "$w/out"
	chmod 1777 "$w/home"
	# descriptors the shell opened on the victims, with --unsafe: the argument checks would
	# refuse these descriptor numbers (hostile-args.sh); lifted, the child still has none of
	# xsc's descriptors (nor Landlock: --unsafe drops it)
	attempt "$who" "openat2 O_TRUNC in the directory inherited as fd 5" '5<"$V"' \
		'new openat2
set flags O_WRONLY|O_TRUNC
call --unsafe openat2 dirfd=5 pathname=data.txt'
	attempt "$who" "openat2 O_CREAT in the directory inherited as fd 5" '5<"$V"' \
		'new openat2
set flags O_WRONLY|O_CREAT
set mode 0644
call --unsafe openat2 dirfd=5 pathname=new.txt'
	for fd in 0 2; do
		attempt "$who" "openat2 O_TRUNC in the directory inherited as fd $fd" "$fd<\"\$V\"" \
			"new openat2
set flags O_RDWR|O_TRUNC
call --unsafe openat2 dirfd=$fd pathname=data.txt"
	done
	attempt "$who" "openat2 O_TRUNC in the directory inherited as fd 1" '1<"$V"' \
		'new openat2
set flags O_WRONLY|O_TRUNC
call --unsafe openat2 dirfd=1 pathname=data.txt'
	attempt "$who" "renameat a victim away within the directory of fd 5" '5<"$V"' \
		'call --unsafe renameat olddirfd=5 oldpath=data.txt newdirfd=5 newpath=moved.txt'
	attempt "$who" "renameat2 the sandbox's file over a victim in fd 5" '5<"$V"' \
		'call --unsafe renameat2 oldpath=file newdirfd=5 newpath=data.txt flags=0'
	attempt "$who" "file_setattr FS_XFLAG_IMMUTABLE on a victim in fd 5" '5<"$V"' \
		'new file_setattr
set fa_xflags FS_XFLAG_IMMUTABLE
call --unsafe file_setattr dirfd=5 pathname=data.txt'
	attempt "$who" "file_setattr FS_XFLAG_NODUMP (no privilege needed) on a victim in fd 5" '5<"$V"' \
		'new file_setattr
set fa_xflags FS_XFLAG_NODUMP
call --unsafe file_setattr dirfd=5 pathname=data.txt'
	attempt "$who" "file_setattr FS_XFLAG_APPEND|NODUMP on fd 1, xsc's own output file" '1>>"$V/out.txt"' \
		'new file_setattr
set fa_xflags FS_XFLAG_APPEND|FS_XFLAG_NODUMP
call --unsafe file_setattr dirfd=1 pathname="" at_flags=AT_EMPTY_PATH'
	attempt "$who" "setxattrat user.xsc on the file inherited as fd 3" '3<"$V/exe"' \
		'new setxattrat
set value "pwned"
set size 5
call --unsafe setxattrat dirfd=3 pathname="" at_flags=AT_EMPTY_PATH'
	attempt "$who" "setxattrat security.capability (CAP_SYS_ADMIN) on the file inherited as fd 3" '3<"$V/exe"' \
		"new setxattrat
set value \"\\x01\\x00\\x00\\x02\\x00\\x00\\x20\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\"
set size 20
call --unsafe setxattrat dirfd=3 pathname=\"\" at_flags=AT_EMPTY_PATH name='\"security.capability\"'"
	attempt "$who" "setxattrat user.xsc through the directory of fd 5" '5<"$V"' \
		'new setxattrat
set value "pwned"
set size 5
call --unsafe setxattrat dirfd=5 pathname=data.txt'
	attempt "$who" "setxattrat trusted.pwned on fd 1 (xsc's output file; /dev/null in a careless child)" '1>>"$V/out.txt"' \
		"new setxattrat
set value \"pwned\"
set size 5
call --unsafe setxattrat dirfd=1 pathname=\"\" at_flags=AT_EMPTY_PATH name='\"trusted.pwned\"'"
	attempt "$who" "ioctl FS_IOC_SETFLAGS (FS_NODUMP_FL) on the file inherited as fd 5" '5<"$V/data.txt"' \
		'new UFFDIO_API
set api 0x40
call --unsafe UFFDIO_API fd=5 request=0x40086602'
	attempt "$who" "mount_setattr MOUNT_ATTR_RDONLY on the directory inherited as fd 5" '5<"$V"' \
		'new mount_setattr
set attr_set MOUNT_ATTR_RDONLY
call --unsafe mount_setattr dirfd=5 pathname="" flags=AT_EMPTY_PATH'
	# paths
	attempt "$who" "openat2 O_TRUNC of data.txt from the victim directory as the current one" '' \
		'new openat2
set flags O_WRONLY|O_TRUNC
call openat2 pathname=data.txt'
	attempt "$who" "openat2 O_TRUNC by absolute path" '' \
		"new openat2
set flags O_WRONLY|O_TRUNC
call openat2 pathname=$V/data.txt"
	attempt "$who" "openat2 O_TRUNC through /proc/self/fd/5" '5<"$V"' \
		'new openat2
set flags O_WRONLY|O_TRUNC
call openat2 pathname=/proc/self/fd/5/data.txt'
	attempt "$who" "openat2 O_TRUNC by absolute path with the flags in a struct override" '' \
		"new openat2
call openat2 pathname=$V/data.txt how='\"\\x01\\x02\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\"'"
	attempt "$who" "renameat the sandbox's file over a victim by absolute path" '' \
		"call renameat oldpath=file newpath=$V/data.txt"
	attempt "$who" "setxattrat user.pwned by absolute path" '' \
		"new setxattrat
set value \"pwned\"
set size 5
call setxattrat pathname=$V/data.txt name='\"user.pwned\"'"
}

attempts root
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null && as nobody true 2>/dev/null; then
	attempts nobody
else
	echo "SKIP the attempts as uid 65534: not root, or setpriv cannot switch users here"
fi

# on a terminal (script(1)'s pty; --unsafe, as /dev/tty is a device outside the sandbox): the
# child has no controlling terminal to open, so none to type into (TIOCSTI) or to get
# signals from
if command -v script >/dev/null; then
	n=$((n + 1))
	script -qec "'$w/xsc' --data '$w/data' -c 'new openat2; call --unsafe openat2 pathname=/dev/tty'" /dev/null >"$w/out/log" 2>&1 </dev/null
	if grep -q 'ENXIO' "$w/out/log"; then
		echo "ok on a terminal: the child cannot open /dev/tty (ENXIO: no controlling terminal)"
	else
		echo "FAIL on a terminal: the child's /dev/tty:"
		sed 's/^/    /' "$w/out/log" | head -5
		fail=1
	fi
else
	echo "SKIP the controlling-terminal check: script (util-linux) is not installed"
fi

# clone3 (issue 23, item 13): a new process whose exit_signal is SIGKILL kills the caller,
# which is reported as that, not as a timeout; after CLONE_VM the buffer keeps no stack of
# xsc's, so the next call gets a fresh one
n=$((n + 1))
as root "$w/xsc" --data "$w/data" -c 'new clone3; set exit_signal SIGKILL; call clone3' >"$w/out/log" 2>&1
if grep -q 'signal 9.*clone3 returned [0-9]*, a new process.*(SIGKILL) to the caller' "$w/out/log" && ! grep -q 'did not return' "$w/out/log"; then
	echo "ok clone3 with exit_signal SIGKILL: $(grep -o 'clone3 returned.*' "$w/out/log")"
else
	echo "FAIL clone3 with exit_signal SIGKILL:"
	sed 's/^/    /' "$w/out/log" | head -5
	fail=1
fi
n=$((n + 1))
as root "$w/xsc" --data "$w/data" -c 'new clone3; set flags CLONE_VM|CLONE_VFORK; set exit_signal SIGCHLD; call clone3; call clone3; dump' >"$w/out/log" 2>&1
stacks=$(grep -c 'xsc supplied a 64 KiB stack' "$w/out/log")
if [ "$stacks" -eq 2 ] && grep -Eq '^ +40 +(00 ){8} +stack +0$' "$w/out/log" && grep -Eq '^ +48 +(00 ){8} +stack_size +0$' "$w/out/log"; then
	echo "ok clone3 with CLONE_VM: a fresh stack for each call, none left in the buffer"
else
	echo "FAIL clone3 with CLONE_VM: xsc's stack stayed in the buffer:"
	sed 's/^/    /' "$w/out/log" | head -20
	fail=1
fi

# a SIGKILLed xsc cannot remove its sandbox: the next run removes a sandbox whose owner is
# dead, and keeps one whose owner lives or that is another user's
sweep() { # WHO
	uid=0
	[ "$1" = root ] || uid=65534
	chown "$uid" "$w/sandboxes" "$w/out"
	i=0
	while [ $i -lt 30 ] && [ -z "$(ls -A "$w/sandboxes")" ]; do # a real one, killed in a call
		i=$((i + 1))
		yes 'call statx pathname=file' | head -n 2000 >"$w/out/many.xsc"
		rm -f "$w/out/pid"
		as "$1" sh -c 'echo $$ >"$1.tmp" && mv "$1.tmp" "$1" && exec "$2" --data "$3" "$4"' sh "$w/out/pid" \
			"$w/xsc" "$w/data" "$w/out/many.xsc" >/dev/null 2>&1 &
		sleep 0.3
		[ -s "$w/out/pid" ] && kill -9 "$(cat "$w/out/pid")"
		wait $! 2>/dev/null
	done
	dead=$(sh -c 'echo $$')
	mkdir "$w/sandboxes/xsc-sandbox-$dead-AbCdEf" "$w/sandboxes/xsc-sandbox-$$-AbCdEf" \
		"$w/sandboxes/xsc-sandbox-$dead-Other1"
	touch "$w/sandboxes/xsc-sandbox-$dead-AbCdEf/file"
	chown -R "$uid" "$w/sandboxes/xsc-sandbox-$dead-AbCdEf" "$w/sandboxes/xsc-sandbox-$$-AbCdEf"
	chown 1 "$w/sandboxes/xsc-sandbox-$dead-Other1"
	left=$(ls "$w/sandboxes" | grep -v -e "-$$-AbCdEf" -e "-Other1\$" | tr '\n' ' ')
	n=$((n + 1))
	as "$1" "$w/xsc" --data "$w/data" -c 'call statx pathname=file' >"$w/out/log" 2>&1
	got=$(ls "$w/sandboxes" | sort | tr '\n' ' ')
	want=$(printf '%s\n' "xsc-sandbox-$$-AbCdEf" "xsc-sandbox-$dead-Other1" | sort | tr '\n' ' ')
	if [ "$got" = "$want" ] && [ -n "$left" ]; then
		echo "ok sandboxes of dead owners removed as $1: $left"
	else
		echo "FAIL sandboxes of dead owners as $1: left before '$left', after '$got'"
		fail=1
	fi
	rm -rf "$w/sandboxes"/xsc-sandbox-*
}
sweep root
[ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null && as nobody true 2>/dev/null && sweep nobody

# a kernel without Landlock: writes through paths are refused without --unsafe, reads run
V=$w/victims-0
n=$((n + 1))
as root env XSC_TEST_NO_LANDLOCK=1 "$w/xsc" --data "$w/data" -c 'new openat2; set flags O_WRONLY|O_CREAT; call openat2 pathname=file' \
	>"$w/log" 2>"$w/err"
rc=$?
if [ $rc -ne 1 ] || ! grep -q 'no Landlock.*--unsafe' "$w/err"; then
	echo "FAIL without Landlock: a write through a path was not refused (exit $rc):"
	sed 's/^/    /' "$w/err" "$w/log" | head -5
	fail=1
else
	echo "ok without Landlock: $(cat "$w/err")"
fi
n=$((n + 1))
if ! as root env XSC_TEST_NO_LANDLOCK=1 "$w/xsc" --data "$w/data" -c 'new openat2; call openat2 pathname=file; expect ok' >"$w/log" 2>&1; then
	echo "FAIL without Landlock: a read-only openat2 was refused:"
	sed 's/^/    /' "$w/log" | head -5
	fail=1
fi
n=$((n + 1))
if ! as root env XSC_TEST_NO_LANDLOCK=1 "$w/xsc" --data "$w/data" -c 'new openat2; set flags O_WRONLY|O_CREAT; call --unsafe openat2 pathname=file; expect ok' >"$w/log" 2>&1; then
	echo "FAIL without Landlock: --unsafe did not allow a write inside the sandbox:"
	sed 's/^/    /' "$w/log" | head -5
	fail=1
fi
left=$(ls -A "$w/sandboxes")
[ -z "$left" ] || { echo "FAIL: sandboxes left behind: $left"; fail=1; }
echo "$n attempts"
exit $fail
