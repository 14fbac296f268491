# Hostile fetches against a real HTTP server on 127.0.0.1 (tests/headers/httpd.py): a
# redirect to file: is refused (the file's text never printed), file: only when typed, a
# redirect to http://127.0.0.1 is followed, credentials in a URL reach the server but never a
# message, lint's output, --json or a transcript, and a cache another user could have
# planted is ignored.
set -u
. "$top/tests/lib.sh"
start_httpd # P, U
fail=0
no() { echo "FAIL $1"; fail=1; }
# run NAME WANT_RC ARGS...: runs xsc, all output in out.txt
run() {
	name=$1 want=$2; shift 2
	"$XSC" "$@" >out.txt 2>&1 </dev/null
	rc=$?
	[ $rc -eq "$want" ] || no "$name: exit $rc, want $want: $(head -c 400 out.txt)"
}
secret() { # NAME: the password appears nowhere in out.txt
	! grep -q hunter2 out.txt || no "$1: the password is shown: $(grep hunter2 out.txt | head -3)"
}
# 1. a 302 to file:///etc/passwd: refused, and nothing of the file shown
for cmd in lint import; do
	run "$cmd redirect to file" 1 $cmd "$U/redir-file"
	grep -q "redirect to 'file:///etc/passwd' refused" out.txt || no "$cmd redirect to file: $(cat out.txt)"
	! grep -q 'root:' out.txt || no "$cmd redirect to file: /etc/passwd was printed"
done
run "diff redirect to file" 1 diff "$U/redir-file" "$U/ok.h"
! grep -q 'root:' out.txt || no "diff redirect to file: /etc/passwd was printed"
# 2. a redirect to a file: URL of a real header: refused too (file: only as typed)
run "redirect to a header file" 1 import "$U/redir-file-ok"
grep -q "refused (http and https only)" out.txt || no "redirect to a header file: $(cat out.txt)"
# 3. file: typed by the user is fine; an http redirect to 127.0.0.1 is followed
run "typed file URL" 0 import "file://$top/tests/headers/diff/clone_v0.h"
run "redirect to http://127.0.0.1" 0 import "$U/redir-abs"
grep -q '"clone_args"' out.txt || no "redirect to http://127.0.0.1: no clone_args"
# 4. credentials: sent, never shown
run "credentials accepted" 0 import "http://user:hunter2@127.0.0.1:$P/auth.h"
grep -q '"clone_args"' out.txt || no "credentials accepted: no clone_args"
secret "import with credentials"
run "credentials, 404" 1 import "http://user:hunter2@127.0.0.1:$P/missing"
grep -q "http://user:\*\*\*@127.0.0.1:$P/missing" out.txt || no "credentials, 404: not redacted as user:***: $(cat out.txt)"
secret "404 with credentials"
run "lint with credentials" 1 lint "http://user:hunter2@127.0.0.1:$P/lint/hole.h"
grep -q "^http://user:\*\*\*@127.0.0.1:$P/lint/hole.h:[0-9]*:[0-9]*: error" out.txt || no "lint with credentials: $(head -3 out.txt)"
secret "lint with credentials"
run "lint --json with credentials" 1 --json lint "http://user:hunter2@127.0.0.1:$P/lint/hole.h"
grep -q '"file": "http://user:\*\*\*@' out.txt || no "lint --json with credentials: $(head -5 out.txt)"
secret "lint --json with credentials"
run "a token as user name" 1 lint "http://ghp_hunter2@127.0.0.1:$P/lint/hole.h"
secret "a token as user name"
run "diff with credentials" 0 diff "http://user:hunter2@127.0.0.1:$P/auth.h" "$U/ok.h"
secret "diff with credentials"
run "diff --json with credentials" 0 --json diff "http://user:hunter2@127.0.0.1:$P/auth.h" "http://user:hunter2@127.0.0.1:$P/ok.h"
grep -q '"old": "http://user:\*\*\*@' out.txt || no "diff --json with credentials: $(head -5 out.txt)"
secret "diff --json with credentials"
run "redirect to credentials" 0 import "$U/redir-creds"
secret "redirect to credentials"
run "refused with credentials" 1 import "ftp://user:hunter2@127.0.0.1:$P/x.h"
secret "refused with credentials"
# transcripts record the command line: redacted there too
printf 'lint http://user:hunter2@127.0.0.1:%s/lint/hole.h\n' "$P" >t.xsc
"$XSC" --transcript t.md --keep-going t.xsc >out.txt 2>&1
[ -s t.md ] || no "transcript: not written: $(cat out.txt)"
cp t.md out.txt
secret "transcript"
grep -q "user:\*\*\*@" t.md || no "transcript: the command line is missing"
printf 'diff --json http://user:hunter2@127.0.0.1:%s/auth.h http://127.0.0.1:%s/ok.h\n' "$P" "$P" >t.xsc
"$XSC" --transcript t2.md t.xsc >out.txt 2>&1
grep -q '"old": "http://user:\*\*\*@' t2.md || no "transcript of diff --json: $(cat out.txt t2.md | head -20)"
cp t2.md out.txt
secret "transcript of diff --json"
# the REPL's history records what was typed: redacted there too (tmux gives it a terminal)
if command -v tmux >/dev/null 2>&1; then
	unset TMUX
	export TMUX_TMPDIR=$PWD XDG_STATE_HOME=$PWD/state
	sock=xsc-fetch-$$
	tmux -L "$sock" -f /dev/null new-session -d -s xsc -x 200 -y 50 "$XSC"
	sleep 1
	tmux -L "$sock" send-keys -t xsc -l "lint http://user:hunter2@127.0.0.1:$P/lint/hole.h"
	tmux -L "$sock" send-keys -t xsc Enter
	sleep 2
	tmux -L "$sock" send-keys -t xsc C-d
	i=0
	while tmux -L "$sock" has-session -t xsc 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
	tmux -L "$sock" kill-server >/dev/null 2>&1
	cp state/xsc/history out.txt 2>/dev/null || : >out.txt
	grep -q "lint http://user:\*\*\*@127.0.0.1" out.txt || no "history: the command is missing: $(cat out.txt)"
	secret "history"
fi
# 5. the cache: used when it is the user's own, ignored (with a warning) when others may write
run "cache fill" 0 import --cache cache "$U/ok.h"
[ "$(stat -c %a cache)" = 700 ] || no "cache: made with mode $(stat -c %a cache), want 700"
f=$(ls cache/* | head -1)
printf 'struct planted { int x; };\n' >"$f"
run "own cache used" 0 import --cache cache "$U/ok.h"
grep -q planted out.txt || no "own cache: not used"
chmod 666 "$f"
run "cache file writable by others" 0 import --cache cache "$U/ok.h"
grep -q "ignoring the cache file" out.txt || no "cache file writable by others: no warning: $(head -3 out.txt)"
grep -q '"clone_args"' out.txt && ! grep -q planted out.txt || no "cache file writable by others: used"
chmod 600 "$f"
printf 'struct planted { int x; };\n' >"$f"
chmod 777 cache
run "cache dir writable by others" 0 import --cache cache "$U/ok.h"
grep -q "ignoring the cache directory" out.txt || no "cache dir writable by others: no warning"
! grep -q planted out.txt || no "cache dir writable by others: used"
chmod 700 cache
ln -s cache cache-link
run "cache dir a symlink" 0 import --cache cache-link "$U/ok.h"
! grep -q planted out.txt || no "cache dir a symlink: used"
rm -f "$f"
# a script's --cache is files written: only beneath the current directory (cron.d would run them)
mkdir -p outside
for cmd in "import --cache $PWD/outside/c $U/ok.h" "lint --cache ../c $U/ok.h" "diff --cache $PWD/outside/c $U/ok.h $U/ok.h"; do
	echo "$cmd" >c.xsc
	run "a script's $cmd" 1 c.xsc
	grep -q "a script writes only beneath the current directory" out.txt || no "a script's $cmd: $(head -3 out.txt)"
	[ ! -e outside/c ] && [ ! -e ../c ] || no "a script's $cmd: the cache was written"
done
echo "import --cache c2 $U/ok.h" >c.xsc
run "a script's --cache beneath the current directory" 0 c.xsc
[ -n "$(ls c2)" ] || no "a script's --cache beneath the current directory: nothing cached"
ln -s /etc/passwd "$f"
run "cache file a symlink" 0 import --cache cache "$U/ok.h"
! grep -q 'root:' out.txt || no "cache file a symlink: followed"
exit $fail
