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

# a catalogue of one's own (a teacher's interfaces) has no site/ beside it: the templates come
# from the build's (or the installed) location, or --templates DIR
mkdir -p "$w/own/cat" "$w/own/tpl"
cp "$top/data/openat2.json" "$top/data/constants.json" "$w/own/cat/"
"$XSC" --data "$w/own/cat" site -o "$w/own/out" >/dev/null || { echo "--data MYDIR site failed"; exit 1; }
[ -f "$w/own/out/reference/syscalls/openat2.html" ] && cmp -s "$w/own/out/assets/xsc.css" "$top/site/xsc.css" ||
	{ echo "--data MYDIR site: no page or not the build's templates"; exit 1; }
cp "$top/site/template.html" "$top/site/xsc.js" "$top/site/console.js" "$w/own/tpl/" && { cat "$top/site/xsc.css"; echo '/* the teacher s */'; } >"$w/own/tpl/xsc.css"
"$XSC" --data "$w/own/cat" site -o "$w/own/out2" --templates "$w/own/tpl" >/dev/null && grep -q 'the teacher s' "$w/own/out2/assets/xsc.css" ||
	{ echo "site --templates DIR not used"; exit 1; }
if "$XSC" --data "$w/own/cat" site -o "$w/own/out3" --templates "$w/own/none" 2>"$w/own/err"; then echo "a missing --templates DIR passed"; exit 1; fi
grep -q "cannot read '$w/own/none/template.html'" "$w/own/err" || { echo "the missing template not named"; cat "$w/own/err"; exit 1; }

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
