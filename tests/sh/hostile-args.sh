#!/bin/sh
# Hostile arguments (issue 23, classes 1, 3, 4 and 8): every attempt aims a live call at a
# victim outside the sandbox (files in a directory the caller holds open as fd 5 and 6, the
# caller's own output file, the terminal xsc runs on, a process of the same user) through an
# argument override, a raw address, an inherited descriptor, an ioctl request, a pid or a
# catalogue of its own. Each must be refused with a message naming the argument, and the
# victim must be as it was. Where --unsafe is meant to lift the refusal, the same attempt
# against a victim of the test's own is run again and must no longer be refused; what a
# catalogue decides (numbers, argument kinds, ioctl requests) --unsafe never lifts.
# Runs as the current user and, as root, again as uid 65534.
set -u
. "$top/tests/lib.sh"
need_linux "live calls need Linux"
case $(uname -m) in
x86_64) unlinkat=263 ;;
aarch64) unlinkat=35 ;;
*) echo "xsc's build knows syscall numbers for x86_64 and aarch64 only"; exit 77 ;;
esac
for tool in python3 timeout; do
	command -v $tool >/dev/null 2>&1 || { echo "$tool is not installed"; exit 77; }
done
w=$(mktemp -d /tmp/xsc-hostile-args.XXXXXX) || exit 1
vpids=
cleanup() {
	for p in $vpids; do kill "$p" 2>/dev/null; done
	chattr -R -i -a "$w" 2>/dev/null
	umount "$w/ro" "$w/m" 2>/dev/null
	rm -rf "$w"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
chmod 755 "$w"
mkdir "$w/data" "$w/scripts" "$w/run" "$w/sandboxes"
mkdir "$w/docs" # the lessons are found beside the catalogue
cp "$XSC" "$w/xsc" && cp "$top"/data/*.json "$w/data/" && cp -r "$top/docs/lessons" "$w/docs/" || exit 1

# Catalogues of an attacker's own, each a copy of data/ with one change.
catalogue() { # NAME PYTHON: the copy's JSON is edited by PYTHON (the text in s, file in f)
	mkdir "$w/$1" && cp "$w"/data/*.json "$w/$1/" || exit 1
	python3 - "$w/$1" "$2" <<-'EOF' || exit 1
	import glob, sys
	for f in glob.glob(sys.argv[1] + "/*.json"):
	    s = open(f).read()
	    t = s
	    exec(sys.argv[2])
	    if s != t:
	        open(f, "w").write(s)
	EOF
}
catalogue renumber "s = s.replace('\"x86_64\": 332', '\"x86_64\": 263').replace('\"aarch64\": 291', '\"aarch64\": 35') if f.endswith('/statx.json') else s"
catalogue reioctl "s = s.replace('\"type\": \"0xFF\", \"nr\": 11', '\"type\": \"0x54\", \"nr\": 18') if f.endswith('/pidfd.json') else s"
catalogue reroles "s = s.replace('{ \"name\": \"dirfd\", \"type\": \"int\", \"role\": \"fd\", \"default\": \"AT_FDCWD\"', '{ \"name\": \"dirfd\", \"type\": \"int\", \"role\": \"int\", \"default\": \"5\"') if f.endswith('/openat2.json') else s"
catalogue redefault "s = s.replace('{ \"name\": \"dirfd\", \"type\": \"int\", \"role\": \"fd\", \"default\": \"AT_FDCWD\"', '{ \"name\": \"dirfd\", \"type\": \"int\", \"role\": \"fd\", \"default\": \"5\"') if f.endswith('/openat2.json') else s"
catalogue newcall "s = s.replace('\"name\": \"statx\"', '\"name\": \"unlinkat\"', 1).replace('\"x86_64\": 332', '\"x86_64\": 263').replace('\"aarch64\": 291', '\"aarch64\": 35') if f.endswith('/statx.json') else s"
catalogue reprobe "s = s.replace('      \"struct\": \"open_how\",\n', '      \"struct\": \"open_how\",\n      \"probe\": {\"args\": [\"pathname=\\\\\"$w/victim/data.txt\\\\\"\"]},\n', 1) if f.endswith('/openat2.json') else s"
catalogue resafe "s = s.replace('\"safety\": \"namespace\"', '\"safety\": \"pure\"').replace('\"safety\": \"sandbox\"', '\"safety\": \"pure\"') if f.endswith('/mount.json') or f.endswith('/openat2.json') else s"
for c in renumber reioctl reroles redefault newcall reprobe; do
	cmp -s "$w/data/statx.json" "$w/$c/statx.json" && cmp -s "$w/data/pidfd.json" "$w/$c/pidfd.json" &&
		cmp -s "$w/data/openat2.json" "$w/$c/openat2.json" && { echo "FAIL: catalogue '$c' was not changed"; exit 1; }
done
chmod -R a+rX "$w"

# as_user CMD...: run as the pass's user (root's first pass: as is)
as_user() {
	if [ "$pass_uid" = self ]; then
		"$@"
	else
		env -i PATH=/usr/bin:/bin HOME="$w/run" XSC_SANDBOX_DIR="$w/sandboxes" NO_COLOR=1 LC_ALL=C \
			setpriv --reuid="$pass_uid" --regid="$pass_uid" --clear-groups "$@"
	fi
}

# The victims: a directory with two files and an xsc output file, and a sleeping process.
victims() { # DIR
	mkdir -p "$1"
	printf 'precious\n' >"$1/data.txt"
	printf 'keep me\n' >"$1/keep.txt"
	: >"$1/stdout.txt"
	mkfifo "$1/pipe"
	[ "$pass_uid" = self ] || chown -R "$pass_uid:$pass_uid" "$1"
}
# Everything an attempt could change: each file's mode, size, content, xattrs and inode flags
# (stdout.txt grows with xsc's output: its mode, xattrs and flags only), the directory's
# entries, and each victim process's liveness, nice and policy.
snapshot() { # DIR PID
	python3 - "$1" <<-'EOF'
	import hashlib, os, subprocess, sys
	d = sys.argv[1]
	for n in sorted(os.listdir(d)):
	    p = os.path.join(d, n)
	    st = os.lstat(p)
	    flags = subprocess.run(["lsattr", "-d", p], capture_output=True, text=True).stdout.split(" ")[0]
	    xattrs = sorted(os.listxattr(p, follow_symlinks=False))
	    if n == "stdout.txt" or not os.path.isfile(p):
	        print(n, oct(st.st_mode), flags, xattrs)
	    else:
	        print(n, oct(st.st_mode), st.st_size, hashlib.sha256(open(p, "rb").read()).hexdigest(), flags, xattrs)
	EOF
	if kill -0 "$2" 2>/dev/null; then
		ps -o ni=,cls= -p "$2"
	else
		echo "process $2 is gone"
	fi
	kill -0 "$wpid" 2>/dev/null || echo "the writer blocked on the FIFO went on"
}

n=0 bad=0
errf=$w/run/err
fail() { echo "FAIL [$pass_name] $1"; sed 's/^/    | /' "$errf" "$w/out" 2>/dev/null | head -8; bad=$((bad + 1)); }

# run_script SCRIPT DIR PID CATALOGUE UNSAFE: the script with @V@ as DIR and @P@ as PID, run
# with fd 5 on DIR, fd 6 on DIR/data.txt, stdout on DIR/stdout.txt; output in $w/out, $errf
run_script() {
	rm -f "$errf"
	sed -e "s|@V@|$2|g" -e "s|@P@|$3|g" -e "s|^call |call $5|" "$w/scripts/$1.xsc" >"$w/scripts/$1.run.xsc"
	chmod a+r "$w/scripts/$1.run.xsc"
	as_user sh -c 'cd "$1" && exec 5<"$2" 6<"$2/data.txt" >"$2/stdout.txt" 2>"$3" </dev/null &&
		exec timeout 20 ../xsc --data "$4" "$5"' sh "$w/run" "$2" "$errf" "$w/$4" "$w/scripts/$1.run.xsc"
	rc=$?
	cp "$2/stdout.txt" "$w/out" 2>/dev/null
	return $rc
}

# attempt NAME LIFT PATTERN [CATALOGUE] <SCRIPT: the script must be refused (exit 1, PATTERN in
# its errors) with the victims untouched. LIFT: "lift" runs it again with --unsafe against the
# test's own victims and wants no refusal; "keep" wants the refusal even with --unsafe.
attempt() {
	name=$1 lift=$2 pat=$3 cat=${4:-data}
	n=$((n + 1))
	cat >"$w/scripts/$n.xsc"
	before=$(snapshot "$w/victim" "$vpid")
	run_script "$n" "$w/victim" "$vpid" "$cat" ""
	rc=$?
	after=$(snapshot "$w/victim" "$vpid")
	if [ $rc -ne 1 ]; then
		fail "$name: exit $rc, wanted 1 (refused)"
	elif ! grep -q -e "$pat" "$errf"; then
		fail "$name: no '$pat' in the refusal"
	elif [ "$before" != "$after" ]; then
		fail "$name: the victim changed"
		printf '%s\n' "$before" >"$w/before" && printf '%s\n' "$after" | diff "$w/before" - | sed 's/^/    > /'
	fi
	[ "$lift" = - ] && return
	run_script "$n" "$w/mine" "$mpid" "$cat" "--unsafe "
	rc=$?
	# what the call did to the test's own victims is undone for the next attempt
	chattr -R -i -a "$w/mine" 2>/dev/null
	rm -rf "$w/mine"
	victims "$w/mine"
	if [ "$lift" = keep ]; then
		[ $rc -eq 1 ] && grep -q -e "$pat" "$errf" || fail "$name: --unsafe lifted a refusal it must not (exit $rc)"
	elif grep -q refusing "$errf" || ! grep -q -e '--unsafe: the argument checks' "$w/out"; then
		fail "$name: --unsafe did not lift the refusal (exit $rc)"
	fi
}

# tiocsti: a request override turns PIDFD_GET_INFO into TIOCSTI on fd 0, xsc's terminal (a
# pty made its controlling terminal here); nothing may arrive in the terminal's input.
tiocsti() { # UNSAFE
	n=$((n + 1))
	run=
	[ "$pass_uid" = self ] || run="setpriv --reuid=$pass_uid --regid=$pass_uid --clear-groups"
	python3 - "$w" "$1" $run <<-'EOF'
	import fcntl, os, select, subprocess, sys, termios, tty
	w, unsafe, run = sys.argv[1], sys.argv[2], sys.argv[3:]
	m, s = os.openpty()
	tty.setraw(s)
	os.chmod(os.ttyname(s), 0o666)
	def ctty():
	    os.setsid()
	    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
	cmd = run + [w + "/xsc", "--data", w + "/data", "-c",
	             "new pidfd_info; set mask 0x41; call %s PIDFD_GET_INFO pidfd=0 request=0x5412" % unsafe]
	r = subprocess.run(cmd, stdin=s, stdout=open(w + "/out", "w"), stderr=open(w + "/tiocsti.err", "w"),
	                   preexec_fn=ctty, cwd=w + "/run", timeout=20)
	typed = select.select([s], [], [], 0.3)[0] and os.read(s, 100)
	print("exit", r.returncode, "typed", repr(typed or b""))
	sys.exit(0 if not typed else 3)
	EOF
}

battery() {
	rm -rf "$w/victim" "$w/mine"
	victims "$w/victim"
	victims "$w/mine"
	chmod 755 "$w/victim" "$w/mine"
	as_user sleep 600 </dev/null >/dev/null 2>&1 &
	vpid=$!
	as_user sleep 600 </dev/null >/dev/null 2>&1 &
	mpid=$!
	# a writer blocked until someone opens the victim FIFO for reading
	as_user sh -c 'echo hello >"$1/pipe"' sh "$w/victim" </dev/null >/dev/null 2>&1 &
	wpid=$!
	vpids="$vpids $vpid $mpid $wpid"
	sleep 0.2

	# class 1: struct overrides are the buffer, checked as it is
	attempt "how= override truncates a file outside" lift "argument 'pathname' = '.*' is outside the sandbox" <<-'EOF'
	new open_how
	call openat2 pathname=@V@/data.txt how='"\x41\x02\0\0\0\0\0\0"'
	EOF
	attempt "how= override creates a file outside" lift "is outside the sandbox, and openat2 would write there" <<-'EOF'
	call openat2 pathname=@V@/new.txt how='"\xc1\0\0\0\0\0\0\0\xa4\x01"'
	EOF
	attempt "how= override with O_APPEND, climbing out" lift "outside the sandbox" <<-'EOF'
	call openat2 pathname=../../../../../../../../../../..@V@/keep.txt how='"\x01\x04\0\0\0\0\0\0"'
	EOF
	attempt "how= raw address of an earlier copy" lift "argument 'how' = 0x.* is a raw address" <<-'EOF'
	new open_how as evil
	set flags O_WRONLY|O_TRUNC
	new open_how
	call openat2 pathname=@V@/data.txt how=0x7ffff7ff0000
	EOF
	attempt "how=&NAME: another buffer's bytes" lift "argument 'pathname' = '.*' is outside the sandbox" <<-'EOF'
	new open_how as evil
	set flags O_WRONLY|O_TRUNC
	new open_how
	call openat2 pathname=@V@/data.txt how=&evil
	EOF
	attempt "openat2 of a FIFO outside wakes its writer" lift "argument 'pathname' = '.*/pipe' is a FIFO or socket" <<-'EOF'
	call openat2 pathname=@V@/pipe how='"\0\x08\0\0\0\0\0\0"'
	EOF
	attempt "openat2 climbing out to the FIFO" lift "climbs out of the sandbox" <<-'EOF'
	call openat2 pathname=../../../../../../../../../../..@V@/pipe how='"\0\x08\0\0\0\0\0\0"'
	EOF
	attempt "setxattrat name= raw address" lift "argument 'name' = 0x.* is a raw address" <<-'EOF'
	call setxattrat pathname=file name=0x7ffff7ff0000
	EOF
	attempt "a string where a descriptor goes" - "argument 'dirfd' of openat2 is a descriptor; a \"string\" does not fit it" <<-'EOF'
	call openat2 dirfd='"\x05"' pathname=data.txt
	EOF
	# class 2 (the argument side): descriptors xsc did not prepare
	attempt "dirfd=5 with O_TRUNC" lift "argument 'dirfd' = 5 is a descriptor xsc did not prepare" <<-'EOF'
	new open_how
	set flags O_WRONLY|O_TRUNC
	call openat2 dirfd=5 pathname=data.txt
	EOF
	attempt "dirfd=5 with a how= override creating" lift "argument 'dirfd' = 5" <<-'EOF'
	call openat2 dirfd=5 pathname=made.txt how='"\x41\0\0\0\0\0\0\0\xa4\x01"'
	EOF
	attempt "renameat2 olddirfd=5 moves a file out" lift "argument 'olddirfd' = 5" <<-'EOF'
	call renameat2 olddirfd=5 oldpath=data.txt newpath=stolen flags=0
	EOF
	attempt "renameat newdirfd=5 overwrites" lift "argument 'newdirfd' = 5" <<-'EOF'
	call renameat oldpath=a newdirfd=5 newpath=keep.txt
	EOF
	attempt "file_setattr dirfd=5 immutable" lift "argument 'dirfd' = 5" <<-'EOF'
	new file_attr
	set fa_xflags 0x8
	call file_setattr dirfd=5 pathname=data.txt
	EOF
	attempt "file_setattr dirfd=1 append-only output" lift "argument 'dirfd' = 1 is a descriptor" <<-'EOF'
	new file_attr
	set fa_xflags 0x10
	call file_setattr dirfd=1 pathname="" at_flags=AT_EMPTY_PATH
	EOF
	attempt "setxattrat dirfd=6 AT_EMPTY_PATH" lift "argument 'dirfd' = 6" <<-'EOF'
	call setxattrat dirfd=6 pathname="" at_flags=AT_EMPTY_PATH name='"user.evil"'
	EOF
	attempt "a descriptor above 32 bits" lift "argument 'dirfd' = 5" <<-'EOF'
	new open_how
	set flags O_WRONLY|O_TRUNC
	call openat2 dirfd=0x100000005 pathname=data.txt
	EOF
	# class 3: ioctl requests and multiplexer commands
	attempt "FS_IOC_SETFLAGS append-only on inherited fd 6" lift "argument 'pidfd' = 6" <<-'EOF'
	new pidfd_info
	set mask 0x20
	call PIDFD_GET_INFO pidfd=6 request=0x40086602
	EOF
	attempt "request override alone" lift "argument 'request' = 0x40086602 is not the request PIDFD_GET_INFO encodes" <<-'EOF'
	call PIDFD_GET_INFO request=0x40086602
	EOF
	attempt "UFFDIO_API on inherited fd 5" lift "argument 'fd' = 5" <<-'EOF'
	call UFFDIO_API fd=5
	EOF
	attempt "io_uring opcode override" lift "argument 'opcode' = 2 is not one xsc knows to be harmless" <<-'EOF'
	call IORING_REGISTER_PROBE opcode=2
	EOF
	attempt "bpf program load" lift "argument 'cmd' = 5 is not one xsc knows to be harmless" <<-'EOF'
	call bpf cmd=BPF_PROG_LOAD
	EOF
	tiocsti "" >"$w/tiocsti" 2>&1
	rc=$?
	n=$((n + 1))
	cp "$w/tiocsti.err" "$errf"
	if [ $rc -ne 0 ] || ! grep -q "argument 'request' = 0x5412 is not the request" "$errf"; then
		fail "TIOCSTI through a request override: $(cat "$w/tiocsti")"
	fi
	tiocsti --unsafe >"$w/tiocsti" 2>&1
	cp "$w/tiocsti.err" "$errf"
	grep -q refusing "$errf" && fail "TIOCSTI: --unsafe did not lift the refusal"
	# a catalogue's probe recipe: the prober sets O_TRUNC, O_CREAT, … one by one on its path
	n=$((n + 1))
	before=$(snapshot "$w/victim" "$vpid")
	rm -f "$errf" "$w/run/out"
	as_user sh -c 'cd "$1" && exec timeout 60 ../xsc --data ../reprobe probe --no-cache openat2 >"$2" 2>"$3" </dev/null' sh \
		"$w/run" "$w/run/out" "$errf"
	if [ "$before" != "$(snapshot "$w/victim" "$vpid")" ]; then
		fail "a catalogue's probe recipe aiming at a file outside: the victim changed"
	elif ! grep -q "argument 'pathname' = '.*' is outside the sandbox, where the probe's calls" "$errf"; then
		fail "a catalogue's probe recipe aiming at a file outside: not refused"
	fi
	# a student's lesson solution, checked by root: its own --unsafe lifts nothing
	n=$((n + 1))
	before=$(snapshot "$w/victim" "$vpid")
	rm -f "$errf" "$w/run/out"
	printf '%s\n' 'new open_how' "call --unsafe openat2 pathname=$w/victim/data.txt how='\"\\x41\\x02\\0\\0\\0\\0\\0\\0\"'" >"$w/scripts/solution.xsc"
	chmod a+r "$w/scripts/solution.xsc"
	as_user sh -c 'cd "$1" && exec timeout 60 ../xsc --data ../data lesson 1 --check "$4" >"$2" 2>"$3" </dev/null' sh \
		"$w/run" "$w/run/out" "$errf" "$w/scripts/solution.xsc"
	if [ "$before" != "$(snapshot "$w/victim" "$vpid")" ]; then
		fail "call --unsafe in a lesson solution being checked: the victim changed"
	elif ! grep -q "call --unsafe: a solution being checked (lesson --check) may not lift" "$errf"; then
		fail "call --unsafe in a lesson solution being checked: not refused"
	fi
	# class 4: pids
	attempt "sched_setattr on another process" lift "argument 'pid' = [0-9]* is another process" <<-'EOF'
	new sched_attr
	set sched_nice 10
	call sched_setattr pid=@P@
	EOF
	attempt "sched_getattr on another process" lift "argument 'pid' = [0-9]* is another process" <<-'EOF'
	call sched_getattr pid=@P@
	EOF
	attempt "perf_event_open sigtrap on another process" lift "argument 'pid' = [0-9]* is another process" <<-'EOF'
	new perf_event_attr
	set type 1
	set sample_period 1
	set bits remove_on_exec|sigtrap
	call perf_event_open pid=@P@ cpu=-1
	EOF
	attempt "perf_event_open on pid 1" - "argument 'pid' = 1 is another process" <<-'EOF'
	call perf_event_open pid=1
	EOF
	attempt "perf_event_open group_fd=5" lift "argument 'group_fd' = 5" <<-'EOF'
	call perf_event_open group_fd=5
	EOF
	# class 8: the catalogue decides nothing that runs
	attempt "a catalogue numbering statx as unlinkat" keep "the catalogue gives statx the number $unlinkat" renumber <<-'EOF'
	call statx pathname=@V@/data.txt
	EOF
	attempt "a catalogue re-encoding PIDFD_GET_INFO as TIOCSTI" keep "the catalogue encodes PIDFD_GET_INFO as ioctl request" reioctl <<-'EOF'
	call PIDFD_GET_INFO
	EOF
	attempt "a catalogue making dirfd an int that defaults to 5" keep "the catalogue's arguments of openat2" reroles <<-'EOF'
	new open_how
	set flags O_WRONLY|O_TRUNC
	call openat2 pathname=data.txt
	EOF
	attempt "a catalogue defaulting dirfd to 5" lift "argument 'dirfd' = 5" redefault <<-'EOF'
	new open_how
	set flags O_WRONLY|O_TRUNC
	call openat2 pathname=data.txt
	EOF
	attempt "a catalogue adding unlinkat" keep "does not know its syscall number" newcall <<-'EOF'
	call unlinkat pathname=@V@/data.txt
	EOF
	# the safety class decides the namespace and whether Landlock is needed: the build's
	attempt "a catalogue calling open_tree_attr pure (no namespace)" keep "calls open_tree_attr safety 'pure', but it is 'namespace'" resafe <<-'EOF'
	new open_tree_attr
	set attr_set MOUNT_ATTR_RDONLY
	call open_tree_attr pathname=@V@
	EOF
	attempt "a catalogue calling openat2 pure (no Landlock needed)" keep "calls openat2 safety 'pure', but it is 'sandbox'" resafe <<-'EOF'
	new openat2
	set flags O_WRONLY|O_CREAT
	call openat2 pathname=made.txt
	EOF
	attempt "open_tree_attr changing a mount outside the sandbox" lift "argument 'pathname' = '.*' is outside the sandbox, and open_tree_attr would write there" <<-'EOF'
	new open_tree_attr
	set attr_clr MOUNT_ATTR_RDONLY
	call open_tree_attr pathname=@V@
	EOF
	attempt "a designed syscall called live" keep "designed syscall" <<-'EOF'
	struct new frob_args
	field add u64 flags
	version add 8 7.0
	syscall new frob struct=frob_args
	call frob
	EOF
	# kill reaches as_user's subshell, not the writer it started: a reader lets it finish
	python3 -c 'import os, sys; os.close(os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK))' "$w/victim/pipe" 2>/dev/null
	for p in $vpid $mpid $wpid; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
}

pass_uid=self pass_name=$(id -un)
battery
# --unsafe is in the call's JSON too, with each check it lifted
n=$((n + 1))
"$w/xsc" --data "$w/data" --json -c "call --unsafe sched_getattr pid=$$" >"$w/out" 2>"$errf"
grep -q '"unsafe": true' "$w/out" && grep -q "argument 'pid' = $$ is another process" "$w/out" ||
	fail "--unsafe in JSON: no \"unsafe\" and \"lifted\""
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 && setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	chown 65534:65534 "$w/run" "$w/sandboxes"
	pass_uid=65534 pass_name="uid 65534"
	battery
else
	echo "(not root, or no setpriv: the uid 65534 pass is skipped)"
fi
# A real mount of the host's (root only): open_tree_attr may change the attributes of a
# mount outside the sandbox with neither a catalogue's safety class nor an override, and
# --unsafe runs it in the child's own mount namespace, where only a copy changes.
mounts() {
	mkdir -p "$w/m" "$w/ro" && mount -t tmpfs xsc-hostile "$w/m" && mount --bind -o ro "$w/m" "$w/ro" || return 0
	for c in "resafe|set attr_set MOUNT_ATTR_RDONLY|m" "data|set attr_set MOUNT_ATTR_RDONLY|m" \
		"data|set attr_clr MOUNT_ATTR_RDONLY|ro" "data|set attr_set MOUNT_ATTR_RDONLY|m --unsafe" \
		"data|set attr_set MOUNT_ATTR_RDONLY|m flags=OPEN_TREE_CLONE"; do
		n=$((n + 1))
		IFS='|' read -r cat set rest <<-EOF
		$c
		EOF
		(cd "$w/run" && timeout 20 "$w/xsc" --data "$w/$cat" -c "new open_tree_attr; $set; call open_tree_attr pathname=$w/$rest") >"$w/out" 2>"$errf"
		[ "$(findmnt -no OPTIONS "$w/m" | cut -d, -f1)$(findmnt -no OPTIONS "$w/ro" | cut -d, -f1)" = rwro ] ||
			fail "open_tree_attr ($cat: $set $rest) changed a mount of the host: $(findmnt -no TARGET,OPTIONS "$w/m" "$w/ro")"
	done
	umount "$w/ro" "$w/m"
}
[ "$(id -u)" -eq 0 ] && command -v findmnt >/dev/null 2>&1 && pass_name=mounts && mounts

# The parent looks at a path before the child opens it: in a directory uid 65534 owns, a
# swapper flips a link between a file and a FIFO while root makes 200 calls. Every one must
# be refused (another user could swap what it names), so none opens the FIFO; a file in a
# directory only root can change still opens.
swaps() {
	d=$w/swap
	mkdir "$d" && mkfifo "$d/fifo" && echo x >"$d/reg" && ln -s reg "$d/l" && chown -R 65534:65534 "$d" || return 0
	setpriv --reuid=65534 --regid=65534 --clear-groups timeout 120 sh -c \
		'cd "$1" && i=0 && while [ $i -lt 100000 ]; do ln -sfn fifo l; ln -sfn reg l; i=$((i + 1)); done' sh "$d" \
		</dev/null >/dev/null 2>&1 &
	spid=$!
	vpids="$vpids $spid"
	n=$((n + 1))
	opened=0 refused=0 i=0
	while [ $i -lt 200 ]; do
		i=$((i + 1))
		(cd "$w/run" && timeout 10 "$w/xsc" --data "$w/data" -c "new openat2; set flags O_NONBLOCK; call openat2 pathname=$d/l") >"$w/out" 2>"$errf"
		grep -q '^  returned' "$w/out" && opened=$((opened + 1))
		grep -q 'another user can change' "$errf" && refused=$((refused + 1))
	done
	kill "$spid" 2>/dev/null
	wait "$spid" 2>/dev/null
	[ $opened -eq 0 ] && [ $refused -eq 200 ] || fail "a link swapped by another user: $opened of 200 calls opened it, $refused refused"
	n=$((n + 1))
	(cd "$w/run" && timeout 10 "$w/xsc" --data "$w/data" -c "new openat2; call openat2 pathname=$w/data/statx.json") >"$w/out" 2>"$errf"
	grep -q '^  returned' "$w/out" || fail "a file in root's directory did not open"
}
[ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 && pass_name=swaps && swaps
echo "$n hostile argument attempts, $bad failed"
[ $bad -eq 0 ]
