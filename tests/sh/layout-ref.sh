#!/bin/sh
# The catalogue against the uapi headers of 6.1, 6.12 and the newest releases, from the headers
# 'make headers-ref' installed and imported (build/headers-ref; make test runs it first, from the
# machine's cache once fetched); skipped when there are none (no network the first time).
# tests/layout/compare.py says what is compared.
set -u
ref=${HEADERS_REF:-$BUILD/headers-ref}
case $ref in /*) ;; *) ref=$top/$ref ;; esac
# a version make test could not install would leave the others to pass alone: say so instead
failed=${BUILD:-$top/build}/headers-ref-failed.log
if [ -f "$failed" ]; then
	echo "make headers-ref failed, so not every version is there: $(grep -v '^Get:' "$failed" | tail -1)"
	exit 77
fi
python3 "$top/tests/layout/compare.py" "$top/data" "$ref"
