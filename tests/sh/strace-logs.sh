# explain FILE reads whole strace logs (issue 30): every call of the catalogue in the stored
# logs of tests/fixtures/strace/logs is explained (pid and time columns, -T, -y/-yy, -X raw and
# verbose, -v, <unfinished ...> joined with its resumed line, = ? <unavailable>, vfork(),
# clone's named arguments, S_IF* modes, hex sizes, strace's ...); then, where strace can
# trace, real programs are traced now (a thread's clone3, fork and vfork from shells,
# posix_spawn, stat, ls -l, python3's rseq, chrt -p's sched_getattr, mv's renameat2, a bind
# mount in a private mount namespace) and each whole log is explained, every call of it.
set -u
. "$top/tests/lib.sh"
fail=0
check_log() { # FILE WHAT
	"$XSC" --data "$top/data" explain "$1" >out.txt 2>&1
	rc=$?
	sum=$(grep '^explain: ' out.txt)
	calls=$(echo "$sum" | sed -n 's/.*: \([0-9]*\) calls of the catalogue, \([0-9]*\) explained.*/\1 \2/p')
	set -- "$1" "$2" $calls
	echo "$2: $sum"
	if [ "$rc" != 0 ] || [ -z "${3:-}" ] || [ "$3" != "$4" ] || [ "$3" = 0 ]; then
		grep -B2 'xsc:' out.txt | head -20
		fail=1
	fi
}
for f in "$top"/tests/fixtures/strace/logs/*.log; do
	check_log "$f" "stored $(basename "$f")"
done
# the log read from standard input too
"$XSC" --data "$top/data" explain - <"$top/tests/fixtures/strace/logs/forms.log" >out.txt 2>&1 &&
	grep -q ' 6 calls of the catalogue, 6 explained' out.txt || { echo "explain - did not read the log"; fail=1; }

if ! command -v strace >/dev/null 2>&1 || ! strace -qq -e trace=none true 2>/dev/null; then
	echo "no strace that can trace here: the live logs are left out"
	exit $fail
fi
N=clone,clone3,fork,vfork,statx,rseq,sched_getattr,sched_setattr,renameat2,openat2,mount_setattr
P=$(command -v python3)
trace() { # NAME OPTIONS... -- COMMAND...
	name=$1; shift
	strace -f -o "$name.log" -e trace=$N "$@" >/dev/null 2>&1
	check_log "$name.log" "live $name"
}
touch a
trace thread "$P" -c 'import threading; t = threading.Thread(target=lambda: 0); t.start(); t.join()'
trace spawn "$P" -c 'import os; os.posix_spawn("/bin/true", ["true"], {}); os.wait()'
trace shell -tt -T -y sh -c 'ls / >/dev/null; (true); echo x | cat >/dev/null'
trace stat -v -X verbose sh -c 'stat /etc/hostname >/dev/null; ls -l / >/dev/null'
trace mv -ttt -X raw mv a b
trace chrt -r chrt -p $$
if command -v unshare >/dev/null 2>&1 && unshare -m true 2>/dev/null; then
	mkdir -p m1 m2
	trace bind unshare -m sh -c "mount --bind $PWD/m1 $PWD/m2 && umount $PWD/m2"
fi
exit $fail
