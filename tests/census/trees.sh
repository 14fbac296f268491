#!/bin/sh
# make census: Debian's linux-source trees of the census (6.1, 6.12 and the newest release by
# default), then tests/census/census.py over them. A tree is KSRC_DIR/linux-source-V when it is
# there, else OUT/src/linux-source-V, fetched once with apt-get download through a private apt
# state (tests/layout/debian-apt.sh, as make headers-ref) and extracted whole but for
# Documentation/ and tools/ (the census reads every *.c and *.h).
#
#   sh tests/census/trees.sh DATA OUT [CENSUS-OPTION...]   (CENSUS_VERSIONS picks versions)
set -eu
DATA=$1 OUT=$2
shift 2
MIRROR=${MIRROR:-http://deb.debian.org/debian}
SECURITY=${SECURITY:-http://deb.debian.org/debian-security}
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
say() { printf 'census: %s\n' "$*" >&2; }
APT="$OUT/apt"
. "$top/tests/layout/debian-apt.sh"

tree_of() {
	v=$1
	if [ -n "${KSRC_DIR:-}" ] && [ -e "$KSRC_DIR/linux-source-$v/Makefile" ]; then
		echo "$KSRC_DIR/linux-source-$v"
		return
	fi
	src="$OUT/src/linux-source-$v"
	if [ ! -e "$src/.debian-version" ]; then
		apt_setup
		mkdir -p "$OUT/src"
		rm -rf "$src"
		(cd "$OUT/src" && rm -f linux-source-"$v"_*.deb && apt_private download "linux-source-$v" >&2)
		deb=$(ls "$OUT/src"/linux-source-"$v"_*.deb)
		say "extracting $(basename "$deb")"
		dpkg-deb --fsys-tarfile "$deb" | tar -xO --wildcards '*/linux-source-*.tar.*' |
			tar -x -J -C "$OUT/src" --exclude="linux-source-$v/Documentation" --exclude="linux-source-$v/tools"
		dpkg-deb -f "$deb" Version >"$src/.debian-version"
		rm -f "$deb"
	fi
	echo "$src"
}

args=
for v in ${CENSUS_VERSIONS:-6.1 6.12 newest}; do
	[ "$v" = newest ] && v=$(newest 1)
	[ -n "$v" ] || { say "no linux-source package found"; exit 1; }
	args="$args $v=$(tree_of "$v")"
done
# shellcheck disable=SC2086
exec python3 "$top/tests/census/census.py" "$DATA" $args "$@"
