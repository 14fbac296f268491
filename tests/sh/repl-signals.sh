# Signals, in the real REPL under tmux: ^C at the prompt drops the half-typed line and the REPL
# goes on; ^C during a call that blocks (openat2 of a FIFO nobody writes) kills the child,
# removes its sandbox and returns to the prompt with the buffers kept; the history file has
# every command as soon as it ran; SIGTERM ends the REPL with status 143, its temporary
# directories removed and the terminal as it was; SIGINT to a script ends it with status 130;
# a second SIGTERM during a long header parse ends xsc at once, its scratch copy removed; ^Z
# and ^\ at the prompt give the shell its terminal modes back; SIGINT stops a fetch at once.
set -u
. "$top/tests/lib.sh"
need tmux "tmux is not installed"
unset TMUX
d=$(mktemp -d)
sock=xsc-signals-$$
trap 'T kill-server >/dev/null 2>&1; rm -rf "$d"' EXIT INT TERM
export TMUX_TMPDIR=$d XDG_STATE_HOME=$d/state XSC_SANDBOX_DIR=$d/scratch
mkdir -p "$XSC_SANDBOX_DIR"
mkfifo "$d/fifo" || { echo "cannot make a FIFO"; exit 77; }
hist=$XDG_STATE_HOME/xsc/history
fail=0
pane=$d/pane.txt

# start [XSC ARGS]: xsc in a shell that records its exit status and the terminal's modes
# (written whole, then renamed: wait_status must not read the status before the modes)
start() {
	rm -f "$d/status"
	# a server whose last session was just killed may still be going away: try again
	for try in 1 2 3 4 5 0; do
		T new-session -d -s xsc -x 200 -y 50 \
			"\"$XSC\" --data \"$top/data\" --timeout 60000 $*; { echo \"exit \$?\"; stty -a; } >\"$d/status.tmp\"; mv \"$d/status.tmp\" \"$d/status\"; sleep 60" &&
			break
		[ $try = 0 ] && { echo "FAIL: tmux cannot start"; exit 1; }
		sleep 0.5
	done
	xsc_pid=
	i=0
	while [ -z "$xsc_pid" ] && [ $i -lt 100 ]; do
		xsc_pid=$(pgrep -P "$(T display -p -t xsc '#{pane_pid}')" 2>/dev/null | head -n 1)
		sleep 0.1
		i=$((i + 1))
	done
}
# wait_status WANT WHAT: the shell around xsc wrote "exit WANT"
wait_status() {
	i=0
	while [ ! -s "$d/status" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	if ! grep -qx "exit $1" "$d/status" 2>/dev/null; then
		echo "FAIL: $2: wanted exit $1, got: $(head -n 1 "$d/status" 2>/dev/null)"
		fail=1
	fi
}
keys() { T send-keys -t xsc "$@"; }
run() { T send-keys -t xsc -l "$1"; T send-keys -t xsc Enter; }
# a live call's child blocks in the FIFO's open; 1 when it never got there
wait_child() {
	i=0
	while [ $i -lt 100 ]; do
		pgrep -P "$xsc_pid" >/dev/null && [ -n "$(ls "$XSC_SANDBOX_DIR")" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}
nothing_left() {
	if pgrep -P "$xsc_pid" >/dev/null; then
		echo "FAIL: $1: a child of xsc is still there: $(pgrep -a -P "$xsc_pid")"
		fail=1
	fi
	if [ -n "$(ls "$XSC_SANDBOX_DIR")" ]; then
		echo "FAIL: $1: left in the scratch directory: $(ls "$XSC_SANDBOX_DIR")"
		fail=1
	fi
}
in_history() {
	grep -qxF -- "$1" "$hist" 2>/dev/null && return 0
	echo "FAIL: the history file lacks '$1':"
	sed 's/^/    | /' "$hist" 2>/dev/null
	fail=1
}

# ^C at the prompt: the line is dropped and a fresh prompt comes
start
wait_for '^xsc> *$' "the prompt"
T send-keys -t xsc -l "show open"
wait_for '^xsc> show open$' "the half-typed line"
keys C-c
wait_for '^xsc> show open^C$' "^C after the half-typed line"
run "new openat2"
wait_for '^open_how: struct open_how, 24 bytes' "a command after ^C (the line was cleared)"

# ^C during a call that blocks: the child is killed, the sandbox removed, the REPL goes on
# (--unsafe: opening a FIFO outside the sandbox would wake its writer; this one has none)
run "call --unsafe openat2 pathname=$d/fifo"
if ! wait_child; then
	[ $fail = 0 ] || exit 1 # the REPL is gone, not the kernel lacking openat2
	echo "openat2 of a FIFO did not block in a sandboxed child here"
	exit 77
fi
keys C-c
wait_for '^xsc: interrupted$' "^C during the call"
nothing_left "^C during the call"
run "buffers"
wait_for '^\* open_how  *struct open_how' "the buffer after ^C"
in_history "new openat2"
in_history "call --unsafe openat2 pathname=$d/fifo"
in_history "buffers"
! grep -q 'show open' "$hist" || { echo "FAIL: the line dropped by ^C is in the history"; fail=1; }

# SIGTERM during a call: 143, nothing left behind, the history kept, the terminal restored
run "call --unsafe openat2 dirfd=AT_FDCWD pathname=$d/fifo"
wait_child || { echo "FAIL: the second call did not block"; fail=1; }
kill -TERM "$xsc_pid"
wait_status 143 "SIGTERM during a call"
nothing_left "SIGTERM during a call"
in_history "call --unsafe openat2 dirfd=AT_FDCWD pathname=$d/fifo"
T kill-session -t xsc

# SIGTERM at the prompt with a half-typed line: readline's terminal modes are undone
start
wait_for '^xsc> *$' "the prompt after a restart"
T send-keys -t xsc -l "dump"
wait_for '^xsc> dump$' "a half-typed line"
kill -TERM "$xsc_pid"
wait_status 143 "SIGTERM at the prompt"
if ! grep -q '[; ]echo ' "$d/status" || ! grep -q '[; ]icanon ' "$d/status"; then
	echo "FAIL: the terminal is not back in its own modes after SIGTERM:"
	sed 's/^/    | /' "$d/status"
	fail=1
fi
T kill-session -t xsc

# SIGINT to a script: 130, nothing left behind
printf 'new openat2\ncall --unsafe openat2 pathname=%s/fifo\nbuffers\n' "$d" >"$d/block.xsc"
start "$d/block.xsc"
wait_child || { echo "FAIL: the script's call did not block"; fail=1; }
kill -INT "$xsc_pid"
wait_status 130 "SIGINT to a script"
nothing_left "SIGINT to a script"
wait_for "block.xsc:2: interrupted" "the script's message"
if grep -q '^\* open_how' "$pane"; then
	echo "FAIL: the script went on after SIGINT"
	fail=1
fi
T kill-session -t xsc

# SIGTERM twice while a long header parse runs (it does not wait on anything a signal ends):
# the second one does not wait for the parse; either way the scratch copy is gone
awk 'BEGIN { print "#include <linux/types.h>"; for (i = 0; i < 60000; i++) printf "struct s%d { __u64 a; __u32 b; };\n", i }' >"$d/big.h"
"$XSC" --data "$top/data" lint "$d/big.h" >/dev/null 2>&1 &
pid=$!
sleep 0.3
kill -TERM $pid
sleep 0.1
kill -TERM $pid 2>/dev/null
wait $pid
rc=$?
[ $rc -eq 143 ] || { echo "FAIL: two SIGTERMs during lint: exit $rc, not 143"; fail=1; }
[ -z "$(ls "$XSC_SANDBOX_DIR")" ] || { echo "FAIL: two SIGTERMs during lint left $(ls "$XSC_SANDBOX_DIR")"; fail=1; }

# ^Z at the prompt under a shell with job control: the shell gets its terminal modes back,
# and after fg the half-typed line is still there
if command -v bash >/dev/null 2>&1; then
	T new-session -d -s xsc -x 200 -y 50 "env PS1='sh\$ ' bash --norc --noprofile -i" ||
		{ echo "FAIL: tmux cannot start bash"; exit 1; }
	wait_for '^sh\$ *$' "bash's prompt"
	run "ulimit -c 0; \"$XSC\" --data \"$top/data\"" # ^\ below: no core file
	wait_for '^xsc> *$' "the prompt under bash"
	T send-keys -t xsc -l "new ope"
	wait_for '^xsc> new ope$' "a half-typed line under bash"
	keys C-z
	wait_for 'Stopped' "^Z at the prompt"
	run "stty -a | grep -o ' -*echo \| -*icanon ' | tr -d ' ' | tr '\n' ,; echo"
	wait_for '^icanon,echo,$' "the terminal's modes after ^Z"
	run "fg"
	wait_for '^xsc> new ope$' "the line after fg"
	T send-keys -t xsc -l "nat2"
	keys Enter
	wait_for '^open_how: struct open_how, 24 bytes' "the line completed after fg"
	# ^\ at the prompt: xsc quits, and the shell again has its modes
	keys C-l
	T send-keys -t xsc -l "dump"
	wait_for '^xsc> dump$' "a half-typed line before ^\\"
	keys 'C-\'
	wait_for '^Quit' "^\\ at the prompt"
	run "stty -a | grep -o ' -*echo \| -*icanon ' | tr -d ' ' | tr '\n' +; echo"
	wait_for '^icanon+echo+$' "the terminal's modes after ^\\"
	T kill-session -t xsc
fi

# SIGINT while a fetch waits on a server that never answers: 130 at once, not at the timeout
if command -v python3 >/dev/null 2>&1; then
	python3 -c '
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
open(sys.argv[1], "w").write(str(s.getsockname()[1])); c, _ = s.accept(); time.sleep(60)' "$d/port" &
srv=$!
i=0
while [ ! -s "$d/port" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
start lint "http://127.0.0.1:$(cat "$d/port")/x.h"
sleep 0.5
kill -INT "$xsc_pid"
wait_status 130 "SIGINT during a fetch"
wait_for '^xsc: interrupted$' "SIGINT during a fetch"
T kill-session -t xsc
kill $srv 2>/dev/null
fi
exit $fail
