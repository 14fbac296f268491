# The sys_features C API over build/libxsc.a: the example program builds and runs and prints
# openat2's bits; tests/probe/capi.c checks the API's edges (an unknown number is -1 with
# ENOENT, short maps, names and bits) and prints every syscall's words, which must equal
# `probe --format=bitmap` (both from the same per-boot cache); tests/probe/capi-host.c is a
# host program whose own child and process state the library must leave alone; without a
# catalogue: EIO.
set -u
. "$top/tests/lib.sh"
need_linux "not Linux"
need cc "no C compiler"
[ -f "$BUILD/libxsc.a" ] || { echo "no $BUILD/libxsc.a"; exit 1; }
scratch_dir
export XDG_CACHE_HOME=$d/cache
fail=0
no() { echo "FAIL $*"; fail=1; }
libs="$BUILD/libxsc.a $(pkg-config --libs jansson 2>/dev/null || echo -ljansson)"
# a sanitizer build's library needs the sanitizer runtimes (make check)
case $BUILD in *asan*) libs="$libs -fsanitize=address,undefined" ;; esac

# the example, built as its own header comment says (paths taken from $top), else as -Icli
ex=$top/docs/examples/sys_features.c
doc=$(sed -n 's/^ \*  *cc -o [^ ]* docs\/examples\/sys_features\.c \(.*\) build\/libxsc\.a.*/\1/p' "$ex" | head -1)
doc=$(echo "$doc" | sed "s|-I\([^/ ][^ ]*\)|-I$top/\1|g")
built=
for inc in "$doc" "-I$top/cli"; do
	[ -n "$inc" ] || continue
	if cc -o example "$ex" $inc $libs 2>cc.err; then built=$inc; break; fi
	echo "cc $ex $inc: $(grep -m1 error cc.err)"
done
if [ -z "$built" ]; then
	no "docs/examples/sys_features.c does not build as documented ($doc)"
	cc -o example "$ex" -iquote "$top/cli/kernel" -I"$top/cli" -I"$top/cli/kernel/include" $libs 2>cc.err || { head cc.err; exit 1; }
fi
XSC_DATA=$top/data ./example >example.out 2>example.err || no "the example exited $?: $(cat example.err)"
grep -q '^openat2: [0-9][0-9]* feature bits' example.out || no "the example printed no openat2 bits"
grep -Eq '^ +[0-9]+ yes +resolve:RESOLVE_CACHED$' example.out || no "the example does not show resolve:RESOLVE_CACHED as yes"
grep -q '^RESOLVE_CACHED is supported here' example.out || no "the example does not say RESOLVE_CACHED is supported"

# the API's edges, and every syscall's words
cc -std=c11 -Wall -Wextra -Werror -o capi "$top/tests/probe/capi.c" -I"$top/cli/kernel/include" $libs || { no "tests/probe/capi.c does not build"; exit 1; }
"$XSC" --data "$top/data" probe --format=bitmap >bitmap.txt || no "probe --format=bitmap exited $?"
names=$(awk '{ print $1 }' bitmap.txt)
XSC_DATA=$top/data ./capi $names >capi.out 2>capi.err || no "capi exited $?"
grep '^not ok' capi.out
grep -v '^ok\|^not ok' capi.out >capi.bitmap
if ! diff -u bitmap.txt capi.bitmap >diff.txt; then
	no "the C API's bitmaps differ from probe --format=bitmap"; cat diff.txt
fi
[ "$(grep -c '^ok' capi.out)" -ge 10 ] || no "capi ran fewer checks than expected"

# a host program: its own child's status survives a probe, its process state is untouched
cc -std=c11 -Wall -Wextra -Werror -o capi-host "$top/tests/probe/capi-host.c" -I"$top/cli/kernel/include" $libs || { no "tests/probe/capi-host.c does not build"; exit 1; }
XSC_DATA=$top/data XDG_CACHE_HOME=$d/host-cache ./capi-host >host.out 2>&1 || no "capi-host exited $?"
grep '^not ok' host.out
[ "$(grep -c '^ok' host.out)" -ge 10 ] || { no "capi-host ran fewer checks than expected"; cat host.out; }

# no catalogue: -1 with EIO
XSC_DATA=$d/nowhere ./capi openat2 >eio.out 2>/dev/null
grep -q '^openat2 error Input/output error' eio.out || no "without a catalogue: $(head -1 eio.out), expected -1 with EIO"
exit $fail
