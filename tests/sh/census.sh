#!/bin/sh
# The census (tests/census/census.py, make census) on the checked-in fixture: a site found and
# accounted, a comment, a string and a wrapper's own body that are no site, a site new in a
# tree, a pending interface counted unaccounted, a site the list lacks, a site the list claims
# in a tree that lacks it, --update; 'xsc docs' refuses a hostile census file precisely; and
# the real census of data/census/census.json when Debian's linux-source trees are there
# (KSRC_DIR/linux-source-V or build/census/src/linux-source-V): the list must equal the scan.
set -u
T=$(pwd)
fix=$top/tests/census/fixture
py="python3 $top/tests/census/census.py"
fail=0
ok() { printf '%s\n' "$2" | grep -q -- "$3" || { echo "FAIL $1: no '$3' in:"; printf '%s\n' "$2"; fail=1; }; }

out=$($py --scan-only "$fix/data" 1.0="$fix/tree-1.0" 2.0="$fix/tree-2.0"); rc=$?
[ $rc = 0 ] || { echo "FAIL scan-only: exit $rc"; fail=1; }
ok scan-only "$out" '2.0: 4 sites, 1 catalogued, 2 excluded, 1 unaccounted'
ok new-site "$out" 'kernel/newcall.c sys_newcall (unaccounted: pending: newcall)'
out=$($py "$fix/data" 1.0="$fix/tree-1.0" 2.0="$fix/tree-2.0"); rc=$?
[ $rc = 1 ] || { echo "FAIL pending: exit $rc, want 1"; fail=1; }
ok pending "$out" 'unaccounted: kernel/newcall.c sys_newcall: pending: newcall'

# a pending interface the catalogue holds now must say so
cp -r "$fix/data" "$T/d0"
sed -i 's/"pending": "newcall"/"pending": "openat2"/' "$T/d0/census/census.json"
out=$($py --scan-only "$T/d0" 1.0="$fix/tree-1.0" 2.0="$fix/tree-2.0"); rc=$?
[ $rc = 1 ] || { echo "FAIL pending-catalogued: exit $rc, want 1"; fail=1; }
ok pending-catalogued "$out" "pending 'openat2', which the catalogue holds now"

# accounted: 0 unaccounted, exit 0
cp -r "$fix/data" "$T/d1"
sed -i 's/"pending": "newcall"/"interface": "openat2"/' "$T/d1/census/census.json"
out=$($py "$T/d1" 1.0="$fix/tree-1.0" 2.0="$fix/tree-2.0"); rc=$?
[ $rc = 0 ] || { echo "FAIL accounted: exit $rc"; printf '%s\n' "$out"; fail=1; }
ok accounted "$out" '2.0: 4 sites, 2 catalogued, 2 excluded, 0 unaccounted'
# an interface the catalogue lacks is unaccounted, whatever the list says
sed -i 's/"interface": "openat2"}$/"interface": "nosuchcall"}/' "$T/d1/census/census.json"
out=$($py "$T/d1" 1.0="$fix/tree-1.0" 2.0="$fix/tree-2.0"); rc=$?
[ $rc = 1 ] || { echo "FAIL uncatalogued: exit $rc, want 1"; fail=1; }
ok uncatalogued "$out" "'nosuchcall' is not in the catalogue"

# a new caller in a tree: a site the census does not list; a site gone: listed, not found
cp -r "$fix/tree-2.0" "$T/t2"
printf 'static int extra(void __user *u, size_t n)\n{\n\treturn copy_struct_from_user(&x, sizeof(x), u, n);\n}\n' >>"$T/t2/drivers/fixed.c"
rm "$T/t2/fs/open.c"
out=$($py --scan-only "$fix/data" 1.0="$fix/tree-1.0" 2.0="$T/t2"); rc=$?
[ $rc = 1 ] || { echo "FAIL unlisted: exit $rc, want 1"; fail=1; }
ok unlisted "$out" 'drivers/fixed.c extra: a site the census does not list (copy_struct_from_user in 2.0)'
ok gone "$out" 'fs/open.c sys_openat2: listed in 2.0, not found there'
# --update writes the scan and keeps the accounts; the new site has none
cp -r "$fix/data" "$T/d2"
$py --update "$T/d2" 1.0="$fix/tree-1.0" 2.0="$T/t2" >/dev/null
out=$($py --scan-only "$T/d2" 1.0="$fix/tree-1.0" 2.0="$T/t2"); rc=$?
[ $rc = 0 ] || { echo "FAIL update: exit $rc"; printf '%s\n' "$out"; fail=1; }
ok update-new "$out" 'unaccounted: drivers/fixed.c extra: no account'
ok update-kept "$out" 'unaccounted: kernel/newcall.c sys_newcall: pending: newcall'
grep -q '"file": "fs/open.c", "function": "sys_openat2", "by": \["copy_struct_from_user"\], "in": \["1.0"\]' "$T/d2/census/census.json" ||
	{ echo "FAIL update: fs/open.c not narrowed to 1.0"; fail=1; }

# xsc docs: the census page, and a hostile census file refused with its place
mkdir -p "$T/cat/census"
cp "$top"/data/*.json "$T/cat/"
cp "$top/data/census/census.json" "$T/cat/census/"
"$XSC" --data "$T/cat" docs -o "$T/ref" >/dev/null || { echo "FAIL docs"; fail=1; }
grep -q 'unaccounted\*\* on' "$T/ref/census.md" || { echo "FAIL census.md has no figure"; fail=1; }
for bad in 's/"in": \["6.12", "7.3"\]/"in": ["7.3", "6.12"]/|sites\[[0-9]*\]: .in. must be ascending' \
	   's/"excluded": "a self-test/"interface": "x", "excluded": "a self-test/|a site has one account' \
	   's/"by": \["copy_struct_to_user"\]/"by": ["memcpy"]/|.by. names .memcpy., neither a helper nor a pattern' \
	   's/"function": "sys_openat2",/"function": "sys_openat2", "line": 3,/|sites\[[0-9]*\]: unknown key .line.' \
	   's/"trees": \[/"trees": [ "7.3",/|.trees. must be ascending'; do
	expr=${bad%%|*} want=${bad#*|}
	sed "$expr" "$top/data/census/census.json" >"$T/cat/census/census.json"
	cmp -s "$T/cat/census/census.json" "$top/data/census/census.json" && { echo "FAIL hostile: '$expr' changed nothing"; fail=1; continue; }
	got=$("$XSC" --data "$T/cat" docs -o "$T/ref2" 2>&1 >/dev/null) && { echo "FAIL hostile '$expr' accepted"; fail=1; }
	printf '%s\n' "$got" | grep -q "census.json: .*$want" || { echo "FAIL hostile '$expr': $got"; fail=1; }
done

# the README claims completeness only as the census page says it, for its newest tree
newest=$(sed -n 's/^\*\*\([0-9]*\) unaccounted\*\* on \([0-9.]*\),.*/\1 \2/p' "$top/docs/reference/census.md")
claim=$(tr '\n' ' ' <"$top/README.md" | grep -o 'every extensible interface[^:;]*' || true)
if [ -n "$claim" ]; then
	[ "${newest%% *}" = 0 ] || { echo "FAIL README claims '$claim' but the census counts ${newest%% *} unaccounted"; fail=1; }
	printf '%s\n' "$claim" | grep -q "Linux ${newest#* }" ||
		{ echo "FAIL README claims '$claim', the census is complete for ${newest#* }"; fail=1; }
fi

# the real census, when the trees are there
args=
for v in $(python3 -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))["trees"]))' "$top/data/census/census.json"); do
	t=
	for d in "${KSRC_DIR:-/nonexistent}/linux-source-$v" "$BUILD/census/src/linux-source-$v"; do
		[ -e "$d/Makefile" ] && t=$d && break
	done
	[ -n "$t" ] || { args=; break; }
	args="$args $v=$t"
done
if [ -n "$args" ]; then
	# shellcheck disable=SC2086
	out=$($py --scan-only "$top/data" $args) || { printf '%s\n' "$out"; echo "FAIL the census and the trees disagree (make census)"; fail=1; }
	printf '%s\n' "$out" | tail -1
else
	echo "census: the kernel trees are not here (make census fetches them); the fixture alone was run"
fi
exit $fail
