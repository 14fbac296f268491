#!/bin/sh
# The site's console in real headless Chromium from file:// (tests/sh/console-browser.js):
# a typed call answers as native xsc, TAB completes, a lesson step passes, "Try it" on a
# reference page; no console errors, no network; the console ready within 300 ms of the page's
# load and a simulated call within 1 ms (both printed); screenshots in build/screenshots/.
set -eu
. "$top/tests/lib.sh"
need_chromium
bundle=$top/build/wasm/xsc-bundle.js
[ -f "$bundle" ] || { echo "no $bundle (make wasm builds it; make wasm-deps installs its toolchain)"; exit 77; }
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
"$XSC" --data "$top/data" site -o "$w/site" >/dev/null
cp "$bundle" "$w/site/assets/"
mkdir -p "$BUILD/screenshots"
PW_MODULE=$pw/node_modules/playwright-core CHROMIUM=$chromium timeout 120 node "$top/tests/sh/console-browser.js" "$w/site" "$BUILD/screenshots"
