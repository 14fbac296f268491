# The whole command table, row by row (the rows are read from `help`, so a new command is
# covered without touching this test): every command answers `help NAME` with its usage;
# one without its required arguments, and one with a dozen arguments too many (unless its
# synopsis takes a list: "..."), is a usage error, exit 2; every command whose synopsis
# offers --json prints exactly one JSON document, whether it succeeds or fails: a failure
# that wrote no answer of its own is {"error": ..., "where": ...} on stdout, and nothing of
# it on stderr. A command with --json and no case below fails the test.
set -u
. "$top/tests/lib.sh"
need python3
python3 - "$top" <<'PY'
import json, os, re, subprocess, sys
top = sys.argv[1]
sys.path.insert(0, os.path.join(top, "tests"))
from jsondocs import docs
xsc = [os.environ["XSC"], "--data", os.path.join(top, "data")]

def run(args, script=None):
    if script is not None:
        with open("t.xsc", "w") as f:
            f.write(script)
        args = args + ["t.xsc"]
    return subprocess.run(xsc + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          stdin=subprocess.DEVNULL, timeout=300)

# the rows: "  NAME SYNOPSIS   summary" (a long synopsis puts the summary on the next line)
rows = []
for line in run(["help"]).stdout.splitlines()[1:]:
    m = re.match(r"^  (\S.*?)(?:\s{2,}\S.*)?$", line)
    if m:
        name, _, synopsis = m.group(1).partition(" ")
        rows.append((name, synopsis.strip()))
fail, n = 0, 0
def no(msg):
    global fail
    print("FAIL " + msg)
    fail = 1

# set joins its VALUE words (set flags O_CREAT | O_EXCL), explain the words of its line
TAKES_WORDS = {"set", "explain"}
for name, syn in rows:
    n += 1
    r = run(["help", name])
    if r.returncode != 0 or not r.stdout.startswith("usage: " + name):
        no(f"help {name}: exit {r.returncode}: {r.stdout[:60]!r} {r.stderr[:80]!r}")
    required = syn != "" and not syn.startswith("[")
    if required:
        r = run([], f"new openat2\n{name}\n")
        if r.returncode != 2:
            no(f"{name} without its arguments ({syn}): exit {r.returncode}, not 2: {r.stderr.strip()[:100]}")
    if "..." not in syn and name not in TAKES_WORDS:
        junk = " ".join(f"x{i}" for i in range(12))
        r = run([], f"new openat2\n{name} {junk}\n")
        if r.returncode != 2:
            no(f"{name} with 12 arguments too many ({syn}): exit {r.returncode}, not 2: {r.stderr.strip()[:100]}")

# --json: a call that succeeds and one that fails, per command
hole = os.path.join(top, "tests/headers/lint/hole.h")
data = os.path.join(top, "data")
JSON = {
    "list": ([], None),
    "show": (["openat2"], ["nosuch"]),
    "buffers": ([], None),
    "dump": ("new openat2\ndump\n", "dump\n"),  # scripts, run with the global --json
    "matrix": (["openat2"], ["nosuch"]),
    "measure": (["openat2"], ["nosuch"]),
    "probe": (["openat2", "--no-cache"], ["nosuch"]),
    "features": (["openat2", "--no-cache"], ["nosuch"]),
    "lint": ([hole], ["/nonexistent/x.h"]),
    "diff": ([data, data], ["/nonexistent/a", "/nonexistent/b"]),
    "demo": (["sign-extension"], ["nosuch"]),
    "lesson": ([], ["99"]),
    "kernels": ([], ["fetch", "nosuch"]),
}
def one_json(what, r, ok):
    try:
        got = docs(r.stdout)
    except ValueError as e:
        return no(f"{what}: stdout is not JSON documents ({e}): {r.stdout[:100]!r}")
    if len(got) != 1:
        return no(f"{what}: {len(got)} JSON documents, not 1 (exit {r.returncode}; {r.stderr.strip()[:100]})")
    if ok or name == "lint":  # lint's report is its answer, errors or not
        return
    d = got[0]
    if not isinstance(d, dict) or not isinstance(d.get("error"), str) or not isinstance(d.get("where"), str):
        no(f"{what}: the failure is not an {{error, where}} document: {r.stdout[:100]!r}")
    if r.stderr.strip():
        no(f"{what}: the error is also on stderr: {r.stderr.strip()[:100]!r}")
json_rows = [name for name, syn in rows if "--json" in syn]
for name in json_rows:
    if name not in JSON:
        no(f"{name} takes --json but this test has no case for it")
        continue
    good, bad = JSON[name]
    for args, ok in ((good, True), (bad, False)):
        if args is None:
            continue
        r = run(["--json"], args) if isinstance(args, str) else run([name] + args + ["--json"])
        what = f"{name} {' '.join(args) if isinstance(args, list) else '(script)'} --json"
        if ok and r.returncode != 0 and name != "lint":
            no(f"{what}: exit {r.returncode}: {r.stderr.strip()[:100]}")
        if not ok and r.returncode == 0:
            no(f"{what}: exit 0 for a call that must fail")
        one_json(what, r, ok)
print(f"{n} commands: help, arity and, for {len(json_rows)} with --json, one document each")
sys.exit(fail)
PY
