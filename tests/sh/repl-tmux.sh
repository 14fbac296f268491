# Drives the real REPL in tmux: the prompt, TAB completion of commands, syscall, field and
# flag names (also after '|'), and history that persists across restarts.
set -u
. "$top/tests/lib.sh"
need tmux "tmux is not installed"
unset TMUX
export TMUX_TMPDIR=$PWD
sock=xsc-test-$$
trap 'T kill-server >/dev/null 2>&1' EXIT INT TERM
fail=0
pane=pane.txt

start() {
	T new-session -d -s xsc -x 200 -y 50 "$XSC --data $top/data" || { echo "FAIL: tmux cannot start"; exit 1; }
	wait_for '^xsc> *$' "the prompt"
}
keys() { T send-keys -t xsc "$@"; }
text() { T send-keys -t xsc -l "$1"; }
# a fresh line on a clear screen
reset_line() { keys C-u C-l; wait_for '^xsc> *$' "a clear line"; }
# complete TEXT WANT: type TEXT, TAB, then a marker '@' so a space added by the completion shows
complete() {
	text "$1"
	keys Tab
	text "@"
	wait_for "^xsc> $2@\$" "completing '$1'"
	reset_line
}

start
complete "sh" "show "
complete "show opena" "show openat2 "
complete "he" "help "
# two TABs list every candidate
text "show open"
keys Tab Tab
wait_for 'openat2' "the candidates for 'show open'" && wait_for 'open_tree_attr' "the candidates for 'show open'"
reset_line
# field names need a current buffer
text "new openat2"
keys Enter
wait_for '^open_how: struct open_how, 24 bytes' "new openat2"
reset_line
complete "set res" "set resolve "
complete "set resolve RESOLVE_NO_S" "set resolve RESOLVE_NO_SYMLINKS "
complete "set resolve RESOLVE_NO_XDEV|RESOLVE_BEN" "set resolve RESOLVE_NO_XDEV|RESOLVE_BENEATH "
complete "set flags O_CREAT|O_EX" "set flags O_CREAT|O_EXCL "
complete "size CLONE" "size CLONE"
complete "size OPEN_HOW" "size OPEN_HOW_SIZE_VER0 "
complete "expect fi" "expect field "
complete "use open" "use open_how "
complete "new openat2; set mo" "new openat2; set mode "
# run commands; an error does not end the REPL
text "set resolve RESOLVE_NO_XDEV|RESOLVE_BENEATH"
keys Enter
text "set bogus 1"
keys Enter
wait_for "^xsc: struct open_how has no field 'bogus'" "an error in the REPL"
text "dump"
keys Enter
wait_for 'resolve  *RESOLVE_NO_XDEV|RESOLVE_BENEATH$' "dump in the REPL"
reset_line
text "expect field resolve 9"
keys Enter
wait_for '^xsc> *$' "the prompt after expect"
# end of input (^D) leaves and saves the history
keys C-d
i=0
while T has-session -t xsc 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
if T has-session -t xsc 2>/dev/null; then
	echo "FAIL: ^D did not end the REPL"
	fail=1
	T kill-session -t xsc
fi
hist=$XDG_STATE_HOME/xsc/history
if ! grep -qx 'expect field resolve 9' "$hist" 2>/dev/null; then
	echo "FAIL: the history file $hist lacks the last command:"
	sed 's/^/    | /' "$hist" 2>/dev/null
	fail=1
fi

# a new REPL: Up recalls the previous session's commands; quit leaves
start
keys Up
wait_for '^xsc> expect field resolve 9$' "Up after a restart"
keys Up
wait_for '^xsc> dump$' "Up twice after a restart"
keys C-u
text "quit"
keys Enter
i=0
while T has-session -t xsc 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
if T has-session -t xsc 2>/dev/null; then
	echo "FAIL: quit did not end the REPL"
	fail=1
fi
! grep -qx 'quit' "$hist" || { echo "FAIL: quit is in the history"; fail=1; }
exit $fail
