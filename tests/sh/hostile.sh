# Hostile input everywhere: each case must end with a clear message (or a correct answer),
# a non-zero exit where it is an error, no crash, no hang, and nothing lost or half-written.
# (The catalogue's own hostile fixtures are tests/catalog/*; URLs and headers are tested by
# the headers tests.)
set -u
D="--data $top/data"
n=0 bad=0
# case NAME EXPECTED-EXIT STDERR-PATTERN -- COMMAND...: runs COMMAND with a 20 s limit
case_() {
	name=$1 want=$2 pat=$3
	shift 4
	n=$((n + 1))
	timeout 20 "$@" >out 2>err </dev/null
	rc=$?
	if [ $rc -ge 124 ] || [ $rc -ge 128 ]; then
		echo "FAIL $name: crashed or hung (exit $rc)"; sed 's/^/    /' err | head -5; bad=$((bad + 1)); return
	fi
	if [ "$want" != any ] && [ $rc -ne "$want" ]; then
		echo "FAIL $name: exit $rc, wanted $want"; sed 's/^/    /' err | head -5; bad=$((bad + 1)); return
	fi
	if [ -n "$pat" ] && ! grep -q -e "$pat" err out; then
		echo "FAIL $name: no '$pat'"; sed 's/^/    /' err out | head -8; bad=$((bad + 1)); return
	fi
	if grep -q "$(printf '\033')" err; then
		echo "FAIL $name: raw escape sequence reached the terminal"; bad=$((bad + 1)); return
	fi
}

# scripts and REPL lines
printf 'list\nshow open\000at2\n' >nul.xsc
case_ "script with a NUL byte" 1 'nul.xsc:2: line contains a NUL byte' -- $XSC $D nul.xsc
head -c 1048576 /dev/zero | tr '\0' 'a' >long.xsc
case_ "a 1 MB line" 1 "long.xsc:1: line longer than 65536 bytes" -- $XSC $D long.xsc
head -c 65000 /dev/zero | tr '\0' 'a' >long64.xsc
case_ "a 65000-byte line" 2 "unknown command" -- $XSC $D long64.xsc
printf 'sh\377ow openat2\n' >utf.xsc
case_ "invalid UTF-8" 2 'unknown command .sh\\xffow' -- $XSC $D utf.xsc
printf 'show \033[31mred\n' >esc.xsc
case_ "an escape sequence in a name" 1 'no syscall, struct or flag set named .\\x1b' -- $XSC $D esc.xsc
case_ "unterminated single quote" 1 "unterminated ' quote" -- $XSC $D -c "show 'openat2"
case_ "unterminated double quote" 1 'unterminated " quote' -- $XSC $D -c 'new openat2; set flags "abc'
case_ "1000 commands on one line" 0 "" -- $XSC $D -c "$(for i in $(seq 1000); do printf 'size 24; '; done | sed 's/^/new openat2; /')"
case_ "empty -c" 0 "" -- $XSC $D -c ''
case_ "only separators" 0 "" -- $XSC $D -c ';;; ;'
case_ "comment only" 0 "" -- $XSC $D -c '# nothing'
# values and sizes
case_ "size 0" 0 "size 0" -- $XSC $D -c 'new openat2; size 0'
case_ "size 2^64-1" 0 "size 18446744073709551615" -- $XSC $D -c 'new openat2; size 18446744073709551615'
case_ "size 2^64" 1 "does not fit in 64 bits" -- $XSC $D -c 'new openat2; size 18446744073709551616'
case_ "negative size" 1 "a size is a number of bytes" -- $XSC $D -c 'new openat2; size (int)-1'
case_ "size -N below zero" 1 "is negative" -- $XSC $D -c 'new openat2; size -100'
case_ "size overflow with +" 1 "overflows 64 bits" -- $XSC $D -c 'new openat2; size 18446744073709551615; size +1'
case_ "value too wide for its field" 1 "does not fit field 'sched_nice'" -- $XSC $D -c 'new sched_attr; set sched_nice 0x80000000'
case_ "value nested 100000 deep" 1 "nested too deeply" -- $XSC $D -c "new openat2; set flags $(head -c 100000 /dev/zero | tr '\0' '(')1"
case_ "a huge number" 1 "does not fit in 64 bits" -- $XSC $D -c "new openat2; set flags $(head -c 5000 /dev/zero | tr '\0' '9')"
case_ "shift too far" 1 "too large" -- $XSC $D -c 'new openat2; set flags 1<<64'
case_ "poke past every buffer" 1 "past the largest buffer" -- $XSC $D -c 'new openat2; poke 0xffffffffffffffff 1'
case_ "poke a byte of 256" 1 "a byte is 0..255" -- $XSC $D -c 'new openat2; poke 0 256'
case_ "unknown errno in expect" 1 "unknown errno name" -- $XSC $D -c 'new openat2; call openat2; expect errno EFOO'
case_ "a bad buffer name" 1 "bad buffer name" -- $XSC $D -c "new openat2 as $(head -c 300 /dev/zero | tr '\0' 'x')"
case_ "a buffer name with a slash" 1 "bad buffer name" -- $XSC $D -c 'new openat2 as ../x'
# paths
case_ "a path with a newline" 0 'openat2(AT_FDCWD, "a\\nb"' -- $XSC $D -c "new openat2; call openat2 'pathname=a
b'"
case_ "a path climbing out, for writing" 1 "outside the sandbox" -- $XSC $D -c 'new openat2; set flags O_WRONLY|O_CREAT; call openat2 pathname=../../etc/xsc-test'
case_ "an absolute path, for writing" 1 "outside the sandbox" -- $XSC $D -c 'new openat2; set flags O_TRUNC|O_RDWR; call openat2 pathname=/etc/passwd'
case_ "a very long path" 0 "ENAMETOOLONG" -- $XSC $D -c "new openat2; call openat2 pathname=$(head -c 5000 /dev/zero | tr '\0' 'x')"
case_ "another pid" 1 "argument 'pid' = 1 is another process" -- $XSC $D -c 'new sched_setattr; call sched_setattr pid=1'
case_ "a bpf command that changes things" 1 "not one xsc knows to be harmless" -- $XSC $D -c 'new bpf; call bpf cmd=BPF_PROG_LOAD'
# options
case_ "--timeout 0" 2 "--timeout takes milliseconds" -- $XSC $D --timeout 0 list
case_ "--color=purple" 2 "--color takes" -- $XSC $D --color=purple list
case_ "--data on a file" 1 "cannot read the catalogue directory" -- $XSC --data "$top/README.md" list
case_ "--data on an empty directory" 1 "no catalogue files" -- sh -c "mkdir -p empty && $XSC --data empty list"
case_ "a script that does not exist" 1 "cannot open script" -- $XSC $D nosuch.xsc
case_ "a directory as a script" 1 "" -- $XSC $D .
case_ "explain of garbage" 1 "explain:" -- $XSC $D explain '((((((('
case_ "explain of a huge line" 1 "explain:" -- $XSC $D explain "openat2($(head -c 100000 /dev/zero | tr '\0' ','))"
# state directories: read-only, full, corrupted
mkdir -p ro/xsc && chmod 555 ro ro/xsc
case_ "read-only cache directory" 0 "" -- env XDG_CACHE_HOME=$PWD/ro $XSC $D show openat2
chmod 755 ro ro/xsc
mkdir -p cache/xsc && head -c 4096 /dev/urandom >cache/xsc/catalog-0000000000000000.bin
for f in cache/xsc/*; do :; done
case_ "corrupted catalogue cache" 0 "" -- env XDG_CACHE_HOME=$PWD/cache $XSC $D show openat2
XDG_CACHE_HOME=$PWD/cache2 $XSC $D list >/dev/null 2>&1
for c in cache2/xsc/catalog-*.bin; do head -c 1000 /dev/urandom | dd of="$c" bs=1 seek=200 conv=notrunc 2>/dev/null; done
case_ "a catalogue cache with flipped bytes" 0 "" -- env XDG_CACHE_HOME=$PWD/cache2 $XSC $D show clone3
grep -q '"name": "clone3"' out 2>/dev/null || $XSC $D show clone3 --json >/dev/null
echo '{not json' >cache2/xsc/probe.json
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null; then
	mkdir -p full
	n=$((n + 1))
	# a tiny tmpfs as the cache: the catalogue cache cannot be written; the run still works
	# and no temporary file is left behind
	if unshare -m sh -c "mount -t tmpfs -o size=12k tmpfs full && XDG_CACHE_HOME=$PWD/full $XSC $D show openat2 >/dev/null 2>full.err; rc=\$?; ls -A full/xsc > full.ls 2>/dev/null; exit \$rc"; then
		if grep -q 'tmp' full.ls 2>/dev/null; then echo "FAIL full disk: a temporary file was left: $(cat full.ls)"; bad=$((bad + 1)); fi
	else
		echo "FAIL full disk: the run failed"; cat full.err; bad=$((bad + 1))
	fi
fi
echo "$n hostile cases, $bad failed"
[ $bad -eq 0 ]
