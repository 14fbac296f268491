#!/bin/sh
# make headers-ref: the uapi headers of Linux 6.1, 6.12 and the two newest releases Debian ships,
# installed from Debian's linux-source packages with the kernel's own 'make headers', and each
# catalogue header imported from them with 'xsc import' (the layouts the compiler gives). The
# layout test (tests/sh/layout-ref.sh, tests/layout/compare.py) holds the catalogue against them.
#
#   sh tests/layout/headers-ref.sh XSC OUT [VERSION...]     (default: 6.1 6.12 previous newest)
#
# The installed headers depend on the kernel release only, so they are kept once per machine in
# CACHE/V (HEADERS_CACHE, default $XDG_CACHE_HOME/xsc/headers, like 'kernels fetch'): usr/include
# and source (the package and its version), written whole or not at all. The imports depend on
# this xsc and the catalogue's list of headers, so they are redone per build: OUT/V/import/*.json,
# with OUT/V/usr pointing at the cache and OUT/V/headers the list they were made for.
# Sources: an already extracted tree named by KSRC_DIR (a directory holding linux-source-V/ trees)
# is used as it is; otherwise the package is fetched with apt-get download through a private apt
# state directory under OUT/apt (bookworm and bookworm-security for 6.1 and 6.12,
# trixie-backports for the newest two, 7.2 and 7.3 today), so the system's apt configuration is
# never changed, and only what 'make headers' reads is extracted. Needs the network the first
# time only: offline, "previous" and "newest" are the two newest releases in the cache.
set -eu
XSC=$1 OUT=$2
shift 2
MIRROR=${MIRROR:-http://deb.debian.org/debian}
SECURITY=${SECURITY:-http://deb.debian.org/debian-security}
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
XSC=$(cd "$(dirname "$XSC")" && pwd)/$(basename "$XSC")
CACHE=${HEADERS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/xsc/headers}
mkdir -p "$CACHE"

say() { printf 'headers-ref: %s\n' "$*" >&2; }

# apt_private, apt_setup and newest: a private apt state under $APT (tests/layout/debian-apt.sh)
APT="$OUT/apt"
. "$top/tests/layout/debian-apt.sh"

# The tree of linux-source-V: KSRC_DIR's, else the package's, extracted under OUT/src.
tree_of() {
	v=$1
	if [ -n "${KSRC_DIR:-}" ] && [ -e "$KSRC_DIR/linux-source-$v/Makefile" ]; then
		echo "$KSRC_DIR/linux-source-$v"
		return
	fi
	src="$OUT/src/linux-source-$v"
	if [ ! -e "$src/Makefile" ]; then
		apt_setup
		mkdir -p "$OUT/src"
		(cd "$OUT/src" && rm -f linux-source-"$v"_*.deb && apt_private download "linux-source-$v" >&2)
		deb=$(ls "$OUT/src"/linux-source-"$v"_*.deb)
		say "extracting what 'make headers' reads from $(basename "$deb")"
		# the package holds usr/src/linux-source-V.tar.xz; take the top level and the
		# directories headers reads (6.1's archscripts build relocs from tools/include), not
		# the 1.5 GB of drivers
		dpkg-deb --fsys-tarfile "$deb" | tar -xO --wildcards '*/linux-source-*.tar.*' |
			tar -x -J -C "$OUT/src" "linux-source-$v/Makefile" "linux-source-$v/Kbuild" \
				"linux-source-$v/Kconfig" "linux-source-$v/scripts" "linux-source-$v/include" \
				"linux-source-$v/arch/x86" "linux-source-$v/usr" "linux-source-$v/tools/include"
		dpkg-deb -f "$deb" Version >"$src/.debian-version"
		rm -f "$deb"
	fi
	echo "$src"
}

# The catalogue's headers (a struct's, a flag set's or a call's "header" under linux/ or asm*/),
# and x86_64's syscall numbers.
cat_headers() {
	python3 - "$top/data" <<'PY'
import json, os, sys
hs = set()
for fn in sorted(os.listdir(sys.argv[1])):
    if fn.endswith(".json") and fn != "schema.json":
        d = json.load(open(os.path.join(sys.argv[1], fn)))
        for k in ("structs", "flagsets", "syscalls"):
            for e in d.get(k, []):
                h = e.get("header", "")
                if h.startswith(("linux/", "asm-generic/", "asm/")):
                    hs.add(h)
hs.add("asm/unistd_64.h")  # the syscall numbers
print("\n".join(sorted(hs)))
PY
}

# Whether DIR is a whole cache entry: its source line naming V, and the installed headers every release
# has (a directory emptied or cut short by hand would otherwise compare nothing and pass).
entry_whole() {
	v1=$(basename "$1")
	head -1 "$1/source" 2>/dev/null | grep -qE "^linux-source-$v1 $v1(\.[0-9]+)?( |\$)" &&
		[ -s "$1/usr/include/asm/unistd_64.h" ] && [ -s "$1/usr/include/linux/types.h" ]
}

# CACHE/V: 'make headers' of linux-source-V, built in a scratch directory and moved in whole.
installed() {
	v=$1
	entry_whole "$CACHE/$v" && return
	if [ -e "$CACHE/$v" ]; then
		say "$v: $CACHE/$v is not a whole entry (no source line naming $v, unistd_64.h or types.h): made again"
		rm -rf "$CACHE/$v"
	fi
	src=$(tree_of "$v")
	full=$(sed -n 's/^VERSION = //p;s/^PATCHLEVEL = //p;s/^SUBLEVEL = //p' "$src/Makefile" | paste -sd.)
	# a tree that is another release (a KSRC_DIR entry misnamed) would be kept as V's headers
	case $full in
	"$v" | "$v".*) ;;
	*) say "$src is Linux $full, not $v: its headers are not $v's"; exit 1 ;;
	esac
	say "$v: make headers from $src ($full)"
	tmp="$CACHE/.$v.$$"
	rm -rf "$tmp"
	mkdir -p "$tmp/obj"
	make -s -C "$src" O="$tmp/obj" ARCH=x86 headers >"$tmp/headers.log" 2>&1 || { cat "$tmp/headers.log"; rm -rf "$tmp"; exit 1; }
	mv "$tmp/obj/usr" "$tmp/usr"
	rm -rf "$tmp/obj"
	find "$tmp/usr" -name '.*.cmd' -delete
	deb=$(cat "$src/.debian-version" 2>/dev/null || echo "")
	printf 'linux-source-%s %s%s\n' "$v" "$full" "${deb:+ (Debian $deb)}" >"$tmp/source"
	# a rename, never onto an entry another run put there meanwhile (it may be importing
	# from it): mv -T fails on a directory that is not empty, and that one is then kept
	if ! mv -T "$tmp" "$CACHE/$v" 2>/dev/null; then
		entry_whole "$CACHE/$v" || { say "$v: cannot put the headers in $CACHE/$v"; rm -rf "$tmp"; exit 1; }
		rm -rf "$tmp"
	fi
	rm -rf "$OUT/src/linux-source-$v"
}

# OUT/V/import: the catalogue's headers as 'xsc import' reads them; redone when the list changed.
one() {
	v=$1
	installed "$v"
	dir="$OUT/$v"
	cat_headers >"$OUT/.headers"
	if [ -d "$dir/import" ] && cmp -s "$OUT/.headers" "$dir/headers"; then
		return
	fi
	rm -rf "$dir"
	mkdir -p "$dir/import.tmp"
	ln -s "$CACHE/$v/usr" "$dir/usr"
	cp "$CACHE/$v/source" "$dir/source"
	for h in $(cat "$OUT/.headers"); do
		[ -e "$dir/usr/include/$h" ] || continue
		"$XSC" import "$dir/usr/include/$h" --include "$dir/usr/include" --since "$v" \
			-o "$dir/import.tmp/$(echo "$h" | tr / _).json" 2>>"$dir/import.log" ||
			{ cat "$dir/import.log"; exit 1; }
	done
	mv "$OUT/.headers" "$dir/headers"
	mv "$dir/import.tmp" "$dir/import"
	say "$v: $(ls "$dir/import" | wc -l) headers imported ($(cat "$dir/source"))"
}

# The Nth newest release (1 newest, 2 the one before) Debian offers, or offline the cache holds.
release() {
	r=$( (newest "$1") 2>/dev/null) || r=""
	[ -n "$r" ] || r=$(ls "$CACHE" | grep -E '^[0-9]+\.[0-9]+$' | sort -t. -k1,1n -k2,2n | tail -"$1" | head -1)
	echo "$r"
}

# the one before the newest pins a change between 6.18 and the newest to one release or the other
[ $# -gt 0 ] || set -- 6.1 6.12 previous newest
for v in "$@"; do
	[ "$v" = newest ] && v=$(release 1)
	[ "$v" = previous ] && v=$(release 2)
	[ -n "$v" ] || { say "no linux-source package found"; exit 1; }
	one "$v"
done
