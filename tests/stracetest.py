#!/usr/bin/env python3
"""The differential test against the real strace (issue 30): xsc's call line against strace's.

Draws CASES random calls with the generator of tests/difftest.py (flag subsets, unknown bits,
sizes around every version, tails, field values), over the live-callable interfaces the
installed strace decodes (a plain call whose strace line names no syscall_0x... or _IOC(...)
is decoded), runs them live under `strace -f -qq -e trace=NAME` (and with -v against xsc
--verbose), and compares xsc's line (the "line" of call --json) with strace's. strace's column
padding before " = " is ignored. A line strace did not decode fully (it printed the struct
as an address where xsc decoded it, or "syscall_0x...") is counted apart.

A round trip follows the default mode: strace's struct lines (of the interfaces whose line is
their own call) are given back to `xsc explain FILE`, whose rebuilt bytes must equal those
xsc passed in every input field strace printed on entry (what a struct's strace "exit" list
names is the kernel's); the count is printed (tails cut by -s are not read back;
perf_event_attr is, item by item of its view).

The last lines are
  stracetest: MODE: N lines strace decodes fully, I identical (P%)
one a mode; each mismatch is minimised (as difftest minimises) and printed with both lines.

Options: --xsc PATH --data DIR --cases N --seed S [--strace PATH] [--modes default,verbose]
[--min-share P] [--quiet] [--keep DIR] [--no-minimise] [--only NAME,...].
With --min-share the exit status is 1 unless every mode reaches P percent.
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import difftest  # noqa: E402  (the generator)

PAD = re.compile(r"\)\s+= ")
LINE = re.compile(r"^(\d+)\s+(.*)$")


def norm(line):
    """strace's line without its column padding (one space before " = ")."""
    return PAD.sub(") = ", line.rstrip())


def traced_name(line):
    return line.split("(", 1)[0]


def run_traced(strace, xsc, data, script, work, names, verbose):
    """Runs script under strace; returns (xsc's call docs, strace's call lines)."""
    out = os.path.join(work, os.path.basename(script) + (".v" if verbose else "") + ".strace")
    cmd = [strace, "-f", "-qq", "-e", "trace=" + ",".join(sorted(names)), "-o", out]
    if verbose:
        cmd.append("-v")
    # xsc's own pid (written before the exec): its calls are not the cases' (the terminal's
    # TCGETS); in each child the case's call is the last traced one (the sandbox's Landlock
    # set-up and glibc's rseq registration come first)
    pidfile = out + ".pid"
    cmd += ["sh", "-c", 'echo $$ > "$0"; exec "$@"', pidfile, xsc, "--data", data, "--json", "--keep-going"]
    if verbose:
        cmd.append("--verbose")
    cmd.append(script)
    p = subprocess.run(cmd, cwd=work, capture_output=True, text=True, errors="replace", timeout=1800)
    calls = [d for d in difftest.docs(p.stdout) if isinstance(d, dict) and "syscall" in d and "target" in d]
    if not os.path.exists(out):   # strace does not know the name
        return calls, [], p.stderr
    with open(pidfile) as f:
        main_pid = f.read().strip()
    last, order = {}, []
    with open(out, errors="replace") as f:
        for raw in f:
            m = LINE.match(raw.rstrip("\n"))
            if not m or m.group(1) == main_pid:
                continue
            body = m.group(2)
            if body.startswith(("---", "+++")) or traced_name(body) not in names:
                continue
            if m.group(1) not in last:
                order.append(m.group(1))
            last[m.group(1)] = body
    lines = [last[pid] for pid in order]
    return calls, lines, p.stderr


# Calls the installed strace prints with printargs, every argument raw: it has no decoder
# (strace's src/rseq.c, "Implement decoding of rseq syscall", first in v7.0).
RAW = {"rseq"}
UNKNOWN_OP = re.compile(r"^(io_uring_register\([^,]*, |bpf\()0x[0-9a-f]+ /\* [A-Z_]+_\?\?\? \*/")


def decoded_fully(xline, sline):
    """Whether strace decoded the call: it knows the syscall, the ioctl and the operation."""
    if traced_name(sline) in RAW and strace_major() < 7:
        return False
    return "syscall_0x" not in sline and "_IOC(" not in sline and not UNKNOWN_OP.match(sline)


_MAJOR = []
NEWER = set()      # flag names strace's tables lack, fields past strace's struct (from data/)
ON_EXIT = {}       # struct: the field names strace prints on exit, the kernel's (its "exit" list)


def load_newer(data):
    """What xsc knows and this strace does not, from the catalogue's "strace" facts: the
    flags of a set with a strace table that the table lacks, the fields of a struct past
    the size strace's decoder knows and the size versions past it, the items of a struct's
    strace view that follow a later strace."""
    import glob
    import json
    for path in glob.glob(os.path.join(data, "*.json")):
        try:
            doc = json.load(open(path))
        except ValueError:
            continue
        if not isinstance(doc, dict):
            continue
        for fs in doc.get("flagsets", []):
            t = fs.get("strace")
            if t and (fs.get("kind") == "bits" or t.get("order")):
                known = set(t.get("order", [])) | set(t.get("first", []))
                NEWER.update(f["name"] for f in fs["flags"] if f["name"] not in known)
        for st in doc.get("structs", []):
            ON_EXIT[st["name"]] = set((st.get("strace") or {}).get("exit", []))
            size = (st.get("strace") or {}).get("size")
            if size:
                NEWER.update(f["name"] for f in st["fields"] if f["offset"] >= size)
                # a size strace's table cannot name (PERF_ATTR_SIZE_VER8 past strace 6.1's 128)
                NEWER.update(v["name"] for v in st["versions"] if v["size"] > size and v.get("name"))
            # the items of strace's own view that a later strace prints (perf's config3)
            NEWER.update(i["name"] for i in (st.get("strace") or {}).get("view", []) if i.get("newer"))


def beyond(xline, sline):
    """xsc's line names a flag or field this strace does not know (it prints a number, or
    ..., there): the line shows more than strace's, in its style."""
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", xline)) - set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", sline))
    return bool(words & NEWER)


def strace_major():
    if not _MAJOR:
        v = subprocess.run([shutil.which("strace") or "strace", "-V"], capture_output=True, text=True).stdout
        m = re.search(r"version (\d+)", v)
        _MAJOR.append(int(m.group(1)) if m else 0)
    return _MAJOR[0]


class Runner:
    def __init__(self, o, xsc, data, work):
        self.o, self.xsc, self.data, self.work = o, xsc, data, work
        self.n = 0

    def run(self, cases, verbose):
        """Sets case.xline/case.sline (None when the call was not made) for one mode."""
        by_name = {}
        for c in cases:
            by_name.setdefault(c.iface.name, []).append(c)
        for name, cs in sorted(by_name.items()):
            self.n += 1
            path = os.path.join(self.work, "s%d-%s.xsc" % (self.n, name))
            spans, text = [], []
            for c in cs:
                text.append("# case")
                text += c.lines()
                spans.append(len(text))   # the call's line number
            with open(path, "w") as f:
                f.write("\n".join(text) + "\n")
            # a call that timed out on a loaded machine may have left no strace line, and every
            # later line would pair with the wrong case: such a batch runs again (twice at most)
            for attempt in range(3):
                calls, lines, err = run_traced(self.o.strace, self.xsc, self.data, path, self.work,
                                               {cs[0].iface.traced}, verbose)
                made = sum(1 + int(d.get("followup_calls") or 0) for d in calls
                           if d.get("stage") in ("called", "timeout", "signaled"))
                if made == len(lines):
                    break
            refused = set()
            for e in err.splitlines():
                m = re.match(r"(?:.*/)?%s:(\d+): " % re.escape(os.path.basename(path)), e)
                if m:
                    refused.add(int(m.group(1)))
            # one doc per call xsc made or answered; one strace line per call that reached
            # the kernel, in the same order
            di = k = 0
            for c, last in zip(cs, spans):
                c.xline = c.sline = None
                if last in refused or di >= len(calls):
                    continue
                d = calls[di]
                di += 1
                c.xline = d.get("line")
                c.passed = d.get("passed")
                if d.get("stage") in ("called", "timeout", "signaled"):
                    c.sline = lines[k] if k < len(lines) else None
                    # the follow-up calls that explained an EINVAL ran in children of their own
                    k += 1 + int(d.get("followup_calls") or 0)
            if k != len(lines) and not self.o.quiet:
                print("stracetest: %s: %d calls made, %d strace lines (%s)" % (name, k, len(lines), err.strip()[:200]),
                      file=sys.stderr)


def compare(cases):
    full = [c for c in cases if c.xline and c.sline and decoded_fully(c.xline, c.sline)
            and (norm(c.sline) == c.xline or not beyond(c.xline, c.sline))]
    same = [c for c in full if norm(c.sline) == c.xline]
    return full, same


def struct_text(line):
    """The first {...} of a call line (the struct strace printed), or None."""
    i = line.find("{")
    if i < 0:
        return None
    depth, quote = 0, False
    for j in range(i, len(line)):
        ch = line[j]
        if quote:
            quote = ch != '"' or line[j - 1] == "\\"
        elif ch == '"':
            quote = True
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return line[i:j + 1]
    return None


def shown_fields(text):
    """The top-level field names strace printed in a struct."""
    names, depth, start = [], 0, 1
    for j, ch in enumerate(text):
        if ch in "{[(":
            depth += 1
        elif ch in "}])":
            depth -= 1
        if depth == 1 and (ch == "," or j == 0):
            m = re.match(r"\s*([a-z_][a-z0-9_.]*)=", text[j + 1:])
            if m:
                names.append(m.group(1))
    return names


def roundtrip(runner, cases):
    """explain of strace's line rebuilds the bytes xsc passed, in every field strace printed:
    returns (compared, same, first differences)."""
    todo = [c for c in cases if c.sline and c.passed and decoded_fully(c.xline, c.sline)
            and struct_text(norm(c.sline)) and " => " not in c.sline
            and traced_name(c.sline) in (c.iface.name, "ioctl")]   # explain names a multiplexer's entry by its line
    path = os.path.join(runner.work, "roundtrip.strace")
    with open(path, "w") as f:
        for c in todo:
            f.write(norm(c.sline) + "\n")
    p = subprocess.run([runner.xsc, "--data", runner.data, "--json", "explain", path], capture_output=True,
                       text=True, errors="replace", cwd=runner.work)
    top = [d for d in difftest.docs(p.stdout) if isinstance(d, dict) and "explained_calls" in d]
    docs = top[0]["explained_calls"] if top else []
    if len(docs) != len(todo):
        return len(todo), 0, ["explain gave %d documents for %d lines: %s" % (len(docs), len(todo), p.stderr[:300])]
    same, bad = 0, []
    for c, d in zip(todo, docs):
        if "unexplained" in d:
            if len(bad) < 8:
                bad.append("not read back: %s" % d["unexplained"][:200])
            continue
        rebuilt = bytes.fromhex(d.get("bytes") or "")
        passed = bytes.fromhex(c.passed)
        ok = True
        fields = {f["name"]: f for f in c.iface.layout_fields}
        for name in shown_fields(struct_text(norm(c.sline))):
            if name in ON_EXIT.get(c.iface.struct_name, ()):
                continue   # printed on exit: the kernel's value, not what was passed
            # what the kernel wrote (an output struct, an out field) is not what xsc passed
            sub = [f for n, f in fields.items() if (n == name or n.startswith(name + ".")) and f.get("direction") != "out"]
            for f in sub:
                lo, hi = f["offset"], f["offset"] + f["size"]
                if hi <= len(passed) and rebuilt[lo:hi] != passed[lo:hi]:
                    ok = False
        same += ok
        if not ok and len(bad) < 8:
            bad.append("%s: %s" % (c.iface.name, norm(c.sline)))
    return len(todo), same, bad


def minimise(runner, bad, verbose, rounds=30):
    todo = list(bad)
    seen = {}
    for r in range(rounds):
        fresh = {}
        variants = {}
        for c in todo:
            variants[id(c)] = vs = list(c.variants())
            for v in vs:
                v.iface = c.iface
                key = (v.iface.name, tuple(v.lines()))
                if key not in seen and key not in fresh:
                    fresh[key] = v
        if not fresh and not any(variants.values()):
            return
        if fresh:
            runner.run(list(fresh.values()), verbose)
            seen.update(fresh)
        nxt = []
        for c in todo:
            for v in variants[id(c)]:
                w = seen[(v.iface.name, tuple(v.lines()))]
                if w.xline and w.sline and decoded_fully(w.xline, w.sline) and norm(w.sline) != w.xline \
                        and not beyond(w.xline, w.sline):
                    c.sets, c.size, c.pokes, c.args = v.sets, v.size, v.pokes, v.args
                    c.xline, c.sline = w.xline, w.sline
                    nxt.append(c)
                    break
        todo = nxt
        if not todo:
            return


def main():
    ap = argparse.ArgumentParser(description="xsc's call lines against the real strace's")
    ap.add_argument("--xsc", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--cases", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--strace", default=shutil.which("strace") or "strace")
    ap.add_argument("--modes", default="default,verbose")
    ap.add_argument("--min-share", type=float, default=0.0)
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--no-minimise", action="store_true")
    ap.add_argument("--keep")
    ap.add_argument("--only", help="comma-separated interface names: draw cases over these alone")
    o = ap.parse_args()
    if not shutil.which(o.strace):
        print("stracetest: no strace")
        return 77
    xsc, data = os.path.abspath(o.xsc), os.path.abspath(o.data)
    work = o.keep or tempfile.mkdtemp(prefix="xsc-stracetest-")
    os.makedirs(work, exist_ok=True)
    try:
        return stracetest(o, xsc, data, work)
    finally:
        if not o.keep:
            shutil.rmtree(work, ignore_errors=True)


def interfaces(runner, xsc, data):
    """The live-callable interfaces whose plain call the installed strace decodes."""
    import json
    listing = subprocess.run([xsc, "--data", data, "--json", "list"], capture_output=True, text=True, check=True)
    names = sorted(d["name"] for d in json.loads(listing.stdout))
    shows = difftest.docs(subprocess.run([xsc, "--data", data, "--json", "-c",
                                          "; ".join("show syscall %s" % n for n in names)],
                                         capture_output=True, text=True, check=True).stdout)
    ifaces = [difftest.Iface(s, {f["name"]: f for f in s.get("flagsets", [])}) for s in shows]
    for it, sh in zip(ifaces, shows):
        it.layout_fields = (sh.get("layout") or {}).get("fields", [])
        it.struct_name = (sh.get("layout") or {}).get("name")
    difftest.MNT_ID = difftest.root_mnt_id()
    plain = []
    for it in ifaces:
        c = difftest.Case(it, "plain")
        # the name strace traces: the line's call (ioctl, io_uring_register)
        p = subprocess.run([xsc, "--data", data, "--json", "--keep-going", "-c", "; ".join(c.lines())],
                           capture_output=True, text=True, cwd=runner.work)
        d = [x for x in difftest.docs(p.stdout) if isinstance(x, dict) and "line" in x]
        if not d or d[-1].get("stage") != "called":
            continue
        it.traced = traced_name(d[-1]["line"])
        plain.append(c)
    runner.run(plain, False)
    return [c.iface for c in plain if c.sline and decoded_fully(c.xline, c.sline)], \
        [c.iface.name for c in plain if not (c.sline and decoded_fully(c.xline, c.sline))]


def stracetest(o, xsc, data, work):
    runner = Runner(o, xsc, data, work)
    load_newer(data)
    ver = subprocess.run([o.strace, "-V"], capture_output=True, text=True).stdout.split("\n")[0]
    ifaces, skipped = interfaces(runner, xsc, data)
    if o.only:
        ifaces = [i for i in ifaces if i.name in o.only.split(",")]
    print("stracetest: %s; %d interfaces it decodes: %s" % (ver, len(ifaces), ", ".join(i.name for i in ifaces)))
    if skipped:
        print("stracetest: not decoded by this strace (or not live-callable), not generated: %s" % ", ".join(skipped))
    rc = 0
    for mode in o.modes.split(","):
        verbose = mode == "verbose"
        rng = random.Random(o.seed)
        cases = [difftest.gen_case(rng, rng.choice(ifaces)) for _ in range(o.cases)]
        runner.run(cases, verbose)
        full, same = compare(cases)
        bad = [c for c in full if norm(c.sline) != c.xline]
        if bad and not o.no_minimise:
            minimise(runner, bad, verbose)
        if bad and not o.quiet:
            groups = {}
            for c in bad:
                groups.setdefault((c.iface.name, tuple(c.lines())), []).append(c)
            print("stracetest: %s: %d mismatches, %d distinct minimised:" % (mode, len(bad), len(groups)))
            for (name, lines), cs in sorted(groups.items(), key=lambda kv: (kv[0][0], -len(kv[1]))):
                print("  %s (x%d): %s" % (name, len(cs), "; ".join(lines)))
                print("    xsc:    " + cs[0].xline)
                print("    strace: " + norm(cs[0].sline))
        per = []
        for it in ifaces:
            f = [c for c in full if c.iface is it]
            s = [c for c in same if c.iface is it]
            per.append("%s %d/%d" % (it.name, len(s), len(f)))
        print("stracetest: %s: per interface: %s" % (mode, ", ".join(per)))
        if not verbose:
            n, ok, diffs = roundtrip(runner, cases)
            print("stracetest: round trip: %d of strace's struct lines explained back, %d rebuild the bytes xsc "
                  "passed in every field strace printed" % (n, ok))
            for x in diffs:
                print("  " + x)
        share = 100.0 * len(same) / len(full) if full else 0.0
        more = sum(1 for c in cases if c.xline and c.sline and decoded_fully(c.xline, c.sline)
                   and norm(c.sline) != c.xline and beyond(c.xline, c.sline))
        print("stracetest: %s: %d lines strace decodes fully (of %d cases; %d more where xsc names what this "
              "strace does not), %d identical (%.1f%%)" % (mode, len(full), len(cases), more, len(same), share))
        if share < o.min_share:
            print("stracetest: FAIL: %s: %.1f%% identical, below %.1f%%" % (mode, share, o.min_share))
            rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
