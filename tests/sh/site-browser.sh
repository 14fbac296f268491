#!/bin/sh
# Real headless Chromium over the built site from file:// (tests/sh/site-browser.js):
# no console errors, no network, search, dark mode; screenshots in build/screenshots/.
set -eu
chromium=${CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] || { echo "chromium is not installed (make deps installs it)"; exit 77; }
command -v node >/dev/null || { echo "node is not installed"; exit 77; }
pw=$BUILD/npm
if [ ! -d "$pw/node_modules/playwright-core" ]; then
	mkdir -p "$pw"
	( cd "$pw" && timeout 300 npm install --no-audit --no-fund --silent playwright-core >/dev/null 2>&1 ) ||
		{ echo "cannot install playwright-core with npm (no network?)"; exit 77; }
fi
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
"$XSC" --data "$top/data" site -o "$w/site" >/dev/null
mkdir -p "$BUILD/screenshots"
PW_MODULE=$pw/node_modules/playwright-core CHROMIUM=$chromium timeout 600 node "$top/tests/sh/site-browser.js" "$w/site" "$BUILD/screenshots"
