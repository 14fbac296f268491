# demo double-fetch: real threads; the naive copier must be fooled at least once, the
# separate-size design never (the counts vary, so they are checked from the JSON here)
set -u
for try in 1 2 3; do
	"$XSC" --data "$top/data" --json demo double-fetch >out 2>err || { cat err; exit 1; }
	python3 - out <<'PY' && exit 0
import json, sys
d = json.load(open(sys.argv[1]))
f = d["facts"]
assert f["separate_fooled"] == 0, f
assert f["fetch_once_fooled"] == 0, f
assert f["iterations"] > 0, f
if f["naive_fooled"] == 0:
    print("naive copier not fooled in", f["iterations"], "tries"); sys.exit(1)
PY
	python3 -c 'import json,sys; f=json.load(open("out"))["facts"]; sys.exit(f["separate_fooled"] != 0)' || exit 1
done
echo "the naive copier was never fooled in three runs"
exit 1
