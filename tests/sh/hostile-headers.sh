# Hostile headers for lint, import and diff: includes of devices, FIFOs, sockets, /proc and
# /sys files (directly, relatively, through a link, a splice or a local header; by a
# digraph, after a BOM or a carriage return, by __has_include or a dependency pragma), a file name
# made by a macro, an exponential macro bomb, includes nested too deep or in a cycle, a 50 MB
# header; then SIGINT, SIGTERM and SIGKILL of xsc during a parse. Each must end in one
# clear error within a bounded time and memory, and leave nothing in the scratch directory
# or $TMPDIR (both private to this test). Also: a correct header still parses.
set -u
. "$top/tests/lib.sh"
need python3
"$XSC" lint "$top/tests/headers/lint/hole.h" >/dev/null 2>&1
[ $? -eq 1 ] || { echo "libclang is not usable here"; exit 77; }
mkdir -p scratch tmp
export XSC_SANDBOX_DIR=$PWD/scratch TMPDIR=$PWD/tmp
TIME=
[ -x /usr/bin/time ] && TIME="/usr/bin/time -f %e:%M -o time.txt"
fail=0 n=0
no() { echo "FAIL $1"; fail=1; }
clean() { # NAME: nothing left behind
	left=$(ls -A scratch; ls -A tmp)
	[ -z "$left" ] || { no "$1: left $(echo $left)"; rm -rf scratch/* tmp/*; }
}
# hostile NAME PATTERN FILE [XSC ARGS]: lint FILE must fail with one error matching PATTERN
# within 90 s and 1.25 GiB (the parse's limit is 1 GiB of address space)
hostile() {
	name=$1 pat=$2 file=$3; shift 3
	n=$((n + 1))
	$TIME timeout 90 "$XSC" lint "$@" "$file" >out.txt 2>err.txt </dev/null
	rc=$?
	[ $rc -eq 1 ] || no "$name: exit $rc, want 1: $(head -c 300 err.txt)"
	cat err.txt out.txt >all.txt # lint's findings go to stdout
	grep -Eq -- "$pat" all.txt || no "$name: '$(head -c 300 all.txt)' lacks '$pat'"
	[ "$(grep -vc '^xsc: lint:' err.txt)" -le 1 ] || no "$name: more than one error: $(cat err.txt)"
	if [ -n "$TIME" ] && [ -s time.txt ]; then
		t=$(tail -1 time.txt)
		kb=${t#*:}
		[ "$kb" -le 1310720 ] || no "$name: $kb KiB resident"
		echo "ok $name: ${t%%:*} s, $kb KiB"
	fi
	clean "$name"
}
refused='refused: .* is (a character device|a FIFO|a socket|in /proc|in /sys|in /dev)'
printf '#include "/dev/zero"\nstruct a { int x; };\n' >zero.h
hostile "/dev/zero" "#include \"/dev/zero\" refused: '/dev/zero' is a character device" zero.h
printf '#include </dev/urandom>\n' >urandom.h
hostile "/dev/urandom" "$refused" urandom.h
printf '#include "/dev/stdin"\n' >stdin.h
hostile "/dev/stdin" "$refused" stdin.h
mkfifo fifo.h.in
printf '#include "fifo.h.in"\n' >fifo.h
hostile "a FIFO" "is a FIFO" fifo.h
python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind("sock.in")'
printf '#include "sock.in"\n' >sock.h
hostile "a socket" "is a socket" sock.h
printf '#include "/proc/self/mem"\n' >mem.h
hostile "/proc/self/mem" "is in /proc" mem.h
printf '#include "/proc/self/environ"\n' >environ.h
hostile "/proc/self/environ" "is in /proc" environ.h
if [ -e /proc/kcore ]; then
	printf '#include "/proc/kcore"\n' >kcore.h
	hostile "/proc/kcore" "$refused" kcore.h
fi
sysf=$(find /sys/kernel -maxdepth 2 -type f -readable 2>/dev/null | head -n 1)
if [ -n "$sysf" ]; then
	printf '#include "%s"\n' "$sysf" >sys.h
	hostile "a /sys file" "is in /sys" sys.h
fi
printf '#include <../../../../../../../../../../dev/zero>\n' >rel.h
hostile "/dev/zero by a relative path" "$refused" rel.h
ln -s /dev/zero link.h.in
printf '#include "link.h.in"\n' >vialink.h
hostile "a link to /dev/zero" "is a character device" vialink.h
printf '#/* a comment */include \\\n  "/dev/zero"\n' >splice.h
hostile "a comment and a splice" "is a character device" splice.h
printf '#include "sub.h.in"\n' >outer.h
printf 'struct s { int x; };\n#include "/dev/zero"\n' >sub.h.in
hostile "a local header's include" "sub.h.in:2: #include \"/dev/zero\" refused" outer.h
printf '#define F "/dev/zero"\n#include F\n' >computed.h
hostile "a name made by a macro" "name made by a macro refused" computed.h
python3 - <<'PY'
lines = ["#define A0 x"] + ["#define A%d A%d A%d" % (i, i - 1, i - 1) for i in range(1, 41)]
open("bomb.h", "w").write("\n".join(lines) + "\nint v = A40;\n")
PY
hostile "a macro bomb" "header parse of 'bomb.h' (exceeded the (memory|CPU time) limit|took longer than)" bomb.h
i=1
while [ $i -le 100 ]; do printf '#include "deep%d.h"\n' $((i + 1)) >deep$i.h; i=$((i + 1)); done
echo 'struct d { int x; };' >deep101.h
hostile "includes nested 100 deep" "nested deeper than 64" deep1.h
printf '#include "cyc2.h"\nstruct c1 { int x; };\n' >cyc1.h
printf '#include "cyc1.h"\n' >cyc2.h
hostile "an include cycle" "nested too deeply" cyc1.h
python3 -c 'open("big.h", "w").write("/* x */\n" * (50 << 17))'
hostile "a 50 MB header" "too large" big.h
# includes a textual scan can miss: the parse's child may read only the files the scan
# accepted (Landlock), else the scan itself refuses them. Each names a FIFO whose writer,
# blocked until a reader opens it, must never wake (it gives up after 5 s)
refused_unseen="an include the checks did not see was refused|refused: .* is a FIFO|refused"
unseen() { # NAME FORMAT: FORMAT (printf; %s is the FIFO's path) must not open the FIFO
	rm -f woke.txt unseen.in
	mkfifo unseen.in
	( timeout 5 sh -c 'echo "struct w { int y; };" >unseen.in && echo WOKE >woke.txt' & )
	printf "$2" "$PWD/unseen.in" >unseen.h
	hostile "$1" "$refused_unseen" unseen.h
	sleep 0.2
	[ ! -e woke.txt ] || no "$1: the FIFO was opened"
	rm -f unseen.in woke.txt
}
# each with Landlock (where the kernel has it) and with the scan alone, as on a kernel without
for ll in "" 1; do
	export XSC_TEST_NO_LANDLOCK=$ll
	by=${ll:+", the scan alone"}
	unseen "a digraph %%:include$by" '%%:include "%s"\nstruct a { int x; };\n'
	unseen "a UTF-8 BOM before #include$by" '\357\273\277#include "%s"\nstruct a { int x; };\n'
	unseen "a no-break space before #include$by" '\302\240#include "%s"\nstruct a { int x; };\n'
	unseen "a carriage return before #include$by" 'struct a { int x; };\r#include "%s"\n'
	unseen "a splice with a blank$by" '#inc\\ \nlude "%s"\nstruct a { int x; };\n'
	unseen "__has_include$by" '#if __has_include("%s")\n#endif\nstruct a { int x; };\n'
	unseen "__has_include_next$by" '#if __has_include_next("%s")\n#endif\nstruct a { int x; };\n'
	unseen "__has_include by a macro$by" '#define H __has_include\n#if H("%s")\n#endif\nstruct a { int x; };\n'
	unseen "_Pragma GCC dependency$by" '_Pragma("GCC dependency \\"%s\\"")\nstruct a { int x; };\n'
	unseen "_Pragma by a macro$by" '#define P(x) _Pragma(#x)\nP(GCC dependency "%s")\nstruct a { int x; };\n'
	unseen "#pragma GCC dependency$by" '#pragma GCC dependency "%s"\nstruct a { int x; };\n'
	unseen "#pragma clang dependency$by" '#pragma clang dependency "%s"\nstruct a { int x; };\n'
done
export XSC_TEST_NO_LANDLOCK=
# /dev/tty through a digraph, on a terminal (python's pty): refused at once, not 60 s of
# wait; with Landlock and with the scan alone
printf '%%:include "/dev/tty"\nstruct a { int x; };\n' >tty.h
for ll in "" 1; do
	n=$((n + 1))
	XSC_TEST_NO_LANDLOCK=$ll timeout 90 python3 - "$XSC" >tty.txt 2>&1 <<'PY2'
import os, pty, sys, time
start = time.time()
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], [sys.argv[1], "lint", "tty.h"])
out = b""
while True:
    try:
        d = os.read(fd, 4096)
    except OSError:
        break
    if not d:
        break
    out += d
os.waitpid(pid, 0)
print(out.decode(errors="replace"))
print("seconds %d" % (time.time() - start))
PY2
	grep -Eq "refused" tty.txt && grep -q "^seconds [0-9]$" tty.txt || no "/dev/tty on a terminal${ll:+, the scan alone}: $(cat tty.txt)"
	clean "/dev/tty on a terminal"
done
# import and diff go through the same parse
for cmd in import diff; do
	n=$((n + 1))
	if [ $cmd = diff ]; then set -- zero.h zero.h; else set -- zero.h; fi
	timeout 90 "$XSC" $cmd "$@" >out.txt 2>err.txt </dev/null
	rc=$?
	[ $rc -eq 1 ] && grep -q "is a character device" err.txt || no "$cmd /dev/zero: exit $rc: $(cat err.txt)"
	clean "$cmd /dev/zero"
done
# a signal during a parse (the bomb grows for seconds): the scratch copy is removed, by xsc
# for SIGINT and SIGTERM, by the parse's own process for SIGKILL of xsc
for sig in INT TERM KILL; do
	n=$((n + 1))
	python3 - "$sig" "$XSC" >sig.txt 2>&1 <<'PY'
import signal, subprocess, sys, time
sig = getattr(signal, "SIG" + sys.argv[1])
# the default SIGINT: a background shell job would ignore it
p = subprocess.Popen([sys.argv[2], "lint", "bomb.h"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
time.sleep(1.0)
p.send_signal(sig)
err = p.communicate(timeout=30)[1].decode()
print(p.returncode, err.strip())
PY
	read -r rc rest <sig.txt
	case $sig in INT) want=-2 ;; TERM) want=-15 ;; KILL) want=-9 ;; esac
	[ "$rc" = "$want" ] || no "SIG$sig during a parse: ended with $(cat sig.txt), want $want (the signal's own end)"
	i=0
	while [ -n "$(ls -A scratch)" ] && [ $i -lt 30 ]; do sleep 0.1; i=$((i + 1)); done
	clean "SIG$sig during a parse"
done
# and a correct header still parses, with its local include
printf 'struct inner { __u64 a; };\n' >good_inner.h.in
printf '#include <linux/types.h>\n#include "good_inner.h.in"\nstruct good { __u64 a; __u64 b; };\n#define GOOD_SIZE_VER0 16\n' >good.h
"$XSC" lint good.h >out.txt 2>err.txt || no "a correct header: $(cat err.txt out.txt)"
clean "a correct header"
# a guarded header that includes itself: the second time, it is the scratch copy (in the
# scratch directory, perhaps /dev/shm) that the compiler finds
printf '#ifndef SELF_H\n#define SELF_H\n#include <linux/types.h>\n#include "self.h"\nstruct self { __u64 a; };\n#endif\n' >self.h
XSC_SANDBOX_DIR= "$XSC" lint self.h >out.txt 2>err.txt || no "a header that includes itself: $(cat err.txt out.txt)"
# /dev/shm holds ordinary files
shm=/dev/shm/xsc-hostile-headers-$$
if mkdir "$shm" 2>/dev/null; then
	printf '#include <linux/types.h>\n#include "inner.h"\n' >"$shm/outer.h"
	printf 'struct inner { __u64 a; };\n' >"$shm/inner.h"
	"$XSC" lint "$shm/outer.h" >out.txt 2>err.txt || no "a header in /dev/shm: $(cat err.txt out.txt)"
	rm -rf "$shm"
fi
# the whole battery again as uid 65534 (root only, with setpriv): from a world-readable copy
# of the binary and this script, in a directory of that user's, as live-unprivileged.sh does
if [ "$(id -u)" = 0 ] && [ -z "${XSC_HOSTILE_UNPRIVILEGED:-}" ] && command -v setpriv >/dev/null 2>&1; then
	w=$(mktemp -d /tmp/xsc-hostile-headers.XXXXXX) || exit 1
	trap 'rm -rf "$w"' EXIT INT TERM
	chmod 755 "$w"
	mkdir -p "$w/tests/headers/lint" "$w/run"
	cp "$XSC" "$w/xsc" && cp "$0" "$w/hostile-headers.sh" && cp "$top/tests/headers/lint/hole.h" "$w/tests/headers/lint/" &&
		cp "$top/tests/lib.sh" "$w/tests/"
	chmod -R a+rX "$w"
	chown 65534:65534 "$w/run"
	(cd "$w/run" && HOME=$w/run XSC=$w/xsc top=$w XSC_HOSTILE_UNPRIVILEGED=1 \
		setpriv --reuid=65534 --regid=65534 --clear-groups sh ../hostile-headers.sh) >unpriv.txt 2>&1
	rc=$?
	if [ $rc -eq 77 ]; then
		echo "skip as uid 65534: $(tail -1 unpriv.txt)"
	elif [ $rc -ne 0 ]; then
		no "as uid 65534:"
		grep -v '^ok ' unpriv.txt
	else
		m=$(sed -n 's/^\([0-9]*\) hostile attempts$/\1/p' unpriv.txt)
		echo "ok as uid 65534: $m attempts"
		n=$((n + m))
	fi
fi
echo "$n hostile attempts"
exit $fail
