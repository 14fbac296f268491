# The README's REPL transcript is real: replay its commands and find every output line it
# shows, in order, in what xsc prints ("..." lines mark trimmed output).
set -eu
readme=$top/README.md
# every indented block holding "xsc> " lines is one part of a single REPL session
awk '
	/^    / { block = block $0 "\n"; next }
	{ if (block ~ /\n?    xsc> / && block !~ /\$ build\/xsc [a-z]/) printf "%s", block; block = "" }
	END { if (block ~ /    xsc> /) printf "%s", block }
' "$readme" | grep -v '^    \$ build/xsc$' >transcript
[ -s transcript ] || { echo "no REPL transcript in README.md"; exit 1; }
sed -n 's/^    xsc> //p' transcript >commands
"$XSC" --data "$top/data" <commands >actual 2>&1
grep -v '^    xsc> ' transcript | sed 's/^    //' | grep -v '^ *\.\.\.$' >expected
# every expected line must appear in order
awk 'BEGIN { n = 0; i = 0 } NR == FNR { want[n++] = $0; next } i < n && $0 == want[i] { i++ } END { if (i < n) { print "README line not produced: " want[i]; exit 1 } }' expected actual
echo "$(wc -l <expected) README lines found in order"
