# fetch: a real HTTP server on 127.0.0.1 (tests/headers/httpd.py) and file:// URLs: 200,
# 404, redirects (allowed and to a forbidden scheme), a timeout, oversized bodies, gzip,
# refused connections, bad URLs, unsupported protocols and the cache.
set -u
. "$top/tests/lib.sh"
start_httpd # U
fail=0
ok() { # NAME ARGS...: must succeed and import clone_args
	name=$1; shift
	"$XSC" import "$@" >got.json 2>err.txt || { echo "FAIL $name: $(cat err.txt)"; fail=1; return; }
	grep -q '"clone_args"' got.json || { echo "FAIL $name: no clone_args in the output"; fail=1; }
}
bad() { # NAME PATTERN ARGS...: must fail with exit 1 and a message matching PATTERN
	name=$1 pat=$2; shift 2
	"$XSC" import "$@" >/dev/null 2>err.txt
	rc=$?
	[ $rc -eq 1 ] || { echo "FAIL $name: exit $rc, want 1"; fail=1; }
	grep -q -- "$pat" err.txt || { echo "FAIL $name: message '$(cat err.txt)' lacks '$pat'"; fail=1; }
}
ok "200" "$U/ok.h"
ok "redirect to http" "$U/redir-http"
ok "gzip" "$U/gz.h"
ok "file URL" "file://$top/tests/headers/diff/clone_v0.h"
bad "404" "HTTP 404 not found" "$U/missing"
bad "redirect to ftp" "refused" "$U/redir-ftp"
bad "timeout" "timed out after 500 ms" --timeout 500 "$U/slow"
bad "too large" "too large (more than 1000 bytes)" --max-size 1000 "$U/big"
bad "too large, no length" "too large (more than 1000 bytes)" --max-size 1000 "$U/big-chunked"
bad "unsupported protocol" "unsupported protocol 'ftp'" "ftp://127.0.0.1/x.h"
bad "gopher" "unsupported protocol 'gopher'" "gopher://127.0.0.1/x.h"
bad "bad URL" "bad URL" "http://[::1/x.h"
bad "missing file URL" "cannot read the file" "file:///nonexistent/xsc/x.h"
# a closed port: take one from the kernel, then close it
cport=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
bad "refused" "connection refused" "http://127.0.0.1:$cport/x.h"
"$XSC" import --timeout abc "$U/ok.h" >/dev/null 2>err.txt
[ $? -eq 2 ] && grep -q -- "--timeout" err.txt || { echo "FAIL bad option: $(cat err.txt)"; fail=1; }
# the cache: a second fetch works with the server gone
ok "cache fill" --cache cache "$U/ok.h"
kill $srv 2>/dev/null; wait $srv 2>/dev/null
ok "from the cache" --cache cache "$U/ok.h"
# no progress bar off a terminal
[ -s err.txt ] && { echo "FAIL: stderr not empty off a terminal: $(cat err.txt)"; fail=1; }
exit $fail
