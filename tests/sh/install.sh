# make install into a temporary DESTDIR, then the installed binary on the installed data,
# the installed library and header through pkg-config, and make uninstall.
set -eu
dest=$PWD/dest
make -s -C "$top" install DESTDIR="$dest" PREFIX=/usr >install.log 2>&1 || { cat install.log; exit 1; }
bin=$dest/usr/bin/xsc
[ -x "$bin" ] || { echo "no installed binary"; exit 1; }
[ -f "$dest/usr/share/xsc/data/openat2.json" ] || { echo "no installed catalogue"; exit 1; }
# the installed binary finds the installed catalogue by itself (no --data, no XSC_DATA)
out=$(env -u XSC_DATA "$bin" show openat2 --json)
echo "$out" | grep -q '"name": "openat2"' || { echo "installed binary did not read the installed data"; exit 1; }
# the C API
pc=$dest/usr/lib/pkgconfig/xsc.pc
[ -f "$pc" ] || { echo "no pkg-config file"; exit 1; }
grep -q '^Libs: -L${libdir} -lxsc -ljansson' "$pc" || { cat "$pc"; exit 1; }
san=
case ${BUILD:-} in *asan*) san=-fsanitize=address,undefined ;; esac
cc $san -o capi "$top/docs/examples/sys_features.c" -I"$dest/usr/include" \
	"$dest/usr/lib/libxsc.a" -ljansson || { echo "example did not link against the installed library"; exit 1; }
XSC_DATA="$dest/usr/share/xsc/data" ./capi | grep -q "^openat2: [0-9]* feature bits" || { echo "example did not run"; exit 1; }
make -s -C "$top" uninstall DESTDIR="$dest" PREFIX=/usr >>install.log 2>&1
left=$(find "$dest" -type f | wc -l)
[ "$left" -eq 0 ] || { find "$dest" -type f; echo "uninstall left $left files"; exit 1; }
echo "installed, ran, uninstalled"
