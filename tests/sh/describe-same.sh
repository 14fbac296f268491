#!/bin/sh
# Each fact described once (cli/model/describe.c): for every call of the catalogue, the size
# rules `show` gives (its --json "size_rules" items and its "size:" line) and the "Size rules"
# bullets of the call's reference page are the same rules with the same answers, in the same
# order, and every flag table of the reference gives the values `show flagset` gives. Both
# render describe's items; this holds them to it, so a renderer that reads the catalogue on
# its own again, or drops or rewords an answer, fails here. The reference is
# docs/reference as committed (docs-fresh.sh holds it to `make docs`).
set -eu
cd "$top"
. "$top/tests/lib.sh"
need python3

python3 - <<'PY'
import glob, json, os, re, subprocess, sys
xsc = os.environ["XSC"]
def run(*args):
    return subprocess.run([xsc, "--data", "data", *args], capture_output=True, text=True, check=True).stdout

# The reference's words for each write-back (its bullet is prose, not the catalogue's token).
writeback = {"none": "writes nothing back", "size-on-e2big": "writes its own size into the size field",
             "size-on-success": "writes the size it used", "required-size": "the size it needs through the size pointer"}

def bullet_says(it, text):
    """What the reference's bullet must contain for item it; a list of strings."""
    rule, v = it["rule"], it["value"]
    if rule == "where":
        w = it["where"]
        need = {"none": ["nowhere"], "ioctl": ["`_IOC_SIZE`"]}.get(w, ["`%s`" % v])
        return need + (["(%d-bit)" % it["bits"]] if "bits" in it else [])
    if rule == "zero" and v == "ver0":
        return ["(VER0)"]
    if rule == "min":
        return ["%d bytes" % it["bytes"]]
    if rule == "cap":
        return ["%d bytes; more is `%s`" % (it["bytes"], v)] + (["`since %s`" % it["since"]] if it["since"] else [])
    if rule == "writeback":
        return [writeback[v]]
    if rule == "check_order":
        return [v]
    return ["`%s`" % v]

def line_says(it):
    """What show's "size:" line must contain for item it (the order of the checks is the reference's alone)."""
    rule, v = it["rule"], it["value"]
    if rule == "where":
        return {"none": "none: the struct has a fixed size", "ioctl": "(_IOC_SIZE)"}.get(it["where"], "'%s'" % v)
    if rule == "zero" and v == "ver0":
        return "size 0: taken as VER0"
    if rule in ("min", "cap"):
        return ("minimum %d" if rule == "min" else "above %d: " + v) % it["bytes"]
    if rule == "check_order" or (rule == "writeback" and v == "none"):
        return None
    return v

bad = 0
names = [c["name"] for c in json.loads(run("list", "--json"))]
items_total = 0
for name in names:
    doc = json.loads(run("show", "syscall", name, "--json"))
    items = doc["size_rules"]
    items_total += len(items)
    text = [l for l in run("show", "syscall", name).splitlines() if l.startswith("size: ")]
    page = open("docs/reference/syscalls/%s.md" % re.sub(r"[^A-Za-z0-9_-]", "_", name)).read()
    sect = page.split("\n## Size rules\n", 1)[1].split("\n## ", 1)[0]
    bullets = [re.match(r"- \*\*(.*?):\*\* (.*)", l).groups() for l in sect.splitlines() if l.startswith("- **")]
    bullets = [(l, re.sub(r"\\(.)", r"\1", b)) for l, b in bullets] # Markdown's escapes
    if [i["label"] for i in items] != [l for l, _ in bullets]:
        print("%s: show's size rules %s, the reference's %s" % (name, [i["label"] for i in items], [l for l, _ in bullets]))
        bad += 1
        continue
    for it, (label, b) in zip(items, bullets):
        for want in bullet_says(it, b):
            if want not in b:
                print("%s: %s: show says %r, the reference %r" % (name, label, want, b))
                bad += 1
        want = line_says(it)
        if want is not None and (len(text) != 1 or want not in text[0]):
            print("%s: %s: %r is not in show's line %r" % (name, label, want, text))
            bad += 1
print("%d calls, %d size rules: show and the reference say the same%s" % (len(names), items_total, "" if not bad else "; %d differ" % bad))

# Flag values (describe_flag_value): every flag table of the reference, against `show flagset`.
tables, nflags, bad0 = {}, 0, bad
for path in sorted(glob.glob("docs/reference/*/*.md")):
    for m in re.finditer(r"Flag set `([^`]*)`\n.*?\n\|---\|---:\|---\|---\|\n((?:\|[^\n]*\n)*)", open(path).read(), re.S):
        rows = [re.match(r"\| \[`([^`]*)`\].*? \| `([^`]*)` \|", r).groups() for r in m.group(2).splitlines()]
        tables.setdefault(m.group(1), []).append((path, rows))
for fs, seen in sorted(tables.items()):
    shown = [(f["name"], f["value"]) for f in json.loads(run("show", "flagset", fs, "--json"))["flags"]]
    nflags += len(shown)
    for path, rows in seen:
        if rows != shown:
            print("%s: flag set %s: show says %s, the page %s" % (path, fs, shown, rows))
            bad += 1
print("%d flag sets, %d flags: show's values and the reference's tables are the same%s" % (len(tables), nflags, "" if bad == bad0 else "; %d differ" % (bad - bad0)))
sys.exit(1 if bad else 0)
PY
