#!/bin/sh
# The static site: links and anchors resolve, no external requests, reproducible, atomic,
# the search index finds the names, the catalogue's hostile strings come out escaped.
set -eu
. "$top/tests/lib.sh"
need python3
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
"$XSC" --data "$top/data" site -o "$w/a/site" >/dev/null
python3 "$top/tests/sh/site-links.py" "$w/a/site"
# reproducible: the same bytes twice (into a different place: no paths leak in)
"$XSC" --data "$top/data" site -o "$w/b" >/dev/null
diff -r "$w/a/site" "$w/b"
# atomic: rebuilt in place, no temporary left beside it; an unrelated directory is refused
"$XSC" --data "$top/data" site -o "$w/a/site" >/dev/null
[ "$(ls -A "$w/a")" = site ] || { ls -A "$w/a"; echo "temporary left behind"; exit 1; }
mkdir -p "$w/other" && touch "$w/other/keep"
if "$XSC" --data "$top/data" site -o "$w/other" 2>"$w/err"; then echo "replaced a foreign directory"; exit 1; fi
grep -q "refusing to replace" "$w/err" && [ -e "$w/other/keep" ]
# the search index knows syscalls and flags; pages carry anchors and badges
grep -q '^\["openat2","Syscalls"' "$w/b/assets/search-index.js"
grep -q '^\["RESOLVE_CACHED","Flag","openat2","reference/syscalls/openat2.html#flag-RESOLVE_CACHED"\]' "$w/b/assets/search-index.js"
grep -q 'id="field-resolve"' "$w/b/reference/structs/open_how.html"
grep -q '<code class="since">since 5.6</code>' "$w/b/reference/syscalls/openat2.html"
grep -q 'CMARK_OPT_UNSAFE' "$top/cli/docs/md.c" && ! grep -q 'CMARK_OPT_UNSAFE' "$top"/cli/docs/site.c "$top"/cli/docs/termdoc.c

# hostile catalogue: a source tree of its own, with the real templates
mkdir -p "$w/h/data"
cp "$top/tests/fixtures/docs-hostile/hostile.json" "$w/h/data/"
ln -s "$top/site" "$w/h/site"
"$XSC" --data "$w/h/data" site -o "$w/h/out" >/dev/null
python3 "$top/tests/sh/site-links.py" "$w/h/out"
if grep -rn -e '<script>' -e '<img src=x' -e '<b ' -e 'href="javascript' "$w/h/out" --include='*.html'; then
	echo "hostile markup survived"; exit 1
fi
grep -q '&lt;script&gt;alert' "$w/h/out/reference/syscalls/evil.html"
"$XSC" --data "$w/h/data" docs -o "$w/h/ref" >/dev/null
if LC_ALL=C grep -rn "$(printf '[\001-\010\013\014\016-\037\177]')" "$w/h/ref"; then echo "control character in Markdown"; exit 1; fi
if grep -rnE '(^|[^\\])\]\(javascript' "$w/h/ref"; then echo "javascript: link in Markdown"; exit 1; fi
# the terminal renderer does not pass escapes through either
env -u NO_COLOR "$XSC" --data "$w/h/data" --color=always doc evil >"$w/h/doc.txt"
if LC_ALL=C grep -n "$(printf '\033')\[31m" "$w/h/doc.txt"; then echo "escape from the catalogue reached the terminal"; exit 1; fi
echo ok
