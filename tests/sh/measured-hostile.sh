# Measured reports come from other machines ('measure -o host.json' on a fleet's hosts):
# 'matrix --reports DIR' refuses a malformed one precisely (its file, the path of the bad
# value, what is wrong), exit 1, and prints no table; a good one beside it changes nothing.
set -u
. "$top/tests/lib.sh"
need python3
X() { "$XSC" --data "$top/data" "$@"; }
fail=0
python3 - <<'PY'
import json, os
good = {"format": "xsc-measured-1", "date": "2026-12-06", "machine": "x86_64",
        "kernels": [{"version": "6.1.192", "where": "qemu", "accelerator": "TCG",
                     "package": "linux-image-6.1.0-57-cloud-amd64", "package_version": "6.1.192-3", "release": None},
                    {"version": "6.18.44", "where": "host", "accelerator": None, "package": None,
                     "package_version": None, "release": "6.18.44-x"}],
        "interfaces": [{"name": "openat2", "cases": [
            {"row": "VER0 (24)", "size": 24, "outcomes": {"6.1.192": "ok", "6.18.44": "ok"}, "not_run": None},
            {"row": "future (32, a nonzero field past 24)", "size": 32,
             "outcomes": {"6.1.192": "E2BIG", "6.18.44": "E2BIG"}, "not_run": None}]}]}
def case(name, edit=None, text=None):
    os.makedirs(name)
    if text is None:
        d = json.loads(json.dumps(good))
        edit(d)
        text = json.dumps(d)
    with open(name + "/r.json", "w") as f:
        f.write(text)
case("good", lambda d: None)
case("syntax", text='{"format": "xsc-measured-1",')
case("format", lambda d: d.update(format="xsc-measured-2"))
case("unknown-key", lambda d: d.update(extra=1))
case("date", lambda d: d.update(date="yesterday"))
case("version", lambda d: d["kernels"][0].update(version="6.x"))
case("where", lambda d: d["kernels"][1].update(where="cloud"))
case("accelerator", lambda d: d["kernels"][0].update(accelerator="HVF"))
case("twice", lambda d: d["kernels"][1].update(version="6.1.192"))
case("no-kernels", lambda d: d.update(kernels=[]))
case("outcome", lambda d: d["interfaces"][0]["cases"][1]["outcomes"].update({"6.18.44": "EFOO"}))
case("stranger", lambda d: d["interfaces"][0]["cases"][0]["outcomes"].update({"9.9.9": "ok"}))
case("missing", lambda d: d["interfaces"][0]["cases"][0]["outcomes"].pop("6.18.44"))
case("escape", lambda d: d["interfaces"][0]["cases"][0].update(row="VER0\u001b[2J"))
case("size", lambda d: d["interfaces"][0]["cases"][0].update(size=-1))
case("many", lambda d: d["interfaces"][0].update(cases=d["interfaces"][0]["cases"] * 33))
case("iface-twice", lambda d: d["interfaces"].append(d["interfaces"][0]))
case("duplicate", text=json.dumps(good)[:-1] + ', "date": "2026-12-07"}')
case("nul", text=json.dumps(good).replace('"x86_64"', '"x86\\u0000_64"'))
os.makedirs("big")
with open("big/r.json", "w") as f:
    f.write(" " * (4 << 20) + "{}")
PY
check() { # DIR EXPECTED-STDERR
	X matrix openat2 --reports "$1" >out 2>err
	rc=$?
	if [ $rc != 1 ] || [ "$(cat err)" != "$2" ] || [ -s out ]; then
		echo "FAIL $1: exit $rc"
		echo "  expected: $2"
		echo "  got:      $(cat err)"
		fail=1
	fi
}
X matrix openat2 --reports good >out 2>err && grep -q "^VER0 (24) .*| ok  *ok *$" out ||
	{ echo "FAIL good: $(cat err out)"; fail=1; }
check syntax "xsc: syntax/r.json:1:28: string or '}' expected near end of file"
check format 'xsc: format/r.json: format: expected "xsc-measured-1"'
check unknown-key "xsc: unknown-key/r.json: unknown key 'extra'"
check date "xsc: date/r.json: date: not a valid value (at most 128 characters: letters, digits; a date YYYY-MM-DD)"
check version "xsc: version/r.json: kernels[0]: version: '6.x' is not a kernel version (MAJOR.MINOR[.PATCH])"
check where "xsc: where/r.json: kernels[1]: where: 'cloud' is neither 'qemu' nor 'host'"
check accelerator "xsc: accelerator/r.json: kernels[0]: accelerator: 'HVF' is neither 'TCG' nor 'KVM'"
check twice "xsc: twice/r.json: kernels[1]: version: kernel 6.1.192 is listed twice"
check no-kernels "xsc: no-kernels/r.json: kernels: a report measures at least one kernel"
check outcome 'xsc: outcome/r.json: interfaces[0].cases[1].outcomes: 6.18.44: expected "ok", an errno name ("E2BIG"), "not run", "no answer", "timeout", "signaled" or "setup failed"'
check stranger "xsc: stranger/r.json: interfaces[0].cases[0].outcomes: '9.9.9' is not a kernel of this report"
check missing "xsc: missing/r.json: interfaces[0].cases[0].outcomes: no outcome for kernel 6.18.44"
check escape "xsc: escape/r.json: interfaces[0].cases[0].row: not a valid value (at most 128 characters: letters, digits and . - + ~ : _)"
check size "xsc: size/r.json: interfaces[0].cases[0]: size: expected an integer from 0 to 1048576"
check many "xsc: many/r.json: interfaces[0].cases: expected an array of at most 64 cases"
check iface-twice "xsc: iface-twice/r.json: interfaces[1]: name: 'openat2' is measured twice in this report"
check duplicate "xsc: duplicate/r.json:1:657: duplicate object key near '\"date\"'"
check nul 'xsc: nul/r.json:1:76: \u0000 is not allowed without JSON_ALLOW_NUL near '"'"'"x86\u0000_64"'"'"
check big "xsc: cannot read 'big/r.json': too large"
exit $fail
