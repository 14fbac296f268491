# The README's REPL transcript is real: replay its commands and find every output line it
# shows, in order, in what xsc prints ("..." lines mark trimmed output).
set -eu
readme=$top/README.md
awk '/^    \$ build\/xsc$/ { on = 1; next } on && /^$/ { on = 0 } on' "$readme" >transcript
[ -s transcript ] || { echo "no REPL transcript in README.md"; exit 1; }
sed -n 's/^    xsc> //p' transcript >commands
"$XSC" --data "$top/data" <commands >actual 2>&1
grep -v '^    xsc> ' transcript | sed 's/^    //' | grep -v '^ *\.\.\.$' >expected
# every expected line must appear in order
awk 'BEGIN { n = 0; i = 0 } NR == FNR { want[n++] = $0; next } i < n && $0 == want[i] { i++ } END { if (i < n) { print "README line not produced: " want[i]; exit 1 } }' expected actual
echo "$(wc -l <expected) README lines found in order"
