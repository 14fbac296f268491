# 'kernels': what the data names and what the cache holds, without the network, and the
# accelerator guests get: an empty cache lists every kernel as missing; a manifest whose
# image is not the size it recorded, or a cache others can write, is not believed; 'kernels
# fetch' refuses an unknown version.
set -u
fail=0
D="--data $top/data"
export XSC_KERNEL_DIR=$PWD/kcache
mkdir -m 700 kcache
$XSC $D kernels >out 2>err || { echo "FAIL kernels: exit $?"; cat err; fail=1; }
for v in 5.10 6.1 6.12 6.18 7.3; do
	grep -q "^$v .* missing$" out || { echo "FAIL kernels: $v is not listed as missing"; cat out; fail=1; }
done
# it says which accelerator guests get: KVM, or TCG with the first thing KVM lacks here
grep -q '^guests run with \(KVM\|software emulation (TCG): [a-z/]\)' out || { echo "FAIL kernels: no accelerator line"; cat out; fail=1; }
# a forged manifest: the image is not the size recorded
mkdir -m 700 kcache/6.1
printf 'not a kernel' >kcache/6.1/vmlinuz
printf '{"package": "linux-image-x", "version": "6.1.1-1", "sha256": "00", "size": 999}' >kcache/6.1/manifest.json
$XSC $D --json kernels >out 2>err
python3 -c '
import json, sys
ks = {k["kernel"]: k for k in json.load(open("out"))}
assert set(ks) == {"5.10", "6.1", "6.12", "6.18", "7.3"}, ks
assert not ks["6.1"]["present"], ks["6.1"]
' || { echo "FAIL kernels --json: a wrong-sized image was believed"; cat out; fail=1; }
# the recorded size: believed, and shown with its package
printf '{"package": "linux-image-x", "version": "6.1.1-1", "sha256": "00", "size": 12}' >kcache/6.1/manifest.json
$XSC $D kernels >out 2>&1
grep -q '^6.1 .*linux-image-x .*6.1.1-1 ' out || { echo "FAIL kernels: the manifest was not read"; cat out; fail=1; }
# the same in a cache others may write: not believed
chmod 777 kcache/6.1
$XSC $D kernels >out 2>&1
grep -q '^6.1 .* missing$' out || { echo "FAIL kernels: a manifest in a directory others can write was believed"; cat out; fail=1; }
$XSC $D kernels fetch 4.4 >out 2>&1 && { echo "FAIL kernels fetch 4.4 succeeded"; fail=1; }
grep -q "knows no kernel '4.4'" out || { echo "FAIL kernels fetch 4.4: $(cat out)"; fail=1; }
exit $fail
