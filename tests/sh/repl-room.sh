# The REPL as a room meets it (issue 28), driven by keystrokes in tmux on a projector's 80x24
# screen: the banner, a prompt naming the target, TAB completion of call's ARG= names, doc's
# pages, kernel versions and options, long output through the pager (less -FRX), and dump
# rows wrapped at 80 columns without cutting a word.
set -u
. "$top/tests/lib.sh"
need tmux "tmux is not installed"
need less "less is not installed (the default pager)"
unset TMUX PAGER LESS
export TMUX_TMPDIR=$PWD
sock=xsc-room-$$
trap 'T kill-server >/dev/null 2>&1' EXIT INT TERM
fail=0
pane=pane.txt

keys() { T send-keys -t xsc "$@"; }
text() { T send-keys -t xsc -l "$1"; }
# PROMPT is the prompt's regex; a fresh line on a clear screen
PROMPT='xsc>'
reset_line() { keys C-u C-l; wait_for "^$PROMPT *\$" "a clear line"; }
# complete TEXT WANT: type TEXT, TAB, then a marker '@' so a space added by the completion shows
complete() {
	text "$1"
	keys Tab
	text "@"
	wait_for "^$PROMPT $2@\$" "completing '$1'"
	reset_line
}

T new-session -d -s xsc -x 80 -y 24 "$XSC --data $top/data" || { echo "FAIL: tmux cannot start"; exit 1; }
wait_for "^xsc [0-9.]*, Linux $(uname -r | cut -c1-30 | sed 's/[.[*^$]/\\&/g'), target live; type help, lesson or quit\$" "the banner, on one line"
wait_for '^xsc> *$' "the prompt"

# options and literal words come from the command table's synopses
complete "target s" "target sim "
complete "target sim 6.1" "target sim 6.1"
complete "target sim 5." "target sim 5."
complete "matrix clone3 --form" "matrix clone3 --format="
complete "doc size-and" "doc size-and-versions "
complete "doc 02-e2" "doc 02-e2big-and-einval "
complete "call clone3 --un" "call clone3 --unsafe "
# call's ARG= names: no space after '=', then the argument's own flags
complete "call openat2 dir" "call openat2 dirfd="
complete "call mount_setattr at" "call mount_setattr attr="
complete "call mount_setattr attr=NU" "call mount_setattr attr=NULL "
complete "call openat2 how=NU" "call openat2 how=NULL "

# the prompt names a simulated kernel; the target survives errors
text "target sim 5.4"
keys Enter
PROMPT='xsc\[sim 5\.4\]>'
wait_for "^$PROMPT *\$" "the prompt of a simulated 5.4"
reset_line

# a long page goes through the pager: less waits with its ':' prompt, q gives the prompt back
text "show clone3"
keys Enter
wait_for '^:' "less's prompt after a long 'show clone3'"
keys q
wait_for "^$PROMPT *\$" "the prompt after leaving the pager"
reset_line

# dump at 80 columns: a long flag list continues under VALUE, broken after '|'
text "new openat2; set flags O_RDWR|O_CREAT|O_EXCL|O_NOCTTY|O_TRUNC|O_APPEND|O_NONBLOCK|O_DSYNC; dump"
keys Enter
wait_for '^      0  c2 1f 00 00 00 00 00 00  flags                  O_RDWR|O_CREAT|O_EXCL|$' "the first line of a wrapped row"
wait_for '^                                                         O_NOCTTY|O_TRUNC|$' "the row continued under VALUE"
T capture-pane -p -t xsc >"$pane"
if awk 'length($0) > 80' "$pane" | grep -q .; then
	echo "FAIL: a line is wider than 80 columns:"
	awk 'length($0) > 80' "$pane"
	fail=1
fi
reset_line

# a decimal mode is said to be decimal
text "set mode 644"
keys Enter
wait_for '^mode: 644 is decimal, 01204 in octal; a mode is octal: did you mean 0644?$' "the decimal mode warning"
text "quit"
keys Enter
i=0
while T has-session -t xsc 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
if T has-session -t xsc 2>/dev/null; then
	echo "FAIL: quit did not end the REPL"
	fail=1
fi
! grep -qx 'quit' "$XDG_STATE_HOME/xsc/history" || { echo "FAIL: quit is in the history"; fail=1; }

# --no-pager: the same page goes straight to the terminal
T new-session -d -s xsc -x 80 -y 24 "$XSC --data $top/data --no-pager" || { echo "FAIL: tmux cannot start"; exit 1; }
PROMPT='xsc>'
wait_for '^xsc> *$' "the prompt with --no-pager"
text "show clone3"
keys Enter
wait_for '^xsc> *$' "the prompt right after 'show clone3' with --no-pager"
exit $fail
