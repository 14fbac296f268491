# A whole lesson (2) driven by keystrokes in the real REPL under tmux, as a student in a room
# would type it: a typo, a line abandoned with ^C, a wrong size refused with what was seen,
# a correct answer other than the text's (size 63), then the progress kept across a restart.
set -u
if ! command -v tmux >/dev/null 2>&1; then
	echo "tmux is not installed"
	exit 77
fi
unset TMUX
export TMUX_TMPDIR=$PWD XDG_STATE_HOME=$PWD/state
sock=xsc-lesson-$$
T() { tmux -L "$sock" -f /dev/null "$@"; }
trap 'T kill-server >/dev/null 2>&1' EXIT INT TERM
fail=0
pane=pane.txt
. "$top/tests/lib.sh" # wait_for
keys() { T send-keys -t xsc "$@"; }
run() { T send-keys -t xsc -l "$1"; keys Enter; }
start() {
	T new-session -d -s xsc -x 160 -y 50 "$XSC --data $top/data" || { echo "FAIL: tmux cannot start"; exit 1; }
	wait_for '^xsc.*> *$' "the prompt"
}
clear() { keys C-l; sleep 0.2; }

start
run "lesson 2"
wait_for '^-- step 1 of 3: A new caller on an old kernel --$' "lesson 2's first step"
run "targt sim 5.6"
wait_for "did you mean 'target'" "a typo answered with a suggestion"
clear
run "target sim 5.6"
run "new clone3"
run "set cgroup 3"
run "call clone3"
wait_for 'step 1 passed: A new caller on an old kernel' "step 1 passed on the E2BIG"
wait_for '^-- step 2 of 3' "step 2 shown"
clear
run "unset cgroup"
T send-keys -t xsc -l "call clo"
keys C-c
wait_for 'call clo^C' "^C on a half-typed line"
clear
run "call clone3"
wait_for 'step 2 passed: Zero means nothing was asked' "step 2 passed"
clear
run "size 64"
run "call clone3"
wait_for "(step 3 not passed: the buffer's size is 64, wanted below 64)" "a wrong size refused with what was seen"
clear
run "size 63"
run "call clone3"
wait_for 'step 3 passed: Below the first version' "size 63 accepted"
wait_for '^lesson 2 complete: E2BIG above, EINVAL below$' "the lesson complete"
run "quit"
sleep 0.5
T kill-server >/dev/null 2>&1
start
run "lesson progress"
wait_for '^   2  E2BIG above, EINVAL below  *3 of 3 steps  done$' "the progress kept across a restart"
run "quit"
exit $fail
