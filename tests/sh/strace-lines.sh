# xsc prints each live call "the way strace does" (DESIGN §2). Runs calls under the system's
# strace and compares xsc's own call line (the first line of each call's output) with the
# line strace printed for the same syscall, one pair at a time.
# Differences that are explained, and accepted, are only these:
#  - strace pads the line to a column before " = ": the spaces are not compared;
#  - strace elides with "..." what its decoder does not show (strace 6.1 predates
#    handled_access_net and scoped in landlock_ruleset_attr; its sched_attr decoder prints
#    "..." for any size past 56): xsc may show the fields or bytes there;
#  - a constant strace 6.1 does not know ("0x2 /* LANDLOCK_CREATE_RULESET_??? */") may be
#    named by xsc with the same prefix;
#  - a multi-bit mask strace decodes bit by bit may carry its uapi name in xsc:
#    MOUNT_ATTR__ATIME (0x70) for strace's MOUNT_ATTR_NOATIME|MOUNT_ATTR_STRICTATIME|0x40
#    (0x40 has no name of its own);
#  - clone3 lines are compared up to the "=" (the child's pid is not the point).
# Everything else is a difference and fails the test, printed with both lines.
set -u
# LeakSanitizer cannot run under ptrace (make check runs this with a sanitizer build)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
. "$top/tests/lib.sh"
need_linux "strace comparison needs Linux"
need strace "strace is not installed"
need python3 "python3 (for the line comparison) is not installed"
# strace must be able to trace here (ptrace may be forbidden in a container)
if ! strace -qq -e trace=getpid -o /dev/null true >/dev/null 2>&1; then
	echo "strace cannot trace in this environment"
	exit 77
fi
echo "$(strace -V | head -n 1)"
fail=0

cat >compare.py <<'PY'
import re, sys
name, xsc_out, strace_log = sys.argv[1:4]

def xsc_lines():
    return [l.rstrip("\n") for l in open(xsc_out, errors="replace") if l.startswith(name + "(")]

def strace_lines():
    pending, out = {}, []
    for raw in open(strace_log, errors="replace"):
        l = raw.rstrip("\n")
        m = re.match(r"^(?:\[pid\s+(\d+)\]\s+|(\d+)\s+)?(.*)$", l)
        pid, text = m.group(1) or m.group(2) or "0", m.group(3)
        if text.startswith("---") or text.startswith("+++"):
            continue                      # signals and exits
        if text.endswith(" <unfinished ...>"):
            pending[pid] = (len(out), text[: -len(" <unfinished ...>")])
            out.append(None)
            continue
        r = re.match(r"^<\.\.\. (\S+) resumed>(.*)$", text)
        if r:
            if pid in pending:
                idx, head = pending.pop(pid)
                out[idx] = head + r.group(2)
            continue
        if text.startswith(name + "("):
            out.append(text)
    return [l for l in out if l is not None and l.startswith(name + "(")]

# uapi names of multi-bit masks, as strace 6.1 decodes their value
ALIASES = {"MOUNT_ATTR__ATIME": "MOUNT_ATTR_NOATIME|MOUNT_ATTR_STRICTATIME|0x40"}

def norm(l):
    l = re.sub(r"\s+= ", " = ", l)
    if name == "clone3":
        l = l.split(" = ")[0]
    return l

def pattern(s):
    """strace's line as a regex accepting the explained differences"""
    parts, pos = [], 0
    for m in re.finditer(r", \.\.\.(?=\})|0x[0-9a-f]+ /\* ([A-Z0-9_]*?_)\?\?\? \*/", s):
        parts.append(re.escape(s[pos:m.start()]))
        if m.group(0).startswith(","):
            parts.append(r"(?:, .*?)?")
        else:
            parts.append(re.escape(m.group(1)) + r"[A-Z0-9_]+")
        pos = m.end()
    parts.append(re.escape(s[pos:]))
    return "".join(parts)

x, s = xsc_lines(), strace_lines()
bad, same, explained = 0, 0, []
if len(x) != len(s):
    print(f"DIFF {name}: xsc printed {len(x)} call lines, strace {len(s)}")
    bad = 1
for i, (a, b) in enumerate(zip(x, s), 1):
    na, nb = norm(a), norm(b)
    nx = na
    for k, v in ALIASES.items():
        nx = re.sub(r"(?<=[=|])" + re.escape(k) + r"(?=[,}|])", v, nx)
    if na == nb:
        same += 1
    elif nx == nb or re.fullmatch(pattern(nb), nx):
        explained.append(str(i))
    else:
        print(f"DIFF {name} #{i}:\n    xsc:    {a}\n    strace: {b}")
        bad = 1
with open("summary", "a") as f:
    f.write(f"{name}: {len(x)} lines, {same} identical"
            + (f", {len(explained)} explained (#{', #'.join(explained)}: strace elides, lacks a name"
               " or decodes a mask bit by bit)" if explained else "") + "\n")
sys.exit(bad)
PY

# case NAME XSC-SCRIPT: run the script under strace and compare the NAME lines
case_() {
	n=$1
	strace -f -qq -e trace="$n" -o "$n.strace" $XSC --data "$top/data" -c "$2" >"$n.out" 2>&1 </dev/null
	rc=$?
	if [ $rc -ne 0 ]; then
		echo "FAIL $n: xsc exited $rc under strace:"
		cut -c1-300 "$n.out" | tail -n 10 | sed 's/^/    | /'
		fail=1
		return
	fi
	python3 compare.py "$n" "$n.out" "$n.strace" || fail=1
}

case_ openat2 'new openat2; call openat2;
set flags O_RDWR|O_CREAT|O_CLOEXEC; set mode 0640; set resolve RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS; call openat2 pathname=file;
new openat2 as t; set flags O_TMPFILE|O_RDWR; set mode 0600; call openat2;
new openat2 as p; set flags O_PATH|O_NOFOLLOW; set resolve RESOLVE_NO_MAGICLINKS|RESOLVE_NO_XDEV|RESOLVE_IN_ROOT|RESOLVE_CACHED; call openat2;
size 32; poke 24 1; poke 31 0xff; call openat2;
size 16; call openat2; size 23; call openat2;
size 200; poke 190 1; call openat2; size 56; poke 55 2; call openat2'

case_ sched_setattr 'new sched_setattr; size 48; call sched_setattr; size 56; call sched_setattr;
size 40; call sched_setattr; expect field size 56;
set sched_policy SCHED_BATCH; set sched_nice 5; size 56; call sched_setattr;
size 64; poke 60 1; call sched_setattr;
size 0; call sched_setattr'

case_ mount_setattr 'new mount_setattr; call mount_setattr;
set attr_set MOUNT_ATTR_RDONLY|MOUNT_ATTR_NOSUID; set attr_clr MOUNT_ATTR_NODEV; set propagation MS_PRIVATE; call mount_setattr flags=AT_RECURSIVE;
new mount_setattr as t; set attr_set MOUNT_ATTR_NOATIME; set attr_clr MOUNT_ATTR__ATIME; call mount_setattr;
size 40; poke 33 2; call mount_setattr; size 24; call mount_setattr'

case_ clone3 'new clone3; set exit_signal SIGCHLD; call clone3; size 64; call clone3; size 80; call clone3;
new clone3 as v; set flags CLONE_VM|CLONE_VFORK; set exit_signal SIGCHLD; call clone3;
size 96; poke 90 1; call clone3; size 56; call clone3;
new clone3 as n; set flags CLONE_NEWUTS|CLONE_CLEAR_SIGHAND; set exit_signal SIGCHLD; set cgroup 5; call clone3;
new clone3 as p; set flags CLONE_PARENT_SETTID; set exit_signal SIGCHLD; call clone3;
set flags CLONE_PIDFD; call clone3; expect errno EFAULT'

# xsc's own children make landlock_create_ruleset calls to confine themselves: with
# XSC_TEST_NO_LANDLOCK=1 they make none, and only the calls under test are traced
XSC_TEST_NO_LANDLOCK=1 case_ landlock_create_ruleset 'call landlock_create_ruleset attr=0 size=0 flags=LANDLOCK_CREATE_RULESET_VERSION;
call landlock_create_ruleset attr=0 size=0 flags=LANDLOCK_CREATE_RULESET_ERRATA;
new landlock_create_ruleset; set handled_access_fs LANDLOCK_ACCESS_FS_EXECUTE|LANDLOCK_ACCESS_FS_READ_FILE;
set handled_access_net LANDLOCK_ACCESS_NET_BIND_TCP; set scoped LANDLOCK_SCOPE_SIGNAL; call landlock_create_ruleset;
size 8; call landlock_create_ruleset; size 32; poke 25 3; call landlock_create_ruleset; size 4; call landlock_create_ruleset'

cat summary
exit $fail
