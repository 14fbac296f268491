# measure and matrix --measured on two real kernels and the host (one interface, openat2):
# the report names each kernel (version, Debian package and version, qemu or host, TCG or
# KVM, the uname -r that booted) and holds every matrix row with each kernel's outcome; matrix --reports shows the
# measured columns beside the simulated ones, marks an answer the simulator does not give at
# that version ('!', with both answers), merges a second report's kernels into one table
# (the same kernel with the same answers once) and labels a clash with its file.
set -u
. "$top/tests/lib.sh"
vm_need 5.10 6.1
need python3
X() { "$XSC" --data "$top/data" "$@"; }
fail=0
mkdir one two
SOURCE_DATE_EPOCH=86400 X measure openat2 --kernel 5.10 --kernel 6.1 --host -o one/r.json >m.out 2>m.err ||
	{ echo "FAIL measure: exit $?: $(cat m.err)"; exit 1; }
grep -q "^measured 2 calls (1 interfaces) on 3 kernels in .* s: 0 answers differ from the simulator$" m.out ||
	{ echo "FAIL measure's last line: $(cat m.out)"; fail=1; }
python3 - one/r.json <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
assert d["format"] == "xsc-measured-1" and d["date"] == "1970-01-02", (d["format"], d["date"])
ks = d["kernels"]
assert [k["version"] for k in ks][:2] == ["5.10.223", "6.1.192"], ks
for k in ks[:2]:
    assert k["where"] == "qemu" and k["accelerator"] in ("TCG", "KVM"), k
    assert k["package"].startswith("linux-image-") and k["package_version"].startswith(k["version"]), k
    assert k["release"].endswith("-cloud-amd64") and k["release"].startswith(k["version"].rsplit(".", 1)[0]), k
assert ks[2]["where"] == "host" and ks[2]["accelerator"] is None and ks[2]["release"], ks[2]
(f,) = d["interfaces"]
assert f["name"] == "openat2", f["name"]
rows = {c["row"]: c["outcomes"] for c in f["cases"]}
assert rows["VER0 (24)"] == {k["version"]: "ok" for k in ks}, rows
assert set(rows["future (32, a nonzero field past 24)"].values()) == {"E2BIG"}, rows
PY
X matrix openat2 --reports one >t.out 2>&1 || { echo "FAIL matrix --reports: $(cat t.out)"; fail=1; }
grep -q "| 5.10.223 *6.1.192" t.out && grep -q "^VER0 (24) .*| ok  *ok  *ok *$" t.out ||
	{ echo "FAIL matrix --reports: no measured columns:"; cat t.out; fail=1; }
grep -q 'differs\| !$' t.out && { echo "FAIL matrix --reports marks a difference:"; cat t.out; fail=1; }
# a report that says 5.10.223 refused VER0 (not what the simulator says) is marked; the same
# kernels with the same answers elsewhere make no new column
sed 's/"5.10.223": "ok"/"5.10.223": "E2BIG"/' one/r.json >two/edited.json
cp one/r.json two/same.json
X matrix openat2 --reports one --reports two >t2.out 2>&1
grep -q "differs (!): VER0 (24) on 5.10.223 (edited.json): measured E2BIG, simulated at 5.10.223: ok" t2.out &&
	grep -q "| ok  *E2BIG !  *ok  *ok *$" t2.out && [ "$(grep -c '^  6.1.192' t2.out)" = 1 ] ||
	{ echo "FAIL matrix over two report directories:"; cat t2.out; fail=1; }
# the same, now, in the guests (one kernel: matrix --kernel boots it again)
X matrix openat2 --kernel 6.1 --json >j.json 2>j.err || { echo "FAIL matrix --kernel 6.1: $(cat j.err)"; fail=1; }
python3 -c '
import json, sys
d = json.load(open("j.json"))
assert [k["version"] for k in d["measured_kernels"]] == ["6.1.192"], d["measured_kernels"]
for r in d["rows"]:
    (c,) = r["measured"]
    assert c["outcome"] == ("ok" if r["size"] == 24 else "E2BIG") and not c["differs"], r
' || fail=1
exit $fail
