# Leak census of live calls (DESIGN §7: "afterwards no process, file, mount or fd of the call
# remains"). One xsc process reads commands from a FIFO and makes 1,000 mixed live calls
# (openat2 creating a file in its sandbox, clone3, mount_setattr in its private namespaces,
# statx, renameat2, PIDFD_GET_INFO). Between batches the test looks at xsc from outside:
# its open fds (/proc/PID/fd), its children (no process or zombie left), the sandbox base
# directory ($XSC_SANDBOX_DIR, empty again) and this test's mount table (unchanged).
set -u
if [ "$(uname -s)" != Linux ] || [ ! -d /proc/self/fd ]; then
	echo "the leak census needs Linux and /proc"
	exit 77
fi
fail=0
CALLS=1000
mkdir sandboxes
export XSC_SANDBOX_DIR=$PWD/sandboxes
mkfifo cmds
sort /proc/self/mountinfo >mounts.before

$XSC --data "$top/data" --keep-going <cmds >xsc.log 2>&1 &
pid=$!
exec 9>cmds # the writer end; xsc sees end of input when it is closed
stop() {
	exec 9>&-
	i=0
	while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	kill -0 "$pid" 2>/dev/null && { kill -9 "$pid"; echo "FAIL: xsc did not exit at end of input"; fail=1; }
	wait "$pid" 2>/dev/null
}
trap 'exec 9>&-; kill -9 $pid 2>/dev/null' EXIT INT TERM

# idle: xsc has consumed every command written so far and waits in read(0) (x86_64 read = 0,
# aarch64 = 63); a call in flight shows poll/wait instead. xsc is stuck when its output has not
# grown for 20 s (a slow machine or a sanitizer build only takes longer; 10 min at most).
idle() {
	i=0 n=0 size=-1
	while [ $i -lt 400 ] && [ $n -lt 12000 ]; do
		kill -0 "$pid" 2>/dev/null || { echo "FAIL: xsc exited early:"; tail -n 20 xsc.log | cut -c1-300; exit 1; }
		read -r nr fd rest </proc/$pid/syscall 2>/dev/null
		case "$nr $fd" in "0 0x0" | "63 0x0") [ -z "$(ps -o pid= --ppid "$pid")" ] && return 0 ;; esac
		now=$(stat -c %s xsc.log)
		if [ "$now" != "$size" ]; then size=$now i=0; else i=$((i + 1)); fi
		sleep 0.05
		n=$((n + 1))
	done
	echo "FAIL: xsc did not become idle (output unchanged for $((i / 20)) s); last lines:"
	tail -n 20 xsc.log | cut -c1-300
	exit 1
}
census() { # WHAT: one line describing xsc's fds
	ls -l /proc/$pid/fd | sed -n 's/.* \([0-9]*\) -> \(.*\)/\1 \2/p' | sort -n >"fds.$1"
}

# the buffers, and one call of each kind to warm up (stdio, catalogue, first-call setup)
cat >&9 <<'CMDS'
new openat2 as o
set flags O_CREAT|O_WRONLY|O_CLOEXEC
set mode 0600
new clone3 as c
set exit_signal SIGCHLD
new mount_setattr as m
set attr_set MOUNT_ATTR_RDONLY
new PIDFD_GET_INFO as p
new statx as x
use o
call openat2 pathname=created
use c
call clone3
use m
call mount_setattr
use x
call statx
call renameat2
use p
call PIDFD_GET_INFO
CMDS
idle
census before
t0=$(date +%s%N)
i=0
while [ $i -lt $CALLS ]; do
	case $((i % 6)) in
	0) printf 'use o\ncall openat2 pathname=created\n' ;;
	1) printf 'use c\ncall clone3\n' ;;
	2) printf 'use m\ncall mount_setattr\n' ;;
	3) printf 'use x\ncall statx\n' ;;
	4) printf 'call renameat2\n' ;;
	5) printf 'use p\ncall PIDFD_GET_INFO\n' ;;
	esac
	i=$((i + 1))
done >&9
idle
t1=$(date +%s%N)
census after
echo "$CALLS calls in $(((t1 - t0) / 1000000)) ms"

# every call ran and answered (no setup failure, timeout or crash)
n=$(grep -c '^  returned ' xsc.log)
want=$((CALLS + 6))
if [ "$n" -ne "$want" ]; then
	echo "FAIL: $n calls returned successfully, expected $want; other outcomes:"
	grep -v '^  \|^[a-z_0-9]*(\|^ioctl(' xsc.log | sort | uniq -c | sort -rn | head -n 10
	fail=1
fi
if grep -q '^  error \|timed out\|killed by\|setup' xsc.log; then
	echo "FAIL: some calls failed:"
	grep '^  error \|timed out\|killed by\|setup' xsc.log | sort | uniq -c | head
	fail=1
fi
# fds: the same set before and after
if ! diff fds.before fds.after >fds.diff; then
	echo "FAIL: xsc's descriptors changed over $CALLS calls:"
	sed 's/^/    /' fds.diff | head -n 20
	fail=1
fi
echo "fds: $(wc -l <fds.before) before, $(wc -l <fds.after) after:" $(cut -d" " -f2- fds.after)
# processes: no child, running or zombie
kids=$(ps -o pid=,stat=,comm= --ppid "$pid")
if [ -n "$kids" ]; then
	echo "FAIL: xsc still has children:"
	echo "$kids"
	fail=1
fi
# sandboxes: all removed
left=$(ls -A sandboxes)
if [ -n "$left" ]; then
	echo "FAIL: $(echo "$left" | wc -l) entries left in \$XSC_SANDBOX_DIR, e.g.:"
	echo "$left" | head -n 5
	fail=1
fi
stop
# mounts: the test's mount table is what it was
sort /proc/self/mountinfo >mounts.after
if ! diff mounts.before mounts.after >mounts.diff; then
	echo "FAIL: the mount table changed:"
	sed 's/^/    /' mounts.diff | head -n 20
	fail=1
fi
ls -A sandboxes | grep -q . && { echo "FAIL: sandboxes left after exit"; fail=1; }
exit $fail
