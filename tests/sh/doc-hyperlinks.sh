#!/bin/sh
# doc with colour on: OSC 8 hyperlinks to the site's anchors; with NO_COLOR none at all.
set -eu
NO_COLOR= && unset NO_COLOR
XSC_SITE_URL=https://xsc.example/site "$XSC" --data "$top/data" --color=always doc openat2 >out.txt
esc=$(printf '\033')
grep -q "${esc}]8;;https://xsc.example/site/reference/structs/open_how.html${esc}" out.txt
grep -q "${esc}]8;;https://xsc.example/site/reference/syscalls/openat2.html#flagset-resolve_flags${esc}" out.txt
grep -q "${esc}\[1m" out.txt
NO_COLOR=1 XSC_SITE_URL=https://xsc.example/site "$XSC" --data "$top/data" doc openat2 >plain.txt
if grep -q "$esc" plain.txt; then echo "escapes without colour"; exit 1; fi
echo ok
