#!/bin/sh
# xsc.1 comes from Markdown through cmark's man renderer and renders with man -l;
# the bash completion is generated from the command table and is valid bash.
set -eu
. "$top/tests/lib.sh"
need man "man (man-db) is missing"
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
SOURCE_DATE_EPOCH=0 "$XSC" --data "$top/data" docs --man "$w/xsc.1" --completion "$w/xsc.bash"
head -1 "$w/xsc.1" | grep -q '^\.TH "XSC" "1" "1970-01-01"'
MANWIDTH=80 man -l "$w/xsc.1" >"$w/man.txt" 2>"$w/man.err"
[ ! -s "$w/man.err" ] || { cat "$w/man.err"; exit 1; }
for c in $("$XSC" help | sed -n 's/^  \([a-z][a-z]*\).*/\1/p'); do
	grep -q "$c" "$w/man.txt" || { echo "man page lacks '$c'"; exit 1; }
done
grep -q 'EXIT STATUS' "$w/man.txt"
bash -n "$w/xsc.bash"
# completion: commands, then catalogue names for show
out=$(bash -c '. "$1"; COMP_WORDS=(xsc sh); COMP_CWORD=1; _xsc; echo "${COMPREPLY[@]}"' _ "$w/xsc.bash")
[ "$out" = "show" ] || { echo "completion of 'sh': '$out'"; exit 1; }
out=$(bash -c '. "$1"; COMP_WORDS=(xsc show opena); COMP_CWORD=2; _xsc; echo "${COMPREPLY[@]}"' _ "$w/xsc.bash")
[ "$out" = "openat2" ] || { echo "completion of 'show opena': '$out'"; exit 1; }
echo ok
