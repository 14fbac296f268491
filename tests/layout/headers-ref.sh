#!/bin/sh
# make headers-ref: the uapi headers of Linux 6.1, 6.12 and the two newest releases Debian ships,
# installed from Debian's linux-source packages with the kernel's own 'make headers', and each
# catalogue header imported from them with 'xsc import' (the layouts the compiler gives). The
# layout test (tests/sh/layout-ref.sh, tests/layout/compare.py) holds the catalogue against them.
#
#   sh tests/layout/headers-ref.sh XSC OUT [VERSION...]     (default: 6.1 6.12 previous newest)
#
# Per version OUT/V/ holds usr/include (the installed headers), import/*.json (one per catalogue
# header) and source (the package and its version). A version whose import/ is there is skipped.
# Sources: an already extracted tree named by KSRC_DIR (a directory holding linux-source-V/ trees)
# is used as it is; otherwise the package is fetched with apt-get download through a private apt
# state directory under OUT/apt (bookworm and bookworm-security for 6.1 and 6.12,
# trixie-backports for the newest two, 7.2 and 7.3 today), so the system's apt configuration is never changed, and only
# what 'make headers' reads is extracted. Needs the network the first time only.
set -eu
XSC=$1 OUT=$2
shift 2
MIRROR=${MIRROR:-http://deb.debian.org/debian}
SECURITY=${SECURITY:-http://deb.debian.org/debian-security}
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
XSC=$(cd "$(dirname "$XSC")" && pwd)/$(basename "$XSC")

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

one() {
	v=$1
	dir="$OUT/$v"
	if [ -d "$dir/import" ]; then
		say "$v: $dir/import is there"
		return
	fi
	src=$(tree_of "$v")
	full=$(sed -n 's/^VERSION = //p;s/^PATCHLEVEL = //p;s/^SUBLEVEL = //p' "$src/Makefile" | paste -sd.)
	say "$v: make headers from $src ($full)"
	mkdir -p "$dir/obj"
	make -s -C "$src" O="$dir/obj" ARCH=x86 headers >"$dir/headers.log" 2>&1 || { cat "$dir/headers.log"; exit 1; }
	rm -rf "$dir/usr"
	mv "$dir/obj/usr" "$dir/usr"
	rm -rf "$dir/obj"
	find "$dir/usr" -name '.*.cmd' -delete
	deb=$(cat "$src/.debian-version" 2>/dev/null || echo "")
	printf 'linux-source-%s %s%s\n' "$v" "$full" "${deb:+ (Debian $deb)}" >"$dir/source"
	mkdir -p "$dir/import.tmp"
	for h in $(cat_headers); do
		[ -e "$dir/usr/include/$h" ] || continue
		"$XSC" import "$dir/usr/include/$h" --include "$dir/usr/include" --since "$v" \
			-o "$dir/import.tmp/$(echo "$h" | tr / _).json" 2>>"$dir/import.log" ||
			{ cat "$dir/import.log"; exit 1; }
	done
	mv "$dir/import.tmp" "$dir/import"
	say "$v: $(ls "$dir/import" | wc -l) headers imported ($(cat "$dir/source"))"
}

# the one before the newest pins a change between 6.18 and the newest to one release or the other
[ $# -gt 0 ] || set -- 6.1 6.12 previous newest
for v in "$@"; do
	[ "$v" = newest ] && v=$(newest 1)
	[ "$v" = previous ] && v=$(newest 2)
	[ -n "$v" ] || { say "no linux-source package found"; exit 1; }
	one "$v"
done
