# One-shot commands, -c, stdin, script files, exit codes and colour.
set -u
fail=0
D="--data $top/data"
t() { # EXPECTED-EXIT DESCRIPTION COMMAND...
	want=$1 what=$2
	shift 2
	"$@" >out 2>err </dev/null
	rc=$?
	if [ "$rc" != "$want" ]; then
		echo "FAIL $what: exit $rc, expected $want"
		sed 's/^/    /' out err | head -10
		fail=1
	fi
}
has() { # FILE PATTERN DESCRIPTION
	grep -q -- "$2" "$1" || { echo "FAIL $3: no '$2' in $1:"; sed 's/^/    /' "$1" | head -10; fail=1; }
}
hasnt() {
	! grep -q -- "$2" "$1" || { echo "FAIL $3: unexpected '$2' in $1"; fail=1; }
}

# one-shot commands, like git or bpftool
t 0 "list" $XSC $D list
has out '^openat2 .* 437 .*extensible .*open_how .*24$' "list"
[ -s err ] && { echo "FAIL list: stderr not empty"; fail=1; }
t 0 "show openat2" $XSC $D show openat2
has out '^openat2 — ' "show openat2"
has out 'OPEN_HOW_SIZE_VER0 *24' "show openat2"
t 0 "show --json" $XSC $D show openat2 --json
has out '"size_arg": "size"' "show --json"
t 0 "global --json" $XSC $D --json list
has out '^\[' "global --json"
t 1 "show unknown" $XSC $D show openat3
has err "^xsc: no syscall, struct or flag set named 'openat3' (did you mean 'openat2'?)$" "show unknown"
t 1 "one-shot set without a buffer" $XSC $D set flags 1
has err "^xsc: no current buffer" "one-shot set"
t 2 "one-shot usage" $XSC $D show
has err '^xsc: usage: show \[syscall|struct|flagset\] NAME' "one-shot usage"
t 2 "unknown command" $XSC $D frobnicate
has err "^xsc: usage: unknown command 'frobnicate'" "unknown command"
# verbs go through one table walk: an unknown one is a usage error with the nearest verb, or
# naming them all; a verb takes no more words than it says
t 2 "lesson's unknown verb" $XSC $D lesson stpo
has err "^xsc: usage: lesson: unknown verb 'stpo' (did you mean 'stop'?)$" "lesson's unknown verb"
t 2 "lesson's word far from every verb" $XSC $D lesson abc
has err "^xsc: usage: lesson: unknown verb 'abc' (stop, progress, resume)$" "lesson abc"
t 2 "lesson stop with a word after" $XSC $D lesson stop 2
has err '^xsc: usage: lesson \[N' "lesson stop 2"
t 2 "lesson's N out of range" $XSC $D lesson 0
has err "^xsc: usage: lesson: N is a number from 1 to" "lesson 0"
t 2 "kernels' unknown verb" $XSC $D kernels fecth
has err "^xsc: usage: kernels: unknown verb 'fecth' (did you mean 'fetch'?)$" "kernels fecth"
t 2 "expect's unknown assertion" $XSC $D expect oj
has err "^xsc: usage: expect: unknown assertion 'oj' (did you mean 'ok'?)$" "expect oj"
t 2 "transcript off with a word after" $XSC $D transcript off x
has err '^xsc: usage: transcript \[FILE.md' "transcript off x"
t 2 "transcript off --force" $XSC $D transcript off --force
[ -e off ] && { echo "FAIL transcript off --force wrote a file 'off'"; fail=1; }
t 0 "help" $XSC $D help
has out '^  expect ' "help"
t 0 "--help" $XSC --help
has out '^usage: xsc ' "--help"
t 0 "--version" $XSC --version
has out '^xsc [0-9]' "--version"
# XSC_DATA is the default catalogue directory; --data wins over it
XSC_DATA=$top/data $XSC show clone3 >out 2>err || { echo "FAIL XSC_DATA"; fail=1; }
has out '^clone3 — ' "XSC_DATA"
XSC_DATA=/nonexistent $XSC $D show clone3 >out 2>err || { echo "FAIL --data over XSC_DATA"; fail=1; }
t 1 "missing catalogue" $XSC --data /nonexistent list
has err "^xsc: cannot read the catalogue directory '/nonexistent'" "missing catalogue"

# -c: commands separated by ';'
t 0 "-c" $XSC $D -c 'new openat2; set flags O_RDWR; expect field flags 2; dump'
has out 'flags  *O_RDWR$' "-c"
t 1 "-c failing" $XSC $D -c 'new openat2; expect size 32; dump'
has err '^xsc: expectation failed: size is 24, expected 32$' "-c failing"
hasnt out 'OFF' "-c stops at the failure"
t 1 "-c --keep-going" $XSC $D --keep-going -c 'new openat2; expect size 32; dump'
has out 'OFF' "-c --keep-going runs on"
t 2 "-c usage" $XSC $D -c 'new openat2; list extra; dump'
t 2 "-c without argument" $XSC $D -c
t 2 "-c with extra arguments" $XSC $D -c list extra
t 0 "-c quit" $XSC $D -c 'quit; frobnicate'

# commands on standard input (not a terminal): no prompt, <stdin>:LINE: on errors
printf 'new openat2\nset flags O_CREAT\nexpect field flags O_CREAT\n' | $XSC $D >out 2>err
rc=$?
[ $rc = 0 ] || { echo "FAIL stdin: exit $rc"; fail=1; }
hasnt out 'xsc>' "stdin has no prompt"
printf 'new openat2\n\nset nosuch 1\ndump\n' | $XSC $D >out 2>err
rc=$?
[ $rc = 1 ] || { echo "FAIL stdin error: exit $rc"; fail=1; }
has err "^<stdin>:3: struct open_how has no field 'nosuch'$" "stdin error"
hasnt out 'OFF' "stdin stops at the failure"
printf 'new openat2\ndmup\n' | $XSC $D >out 2>err
[ $? = 2 ] || { echo "FAIL stdin usage error: not exit 2"; fail=1; }
echo list | $XSC $D >out 2>err || { echo "FAIL echo list"; fail=1; }
has out '^clone3 ' "echo list"
printf 'new openat2\nset flags 1\000\ndump\n' | $XSC $D >out 2>err
[ $? = 1 ] || { echo "FAIL NUL byte on stdin: not exit 1"; fail=1; }
has err '^<stdin>:2: line contains a NUL byte$' "NUL byte on stdin"

# a script file argument
printf '# a script\nnew clone3\nsize VER1\nexpect size 80\n' >ok.xsc
t 0 "script" $XSC $D ok.xsc
has out '^size 80 (CLONE_ARGS_SIZE_VER1)$' "script"
printf 'new clone3\nsize VER1\nexpect size 88\nsize VER0\n' >bad.xsc
t 1 "failing script" $XSC $D bad.xsc
has err '^bad.xsc:3: expectation failed: size is 80, expected 88$' "failing script"
hasnt out 'VER0' "failing script stops"
t 1 "failing script --keep-going" $XSC $D --keep-going bad.xsc
has out 'CLONE_ARGS_SIZE_VER0' "--keep-going runs on"
t 2 "script with arguments" $XSC $D ok.xsc extra
t 2 "unknown option" $XSC $D --bogus list
has err "^xsc: usage: unknown option '--bogus'" "unknown option"

# colour: --color=bad is a usage error; always gives escapes unless NO_COLOR is set
t 2 "--color=bad" $XSC $D --color=bad list
has err "^xsc: usage: --color takes auto, always or never, not 'bad'$" "--color=bad"
esc=$(printf '\033')
(unset NO_COLOR; $XSC $D --color=always list) >out 2>err
has out "$esc\[" "--color=always without NO_COLOR"
(unset NO_COLOR; $XSC $D --color=always -c 'new openat2; size +8; poke 30 1; dump') >out 2>err
has out "$esc\[1;31m" "--color=always marks the nonzero tail"
NO_COLOR=1 $XSC $D --color=always list >out 2>err
hasnt out "$esc" "NO_COLOR=1 with --color=always"
(unset NO_COLOR; $XSC $D --color=auto list) >out 2>err
hasnt out "$esc" "--color=auto into a file"
(unset NO_COLOR; $XSC $D --color=never list) >out 2>err
hasnt out "$esc" "--color=never"
(unset NO_COLOR; $XSC $D --color=always --json list) >out 2>err
hasnt out "$esc" "--json never has colour"

# a write error on stdout is reported, exit 1
if [ -w /dev/full ]; then
	$XSC $D list >/dev/full 2>err
	rc=$?
	[ $rc = 1 ] || { echo "FAIL write to /dev/full: exit $rc"; fail=1; }
	has err '^xsc: cannot write the output' "write to /dev/full"
fi
# every page 'help doc' names as an example exists ('struct rseq' is two words)
$XSC $D help doc >helpdoc 2>&1
for page in $(grep -o "'[a-z0-9-]*'" helpdoc | tr -d "'"); do
	t 0 "doc $page, named by 'help doc'" $XSC $D doc "$page"
done
grep -q "'size-and-versions'" helpdoc || { echo "FAIL help doc names no guide page"; fail=1; }
exit $fail
