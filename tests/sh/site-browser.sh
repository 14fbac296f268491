#!/bin/sh
# Real headless Chromium over the built site from file:// (tests/sh/site-browser.js):
# no console errors, no network, search, dark mode; screenshots in build/screenshots/.
set -eu
. "$top/tests/lib.sh"
need_chromium
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
"$XSC" --data "$top/data" site -o "$w/site" >/dev/null
mkdir -p "$BUILD/screenshots"
PW_MODULE=$pw/node_modules/playwright-core CHROMIUM=$chromium timeout 600 node "$top/tests/sh/site-browser.js" "$w/site" "$BUILD/screenshots"
