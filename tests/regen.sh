#!/bin/sh
# Rewrites the expected output of golden transcripts: tests/regen.sh 0023-help [...]
# Review the diff (git diff tests/cli) before committing: the new output becomes the truth.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
XSC=${XSC:-$top/build/xsc}
cd "$top/tests/cli"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for name in "$@"; do
	name=${name%.xsc}
	args=$(sed -n '1s/^#! *args: *//p' "$name.xsc")
	NO_COLOR=1 LC_ALL=C HOME=$tmp XDG_STATE_HOME=$tmp/state XDG_CACHE_HOME=$tmp/cache XSC_NO_CACHE=1 eval "\"\$XSC\" --data \"\$top/data\" $args \"\$name.xsc\"" >"$name.out" 2>&1 </dev/null && rc=0 || rc=$?
	echo "exit $rc" >>"$name.out"
done
