#!/usr/bin/env python3
"""The differential tester of issue 24: random calls, live and simulated, compared.

Draws CASES random calls over every catalogue interface (flag subsets and unknown bits from
the catalogue's flag sets, sizes around every size version, zero and nonzero tails, field
values, paths in the sandbox), runs each one live (sandboxed, never --unsafe) and under
'target sim X.Y' at the running kernel's version, and compares the outcome: success, or
which errno. One xsc script per interface and target, so a few processes run all the calls.

Interfaces whose plainest call the sandbox refuses (fork, vfork, clone) are not live-callable
and are left out. A case ends in one of:
  agree / disagree  the simulator's answer is certain ("certain": true) and the live outcome
                    (success, or which errno) is / is not the same
  held / missed     the simulator's answer is uncertain ("certain": false: it depends on the
                    world outside the arguments, issue 24): its "possible" list holds / lacks
                    the live answer
  refused           the sandbox would not make the live call (not compared)
  invalid           a line of the case was refused by xsc itself (a generator bug)
Every case starts from the interface's plainest call that succeeds live (BASE, as in
tests/live/). Size-only cases change only the size and the tail from there. Every
disagreement is minimised (lines, flag names and values dropped or made 1 while live and sim
still give the same two answers) and printed as an xsc script; identical reproducers are
merged with a count.

The last line is
  difftest: N certain answers, A agree (P%), per interface: NAME A/N (P%, H/U held), ...
where N counts the certain answers (agree + disagree) and U the uncertain ones.

With --vm V the "live" calls run in a guest of the real kernel V ('target vm V', one guest
for all of them) and the simulator at that image's full version (6.1.192, so the stable
backports the catalogue records apply); statmount's mount id is then the guest's "/".

Options: --xsc PATH --data DIR --cases N --seed S [--kernel X.Y] [--vm V] [--check-size-only]
[--min-compared K] [--no-misses] [--no-minimise] [--keep DIR] [--quiet]. With
--check-size-only the exit status is 1 unless every compared size-only case agrees; with
--min-compared, 1 unless at least K cases were compared; with --no-misses, 1 when an
uncertain answer's possible list lacks the live answer.
"""
import argparse
import json
import os
import platform
import random
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

PATHS = ["file", "dir", "a", "mnt", "nosuch"]
# Every case starts from the interface's plainest call that succeeds live, as the batteries
# in tests/live/ make it (fields, then arguments); everything else is zero or the default.
# @MNT_ID@ is the unique mount id of "/".
BASE = {
    "PIDFD_GET_INFO": ([("mask", "PIDFD_INFO_PID|PIDFD_INFO_CREDS")], []),
    "clone3": ([("exit_signal", "SIGCHLD")], []),
    "file_getattr": ([], [("pathname", "file")]),
    "file_setattr": ([], [("pathname", "file")]),
    "getxattrat": ([], [("pathname", "file")]),
    "setxattrat": ([], [("pathname", "file")]),
    "landlock_create_ruleset": ([("handled_access_fs", "LANDLOCK_ACCESS_FS_EXECUTE")], []),
    "listmount": ([("mnt_id", "LSMT_ROOT")], [("nr_mnt_ids", "16")]),
    "mount_setattr": ([("attr_set", "MOUNT_ATTR_RDONLY")], []),
    "open_tree_attr": ([("attr_set", "MOUNT_ATTR_RDONLY")], [("flags", "OPEN_TREE_CLONE|OPEN_TREE_CLOEXEC")]),
    "openat2": ([("flags", "O_RDONLY|O_DIRECTORY")], []),
    "perf_event_open": ([("type", "PERF_TYPE_SOFTWARE"), ("config", "9"),
                         ("bits", "disabled|exclude_kernel|exclude_hv")], []),
    "sched_setattr": ([("sched_policy", "SCHED_NORMAL")], []),
    "statmount": ([("mnt_id", "@MNT_ID@"), ("param", "STATMOUNT_SB_BASIC|STATMOUNT_MNT_BASIC")], []),
}


def root_mnt_id():
    """The 64-bit unique mount id of "/" (statx STATX_MNT_ID_UNIQUE, 6.8), or None."""
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.syscall.restype = ctypes.c_long
        buf = ctypes.create_string_buffer(256)
        nr = {"x86_64": 332, "aarch64": 291}.get(platform.machine())
        if nr is None or libc.syscall(nr, -100, b"/", 0, 0x4000, buf) != 0:
            return None
        if int.from_bytes(buf.raw[0:4], "little") & 0x4000:
            return int.from_bytes(buf.raw[144:152], "little")
    except OSError:
        pass
    return None
PAGE = 4096
MNT_ID = None
VM = None  # --vm: the "live" calls run in a guest of this kernel ('target vm V')


def vm_kernel(xsc, data, v):
    """The full version ("6.1.192") and package version of the cached image of kernel v
    ('kernels --json'), or None when it is not there."""
    p = subprocess.run([xsc, "--data", data, "--json", "kernels"], capture_output=True, text=True)
    for k in json.loads(p.stdout or "[]"):
        if k.get("kernel") == v and k.get("present"):
            m = re.match(r"(\d+\.\d+(?:\.\d+)?)", k.get("package_version", ""))
            return (m.group(1) if m else v), k.get("package_version")
    return None


def vm_mnt_id(xsc, data, v):
    """The unique mount id of "/" inside the guest (statx STATX_MNT_ID_UNIQUE there), or None."""
    p = subprocess.run([xsc, "--data", data, "--json", "-c",
                        "target vm %s; call statx pathname=/ mask=STATX_MNT_ID_UNIQUE" % v],
                       capture_output=True, text=True, timeout=300)
    for d in docs(p.stdout):
        if isinstance(d, dict) and d.get("syscall") == "statx" and d.get("ret") == 0:
            after = bytearray(256)
            for w in d.get("writeback", []):
                after[w["offset"]] = w["after"]
            if int.from_bytes(after[0:4], "little") & 0x4000:
                return int.from_bytes(after[144:152], "little")
    return None


def num(s):
    s = s.strip()
    neg = s.startswith("-")
    s = s.lstrip("-")
    if s.lower().startswith("0x"):
        v = int(s, 16)
    elif len(s) > 1 and s.startswith("0"):
        v = int(s, 8)
    else:
        v = int(s)
    return -v if neg else v


def docs(text):
    """The JSON documents of a --json run, in order."""
    out, dec, i = [], json.JSONDecoder(), 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return out
        try:
            doc, i = dec.raw_decode(text, i)
        except ValueError:
            j = text.find("\n", i)
            if j < 0:
                return out
            i = j + 1
            continue
        out.append(doc)


def run_xsc(xsc, data, path, cwd):
    p = subprocess.run([xsc, "--data", data, "--json", "--keep-going", path], cwd=cwd,
                       capture_output=True, text=True, errors="replace", timeout=900)
    return p.stdout, p.stderr


WIDTH = {"u8": 8, "u16": 16, "u32": 32, "s32": 32, "u64": 64, "s64": 64, "aligned_u64": 64,
         "__u8": 8, "__u16": 16, "__u32": 32, "__s32": 32, "__u64": 64, "__s64": 64, "int": 32}


def ifaces_checks(it, kver):
    """The interface's condition checks in force at kver (since at or before it, until after)."""
    k = kv_tuple(kver)
    return [ck for ck in it.checks if "if" in ck and "step" not in ck and kv_tuple(ck.get("since", "0.0")) <= k
            and (not ck.get("until") or kv_tuple(ck["until"]) > k)]


class Iface:
    def __init__(self, show, flagsets):
        self.name = show["name"]
        self.kind = show["kind"]
        self.args = show.get("args", [])
        self.size_where = show.get("size_where") or "none"
        lay = show.get("layout") or {}
        self.fields = [f for f in lay.get("fields", []) if "[" not in f["type"]]
        self.reserved = [f for f in lay.get("fields", []) if f.get("reserved")]
        self.struct_size = lay.get("size") or 0
        self.versions = sorted(v["size"] for v in lay.get("versions", []))
        self.version_since = {v["size"]: v["since"] for v in lay.get("versions", [])}
        self.has_struct = bool(lay.get("fields"))
        self.flagsets = flagsets
        self.checks = show.get("checks") or []
        self.size_field_bits = 32 if self.size_where == "field" else 64

    def sizes(self):
        """Sizes around every size version: 0, below VER0, VERn-1, VERn, VERn+1, the
        newest + 8, a page, a page + 8, two pages, 64 KiB, bit 63."""
        if not self.versions or self.size_where == "none":
            return []
        v0, top = self.versions[0], max(self.versions[-1], self.struct_size)
        s = {0, v0 // 2, top + 8, PAGE, PAGE + 8, 2 * PAGE, 65536}
        for v in self.versions:
            s |= {v - 1, v, v + 1}
        if self.size_where == "arg":
            s.add(1 << 63 | top)
        if self.size_where == "ioctl":
            s = {x for x in s if x < 1 << 14}
        if self.size_where == "field":
            s = {x for x in s if x < 1 << 32}
        return sorted(x for x in s if x >= 0)


def flag_tokens(rng, fs, width, unknown_p):
    """A random value of a flag set as names (and a hex remainder of unknown bits)."""
    flags = [(f["name"], num(f["value"])) for f in fs["flags"]]
    mask = (1 << width) - 1
    if fs["kind"] == "enum":
        r = rng.random()
        if r < unknown_p:
            known = {v for _, v in flags}
            v = rng.choice([rng.randrange(1, 64), 1 << rng.randrange(width), mask])
            if v not in known:
                return ["%#x" % v]
        return [rng.choice(flags)[0]]
    single = [(n, v) for n, v in flags if v and not (v & (v - 1)) and v <= mask]
    multi = [(n, v) for n, v in flags if v and (v & (v - 1)) and v <= mask]
    toks, val = [], 0
    pool = single + multi[:2]
    for _ in range(rng.randrange(0, min(4, len(pool)) + 1)):
        n, v = rng.choice(pool)
        if n not in toks:
            toks.append(n)
            val |= v
    if rng.random() < unknown_p:
        known = 0
        for _, v in flags:
            known |= v
        free = [b for b in range(width) if not known >> b & 1]
        if free:
            bits = 0
            for _ in range(rng.randrange(1, 3)):
                bits |= 1 << rng.choice(free)
            toks.append("%#x" % bits)
    return toks or ["0"]


def plain_value(rng, width, signed):
    """A small number, one bit, all ones or anything, within the field's range."""
    r = rng.random()
    if r < 0.35:
        return [str(rng.randrange(1, 17))]
    if r < 0.7 and signed:
        return ["-1" if r < 0.5 else str(-rng.randrange(1, 1 << (width - 1)))]
    if signed:
        width -= 1
    if r < 0.55:
        return ["%#x" % (1 << rng.randrange(width))]
    if r < 0.7:
        return ["%#x" % ((1 << width) - 1)]
    return ["%#x" % rng.randrange(1 << width)]


def smaller_values(toks):
    """For a lone number: 1, its highest bit alone, its half (so a minimised value ends near
    the boundary that decides the answer)."""
    if len(toks) != 1 or not re.fullmatch(r"0x[0-9a-f]+|[0-9]+", toks[0]):
        return []
    v = num(toks[0])
    out = []
    for w in (1, 1 << (v.bit_length() - 1) if v else 0, v >> 1):
        if 0 < w < v and "%#x" % w not in out:
            out.append("%#x" % w if w > 9 else str(w))
    return out


class Case:
    def __init__(self, iface, kind, base=True):
        self.iface = iface
        self.kind = kind      # "size", "mixed" or "plain"
        self.size = None
        self.pokes = []       # (offset, byte)
        sets, args = BASE.get(iface.name, ([], [])) if base else ([], [])
        self.sets = [[f, v.split("|")] for f, v in sets]   # [field, [tokens]]
        self.args = [[a, v.split("|")] for a, v in args]   # [arg, [tokens]]

    def put(self, which, name, toks):
        lst = self.sets if which == "set" else self.args
        for x in lst:
            if x[0] == name:
                x[1] = toks
                return
        lst.append([name, toks])

    def lines(self):
        out = []
        if self.iface.has_struct:
            out.append("new %s" % self.iface.name)
        for f, toks in self.sets:
            out.append("set %s %s" % (f, "|".join(toks).replace("@MNT_ID@", str(MNT_ID or 0))))
        if self.size is not None:
            out.append("size %s" % (("1<<63|%d" % (self.size & ~(1 << 63))) if self.size >> 63 else self.size))
        for off, b in self.pokes:
            out.append("poke %d %#x" % (off, b))
        call = "call %s" % self.iface.name
        for a, toks in self.args:
            call += " %s=%s" % (a, "|".join(toks))
        out.append(call)
        return out

    def variants(self):
        """Smaller cases: one set, token, poke, argument or the size dropped."""
        for i, (f, toks) in enumerate(self.sets):
            yield self.copy(sets=self.sets[:i] + self.sets[i + 1:])
            for smaller in smaller_values(toks):
                s = [list(x) for x in self.sets]
                s[i][1] = [smaller]
                yield self.copy(sets=s)
            if len(toks) > 1:
                for j in range(len(toks)):
                    s = [list(x) for x in self.sets]
                    s[i][1] = toks[:j] + toks[j + 1:]
                    yield self.copy(sets=s)
        for i, (off, b) in enumerate(self.pokes):
            yield self.copy(pokes=self.pokes[:i] + self.pokes[i + 1:])
            if b != 1:
                yield self.copy(pokes=self.pokes[:i] + [(off, 1)] + self.pokes[i + 1:])
        if self.size is not None and not self.pokes:
            yield self.copy(size=None)
        for i, (a, toks) in enumerate(self.args):
            yield self.copy(args=self.args[:i] + self.args[i + 1:])
            for smaller in smaller_values(toks):
                s = [list(x) for x in self.args]
                s[i][1] = [smaller]
                yield self.copy(args=s)
            if len(toks) > 1:
                for j in range(len(toks)):
                    s = [list(x) for x in self.args]
                    s[i][1] = toks[:j] + toks[j + 1:]
                    yield self.copy(args=s)

    def copy(self, **kw):
        c = Case(self.iface, self.kind, base=False)
        c.sets = kw.get("sets", [list(x) for x in self.sets])
        c.size = kw.get("size", self.size)
        c.pokes = kw.get("pokes", list(self.pokes))
        c.args = kw.get("args", [list(x) for x in self.args])
        return c


def gen_size(rng, c):
    it = c.iface
    c.size = rng.choice(it.sizes())
    top = max(it.struct_size, it.versions[-1])
    if c.size > top and not c.size >> 63 and rng.random() < 0.5:
        c.pokes.append((rng.randrange(top, min(c.size, top + 2 * PAGE + 8)), rng.randrange(1, 256)))


def gen_case(rng, it):
    sizes = it.sizes()
    if sizes and rng.random() < 0.3:
        c = Case(it, "size")
        gen_size(rng, c)
        return c
    c = Case(it, "mixed")
    if it.fields:
        for f in rng.sample(it.fields, min(len(it.fields), rng.randrange(1, 4))):
            if f["name"] == "size" and it.size_where == "field":
                continue
            width = WIDTH.get(f["type"], 64)
            fs = it.flagsets.get(f.get("flagset"))
            if fs:
                toks = flag_tokens(rng, fs, width, 0.3)
            elif rng.random() < 0.3:
                toks = ["0"]
            else:
                toks = plain_value(rng, width, f["type"].startswith("s"))
            c.put("set", f["name"], toks)
    for a in it.args:
        if a["role"] == "flags" and rng.random() < 0.6:
            fs = it.flagsets.get(a.get("flagset"))
            if fs:
                c.put("arg", a["name"], flag_tokens(rng, fs, 32, 0.25))
            else:
                c.put("arg", a["name"], [rng.choice(["0", "1", "%#x" % (1 << rng.randrange(32))])])
        elif a["role"] == "path" and rng.random() < 0.3:
            c.put("arg", a["name"], [rng.choice(PATHS)])
    if sizes and rng.random() < 0.5:
        gen_size(rng, c)
    if it.reserved and rng.random() < 0.25:
        f = rng.choice(it.reserved)
        c.pokes.append((f["offset"] + rng.randrange(f["size"]), rng.randrange(1, 256)))
    return c


def kv_tuple(v):
    return tuple(int(x) for x in re.match(r"\d+(?:\.\d+)*", v).group(0).split("."))


def fact_cases(it, kver):
    """The catalogue's facts at kernel kver, one case each from the plainest call: every size
    version whose since is at or below it (the size alone), and every flag of every flag set
    of a field or a flags argument whose since is at or below it (that flag alone)."""
    k = kv_tuple(kver)
    out = []
    for size in it.versions:
        if kv_tuple(it.version_since[size]) <= k and it.size_where != "none":
            c = Case(it, "size")
            c.size = size
            out.append(c)
    holders = [("set", f["name"], f.get("flagset")) for f in it.fields if f.get("flagset")]
    holders += [("arg", a["name"], a.get("flagset")) for a in it.args if a["role"] == "flags" and a.get("flagset")]
    for which, name, fsname in holders:
        fs = it.flagsets.get(fsname)
        for f in (fs or {}).get("flags", []):
            if num(f["value"]) and kv_tuple(f["since"]) <= k:
                c = Case(it, "flag")
                c.put(which, name, [f["name"]])
                out.append(c)
    return out


CHECK_RE = re.compile(r"^the check: if (.*)$", re.M)


def outcome(doc):
    if doc.get("stage") != "called":
        return doc.get("stage") or "?"
    return doc.get("errno_name") or "ok"


def run_cases(cases, xsc, data, kver, work, tag):
    """Runs every case live and simulated; sets case.live, case.sim, case.state."""
    if not cases:
        return
    by_iface = {}
    for c in cases:
        by_iface.setdefault(c.iface.name, []).append(c)
    groups = sorted(by_iface.items())
    jobs = []
    for target in ("live", "sim"):
        # a guest boots once per script: every interface's "live" cases go into one
        for name, cs in ([("all", cases)] if target == "live" and VM else groups):
            path = os.path.join(work, "%s-%s-%s.xsc" % (tag, name, target))
            lines = ["target sim %s" % kver] if target == "sim" else (["target vm %s" % VM] if VM else [])
            spans = []
            for c in cs:
                lines.append("# case")
                first = len(lines) + 1
                lines += c.lines()
                spans.append((first, len(lines)))
            with open(path, "w") as f:
                f.write("\n".join(lines) + "\n")
            jobs.append((target, cs, spans, path))

    def one(job):
        target, cs, spans, path = job
        out, err = run_xsc(xsc, data, path, work)
        return job, out, err

    with ThreadPoolExecutor(max_workers=2) as ex:
        results = list(ex.map(one, jobs))
    for (target, cs, spans, path), out, err in results:
        bad = {}
        base = os.path.basename(path)
        for line in err.splitlines():
            m = re.match(r"(?:.*/)?%s:(\d+): (.*)" % re.escape(base), line)
            if m:
                bad.setdefault(int(m.group(1)), m.group(2))
        # under --json a refused line is a document of its own: {"error", "where": "FILE:LINE"}
        for d in docs(out):
            if isinstance(d, dict) and "error" in d and "syscall" not in d:
                m = re.match(r"(?:.*/)?%s:(\d+)$" % re.escape(base), str(d.get("where", "")))
                if m:
                    bad.setdefault(int(m.group(1)), str(d["error"]))
        calls = [d for d in docs(out) if isinstance(d, dict) and "syscall" in d and "target" in d]
        k = 0
        for c, (first, last) in zip(cs, spans):
            setup = [bad[n] for n in range(first, last) if n in bad]
            if setup:
                c.invalid = setup[0]
            if last in bad:
                setattr(c, target, None)
                setattr(c, target + "_why", bad[last])
                continue
            d = calls[k] if k < len(calls) else {}
            k += 1
            if target == "live" and VM and d.get("stage") == "setup":
                # the agent would not make the call (a guest without Landlock refuses a call
                # that may write files, as live does): not a kernel's answer
                setattr(c, target, None)
                setattr(c, target + "_why", "setup")
                continue
            setattr(c, target, outcome(d))
            setattr(c, target + "_line", d.get("line", ""))
            if target == "sim":
                m = CHECK_RE.search(d.get("explanation") or "")
                c.check = m.group(1) if m else None
            if target == "sim" and d.get("certain") is False:
                c.possible = d.get("possible") or []
            elif target == "sim":
                c.possible = None
    for c in cases:
        if getattr(c, "invalid", None):
            c.state = "invalid"
        elif c.live is None:
            c.state = "refused"
        elif c.sim is None:
            c.state = "invalid"
            c.invalid = "sim: " + c.sim_why
        elif getattr(c, "possible", None) is not None:
            # an answer the simulator gives as uncertain: right when it names the live one
            c.state = "held" if c.live in c.possible else "missed"
        elif c.live == c.sim:
            c.state = "agree"
        else:
            c.state = "disagree"


def minimise(cases, xsc, data, kver, work, rounds=40):
    """Drops lines and flag names while live and sim keep the same two answers. A smaller
    case many disagreements reach is run once (seen)."""
    todo = list(cases)
    seen = {}
    for r in range(rounds):
        variants, fresh = {}, {}
        for c in todo:
            variants[id(c)] = vs = list(c.variants())
            for v in vs:
                key = (v.iface.name, tuple(v.lines()))
                if key not in seen and key not in fresh:
                    fresh[key] = v
        if not any(variants.values()):
            return
        if fresh:
            run_cases(list(fresh.values()), xsc, data, kver, work, "min%d" % r)
            for key, v in fresh.items():
                seen[key] = v
        nxt = []
        for c in todo:
            for v in variants[id(c)]:
                w = seen[(v.iface.name, tuple(v.lines()))]
                if w.state == c.state and w.live == c.live and w.sim == c.sim:
                    c.sets, c.size, c.pokes, c.args = v.sets, v.size, v.pokes, v.args
                    c.live_line, c.sim_line = w.live_line, w.sim_line
                    nxt.append(c)
                    break
        todo = nxt


def pct(a, n):
    return "%.1f%%" % (100.0 * a / n) if n else "n/a"


def main():
    ap = argparse.ArgumentParser(description="live against simulated, on random calls")
    ap.add_argument("--xsc", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--cases", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kernel")
    ap.add_argument("--vm", help="run the live calls in a guest of this kernel (target vm V) and "
                    "simulate at its full version")
    ap.add_argument("--check-size-only", action="store_true")
    ap.add_argument("--min-compared", type=int, default=0)
    ap.add_argument("--no-misses", action="store_true")
    ap.add_argument("--facts", action="store_true",
                    help="in place of random cases, every size version and flag the catalogue dates at or "
                    "before the kernel, each alone; exit 1 on any disagreement or miss")
    ap.add_argument("--no-minimise", action="store_true")
    ap.add_argument("--keep")
    ap.add_argument("--quiet", action="store_true", help="no reproducers")
    o = ap.parse_args()
    o.no_minimise |= o.facts  # a fact's case is already one step from the plainest call
    xsc, data = os.path.abspath(o.xsc), os.path.abspath(o.data)
    if platform.system() != "Linux":
        print("difftest: not Linux")
        return 77
    kver = o.kernel or ".".join(platform.release().split(".")[:2]).split("-")[0]
    global VM, LIVE_NAME
    if o.vm:
        k = vm_kernel(xsc, data, o.vm)
        if not k:
            print("difftest: the kernel image of %s is not fetched ('xsc kernels fetch %s')" % (o.vm, o.vm))
            return 77
        VM = o.vm
        kver = o.kernel or k[0]
        LIVE_NAME = "vm %s (Debian %s)" % (o.vm, k[1])
    work = o.keep or tempfile.mkdtemp(prefix="xsc-difftest-")
    os.makedirs(work, exist_ok=True)
    try:
        return difftest(o, xsc, data, kver, work)
    finally:
        if not o.keep:
            shutil.rmtree(work, ignore_errors=True)


LIVE_NAME = "live " + platform.release()


def difftest(o, xsc, data, kver, work):

    listing = subprocess.run([xsc, "--data", data, "--json", "list"], capture_output=True, text=True, check=True)
    names = sorted(d["name"] for d in json.loads(listing.stdout))
    shows = docs(subprocess.run([xsc, "--data", data, "--json", "-c", "; ".join("show syscall %s" % n for n in names)],
                                capture_output=True, text=True, check=True).stdout)
    ifaces = []
    for s in shows:
        fsets = {f["name"]: f for f in s.get("flagsets", [])}
        ifaces.append(Iface(s, fsets))
    global MNT_ID
    # a guest before statmount (6.8) is not booted for the mount id it would not use
    MNT_ID = (vm_mnt_id(xsc, data, VM) if kv_tuple(kver) >= (6, 8) else None) if VM else root_mnt_id()
    # live-callable: the sandbox makes the interface's plainest call (fork, vfork, clone: never)
    # (--facts: every case is one step from the plainest call, so a refused one is simply
    # not compared, and a guest is not booted for the plain calls alone)
    plain = [] if o.facts else [Case(it, "plain") for it in ifaces]
    run_cases(plain, xsc, data, kver, work, "plain")
    callable_ = [c.iface for c in plain if c.state != "refused"]
    skipped = [c.iface.name for c in plain if c.state == "refused"]
    if not o.facts:
        ifaces = callable_
    if MNT_ID is None and not VM:  # in a guest before 6.8 statmount is ENOSYS, compared with mnt_id 0
        skipped.append("statmount (no unique mount id of /)")
        ifaces = [it for it in ifaces if it.name != "statmount"]
    rng = random.Random(o.seed)
    cases = []
    if o.facts:
        for it in ifaces:
            cases += fact_cases(it, kver)
    for _ in range(0 if o.facts else o.cases):
        cases.append(gen_case(rng, rng.choice(ifaces)))
    run_cases(cases, xsc, data, kver, work, "run")

    count = lambda st, cs=cases: sum(1 for c in cs if c.state == st)
    compared = [c for c in cases if c.state in ("agree", "disagree")]
    agree = count("agree")
    size_only = [c for c in compared if c.kind == "size"]
    size_agree = sum(1 for c in size_only if c.state == "agree")
    dis = [c for c in cases if c.state == "disagree"]
    print("difftest: %s against target sim %s, seed %d, %d cases generated over %d interfaces"
          % (LIVE_NAME, kver, o.seed, len(cases), len(ifaces)))
    if skipped:
        print("difftest: not live-callable in the sandbox, not generated: %s" % ", ".join(skipped))
    held, missed = count("held"), count("missed")
    print("difftest: %d certain answers (%s of the cases), %d uncertain (%d held: the live answer among the possible ones, "
          "%d missed), %d refused by the sandbox, %d invalid"
          % (len(compared), pct(len(compared), len(cases)), held + missed, held, missed, count("refused"), count("invalid")))
    for c in cases:
        if c.state == "invalid":
            print("difftest: invalid case (%s): %s" % (c.invalid, "; ".join(c.lines())), file=sys.stderr)
    mis = [c for c in cases if c.state == "missed"]
    if mis and not o.no_minimise:
        minimise(mis, xsc, data, kver, work)
    if mis and not o.quiet:
        groups = {}
        for c in mis:
            key = (c.iface.name, c.live, "/".join(c.possible), tuple(c.lines()))
            groups.setdefault(key, []).append(c)
        print("difftest: %d misses, %d distinct minimised reproducers (live answer, simulated possible answers, count):"
              % (len(mis), len(groups)))
        for (name, live, poss, lines), cs in sorted(groups.items(), key=lambda kv: (kv[0][0], -len(kv[1]), kv[0][3])):
            print("  %s: live %s, sim possible %s (x%d)" % (name, live, poss, len(cs)))
            for l in lines:
                print("    " + l)
    if dis and not o.no_minimise:
        minimise(dis, xsc, data, kver, work)
    if dis and not o.quiet:
        groups = {}
        for c in dis:
            key = (c.iface.name, c.live, c.sim, tuple(c.lines()), c.kind)
            groups.setdefault(key, []).append(c)
        print("difftest: %d disagreements, %d distinct minimised reproducers (live answer, simulated answer, count):"
              % (len(dis), len(groups)))
        for (name, live, sim, lines, kind), cs in sorted(groups.items(), key=lambda kv: (kv[0][0], -len(kv[1]), kv[0][3])):
            print("  %s: live %s, sim %s (x%d%s)" % (name, live, sim, len(cs), ", size-only" if kind == "size" else ""))
            for l in lines:
                print("    " + l)
    if dis:
        pairs = {}
        for c in dis:
            pairs[(c.live, c.sim)] = pairs.get((c.live, c.sim), 0) + 1
        print("difftest: disagreements by answer (live/sim): %s" % ", ".join(
            "%s/%s %d" % (l, m, n) for (l, m), n in sorted(pairs.items(), key=lambda kv: (-kv[1], kv[0]))))
    print("difftest: size-only: %d cases, %d agree (%s)" % (len(size_only), size_agree, pct(size_agree, len(size_only))))
    per = []
    for it in ifaces:
        cs = [c for c in compared if c.iface is it]
        a = sum(1 for c in cs if c.state == "agree")
        unc = [c for c in cases if c.iface is it and c.state in ("held", "missed")]
        h = sum(1 for c in unc if c.state == "held")
        ref = sum(1 for c in cases if c.iface is it and c.state == "refused")
        extra = "".join([", %d/%d held" % (h, len(unc)) if unc else "", ", %d refused" % ref if ref else ""])
        per.append("%s %d/%d (%s%s)" % (it.name, a, len(cs), pct(a, len(cs)), extra))
    print("difftest: %d certain answers, %d agree (%s), per interface: %s" % (len(compared), agree, pct(agree, len(compared)), ", ".join(per)))
    rc = 0
    if o.check_size_only and size_agree != len(size_only):
        print("difftest: FAIL: %d size-only cases disagree" % (len(size_only) - size_agree))
        rc = 1
    if len(compared) < o.min_compared:
        print("difftest: FAIL: %d cases compared, fewer than %d" % (len(compared), o.min_compared))
        rc = 1
    if o.no_misses and missed:
        print("difftest: FAIL: %d uncertain answers lack the live one" % missed)
        rc = 1
    if o.facts:
        checks = {(it.name, ck["if"]) for it in ifaces for ck in ifaces_checks(it, kver)}
        hit = {(c.iface.name, c.check) for c in cases if getattr(c, "check", None)}
        print("difftest: facts: %d size versions and %d flags at or before %s; %d of the %d condition checks in force "
              "there decided a case" % (sum(1 for c in cases if c.kind == "size"), sum(1 for c in cases if c.kind == "flag"),
                                         kver, len(checks & hit), len(checks)))
        if dis or missed:
            print("difftest: FAIL: %d facts disagree, %d uncertain answers lack the real one" % (len(dis), missed))
            rc = 1
    if count("invalid"):
        print("difftest: FAIL: %d invalid cases (the generator wrote lines xsc refuses)" % count("invalid"))
        rc = 1
    return rc


if __name__ == "__main__":
    sys.exit(main())
