#!/bin/sh
# The site's console in real headless Chromium from file:// (tests/sh/console-browser.js):
# a typed call answers as native xsc, TAB completes, a lesson step passes, "Try it" on a
# reference page; no console errors, no network; the console ready within 300 ms of the page's
# load and a simulated call within 1 ms (both printed); screenshots in build/screenshots/.
set -eu
chromium=${CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] || { echo "chromium is not installed (make deps installs it)"; exit 77; }
command -v node >/dev/null || { echo "node is not installed"; exit 77; }
bundle=$top/build/wasm/xsc-bundle.js
[ -f "$bundle" ] || { echo "no $bundle (make wasm builds it; make wasm-deps installs its toolchain)"; exit 77; }
pw=$BUILD/npm
if [ ! -d "$pw/node_modules/playwright-core" ]; then
	mkdir -p "$pw"
	( cd "$pw" && timeout 300 npm install --no-audit --no-fund --silent playwright-core >/dev/null 2>&1 ) ||
		{ echo "cannot install playwright-core with npm (no network?)"; exit 77; }
fi
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
"$XSC" --data "$top/data" site -o "$w/site" >/dev/null
cp "$bundle" "$w/site/assets/"
mkdir -p "$BUILD/screenshots"
PW_MODULE=$pw/node_modules/playwright-core CHROMIUM=$chromium timeout 120 node "$top/tests/sh/console-browser.js" "$w/site" "$BUILD/screenshots"
