# target vm: the real answers of Debian's 5.10, 6.1, 6.12, 6.18 and 7.3 kernels in qemu
# (../shared/kernel-vms.md, measured there by a static probe as /init): openat2 above a
# page with a zero tail is accepted by 5.10.223 and refused (E2BIG) by 6.1.192, the 6.12
# change backported; Landlock's ABI is 2, 6, 7 and 11 (none on 5.10); clone3 with
# CLONE_INTO_CGROUP at size 80 (below CLONE_ARGS_SIZE_VER2) is EINVAL everywhere;
# mount_setattr is ENOSYS on 5.10; the prober in the 6.1 guest finds the fields past its
# 8-byte struct unsupported. Each script checks itself with expect; two guests boot
# at a time. A call prints as a live one does; --json names the guest's kernel; the prober
# runs in a guest too (probe --kernel). The same scripts under 'target sim' at each image's
# full version (6.1.192, with the stable backports the catalogue records) give the same answers.
set -u
. "$top/tests/lib.sh"
vm_need 5.10 6.1 6.12 6.18 7.3
fail=0
script() { # VERSION OPENAT2 LANDLOCK MOUNT_SETATTR LANDLOCK_NET
	cat <<EOS
target vm $1
new openat2
set flags O_RDONLY
size 4097
call openat2
expect $2
call landlock_create_ruleset attr=0 size=0 flags=LANDLOCK_CREATE_RULESET_VERSION
expect $3
new clone3
set flags CLONE_INTO_CGROUP
size 80
call clone3
expect errno EINVAL
new mount_attr
size 32
set attr_set MOUNT_ATTR_NOEXEC
call mount_setattr
expect $4
new landlock_create_ruleset
set handled_access_fs LANDLOCK_ACCESS_FS_EXECUTE
set handled_access_net LANDLOCK_ACCESS_NET_BIND_TCP
size 16
call landlock_create_ruleset
expect $5
EOS
}
script 5.10 ok "errno ENOSYS" "errno ENOSYS" "errno ENOSYS" >5.10.xsc
script 6.1 "errno E2BIG" "ret 2" ok "errno E2BIG" >6.1.xsc
script 6.12 "errno E2BIG" "ret 6" ok ok >6.12.xsc
script 6.18 "errno E2BIG" "ret 7" ok ok >6.18.xsc
script 7.3 "errno E2BIG" "ret 11" ok ok >7.3.xsc
# the simulator at each image's full version, before the prober's line is added
$XSC --data "$top/data" --json kernels >kernels.json
for v in 5.10 6.1 6.12 6.18 7.3; do
	full=$(python3 -c 'import json, re, sys
k = [k for k in json.load(open("kernels.json")) if k["kernel"] == sys.argv[1]][0]
print(re.match(r"[0-9]+[.][0-9]+[.][0-9]+", k["package_version"]).group(0))' "$v")
	sed "1s/.*/target sim $full/" "$v.xsc" >"sim-$v.xsc"
	$XSC --data "$top/data" "sim-$v.xsc" >"sim-$v.out" 2>&1 ||
		{ echo "FAIL target sim $full does not answer as the $v kernel:"; sed 's/^/    /' "sim-$v.out"; fail=1; }
done
echo "probe --kernel 6.1 landlock_create_ruleset" >>6.1.xsc # the prober in the same guest
run() { # VERSION [--json]
	$XSC --data "$top/data" ${2:-} "$1.xsc" >"$1.out" 2>&1 || { echo "FAIL target vm $1:"; sed 's/^/    /' "$1.out"; fail=1; }
}
# two at a time: two cores; 6.1 in JSON, to compare with a live call's
for pair in "5.10 6.1" "6.12 6.18" "7.3"; do
	for v in $pair; do
		if [ "$v" = 6.1 ]; then run "$v" --json & else run "$v" & fi
	done
	wait
done
for v in 5.10 6.1 6.12 6.18 7.3; do
	[ -s "$v.out" ] && ! grep -q '^xsc:\|FAIL' "$v.out" || { echo "FAIL target vm $v:"; sed 's/^/    /' "$v.out"; fail=1; }
done
grep -q '"landlock_abi": 2' 6.1.out && grep -q '"kernel": "vm 6.1 (Debian' 6.1.out ||
	{ echo "FAIL: probe --kernel 6.1 did not find Landlock ABI 2"; grep -A3 '"kernel"\|landlock_abi' 6.1.out; fail=1; }
# the guest's probe: 6.1's struct is 8 bytes, so handled_access_net and scoped (and the
# later fields) lie past it: nothing in them is supported (facts.py's shape checks say so)
python3 - 6.1.out >probe61.json <<'PY'
import json, os, sys
sys.path.insert(0, os.path.join(os.environ["top"], "tests"))
from jsondocs import docs
print(json.dumps([d for d in docs(open(sys.argv[1]).read()) if isinstance(d, dict) and "syscalls" in d][0]))
PY
python3 "$top/tests/probe/facts.py" probe61.json "$top/data" >probe61.out || { echo "FAIL: probe --kernel 6.1:"; cat probe61.out; fail=1; }
python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["syscalls"][0]["flags"]
assert f["handled_access_net"]["past_kernel_struct"] and not f["handled_access_net"]["supported"], f["handled_access_net"]
assert f["scoped"]["past_kernel_struct"] and not f["scoped"]["supported"], f["scoped"]' probe61.json ||
	{ echo "FAIL: probe --kernel 6.1 accepts a field past its 8-byte struct"; fail=1; }
# the same line as a live call's, and the guest named in --json
grep -q '"target": "vm 6.1 (Debian 6.1.[0-9]*-[0-9a-z~.+]*)"' 6.1.out || { echo "FAIL: --json does not name the guest"; cat 6.1.out; fail=1; }
$XSC --data "$top/data" --json -c 'new openat2; set flags O_RDONLY; size 4097; call openat2' >live.out 2>&1
grep -m1 '"line": "openat2(' live.out | sed 's/ = .*//' >live.line
grep -m1 '"line": "openat2(' 6.1.out | sed 's/ = .*//' >vm.line
[ -s vm.line ] && cmp -s live.line vm.line || { echo "FAIL: the vm's call line differs from live's"; cat live.line vm.line; fail=1; }
exit $fail
