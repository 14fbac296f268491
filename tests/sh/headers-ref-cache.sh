# make headers-ref's cache of installed uapi headers ($XDG_CACHE_HOME/xsc/headers/V) against a
# damaged or raced entry, offline, with a stand-in kernel tree (KSRC_DIR) whose 'make headers'
# writes a few headers: an entry with its source line but no headers (emptied by hand, a disk
# that filled) is made again, not imported as nothing; an entry another run put in place while
# this one built is kept, not removed under that run's imports; a tree whose Makefile names
# another release than its directory is refused, as is an entry or import whose source line is
# not V's (its full version decides which backports apply); and the layout test fails on an
# import that holds nothing instead of comparing nothing and passing.
set -u
command -v python3 >/dev/null 2>&1 || { echo "python3 is missing"; exit 77; }
fail=0
cache=$PWD/cache
tree=$PWD/ksrc/linux-source-6.1
mkdir -p "$tree" "$cache/6.1/usr/include"
echo 'linux-source-6.1 6.1.1 (an emptied entry)' >"$cache/6.1/source"
# the stand-in tree: 'make headers' writes the two headers every release has; RACE=DIR also
# puts a whole entry at DIR first, as a second run finishing while this one builds would
cat >"$tree/Makefile" <<'EOF'
VERSION = 6
PATCHLEVEL = 1
SUBLEVEL = 99
headers:
	mkdir -p $(O)/usr/include/asm $(O)/usr/include/linux
	echo '#define __NR_read 0' >$(O)/usr/include/asm/unistd_64.h
	echo '#define _LINUX_TYPES_H' >$(O)/usr/include/linux/types.h
	if [ -n "$(RACE)" ]; then mkdir -p $(RACE) && cp -r $(O)/usr $(RACE)/ && echo 'linux-source-6.1 6.1.98 (the other run)' >$(RACE)/source; fi
EOF
run() { HEADERS_CACHE=$cache KSRC_DIR=$PWD/ksrc MIRROR=http://127.0.0.1:9 SECURITY=http://127.0.0.1:9 \
	sh "$top/tests/layout/headers-ref.sh" "$XSC" "$1" 6.1 >"$1.log" 2>&1; }

run out1 || { echo "FAIL: headers-ref.sh failed:"; sed 's/^/    /' out1.log; fail=1; }
grep -q '6.1.99' "$cache/6.1/source" ||
	{ echo "FAIL: the entry without headers was used as it was: $(cat "$cache/6.1/source")"; sed 's/^/    /' out1.log; fail=1; }
grep -q 'not a whole entry' out1.log || { echo "FAIL: the damaged entry went unsaid:"; sed 's/^/    /' out1.log; fail=1; }

# the race: the entry is gone when this run starts and whole when it ends
rm -rf "$cache/6.1"
RACE=$cache/6.1 run out2 || { echo "FAIL: headers-ref.sh failed when another run got there first:"; sed 's/^/    /' out2.log; fail=1; }
grep -q 'the other run' "$cache/6.1/source" 2>/dev/null ||
	{ echo "FAIL: the other run's entry was replaced under it: $(cat "$cache/6.1/source" 2>&1)"; fail=1; }
left=$(ls -A "$cache" "$cache/6.1" | grep '^\.' || true)
[ -z "$left" ] || { echo "FAIL: a scratch directory was left in the cache: $left"; fail=1; }

# a tree that is another release than its name says is refused, and nothing is cached
mkdir -p ksrc/linux-source-6.12
sed 's/^SUBLEVEL = 99/SUBLEVEL = 7/' "$tree/Makefile" >ksrc/linux-source-6.12/Makefile
if HEADERS_CACHE=$cache KSRC_DIR=$PWD/ksrc MIRROR=http://127.0.0.1:9 SECURITY=http://127.0.0.1:9 \
	sh "$top/tests/layout/headers-ref.sh" "$XSC" out3 6.12 >out3.log 2>&1; then
	echo "FAIL: a 6.1.7 tree was installed as 6.12's headers:"; sed 's/^/    /' out3.log; fail=1
elif ! grep -q 'is Linux 6.1.7, not 6.12' out3.log || [ -e "$cache/6.12" ]; then
	echo "FAIL: the misnamed tree was not refused as such:"; sed 's/^/    /' out3.log; ls -A "$cache" | sed 's/^/    /'; fail=1
fi

# an entry whose source line is another release's (hand-edited, garbage) is made again too:
# the layout test takes the full version from it
echo 'linux-source-6.1 9.9.9' >"$cache/6.1/source"
run out4 || { echo "FAIL: headers-ref.sh failed:"; sed 's/^/    /' out4.log; fail=1; }
grep -q '^linux-source-6.1 6.1.99$' "$cache/6.1/source" ||
	{ echo "FAIL: an entry whose source line says 9.9.9 was used as 6.1's: $(cat "$cache/6.1/source")"; fail=1; }

# an import that holds nothing: the layout test must fail and say why
mkdir -p ref/6.1/import
echo 'linux-source-6.1 6.1.99' >ref/6.1/source
if python3 "$top/tests/layout/compare.py" "$top/data" ref >cmp.out 2>&1; then
	echo "FAIL: the layout test passed on an empty import:"; sed 's/^/    /' cmp.out; fail=1
elif ! grep -q 'broken import compares nothing' cmp.out; then
	echo "FAIL: the layout test failed on an empty import without saying why:"; sed 's/^/    /' cmp.out; fail=1
fi
# an import whose source line is garbage: the layout test says so instead of a traceback
rm -rf ref && mkdir -p ref && cp -r out4/6.1 ref/6.1 && rm -f ref/6.1/usr && echo garbage >ref/6.1/source
if python3 "$top/tests/layout/compare.py" "$top/data" ref >cmp2.out 2>&1; then
	echo "FAIL: the layout test passed on a garbage source line:"; sed 's/^/    /' cmp2.out; fail=1
elif ! grep -q "does not say which 6.1 it is" cmp2.out; then
	echo "FAIL: a garbage source line was not reported as such:"; sed 's/^/    /' cmp2.out | tail -5; fail=1
fi
[ $fail -eq 0 ] && echo "headers cache: a damaged entry made again, a raced one kept, a misnamed tree, a garbage source line and an empty import refused"
exit $fail
