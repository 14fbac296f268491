#!/bin/sh
# The catalogue against the uapi headers of 6.1, 6.12 and the newest releases, from the headers
# 'make headers-ref' installed and imported (build/headers-ref); skipped when there are none, so
# the suite never needs the network. tests/layout/compare.py says what is compared.
set -u
ref=${HEADERS_REF:-$BUILD/headers-ref}
case $ref in /*) ;; *) ref=$top/$ref ;; esac
python3 "$top/tests/layout/compare.py" "$top/data" "$ref"
