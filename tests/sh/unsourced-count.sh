#!/bin/sh
# The census page and the layout test count the facts about kernels >= 5.0 that have neither a
# source of their own nor an unverified mark (the layout test bounds such a since from above only):
# a catalogue where one such fact loses its source must be counted one higher by both.
set -u
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cp -r "$top/data" "$d/data"
count() {   # DATA: the census page's figure and compare.py's
	"$XSC" --data "$1" docs -o "$2" >/dev/null 2>&1 || { echo "xsc docs failed on $1"; exit 1; }
	page=$(sed -n 's/.*\*\*\([0-9]*\)\*\* about kernels 5.0 and later have no source of their own.*/\1/p' "$2/census.md")
	py=$(cd "$top/tests/layout" && python3 -c 'import sys, compare; print(len(compare.unsourced(sys.argv[1])))' "$1")
	echo "$page $py"
}
before=$(count "$top/data" "$d/ref1")
# openat2's RESOLVE_NO_XDEV (5.6) without its source
python3 - "$d/data/openat2.json" <<'PY' || exit 1
import json, sys
p = sys.argv[1]; d = json.load(open(p))
f = [f for fs in d["flagsets"] for f in fs["flags"] if f["name"] == "RESOLVE_NO_XDEV"][0]
assert "source" in f and not f.get("unverified"), "RESOLVE_NO_XDEV has no source to remove"
del f["source"]
json.dump(d, open(p, "w"))
PY
after=$(count "$d/data" "$d/ref2")
set -- $before $after
case "$1" in ''|*[!0-9]*) echo "the census page gives no count: '$before'"; exit 1 ;; esac
[ "$1" = "$2" ] || { echo "the census page says $1, compare.py $2"; exit 1; }
[ "$3" = "$4" ] || { echo "after the change the census page says $3, compare.py $4"; exit 1; }
[ "$3" -eq $(($1 + 1)) ] || { echo "a fact that lost its source is not counted: $1 before, $3 after"; exit 1; }
echo "$1 with no source of their own; $3 when RESOLVE_NO_XDEV loses its source"
