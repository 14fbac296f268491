# make static (issue 28): build/xsc-static runs on a machine without a data directory, from
# an empty directory with a stripped environment: the catalogue, the lessons, the pages and
# the site's templates come from inside it, and the scratch directory it unpacks them into
# is gone when it ends.
set -u
fail=0
S=${BUILD:-$top/build}/xsc-static
if [ ! -x "$S" ]; then
	echo "no $S (make static builds it; make test does)"
	exit 77
fi
bad() { echo "FAIL $1"; shift; for f in "$@"; do sed 's/^/    | /' "$f" | head -20; done; fail=1; }
mkdir -p room/tmp room/home
cp "$S" room/xsc
cd room || exit 1
file xsc 2>/dev/null | grep -q 'statically linked' || ldd ./xsc 2>&1 | grep -q 'not a dynamic executable' || bad "xsc-static is not static"
x() { env -i HOME="$PWD/home" TMPDIR="$PWD/tmp" ./xsc "$@"; }
x list >out 2>err && grep -q '^openat2 .* 437 .*extensible' out || bad "list" out err
x -c 'target sim 5.4; new clone3; set cgroup 3; call clone3' >out 2>err || bad "a simulated call" out err
grep -q 'byte 80 is nonzero and a 5.4 kernel.s struct ends at 64' out || bad "the simulated answer" out
x lesson >out 2>err && grep -q 'The size is the version' out || bad "the lessons" out err
x lesson 2 --solution >out 2>err && grep -q '^size' out || bad "a lesson's solution" out err
x show openat2 >out 2>err && grep -q 'OPEN_HOW_SIZE_VER0' out || bad "show" out err
# the pages and the site: cmark-gfm is linked in, so they render where it is not installed
# (strace shows that no libcmark is opened)
x doc size-and-versions >out 2>err && grep -qi 'size' out || bad "doc" out err
if command -v strace >/dev/null 2>&1; then
	env -i HOME="$PWD/home" TMPDIR="$PWD/tmp" strace -f -e trace=open,openat -o trace ./xsc doc size-and-versions >out 2>err ||
		bad "doc under strace" out err
	! grep -q 'libcmark' trace || bad "doc opened a shared cmark-gfm" trace
	rm -f trace
fi
x site -o site >out 2>err && [ -f site/index.html ] && [ -f site/assets/xsc.css ] && ls site/guide | grep -q html ||
	bad "site" out err
# a catalogue of one's own: the templates from inside the binary
mkdir -p mine && cp "$top/data/openat2.json" "$top/data/constants.json" mine/
x --data mine site -o own >out 2>err && [ -f own/assets/xsc.css ] && [ -f own/reference/syscalls/openat2.html ] ||
	bad "--data MYDIR site" out err
[ -z "$(ls tmp)" ] || bad "scratch left in TMPDIR: $(ls tmp)"
exit $fail
