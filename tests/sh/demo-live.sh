# demos against the running kernel: sign-extension's live openat2 refuses the sign-extended
# resolve with EINVAL; lineage's live renameat2 runs in the sandbox
set -u
"$XSC" --data "$top/data" -c 'new openat2; call openat2' >probe.out 2>&1 || { echo "skip: live calls unavailable"; exit 77; }
grep -q 'ENOSYS\|EPERM' probe.out && { echo "skip: openat2 unavailable here"; exit 77; }
"$XSC" --data "$top/data" demo sign-extension >out 2>&1 || { cat out; exit 1; }
grep -q 'resolve=0xffffffff80000000 /\* RESOLVE_??? \*/}, 24) = -1 EINVAL' out || { cat out; exit 1; }
"$XSC" --data "$top/data" demo lineage >out 2>&1 || { cat out; exit 1; }
grep -q '0x80 /\* RENAME_?? \*/) = -1 EINVAL' out || { cat out; exit 1; }
"$XSC" --data "$top/data" --json demo no-op-query >out.json 2>err || { cat err; exit 1; }
python3 -c 'import json; d=json.load(open("out.json")); assert d["demo"]=="no-op-query" and d["steps"]' || exit 1
exit 0
