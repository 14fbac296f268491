# Output directories and files, tried as an attacker (or a careless user) would: docs -o and
# site -o never write through a link, never delete what xsc did not write, keep a GitHub
# Pages checkout's .git/ and CNAME; transcripts and exports never clobber a file without
# --force nor change its mode; builds killed with SIGKILL leave nothing a second run keeps.
set -u
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
cd "$w" || exit 1
D="--data $top/data"
n=0 bad=0
# attempt NAME: counts one attempt; fail NAME WHY: marks it failed
attempt() { n=$((n + 1)); cur=$1; }
fail() { echo "FAIL $cur: $1"; [ -s err ] && sed 's/^/    /' err | head -5; bad=$((bad + 1)); }
victim() { # a directory of files nobody may touch
	rm -rf victim && mkdir victim && echo v1 >victim/page.md && echo '<svg/>' >victim/pic.svg && echo v3 >victim/other.md
}
victim_ok() { [ "$(cat victim/page.md)" = v1 ] && [ -e victim/pic.svg ] && [ -e victim/other.md ] || fail "victim changed"; }

attempt "docs -o DIR with DIR/structs a link to a victim"
victim
"$XSC" $D docs -o ref >/dev/null 2>err || fail "first run"
rm -rf ref/structs && ln -s ../victim ref/structs
"$XSC" $D docs -o ref >/dev/null 2>err && fail "wrote through the link"
grep -q "symbolic link" err || fail "no reason given"
victim_ok

attempt "docs -o a link to a victim directory"
ln -s victim vlink
"$XSC" $D docs -o vlink >/dev/null 2>err && fail "wrote into the link"
grep -q "symbolic link" err || fail "no reason given"
[ "$(ls victim | wc -l)" = 3 ] || fail "files appeared in the victim"
victim_ok

attempt "docs -o a directory it did not make"
mkdir notes && echo mine >notes/todo.md
"$XSC" $D docs -o notes >/dev/null 2>err && fail "wrote into a foreign directory"
grep -q "refusing" err && [ "$(ls notes)" = todo.md ] || fail "foreign directory changed"

attempt "docs: a marker that lists the victim and a page that is a link to it"
rm -f ref/structs && "$XSC" $D docs -o ref >/dev/null 2>err || fail "rebuild"
printf '../victim/page.md\n/etc/passwd-nope\nsyscalls/../../victim/other.md\n' >>ref/.xsc-docs
rm ref/syscalls/openat2.md && ln -s ../../victim/page.md ref/syscalls/openat2.md
"$XSC" $D docs -o ref >/dev/null 2>err || fail "run with a hostile marker"
victim_ok
[ -f ref/syscalls/openat2.md ] && [ ! -L ref/syscalls/openat2.md ] || fail "the page is not a file of its own"

attempt "docs removes only the pages it listed"
echo mine >ref/syscalls/my-notes.md
echo old >ref/syscalls/gone.md && echo 'syscalls/gone.md' >>ref/.xsc-docs
"$XSC" $D docs -o ref >/dev/null 2>err || fail "run"
[ -e ref/syscalls/my-notes.md ] || fail "a file it did not write was removed"
[ ! -e ref/syscalls/gone.md ] || fail "a page it wrote and no longer makes stayed"

attempt 'docs -o ""'
"$XSC" $D docs -o "" >/dev/null 2>err; rc=$?
[ $rc = 1 ] && grep -q "output directory name is empty" err || fail "exit $rc, not a clear error"

attempt 'site -o ""'
"$XSC" $D site -o "" >/dev/null 2>err; rc=$?
[ $rc = 1 ] && grep -q "output directory name is empty" err || fail "exit $rc, not a clear error"
[ -z "$(ls -A | grep tmp)" ] || fail "temporary left: $(ls -A | grep tmp)"

attempt "site -o over a site with .git/ and CNAME"
"$XSC" $D site -o pages >/dev/null 2>err || fail "first build"
mkdir -p pages/.git && echo ref >pages/.git/HEAD && echo example.org >pages/CNAME && echo mine >pages/reference/notes.txt
"$XSC" $D site -o pages >/dev/null 2>err || fail "rebuild"
[ "$(cat pages/CNAME)" = example.org ] && [ -e pages/.git/HEAD ] && [ -e pages/reference/notes.txt ] ||
	fail ".git/, CNAME or a file of the user's was lost"
[ -e pages/index.html ] || fail "no site"

attempt "site -o a bare GitHub Pages checkout"
mkdir -p gh/.git && echo example.org >gh/CNAME
"$XSC" $D site -o gh >/dev/null 2>err || fail "refused"
[ -e gh/.git ] && [ -e gh/CNAME ] && [ -e gh/index.html ] || fail "checkout not kept"

attempt "site -o a directory that is not a site"
mkdir other && echo keep >other/keep
"$XSC" $D site -o other >/dev/null 2>err && fail "replaced it"
[ "$(cat other/keep)" = keep ] || fail "file lost"

attempt "site -o a link to a directory, with and without a trailing slash"
victim
ln -s victim site-link
for o in site-link site-link/; do
	"$XSC" $D site -o "$o" >/dev/null 2>err && fail "$o: wrote through the link"
	grep -q "site: '$o' is a symbolic link; refusing to write through it" err || fail "$o: unclear reason"
done
victim_ok
[ "$(ls victim | wc -l)" = 3 ] || fail "files appeared in the victim"

attempt "site -o over a site whose assets/ is a link to a victim"
victim
rm -rf pages/assets && ln -s ../victim pages/assets
"$XSC" $D site -o pages >/dev/null 2>err && fail "built over it"
victim_ok
[ -e pages/.git/HEAD ] || fail "the old site was harmed"

attempt "--transcript over an existing file"
echo precious >t.md && chmod 640 t.md
"$XSC" $D --transcript t.md -c 'list' >/dev/null 2>err && fail "replaced it"
grep -q -- "--force" err || fail "no hint"
[ "$(cat t.md)" = precious ] && [ "$(stat -c %a t.md)" = 640 ] || fail "file or mode changed"

attempt "--transcript --force"
"$XSC" $D --force --transcript t.md -c 'new openat2' >/dev/null 2>err || fail "refused"
grep -q '^new openat2$' t.md && ! grep -q precious t.md || fail "not replaced whole"
[ "$(stat -c %a t.md)" = 640 ] || fail "mode changed to $(stat -c %a t.md)"

attempt "transcript over an existing file, and over a link to a victim"
victim
echo precious >u.md
ln -s victim/page.md l.md
printf 'transcript u.md\ntranscript l.md\nlist\n' | "$XSC" $D >/dev/null 2>err
[ "$(cat u.md)" = precious ] || fail "replaced without --force"
printf 'transcript l.md --force\nlist\ntranscript off\n' | "$XSC" $D >/dev/null 2>err
victim_ok
[ -L l.md ] && grep -q "symbolic link" err || fail "a script's transcript through a link not refused"
printf 'transcript l.md --force\nlist\ntranscript off\n' | "$XSC" $D --unsafe >/dev/null 2>err
victim_ok
[ -f l.md ] && [ ! -L l.md ] && grep -q '^list$' l.md || fail "the link was not replaced by a file of its own"

cat >design.xsc <<'XSC'
struct new frob_args
field add u64 flags
version add 8 7.0
syscall new frob struct=frob_args
XSC
attempt "export over existing files"
mkdir out && echo precious >out/frob.h && chmod 600 out/frob.h
{ cat design.xsc; echo 'export frob out'; } >e1.xsc
"$XSC" $D e1.xsc >/dev/null 2>err && fail "replaced them"
grep -q "exists; --force" err || fail "no hint"
[ "$(cat out/frob.h)" = precious ] && [ "$(stat -c %a out/frob.h)" = 600 ] || fail "file or mode changed"
[ "$(ls -A out)" = frob.h ] || fail "wrote some files: $(ls -A out)"

attempt "export --force"
{ cat design.xsc; echo 'export frob out --force'; } >e2.xsc
"$XSC" $D e2.xsc >/dev/null 2>err || fail "refused"
grep -q 'FROB_ARGS_SIZE_VER0' out/frob.h && [ "$(stat -c %a out/frob.h)" = 600 ] || fail "not replaced, or mode changed"
ls -A out | grep -q tmp && fail "temporary left"

attempt "SIGKILL during site, then a second build"
for i in 1 2 3 4 5 6; do
	"$XSC" $D site -o k/site >/dev/null 2>&1 &
	p=$!
	sleep "0.0$i"
	kill -9 $p 2>/dev/null
	wait $p 2>/dev/null
done
"$XSC" $D site -o k/site >/dev/null 2>err || fail "build after the kills"
[ "$(ls -A k)" = site ] || fail "left: $(ls -A k | tr '\n' ' ')"

attempt "a build killed between creating its marker and writing it: swept too"
mkdir -p km/.site.tmp.999999 km/.site.tmp.999998 && : >km/.site.tmp.999999/.xsc-site
echo mine >km/.site.tmp.999998/.xsc-site
"$XSC" $D site -o km/site >/dev/null 2>err || fail "build"
[ "$(ls -A km | tr '\n' ' ')" = ".site.tmp.999998 site " ] || fail "left: $(ls -A km | tr '\n' ' ')"

attempt "docs killed while writing its first marker: the next run goes on"
mkdir kt && : >kt/.xsc-tmp.999999..xsc-docs
"$XSC" $D docs -o kt >/dev/null 2>err || fail "refused"
[ ! -e kt/.xsc-tmp.999999..xsc-docs ] && [ -e kt/.xsc-docs ] || fail "left: $(ls -A kt | head -3 | tr '\n' ' ')"

attempt "SIGKILL during docs, then a second run"
for i in 1 2 3 4 5 6; do
	"$XSC" $D docs -o kd >/dev/null 2>&1 &
	p=$!
	sleep "0.0$i"
	kill -9 $p 2>/dev/null
	wait $p 2>/dev/null
done
"$XSC" $D docs -o kd >/dev/null 2>err || fail "run after the kills"
left=$(find kd -name '*tmp*')
[ -z "$left" ] || fail "left: $left"

attempt "a long transcript is appended, not rewritten"
i=0
while [ $i -lt 3000 ]; do echo 'size 24'; i=$((i + 1)); done >long.xsc
sed -i '1i new openat2' long.xsc
if command -v strace >/dev/null; then
	# LeakSanitizer cannot run under ptrace (make SANITIZE=1)
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -f -o trace -e trace=fsync,fdatasync,rename,renameat,renameat2 "$XSC" $D --transcript long.md long.xsc >/dev/null 2>err ||
		fail "run"
	[ "$(grep -c 'fsync\|rename' trace)" -le 3 ] || fail "$(grep -c fsync trace) fsyncs, $(grep -c rename trace) renames"
else
	"$XSC" $D --transcript long.md long.xsc >/dev/null 2>err || fail "run"
fi
[ "$(grep -c '^size 24$' long.md)" = 3000 ] || fail "commands missing from the transcript"

attempt "a script line without end (/dev/zero on stdin): bounded, one clear error"
timeout 20 "$XSC" $D </dev/zero >/dev/null 2>err # without a bound it grows until the timeout
rc=$?
[ $rc = 1 ] || fail "exit $rc, want 1"
grep -q '^<stdin>:1: line longer than 65536 bytes' err || fail "no clear error"

attempt "a device as a script or a lesson solution: refused"
timeout 20 "$XSC" $D /dev/zero >/dev/null 2>err && fail "/dev/zero ran"
grep -q "a device or socket, not a script file" err || fail "no reason given"
timeout 20 "$XSC" $D lesson 1 --check /dev/urandom >/dev/null 2>err && fail "/dev/urandom passed"
grep -q "a device or socket, not a script file" err || fail "no reason given"

attempt "a FIFO nobody writes to as a script or a solution: read as empty, no hang"
mkfifo idle.xsc
timeout 10 "$XSC" $D idle.xsc >/dev/null 2>err; rc=$?
[ $rc = 0 ] || fail "script: exit $rc"
timeout 10 "$XSC" $D lesson 1 --check idle.xsc >/dev/null 2>err; rc=$?
[ $rc = 1 ] && grep -q "not passed" err || fail "solution: exit $rc"

attempt "a lesson solution of 2 MB of short lines: read up to its bound"
i=0
while [ $i -lt 20000 ]; do printf 'size 24 %096d\n' 0; i=$((i + 1)); done >big.xsc
timeout 20 "$XSC" $D lesson 1 --check big.xsc >/dev/null 2>err && fail "passed"
grep -q "a solution longer than 1048576 bytes" err || fail "no bound"

# scripts are someone else's: they write only beneath the current directory
mkdir -p outside && echo keep >outside/rc && chmod 640 outside/rc
ln -s ../outside mine-link
for how in script dash-c stdin; do
	for cmd in "transcript $w/outside/rc --force" "transcript ../outside/rc --force" \
		"transcript mine-link/rc --force" "transcript nosuchdir/../../$(basename "$w")/outside/rc --force" \
		"save $w/outside/rc --force" "save mine-link/rc --force" "handout -o $w/outside/rc.html --force" \
		"docs --man $w/outside/rc --force" \
		"docs --completion $w/outside/rc --force" "docs -o $w/outside/ref" "site -o $w/outside/site" \
		"import $top/tests/headers/diff/clone_v0.h -o $w/outside/rc --force" \
		"measure openat2 -o $w/outside/rc --force" "measure openat2 -o mine-link/rc --force" \
		"measure openat2 --dir $w/outside --force" \
		"struct new a; field add u64 f; version add 8 7.0; export a $w/outside"; do
		attempt "$how: $cmd"
		case $how in
		script) echo "$cmd" >s.xsc && "$XSC" $D s.xsc >/dev/null 2>err ;;
		dash-c) "$XSC" $D -c "$cmd" >/dev/null 2>err ;;
		stdin) echo "$cmd" | "$XSC" $D >/dev/null 2>err ;;
		esac
		[ $? = 1 ] || fail "not refused"
		grep -q "a script writes only beneath the current directory" err || fail "no reason given"
		[ "$(cat outside/rc)" = keep ] && [ "$(stat -c %a outside/rc)" = 640 ] && [ "$(ls outside)" = rc ] ||
			fail "outside changed: $(ls outside)"
	done
done
attempt "a script's transcript, import -o and export beneath the current directory"
printf 'transcript sub/t.md\nimport %s -o sub/i.json\ndocs --man sub/x.1\nstruct new a; field add u64 f; version add 8 7.0; export a sub/exp\n' \
	"$top/tests/headers/diff/clone_v0.h" >s.xsc
mkdir -p sub && "$XSC" $D s.xsc >/dev/null 2>err || fail "refused"
[ -s sub/t.md ] && [ -s sub/i.json ] && [ -s sub/x.1 ] && [ -s sub/exp/a.json ] || fail "not written: $(ls sub)"
attempt "--force in a script replaces only beneath the current directory"
echo "import $top/tests/headers/diff/clone_v0.h -o sub/i.json" >s.xsc
"$XSC" $D s.xsc >/dev/null 2>err && fail "an existing file replaced without --force"
grep -q "exists; --force replaces it" err || fail "no reason given"
echo "import $top/tests/headers/diff/clone_v0.h -o sub/i.json --force" >s.xsc
"$XSC" $D s.xsc >/dev/null 2>err || fail "--force refused"
attempt "a lesson solution writes no files"
printf 'transcript sol.md\nnew open_how\n' >sol.xsc
"$XSC" $D lesson 1 --check sol.xsc >/dev/null 2>err
grep -q "writes no files" err && [ ! -e sol.md ] || fail "the solution wrote sol.md"
attempt "a lesson solution fetches no kernel into the cache"
printf 'kernels fetch 5.10\nnew open_how\n' >sol.xsc
XDG_CACHE_HOME=$PWD/kc timeout 60 "$XSC" $D lesson 1 --check sol.xsc >/dev/null 2>err
grep -q "kernels fetch: a solution checked by 'lesson --check' writes no files" err && [ ! -e kc/xsc/kernels ] ||
	fail "the solution fetched"
attempt "--unsafe on the user's command line lets a script write elsewhere"
echo "transcript $w/outside/u.md" >s.xsc
"$XSC" $D --unsafe s.xsc >/dev/null 2>err && [ -s outside/u.md ] || fail "refused"
attempt "the user's one-shot command writes where it is told, but not over a file without --force"
"$XSC" $D docs --man "$w/outside/rc" >/dev/null 2>err && fail "replaced without --force"
[ "$(cat outside/rc)" = keep ] || fail "outside/rc changed"
"$XSC" $D docs --man "$w/outside/m.1" >/dev/null 2>err && [ -s outside/m.1 ] || fail "refused"
attempt "docs --man over a symbolic link: the link replaced, never written through"
ln -s outside/rc manlink
"$XSC" $D docs --force --man manlink >/dev/null 2>err
[ "$(cat outside/rc)" = keep ] || fail "wrote through the link"
attempt "import -o an existing file without --force: refused"
"$XSC" $D import "$top/tests/headers/diff/clone_v0.h" -o outside/rc >/dev/null 2>err && fail "replaced"
[ "$(cat outside/rc)" = keep ] || fail "outside/rc changed"

echo "$n attempts, $bad failed"
[ $bad = 0 ]
