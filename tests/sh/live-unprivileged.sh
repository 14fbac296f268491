# Live calls as an unprivileged user (uid/gid 65534, no groups, via setpriv): the size
# batteries of openat2, clone3, sched_setattr and landlock_create_ruleset must give the same
# answers as for root; mount_setattr needs xsc's private user namespace, so where
# unprivileged user namespaces are off it may fail to set up or get EPERM/EACCES, but xsc
# must not crash: it exits 0 with the error reported as the call's answer.
set -u
. "$top/tests/lib.sh"
need_linux "live calls need Linux"
if [ "$(id -u)" -ne 0 ]; then
	echo "needs root to switch to uid 65534"
	exit 77
fi
need setpriv "setpriv (util-linux) is not installed"
fail=0
# A world-readable copy of the binary, the catalogue and the scripts: the test's own
# directory (and perhaps the source tree) is not open to uid 65534.
w=$(mktemp -d /tmp/xsc-unpriv.XXXXXX) || exit 1
trap 'rm -rf "$w"' EXIT INT TERM
chmod 755 "$w"
mkdir "$w/data" "$w/live" "$w/home" "$w/sandboxes" "$w/out"
cp "$XSC" "$w/xsc" && cp "$top"/data/*.json "$w/data/" && cp "$top"/tests/live/*.xsc "$w/live/" || exit 1
chmod -R a+rX "$w"
chown 65534:65534 "$w/home" "$w/sandboxes" "$w/out"
# at nice 0: the sched_setattr battery asks for nice 0, which a process niced by whoever ran
# the tests may not do without CAP_SYS_NICE (EPERM)
nobody() {
	( cd "$w/out" && nice -n "$((-$(nice)))" env -i PATH=/usr/bin:/bin HOME="$w/home" XSC_SANDBOX_DIR="$w/sandboxes" NO_COLOR=1 LC_ALL=C \
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@" )
}
if ! nobody true; then
	echo "setpriv cannot switch to uid 65534 here"
	exit 77
fi
nobody sh -c 'test "$(id -u)" = 65534 && test -x ../xsc && test -r ../data/openat2.json' || {
	echo "FAIL: uid 65534 cannot read the copied binary and catalogue"
	exit 1
}

run() { # SCRIPT: exit status of the battery as uid 65534, log in $w/out/SCRIPT.log
	nobody sh -c "timeout 60 ../xsc --data ../data ../live/$1.xsc >$1.log 2>&1 </dev/null"
}
for s in openat2 clone3 sched_setattr landlock_create_ruleset; do
	if nobody ../xsc --data ../data -c "call $s" 2>&1 | grep -q '= -1 ENOSYS'; then
		echo "SKIP $s: ENOSYS on this kernel"
		continue
	fi
	if run "$s"; then
		echo "ok $s as uid 65534 ($(grep -c '^  returned\|^  error' "$w/out/$s.log") calls)"
	else
		echo "FAIL $s as uid 65534; the log (long lines cut):"
		cut -c1-300 "$w/out/$s.log" | tail -n 30 | sed 's/^/    | /'
		fail=1
	fi
done

# mount_setattr: the whole battery when this user can have a user namespace
if nobody sh -c 'command -v unshare >/dev/null && unshare -Ur true' 2>/dev/null; then
	if run mount_setattr; then
		echo "ok mount_setattr as uid 65534 (user namespaces allowed)"
	else
		echo "FAIL mount_setattr as uid 65534 with user namespaces allowed; the log:"
		cut -c1-300 "$w/out/mount_setattr.log" | tail -n 30 | sed 's/^/    | /'
		fail=1
	fi
else
	# no user namespace: one call; the refusal is the answer, not a crash or a failed command
	nobody ../xsc --data ../data -c 'new mount_setattr; set attr_set MOUNT_ATTR_RDONLY; call mount_setattr' \
		>"$w/out/mount_setattr.log" 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAIL mount_setattr without user namespaces: exit $rc (expected 0, the error as the answer):"
		sed 's/^/    | /' "$w/out/mount_setattr.log"
		fail=1
	elif ! grep -q 'EPERM\|EACCES\|ENOSPC\|EINVAL\|setup\|namespace' "$w/out/mount_setattr.log"; then
		echo "FAIL mount_setattr without user namespaces: no error reported:"
		sed 's/^/    | /' "$w/out/mount_setattr.log"
		fail=1
	else
		echo "ok mount_setattr as uid 65534: refused as expected ($(grep -m1 'error\|setup' "$w/out/mount_setattr.log"))"
	fi
fi
# nothing of the calls is left behind
left=$(ls -A "$w/sandboxes")
[ -z "$left" ] || { echo "FAIL: sandboxes left behind: $left"; fail=1; }
exit $fail
