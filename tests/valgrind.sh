#!/bin/sh
# make check, second half: valgrind memcheck over tests/valgrind.xsc (every command).
# 0 errors and 0 bytes definitely lost, in xsc and in its sandboxed children.
set -u
xsc=${1:-build/xsc}
top=$(cd "$(dirname "$0")/.." && pwd)
command -v valgrind >/dev/null || { echo "valgrind is not installed"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
HOME=$tmp XDG_STATE_HOME=$tmp/state XDG_CACHE_HOME=$tmp/cache NO_COLOR=1 \
	valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
	--show-leak-kinds=definite --track-fds=no --log-file="$tmp/vg.%p" \
	"$xsc" --data "$top/data" --keep-going "$top/tests/valgrind.xsc" >"$tmp/out" 2>&1
rc=$?
problems=$(cat "$tmp"/vg.* 2>/dev/null | grep -c -E 'ERROR SUMMARY: [1-9]|definitely lost: [1-9]|Invalid|uninitialised')
if [ $rc -eq 99 ] || [ "$problems" -gt 0 ]; then
	cat "$tmp"/vg.* | head -60
	echo "valgrind: problems found (exit $rc)"
	exit 1
fi
echo "valgrind: $(grep -c . "$tmp/out") lines of output, 0 errors, 0 bytes definitely lost ($(ls "$tmp"/vg.* | wc -l) processes)"
