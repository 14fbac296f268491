# No qemu outlives xsc: a guest started by 'target vm' is gone after 'target live', after
# 'quit', after ^C (SIGINT to a script, which ends it with 130), SIGTERM, SIGHUP and SIGKILL
# of xsc (PR_SET_PDEATHSIG), and nothing of a guest is left in the scratch directory, even
# after SIGKILL. Each case boots a 5.10 guest (the quickest), two at a time.
set -u
. "$top/tests/lib.sh"
vm_need 5.10
export XSC_SANDBOX_DIR=$PWD/scratch
mkdir -m 700 scratch
qemu_of() { # XSC-PID: its qemu child, if any
	for p in $(pgrep -P "$1" 2>/dev/null); do
		case $(cat /proc/$p/comm 2>/dev/null) in qemu-system-x86*) echo "$p" ;; esac
	done
}
gone() { # PID WHAT
	i=0
	while kill -0 "$1" 2>/dev/null && [ "$(cut -d' ' -f3 /proc/$1/stat 2>/dev/null)" != Z ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 "$1" 2>/dev/null && [ "$(cut -d' ' -f3 /proc/$1/stat 2>/dev/null)" != Z ]; then
		echo "FAIL $2: qemu $1 is still running" | tee -a failed
		kill -9 "$1"
		return 1
	fi
}
case_() { # NAME HOW: boots a guest in an xsc reading commands from a FIFO, then ends it by HOW
	name=$1 how=$2
	mkfifo "$name.fifo"
	: >"$name.out"
	$XSC --data "$top/data" <"$name.fifo" >"$name.out" 2>&1 &
	x=$!
	exec 9>"$name.fifo"
	printf 'target vm 5.10\nnew openat2\ncall openat2\n' >&9
	i=0
	while ! grep -q 'returned' "$name.out" && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	q=$(qemu_of $x)
	if [ -z "$q" ]; then
		echo "FAIL $name: no guest came up" | tee -a failed
		sed 's/^/    /' "$name.out"
		exec 9>&-
		kill -9 $x
		return 1
	fi
	case $how in
	live) printf 'target live\n' >&9; gone "$q" "$name"; printf 'quit\n' >&9 ;;
	quit) printf 'quit\n' >&9 ;;
	INT | TERM | HUP | KILL) kill -$how $x ;;
	esac
	exec 9>&-
	wait $x
	gone "$q" "$name"
}
case_ live live & case_ quit quit & wait
case_ int INT & case_ term TERM & wait
case_ hup HUP & case_ kill KILL & wait
left=$(ls scratch)
[ -z "$left" ] || echo "FAIL: left in the scratch directory: $left" | tee -a failed
[ ! -e failed ]
