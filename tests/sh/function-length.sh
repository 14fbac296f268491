#!/bin/sh
# Functions of cli/ are at most 80 lines (STYLE.md; issue 27), from the first line of the
# definition to its closing brace. The functions longer than that today are listed below
# with their length then; a new one fails, and so does a listed one that is gone or now
# short enough (shrink the list). Run with LIST=1 to print every function over 80 lines.
set -eu
all=$PWD/functions.txt
cd "$top"
MAX=80

# FILE FUNCTION LINES for every function definition of cli/ (a definition's brace and its
# closing brace stand alone at the start of a line, as the house style writes them).
lengths() {
	find cli -name '*.[ch]' | sort | while read -r f; do
		awk -v f="$f" '
		infn == 0 && /^[A-Za-z_]/ && !/^(typedef|struct [a-z_]+ \{|enum|union|extern|#)/ { sig = NR; line = $0 }
		infn == 0 && /^\{$/ { infn = 1; name = line; sub(/\(.*/, "", name); sub(/.*[ *]/, "", name); next }
		infn == 1 && /^\}/ { infn = 0; print f, name, NR - sig + 1 }
		' "$f"
	done
}

# FILE FUNCTION: its length when the list was made
long='
'
lengths >"$all"
if [ "${LIST:-}" = 1 ]; then
	awk -v m=$MAX '$3 > m' "$all" | sort -k3,3nr
	exit 0
fi
[ "$(wc -l <"$all")" -gt 500 ] || { echo "only $(wc -l <"$all") functions found in cli/: the scan is broken"; exit 1; }
bad=0
while read -r f name n; do
	[ "$n" -gt $MAX ] || continue
	if ! printf '%s\n' "$long" | grep -q "^$f $name "; then
		echo "$f: $name is $n lines, more than $MAX: split it along its seams"
		bad=1
	fi
done <"$all"
printf '%s\n' "$long" | while read -r f name was; do
	[ -n "$f" ] || continue
	n=$(awk -v f="$f" -v name="$name" '$1 == f && $2 == name { print $3; exit }' "$all")
	if [ -z "$n" ]; then
		echo "tests/sh/function-length.sh lists $f $name, which is gone: remove it"
		exit 1
	elif [ "$n" -le $MAX ]; then
		echo "$f: $name is $n lines now: remove it from tests/sh/function-length.sh's list"
		exit 1
	fi
done || bad=1
exit $bad
