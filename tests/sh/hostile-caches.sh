# Hostile caches, catalogue directories and untrusted text (issue 23, classes 7 to 9), each
# a real attempt on the running binary:
#  * the catalogue cache, damaged or forged with its checksum recomputed (every header count
#    + 1, a count of 2^40, a pointer moved away, a length that lies, truncations, overwritten
#    bytes): never a crash, the damage named in a warning, the output that of the real
#    catalogue, and the cache rewritten; a renumbered statx (unlinkat) never runs;
#  * caches another user could have planted (owned by uid 65534, mode 0666, a directory
#    writable by all or owned by another user, a symbolic link, a FIFO): ignored with a
#    warning, although the same doctored cache is used when it is the user's own;
#  * the probe cache: a probe made with every capability dropped (setpriv) is not served to
#    full root, foreign or world-writable caches are ignored, answers no probe gives are
#    refused, escapes in it are shown escaped, and --no-cache rewrites it;
#  * a copied binary never loads the ./data of the directory it runs in;
#  * escape sequences in catalogue strings (show, also after import), header lines and file
#    names (lint), lessons, transcripts and quoted input (errors) reach the terminal or file
#    escaped, and JSON as \u001b.
set -u
. "$top/tests/lib.sh"
need python3
d=$(mktemp -d) && cd "$d" || exit 1
chmod 755 "$d"
trap 'rm -rf "$d"' EXIT
export HOME=$d/home XDG_CACHE_HOME=$d/cache
mkdir -p "$HOME"
fail=0 n=0
no() { echo "FAIL $1"; fail=1; }
attempt() { n=$((n + 1)); what=$1; }
root=false
[ "$(id -u)" = 0 ] && root=true
x() { "$XSC" --data "$top/data" "$@"; }
ESC=$(printf '\033')

# ---- tools: the cache format as a forger knows it (header of tests' cachetool) ----
cat >tool.py <<'PY'
import struct, sys
M, P = (1 << 64) - 1, 0x100000001b3
HDR = 136  # magic, key, checksum, used, old_base, then struct catalog (with its strace tables)
NSYS, NST, NFS, SYSPTR, USED = 80, 96, 112, 72, 24
def csum(h, b):
    n = len(b) // 8 * 8
    for (w,) in struct.iter_unpack("<Q", b[:n]):
        h = ((h ^ w) * P) & M
        h ^= h >> 29
    for c in b[n:]:
        h = ((h ^ c) * P) & M
    return h
def reseal(d):
    key, used = struct.unpack_from("<Q", d, 8)[0], struct.unpack_from("<Q", d, USED)[0]
    hdr = bytearray(d[:HDR]); hdr[16:24] = bytes(8)
    struct.pack_into("<Q", d, 16, csum(csum(key, bytes(hdr)), bytes(d[HDR:HDR + used])))
def u64(d, off, f):
    struct.pack_into("<Q", d, off, f(struct.unpack_from("<Q", d, off)[0]) & M)
path, how = sys.argv[1], sys.argv[2]
d = bytearray(open(path, "rb").read())
assert d[:7] == b"XSCCAT2", "not a catalogue cache of this format"
seal = True
if how == "check":  # the header offsets this tool assumes still hold
    nsys = struct.unpack_from("<Q", d, NSYS)[0]
    assert nsys == int(sys.argv[3]), "header layout changed: nsyscalls reads %d" % nsys
    sys.exit(0)
elif how == "nsyscalls+1": u64(d, NSYS, lambda v: v + 1)
elif how == "nstructs+1": u64(d, NST, lambda v: v + 1)
elif how == "nflagsets+1": u64(d, NFS, lambda v: v + 1)
elif how == "nsyscalls=2^40": u64(d, NSYS, lambda v: 1 << 40)
elif how == "syscalls+1GiB": u64(d, SYSPTR, lambda v: v + (1 << 30))
elif how == "used+16": u64(d, USED, lambda v: v + 16)
elif how == "half": d = d[:len(d) // 2]; seal = False
elif how == "100": d = d[:100]; seal = False
elif how == "flip": d[HDR + 5000:HDR + 5064] = b"\xff" * 64; seal = False
elif how == "ff4k": d[len(d) // 2:len(d) // 2 + 4096] = b"\xff" * 4096
elif how == "renumber":  # statx (332, 291) becomes unlinkat (263) on x86_64
    pat = struct.pack("<qq", 332, 291)
    i = d.find(pat, HDR)
    assert i > 0 and d.find(pat, i + 1) < 0, "statx's numbers not found once"
    struct.pack_into("<q", d, i, 263)
elif how == "summary":  # openat2's summary, same length, visibly doctored
    old = b"open a file, with path-resolution controls"
    i = d.find(old)
    assert i > 0, "openat2's summary not found"
    d[i:i + len(old)] = b"DOCTORED SUMMARY FROM A PLANTED CACHE!!!!!"[:len(old)].ljust(len(old), b"!")
else:
    sys.exit("unknown edit " + how)
if seal:
    reseal(d)
open(path, "wb").write(d)
PY
cache() { ls "$XDG_CACHE_HOME"/xsc/catalog-*.bin 2>/dev/null | head -1; }
fresh() { rm -rf "$XDG_CACHE_HOME/xsc"; x list >/dev/null 2>&1; [ -n "$(cache)" ] || no "no catalogue cache was written"; }
x show openat2 >want.txt 2>&1 || { echo "show openat2 failed"; cat want.txt; exit 1; }
nsys=$(x list --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
fresh
python3 tool.py "$(cache)" check "$nsys" || { no "the cache header is not laid out as this test assumes"; exit 1; }

# A damaged cache: COMMAND runs whole with the real catalogue, says so (WARN: a warning is
# due), and the next run finds a good cache again.
damaged() { # EDIT WARN
	attempt "catalogue cache: $1"
	fresh
	python3 tool.py "$(cache)" "$1" || { no "$what: could not edit"; return; }
	x probe openat2 >probe.out 2>probe.err
	rc=$?
	[ $rc -eq 0 ] || no "$what: probe openat2 exited $rc: $(head -c 300 probe.err)"
	grep -q '^openat2 ' probe.out || no "$what: probe did not answer for openat2"
	x show openat2 >got.txt 2>got.err
	rc=$?
	[ $rc -eq 0 ] && cmp -s want.txt got.txt || no "$what: show openat2 exited $rc or differs"
	if [ "$2" = warn ]; then
		grep -q "warning: ignoring the catalogue cache" probe.err || no "$what: no warning: $(cat probe.err)"
	fi
	x show openat2 >/dev/null 2>again.err
	[ -s again.err ] && no "$what: the cache was not rewritten: $(cat again.err)"
}
damaged nsyscalls+1 warn     # the segfault of the issue
damaged nstructs+1 warn
damaged nflagsets+1 warn
damaged nsyscalls=2^40 warn
damaged syscalls+1GiB warn
damaged used+16 warn
damaged half warn
damaged 100 quiet
damaged flip warn
damaged ff4k warn

# A renumbered call in a forged cache (checksum recomputed): the cache is a valid catalogue,
# so it loads, but the build's own table of numbers refuses the call and nothing is removed
attempt "catalogue cache: statx renumbered as unlinkat"
fresh
python3 tool.py "$(cache)" renumber
echo victim >victim.txt
x call statx pathname="$d/victim.txt" >call.out 2>&1
[ -e victim.txt ] || no "$what: the victim file was removed: $(head -c 300 call.out)"
grep -q 'number 263' call.out || no "$what: the renumbering is not named: $(head -c 300 call.out)"

# ---- caches another user could have planted ----
fresh
python3 tool.py "$(cache)" summary
attempt "catalogue cache: a doctored cache of the user's own is used (the control)"
x show openat2 2>&1 | grep -q DOCTORED || no "$what: the doctored summary is not shown"
planted() { # SETUP-COMMAND WANT-IN-WARNING
	attempt "catalogue cache: $1"
	x show openat2 >got.txt 2>got.err
	rc=$?
	[ $rc -eq 0 ] || no "$what: show openat2 exited $rc"
	grep -q DOCTORED got.txt && no "$what: the planted cache was used"
	grep -q "warning: ignoring the cache .*$2" got.err || no "$what: no warning naming '$2': $(cat got.err)"
}
c=$(cache)
cp "$c" doctored.bin
chmod 666 "$c"
planted "mode 0666" "writable by others (mode 0666)"
chmod 620 "$c"
planted "mode 0620" "writable by its group"
if $root; then
	cp doctored.bin "$c" && chmod 600 "$c" && chown 65534 "$c"
	planted "owned by uid 65534" "owned by uid 65534, not by you (uid 0)"
	cp doctored.bin "$c.x" && chown 0 "$c.x" && mv "$c.x" "$c" && chmod 600 "$c"
	chown 65534 "$XDG_CACHE_HOME/xsc"
	planted "directory owned by uid 65534" "its directory is owned by uid 65534"
	chown 0 "$XDG_CACHE_HOME/xsc"
else
	echo "not root: caches owned by another user not tried"
fi
chmod 777 "$XDG_CACHE_HOME/xsc"
cp doctored.bin "$c" && chmod 600 "$c"
planted "directory mode 0777" "its directory is writable by others"
attempt "catalogue cache: nothing written into a directory writable by others"
rm -f "$c"
x show openat2 >/dev/null 2>&1
[ -z "$(cache)" ] || no "$what: a cache was written into a mode 0777 directory"
chmod 700 "$XDG_CACHE_HOME/xsc"
attempt "cache directory: another user's symbolic link in a sticky shared directory"
if $root && command -v setpriv >/dev/null; then
	mkdir -m 1777 ch && mkdir victim
	setpriv --reuid=65534 --regid=65534 --clear-groups ln -s "$d/victim" ch/xsc
	XDG_CACHE_HOME=$d/ch x probe openat2 >sym.out 2>&1
	[ -z "$(ls victim)" ] || no "$what: root wrote $(ls victim) through the link"
	rm ch/xsc && ln -s "$d/victim" ch/xsc
	XDG_CACHE_HOME=$d/ch x import --cache ch/xsc "file://$top/tests/headers/diff/clone_v0.h" >sym.out 2>&1
	[ -z "$(ls victim)" ] || no "$what: the fetch cache wrote $(ls victim) through the link"
	grep -q "ignoring the cache directory .*a symbolic link" sym.out || no "$what: no warning: $(head -3 sym.out)"
else
	echo "not root or no setpriv: another user's cache link not tried"
fi
attempt "cache directory: in a parent others may write (not sticky)"
mkdir -m 777 open && mkdir -m 700 open/xsc
XDG_CACHE_HOME=$d/open x show openat2 >open.out 2>&1
[ -z "$(ls open/xsc)" ] || no "$what: a cache was written in open/xsc"
rm -f "$c"
ln -s "$d/doctored.bin" "$c"
planted "a symbolic link to a doctored cache" "a symbolic link"
rm -f "$c"
attempt "catalogue cache: a FIFO does not hang"
mkfifo "$c"
timeout 10 "$XSC" --data "$top/data" show openat2 >got.txt 2>got.err
rc=$?
[ $rc -eq 0 ] || no "$what: exit $rc (124: hung on the FIFO)"
grep -q "not a regular file" got.err || no "$what: no warning: $(cat got.err)"
rm -f "$c"

# ---- the probe cache ----
pc=$XDG_CACHE_HOME/xsc/probe.json
doctor() { # doctor [WHY]: set the total calls to 4242 (and a why with escapes)
	python3 - "$pc" "${1:-}" <<'PY'
import json, sys
p, why = sys.argv[1], sys.argv[2]
d = json.load(open(p))
d["calls"] = 4242
if why:
    for s in d["syscalls"]:
        if s["name"] == "openat2":
            s["available"], s["why"] = 2, why
            for f in s["flags"]:
                f[3], f[5] = 2, why
elif why == "" and len(sys.argv) > 3:
    pass
json.dump(d, open(p, "w"))
PY
}
issued() { # the syscalls_issued of a probe --json, which must exit 0 (and leak nothing under ASan)
	x probe --json >issued.json 2>issued.err
	rc=$?
	[ $rc -eq 0 ] || no "$what: probe --json exited $rc: $(head -c 300 issued.err)"
	python3 -c 'import json,sys
try: print(json.load(sys.stdin)["syscalls_issued"])
except Exception: print("no-json")' <issued.json
}
x probe >/dev/null 2>&1
doctor
attempt "probe cache: a doctored cache of the user's own is used (the control)"
[ "$(issued)" = 4242 ] || no "$what: not used"
if command -v setpriv >/dev/null && setpriv --inh-caps=-all --bounding-set=-all true 2>/dev/null; then
	attempt "probe cache: a probe made with every capability dropped is not served to root"
	rm -f "$pc"
	setpriv --inh-caps=-all --bounding-set=-all "$XSC" --data "$top/data" probe >/dev/null 2>&1
	grep -q '"key":"[^"]* cap=0000000000000000' "$pc" || no "$what: the capability-less probe was not cached with its capabilities"
	doctor
	if [ "$(grep -o 'CapEff:.*' /proc/self/status | tr -d '\t ')" != CapEff:0000000000000000 ]; then
		[ "$(issued)" != 4242 ] || no "$what: served"
	fi
	attempt "probe cache: a no_new_privs probe is not served without it"
	rm -f "$pc"
	setpriv --no-new-privs "$XSC" --data "$top/data" probe >/dev/null 2>&1
	doctor
	[ "$(issued)" != 4242 ] || no "$what: served"
else
	echo "no usable setpriv: capability-dropped probes not tried"
fi
x probe >/dev/null 2>&1
doctor
chmod 666 "$pc"
attempt "probe cache: mode 0666"
[ "$(issued)" != 4242 ] || no "$what: used"
grep -q "warning: ignoring the cache .*writable by others" issued.err || no "$what: no warning: $(cat issued.err)"
if $root; then
	x probe >/dev/null 2>&1
	doctor
	chown 65534 "$pc"
	attempt "probe cache: owned by uid 65534"
	[ "$(issued)" != 4242 ] || no "$what: used"
	grep -q "owned by uid 65534" issued.err || no "$what: no warning: $(cat issued.err)"
fi
attempt "probe cache: an answer no probe gives (available 7) is refused"
x probe >/dev/null 2>&1
python3 - "$pc" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["calls"] = 4242
d["syscalls"][0]["available"] = 7
json.dump(d, open(sys.argv[1], "w"))
PY
[ "$(issued)" != 4242 ] || no "$what: used"
attempt "probe cache: a flag the syscall does not have is refused"
x probe >/dev/null 2>&1
python3 - "$pc" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["calls"] = 4242
for s in d["syscalls"]:
    if s["flags"]:
        s["flags"][0][1] = "NOT_A_FLAG_" + "\u001b[2J"
        break
json.dump(d, open(sys.argv[1], "w"))
PY
[ "$(issued)" != 4242 ] || no "$what: used"
attempt "probe cache: escapes in its text are shown escaped"
x probe >/dev/null 2>&1
doctor "$(printf '\033]0;pwned\007\033[2J')"
x probe openat2 >esc.out 2>&1
grep -q 'x1b]0;pwned' esc.out || no "$what: the doctored reason is not shown: $(cat esc.out)"
grep -q "$ESC" esc.out && no "$what: a raw ESC reached the output"
x probe openat2 --json >esc.json 2>&1
grep -q "$ESC" esc.json && no "$what: a raw ESC reached the JSON"
grep -q 'u001b' esc.json || no "$what: the JSON does not escape it as \\u001b"
attempt "probe cache: --no-cache rewrites it"
x probe >/dev/null 2>&1
doctor
x probe --no-cache >/dev/null 2>&1
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d["calls"] == 4242)' "$pc" ||
	no "$what: the doctored cache is still there"
[ "$(issued)" != 4242 ] || no "$what: the doctored answer is still served"

# ---- the catalogue and the current directory ----
attempt "a copied binary does not load ./data"
mkdir -p copy/bin copy/data
cp "$XSC" copy/bin/xsc
printf '{"syscalls": [], "structs": [], "flagsets": [{"name": "planted", "kind": "bits", "header": "h", "doc": "PLANTED", "flags": []}]}' >copy/data/planted.json
cp copy/data/planted.json copy/data/schema.json
(cd copy && env -u XSC_DATA ./bin/xsc show planted >out.txt 2>&1; echo "exit $?" >>out.txt)
(cd copy/bin && mkdir -p data && cp ../data/planted.json data/ && env -u XSC_DATA ./xsc show planted >>../out.txt 2>&1; echo "exit $?" >>../out.txt)
grep -q PLANTED copy/out.txt && no "$what: the planted ./data was loaded: $(cat copy/out.txt)"
grep -q "no catalogue found (looked in '$d/copy/bin/../share/xsc/data'" copy/out.txt ||
	no "$what: the error does not name where it looked: $(cat copy/out.txt)"
attempt "a binary in a build/ directory loads its tree's data/, not the current directory's"
mkdir -p tree/build tree/data
cp "$XSC" tree/build/xsc
cp "$top"/data/*.json tree/data/
(cd copy && env -u XSC_DATA ../tree/build/xsc show openat2 >../tree.out 2>&1) || no "$what: $(cat tree.out)"
grep -q '^openat2 ' tree.out || no "$what: $(head -3 tree.out)"

# ---- escapes in catalogue strings, header lines, file names and quoted input ----
mkdir esc
cp "$top"/data/*.json esc/
python3 - esc/openat2.json <<'PY'
import json, sys
p = sys.argv[1]
d = json.load(open(p))
evil = "\u001b]0;pwned\u0007\u001b[2J\u009b6n\u202e"
sc = d["syscalls"][0]
sc["summary"] += evil
sc["notes"] = [evil + " note"]
for st in d.get("structs", []):
    st["doc"] += evil
    st["fields"][0]["zero"] = evil
for fs in d.get("flagsets", []):
    fs["doc"] += evil
    fs["flags"][0]["doc"] = evil
json.dump(d, open(p, "w"))
PY
attempt "show: escapes in catalogue strings"
"$XSC" --data esc show openat2 >show.out 2>&1
"$XSC" --data esc show open_how >>show.out 2>&1
grep -q "$ESC" show.out && no "$what: a raw ESC reached the terminal"
grep -q 'x1b]0;pwned\\x07\\x1b\[2J\\xc2\\x9b6n\\xe2\\x80\\xae' show.out || no "$what: not shown escaped: $(grep -m1 pwned show.out)"
attempt "show --json: escapes as JSON escapes them"
"$XSC" --data esc show openat2 --json >show.json 2>&1
grep -q "$ESC" show.json && no "$what: a raw ESC in the JSON"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert "\x1b]0;pwned" in d["summary"]' show.json ||
	no "$what: the JSON does not decode to the catalogue's text"
attempt "lint: escapes in header lines and file names"
ename=$(printf 'evil\033[2J.h')
printf '#include <linux/types.h>\nstruct evil_\033]0;pwned\007 { __u32 a; };\n/* \033[31m */ struct x { __u32 a; __u64 b; };\n' >"$ename"
"$XSC" lint "$ename" >lint.out 2>&1
grep -q "$ESC" lint.out && no "$what: a raw ESC reached the terminal: $(cat -v lint.out | head -5)"
grep -q 'evil\\x1b\[2J.h' lint.out || no "$what: the file name is not shown escaped: $(head -3 lint.out)"
attempt "import, then show: escapes in a header's comments"
printf '#include <linux/types.h>\n/* \033]0;pwned\007 evil */\nstruct esc_args {\n\t__u64 flags; /* \033[2J wipe */\n};\n#define ESC_ARGS_SIZE_VER0 8\n' >esc.h
mkdir imp
"$XSC" import esc.h -o imp/esc.json >imp.out 2>&1 || no "$what: import failed: $(head -3 imp.out)"
grep -q "$ESC" imp/esc.json && no "$what: a raw ESC in the imported JSON"
"$XSC" --data imp show esc_args >impshow.out 2>&1
grep -q "$ESC" impshow.out && no "$what: a raw ESC reached the terminal"
grep -q 'x1b\]0;pwned' impshow.out || no "$what: the header's comment is not shown: $(head -3 impshow.out)"
attempt "lesson: escapes in a lesson that came with a catalogue"
mkdir lessons
printf '# Evil \033]0;pwned\007 lesson\n\nIntro \033[2J.\n\n## Step 1: \033[31mred\n\nDo \033]8;;http://x\033\\this\033]8;;\033\\.\n\n```xsc-check\nbuffer open_how\n```\n' >lessons/01-evil.md
printf 'lesson 1\nnew open_how\n' | XSC_LESSONS=$d/lessons "$XSC" --data "$top/data" >lesson.out 2>&1
grep -q "$ESC" lesson.out && no "$what: a raw ESC reached the terminal: $(cat -v lesson.out | head -5)"
grep -q 'x1b\[31mred' lesson.out || no "$what: the step is not shown: $(head -5 lesson.out)"
attempt "transcript: escapes in a command and its output"
x --transcript t.md --keep-going -c "$(printf 'list; show no\033[2Jsuch; show open_how')" >/dev/null 2>&1
[ -s t.md ] || no "$what: no transcript written"
grep -q "$ESC" t.md && no "$what: a raw ESC in the transcript: $(cat -v t.md | tail -5)"
attempt "errors quoting input: escapes in a name"
x show "$(printf 'no\033[2Jsuch')" >err.out 2>&1
grep -q "$ESC" err.out && no "$what: a raw ESC in the error"
grep -q 'no\\x1b\[2Jsuch' err.out || no "$what: $(cat err.out)"

attempt "catalogue cache: at most 8 kept, the least recently used removed"
rm -rf "$XDG_CACHE_HOME/xsc"
newest() { ls -t "$XDG_CACHE_HOME"/xsc/catalog-*.bin | head -1; }
x show openat2 >/dev/null 2>&1
first=$(newest)
for i in 1 2 3 4 5 6 7 8 9; do
	cp -r "$top/data" "many$i"
	"$XSC" --data "many$i" show openat2 >/dev/null 2>&1 || no "$what: many$i does not load"
	[ $i = 1 ] && second=$(newest)
	[ $i = 6 ] && x show openat2 >/dev/null 2>&1 # the first used again: now the most recent
done
[ "$(ls "$XDG_CACHE_HOME"/xsc/catalog-*.bin | wc -l)" = 8 ] || no "$what: $(ls "$XDG_CACHE_HOME"/xsc | wc -l) kept"
[ -e "$first" ] || no "$what: a cache used again was removed"
[ ! -e "$second" ] || no "$what: the least recently used was kept"

echo "$n attempts"
[ "$n" -ge 15 ] || no "only $n attempts"
exit $fail
