#!/usr/bin/env python3
"""The census (make census): every place in a kernel tree that reads or writes a struct whose
size the caller chooses, held against the catalogue.

    census.py DATA VERSION=TREE... [--update] [--scan-only]

A site is a (file, function) of a tree that calls one of the helpers named in
DATA/census/census.json ("helpers": copy_struct_from_user and its kin, and the wrappers built on
them, whose own bodies are not sites) or matches one of its helper-free "patterns" (a size
convention written by hand: PTRACE_GET_SYSCALL_INFO's min(size, ...), name_to_handle_at's
handle_bytes, ...). The census file's "sites" list records every site with the trees it is in
and how it is accounted for: "interface" (a catalogued syscall or request), "excluded" (with
the reason: a fixed-size driver ioctl, a kernel-internal path, a self-test) or "pending" (an
interface not catalogued yet, counted as unaccounted). It fails (exit 1) when a site of a tree
is missing from the list, when the list claims a site or a tree the scan does not find, or when
a site is unaccounted (no account, "pending", or an interface the catalogue lacks).

--update rewrites the scanned half of the list (sites, "by", "in") from the trees and keeps
every account; a new site is added with no account, so the census fails until someone gives it
one. --scan-only fails only when the list and the trees disagree (the suite's real run: an
interface still pending is the catalogue's debt, not the list's error). The trees need not be whole: only the *.c and *.h files outside "skip_dirs" are read.
"""
import json
import os
import re
import subprocess
import sys

NAME = r"[A-Za-z_][A-Za-z0-9_]*"
DEFINE_RE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(" + NAME + r")")
SYSCALL_DEF_RE = re.compile(r"^(COMPAT_)?SYSCALL_DEFINE\d$")
NOT_NAMES = {"__attribute__", "__printf", "__must_hold", "__acquires", "__releases",
             "__cond_acquires", "__cond_releases", "__diag_ignore", "__section", "__aligned",
             "__no_sanitize_address", "if", "for", "while", "switch", "return", "sizeof",
             "__releases_shared", "__acquires_shared", "__must_hold_shared", "__cleanup"}


def strip_code(text):
    """Comments and string/char literals blanked (newlines kept), so braces and names count."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j - 1]) + (c if j - 1 > i else ""))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def function_name(head):
    """The function a definition's head names: the first name followed by '(' at parenthesis
    depth 0, SYSCALL_DEFINEn(name, ...) as sys_name; None when the head is no function."""
    depth = 0
    for m in re.finditer(NAME + r"|[()=;]", head):
        t = m.group(0)
        if t == "(":
            depth += 1
        elif t == ")":
            depth -= 1
        elif t in "=;":
            if depth == 0:
                return None
        elif depth == 0 and t not in NOT_NAMES and re.match(r"\s*\(", head[m.end():]):
            if SYSCALL_DEF_RE.match(t):
                arg = re.match(r"\s*\(\s*(" + NAME + ")", head[m.end():])
                return ("compat_sys_" if t.startswith("COMPAT") else "sys_") + arg.group(1) if arg else t
            return t
    return None


def enclosing(text):
    """For each line (1-based) the function or macro it lies in, or None at file scope."""
    code = strip_code(text)
    lines = code.split("\n")
    owner = [None] * (len(lines) + 2)
    depth, head, current, in_define = 0, [], None, None
    for no, line in enumerate(lines, 1):
        if in_define is None:
            m = DEFINE_RE.match(line)
            if m:
                in_define = m.group(1)
        if in_define is not None:
            owner[no] = in_define
            if not line.rstrip().endswith("\\"):
                in_define = None
            continue
        if line.lstrip().startswith("#"):
            owner[no] = current
            continue
        start, rest = current, 0
        for ch_i, ch in enumerate(line):
            if ch == "{":
                if depth == 0:
                    current = function_name(" ".join(head) + line[rest:ch_i])
                    head = []
                depth += 1
            elif ch == "}":
                depth = max(depth - 1, 0)
                if depth == 0:
                    head, rest = [], ch_i + 1
            elif ch == ";" and depth == 0:
                head, rest = [], ch_i + 1
        owner[no] = current or start  # a line that closes a function is still in it
        if depth == 0:
            current = None
            head.append(line[rest:])
            head = head[-12:]
    return owner, lines


def candidates(tree, census, helpers, pats):
    """The files worth reading: those grep finds a helper's name in, and those under a
    pattern's path (grep reads the tree many times faster than Python)."""
    cmd = ["grep", "-rlE", "--include=*.c", "--include=*.h"]
    cmd += ["--exclude-dir=" + d for d in census.get("skip_dirs", [])]
    cmd += [r"\b(" + "|".join(helpers) + r")\s*\(", "."]
    got = subprocess.run(cmd, cwd=tree, stdout=subprocess.PIPE, check=False)
    if got.returncode > 1:
        sys.exit("census: grep failed in " + tree)
    files = {os.path.normpath(f) for f in got.stdout.decode().split("\n") if f}
    for _, _, path in pats:
        top = os.path.join(tree, path)
        if os.path.isfile(top):
            files.add(os.path.normpath(path))
        for root, _, names in os.walk(top):
            files |= {os.path.relpath(os.path.join(root, n), tree) for n in names if n.endswith((".c", ".h"))}
    return sorted(files)


def scan_tree(tree, census):
    """{(file, function): set of helper or pattern names} for one tree. A match at file scope
    is a helper's declaration or definition, never a call, and is not a site."""
    helpers = [h["name"] for h in census["helpers"]]
    helper_re = re.compile(r"\b(" + "|".join(map(re.escape, helpers)) + r")\s*\(")
    pats = [(p["name"], re.compile(p["regex"]), p["path"]) for p in census.get("patterns", [])]
    sites = {}
    for rel in candidates(tree, census, helpers, pats):
        try:
            text = open(os.path.join(tree, rel), encoding="utf-8", errors="replace").read()
        except OSError:
            continue
        wanted = [p for p in pats if rel.startswith(p[2])]
        owner, code = enclosing(text)
        for no, line in enumerate(code, 1):
            found = [m.group(1) for m in helper_re.finditer(line)]
            found += [name for name, rx, _ in wanted if rx.search(line)]
            fun = owner[no]
            if found and fun and fun not in helpers:  # a helper's own body is the helper
                sites.setdefault((rel, fun), set()).update(found)
    return sites


def catalogue_names(data):
    names = set()
    for fn in sorted(os.listdir(data)):
        if fn.endswith(".json") and fn != "schema.json":
            for sc in json.load(open(os.path.join(data, fn))).get("syscalls", []):
                names.add(sc["name"])
    return names


def account(site, names):
    """('interface'|'excluded'|'pending'|'unaccounted', detail)."""
    if "interface" in site:
        return ("interface", site["interface"]) if site["interface"] in names else \
            ("unaccounted", "'%s' is not in the catalogue" % site["interface"])
    if "excluded" in site:
        return "excluded", site["excluded"]
    if "pending" in site:
        return "unaccounted", "pending: " + site["pending"]
    return "unaccounted", "no account"


def vkey(v):
    return tuple(int(x) for x in v.split("."))


def main(argv):
    update, scan_only = "--update" in argv, "--scan-only" in argv
    argv = [a for a in argv if a not in ("--update", "--scan-only")]
    if len(argv) < 2 or any("=" not in a for a in argv[1:]):
        sys.exit(__doc__)
    data = argv[0]
    trees = sorted((a.split("=", 1) for a in argv[1:]), key=lambda t: vkey(t[0]))
    cpath = os.path.join(data, "census", "census.json")
    census = json.load(open(cpath))
    names = catalogue_names(data)
    scans = {v: scan_tree(t, census) for v, t in trees}
    found = {}
    for v, s in scans.items():
        for key, by in s.items():
            e = found.setdefault(key, {"by": set(), "in": []})
            e["by"] |= by
            e["in"].append(v)
    problems = []
    recorded = {(s["file"], s["function"]): s for s in census["sites"]}
    if len(recorded) != len(census["sites"]):
        problems.append("a site is listed twice")
    scanned = [v for v, _ in trees]
    for key, e in sorted(found.items()):
        s = recorded.get(key)
        if s is None:
            if update:
                recorded[key] = s = {"file": key[0], "function": key[1]}
            else:
                problems.append("%s %s: a site the census does not list (%s in %s)" %
                                (key[0], key[1], ", ".join(sorted(e["by"])), " ".join(e["in"])))
                continue
        claimed_in = [v for v in s.get("in", []) if v in scanned]
        if update:
            s["by"] = sorted(e["by"])
            s["in"] = sorted(set(s.get("in", [])) - set(scanned) | set(e["in"]), key=vkey)
        elif claimed_in != e["in"] or sorted(s.get("by", [])) != sorted(e["by"]):
            problems.append("%s %s: listed in %s by %s, found in %s by %s" %
                            (key[0], key[1], " ".join(claimed_in), ", ".join(s.get("by", [])),
                             " ".join(e["in"]), ", ".join(sorted(e["by"]))))
    for key, s in sorted(recorded.items()):
        if s.get("pending") in names:
            problems.append("%s %s: pending '%s', which the catalogue holds now: say \"interface\"" %
                            (key[0], key[1], s["pending"]))
        gone = [v for v in s.get("in", []) if v in scanned and key not in scans[v]]
        if gone and update:
            s["in"] = [v for v in s["in"] if v not in gone]
        elif gone:
            problems.append("%s %s: listed in %s, not found there" % (key[0], key[1], " ".join(gone)))
    if update:
        census["sites"] = sorted((s for s in recorded.values() if s.get("in")),
                                 key=lambda s: (s["file"], s["function"]))
        census["trees"] = sorted(set(census.get("trees", [])) | set(scanned), key=vkey)
        write_census(cpath, census)
    report(census, names, trees, problems, scan_only)


def write_census(path, census):
    """One site a line, so a diff shows one site."""
    head = {k: v for k, v in census.items() if k != "sites"}
    text = json.dumps(head, indent=2, ensure_ascii=False)[:-2]
    text += ',\n  "sites": [\n'
    order = ["file", "function", "by", "in", "interface", "pending", "excluded", "source"]
    rows = []
    for s in census["sites"]:
        o = {k: s[k] for k in order if k in s}
        o.update({k: v for k, v in s.items() if k not in o})
        rows.append("    " + json.dumps(o, ensure_ascii=False))
    text += ",\n".join(rows) + "\n  ]\n}\n"
    open(path, "w").write(text)


def report(census, names, trees, problems, scan_only):
    newest = trees[-1][0]
    counts = {}
    unaccounted = []
    for s in census["sites"]:
        if newest not in s.get("in", []):
            continue
        kind, detail = account(s, names)
        counts[kind] = counts.get(kind, 0) + 1
        if kind == "unaccounted":
            unaccounted.append("%s %s: %s" % (s["file"], s["function"], detail))
    before = trees[-2][0] if len(trees) > 1 else None
    if before:
        new = [s for s in census["sites"] if newest in s.get("in", []) and before not in s.get("in", [])]
        print("census: %d sites new in %s since %s:" % (len(new), newest, before))
        for s in new:
            kind, detail = account(s, names)
            print("  %s %s (%s: %s)" % (s["file"], s["function"], kind, detail))
    for u in unaccounted:
        print("census: unaccounted: " + u)
    for p in problems:
        print("census: " + p)
    total = sum(counts.values())
    print("census: %s: %d sites, %d catalogued, %d excluded, %d unaccounted; trees %s" %
          (newest, total, counts.get("interface", 0), counts.get("excluded", 0),
           counts.get("unaccounted", 0), " ".join(v for v, _ in trees)))
    sys.exit(1 if problems or unaccounted and not scan_only else 0)


if __name__ == "__main__":
    main(sys.argv[1:])
