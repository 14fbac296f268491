#!/bin/sh
# The layers of cli/ (DESIGN.md §8): base < model < {kernel, sim, headers} < {teach, docs} <
# session < cmd < front. A file includes only its own folder and layers below its own, so the
# simulator never reaches the kernel layer (it answers a model/request.h request) and the
# model never reaches an engine. An include that must cross is listed below with its reason
# (none today); a new one fails, and so does a listed one that is gone (shrink the list).
set -eu
cd "$top"

# A layer's rank and name for a path under cli/ ("" when the path is in no layer).
layer() {
	case $1 in
	base/*) echo "0 base" ;;
	model/*) echo "1 model" ;;
	kernel/*) echo "2 kernel" ;;
	wasm/console.c) echo "6 front" ;; # the site console's entry points: a session, lines run as a script's
	wasm/demos.c) echo "3 teach" ;; # teach/demo.c's place in the WebAssembly build: no demos
	wasm/*) echo "2 kernel" ;; # wasm/: what the WebAssembly build has in place of processes, signals and guests
	sim/*) echo "2 sim" ;;
	headers/*) echo "2 headers" ;;
	teach/*) echo "3 teach" ;;
	docs/*) echo "3 docs" ;;
	session.[ch]) echo "4 session" ;;
	cmd/*) echo "5 cmd" ;;
	main.c | repl.[ch] | run.[ch] | guest/*) echo "6 front" ;; # guest/: the /init of the VM guests, a program of its own
	*) echo "" ;;
	esac
}

# FILE -> INCLUDE, and why it may cross.
allowed='
'

bad=0 seen=
for f in $(cd cli && find . -name '*.[ch]' | sed 's|^\./||' | sort); do
	from=$(layer "$f")
	if [ -z "$from" ]; then
		echo "cli/$f is in no layer: add it to tests/sh/layers.sh and DESIGN.md's module map"
		bad=1
		continue
	fi
	for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "cli/$f"); do
		case $inc in */*) ;; *) inc=$(dirname "$f")/$inc; inc=${inc#./} ;; esac
		[ -e "cli/$inc" ] || continue # the unit tests' and the C API's own headers
		to=$(layer "$inc")
		[ -n "$to" ] || continue
		[ "${from#* }" = "${to#* }" ] && continue # its own layer
		[ "${to%% *}" -lt "${from%% *}" ] && continue
		if printf '%s\n' "$allowed" | grep -q "^$f -> $inc:"; then
			seen="$seen|$f -> $inc"
			continue
		fi
		echo "cli/$f (${from#* }) includes $inc (${to#* }): a layer uses only the layers below it"
		bad=1
	done
done
printf '%s\n' "$allowed" | sed -n 's/^\(.* -> [^:]*\):.*/\1/p' | while read -r pair; do
	case "$seen|" in *"|$pair|"*) ;; *) echo "tests/sh/layers.sh allows '$pair', which no file does any more: remove it"; exit 1 ;; esac
done || bad=1
exit $bad
