# handout (issue 28): the room's cheat sheet, made from the catalogue and the command table,
# printed to PDF by headless Chromium and rendered back with poppler: two pages, the text a
# student needs on them.
set -u
fail=0
D="--data $top/data"
bad() { echo "FAIL $1"; shift; for f in "$@"; do sed 's/^/    | /' "$f" | head -20; done; fail=1; }
# HTML needs no browser
"$XSC" $D handout >h.html 2>err || bad "handout to standard output" err
for want in 'copy_struct_from_user' 'E2BIG' 'OPEN_HOW\|open_how' 'clone_args' '<td class=m>call '; do
	grep -q "$want" h.html || bad "no '$want' in the HTML"
done
"$XSC" $D handout -o h.txt >/dev/null 2>err && bad "a FILE neither .pdf nor .html"
grep -q "neither FILE.pdf nor FILE.html" err || bad "the refused name" err
"$XSC" $D handout -o h.html >/dev/null 2>err && bad "an existing file replaced"
grep -q "'h.html' exists; --force replaces it" err || bad "the refusal" err
chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ] || ! command -v pdftoppm >/dev/null || ! command -v pdftotext >/dev/null; then
	echo "chromium or poppler-utils is not installed (make deps installs them)"
	[ $fail = 0 ] && exit 77
	exit $fail
fi
CHROMIUM=$chromium timeout 120 "$XSC" $D handout -o h.pdf >out 2>err || bad "handout -o h.pdf" out err
pdftoppm -r 40 -png h.pdf page 2>err || bad "pdftoppm" err
n=$(ls page*.png 2>/dev/null | wc -l)
[ "$n" = 2 ] || bad "the handout renders to $n pages, not 2"
pdftotext -layout h.pdf h.txt 2>err || bad "pdftotext" err
for want in 'cheat sheet' 'copy_struct_from_user' 'E2BIG' 'EINVAL' 'clone_args' 'target' 'matrix SYSCALL'; do
	grep -q "$want" h.txt || bad "no '$want' in the printed handout"
done
exit $fail
