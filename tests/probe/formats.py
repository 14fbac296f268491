#!/usr/bin/env python3
"""The probe's other formats say what its JSON says.

usage: formats.py PROBE_JSON BITMAP_TXT FEATURES_GRID_TXT FEATURES_OPENAT2_TXT FEATURES_JSON DATADIR
  BITMAP_TXT          probe --format=bitmap: "NAME  WORD WORD…" in hex, one line a syscall
  FEATURES_GRID_TXT   features: "NAME  ++++++++ +.?…" bit 0 first, '+' set
  FEATURES_OPENAT2_TXT features openat2: "  BIT  yes|no|?  NAME"
  FEATURES_JSON       features --json
Exit 1 on any difference.
"""
import glob
import json
import os
import re
import sys

probs = 0


def bad(msg):
    global probs
    probs += 1
    print("FAIL " + msg)


def bits_of(words, n):
    return [bool(words[b // 32] >> (b % 32) & 1) for b in range(n)]


def main():
    doc = json.load(open(sys.argv[1]))
    bitmap_txt, grid_txt, one_txt, feat_json, data = sys.argv[2:7]
    features = {}
    for path in glob.glob(os.path.join(data, "*.json")):
        if not path.endswith("schema.json"):
            for sc in json.load(open(path)).get("syscalls", []):
                if "features" in sc:
                    features[sc["name"]] = sc["features"]
    js = {s["name"]: s for s in doc["syscalls"]}

    # --format=bitmap
    seen = set()
    for line in open(bitmap_txt):
        parts = line.split()
        if not parts:
            continue
        name, words = parts[0], parts[1:]
        seen.add(name)
        if name not in js:
            bad("bitmap: %s is not in the JSON" % name)
            continue
        if not all(re.fullmatch(r"[0-9a-f]{8}", w) for w in words):
            bad("bitmap: %s: words %r are not 8 hex digits" % (name, words))
            continue
        if [int(w, 16) for w in words] != js[name]["bitmap"]:
            bad("bitmap: %s: %s, JSON %s" % (name, words, ["%08x" % w for w in js[name]["bitmap"]]))
    if seen != set(js):
        bad("bitmap: syscalls %s missing, %s extra" % (sorted(set(js) - seen), sorted(seen - set(js))))

    # features (the grid)
    seen = set()
    for line in open(grid_txt):
        m = re.match(r"^(\S+)\s{2,}([+.? ]+?)\s*$", line)
        if not m or line.startswith("("):
            continue
        name, cells = m.group(1), m.group(2).replace(" ", "")
        if name not in js:
            continue
        seen.add(name)
        n = len(features[name])
        if len(cells) != n:
            bad("features grid: %s has %d cells for %d feature bits" % (name, len(cells), n))
            continue
        want = bits_of(js[name]["bitmap"], n)
        got = [c == "+" for c in cells]
        if got != want:
            bad("features grid: %s %s, JSON bitmap %s" % (name, m.group(2), "".join("+" if b else "." for b in want)))
    if seen != set(js):
        bad("features grid: rows %s missing" % sorted(set(js) - seen))

    # features --json
    fj = {e["name"]: e["features"] for e in json.load(open(feat_json))}
    for name, s in js.items():
        fl = fj.get(name)
        if fl is None:
            bad("features --json: no %s" % name)
            continue
        want = bits_of(s["bitmap"], len(features[name]))
        if [f["bit"] for f in fl] != list(range(len(want))) or [f["name"] for f in fl] != features[name]:
            bad("features --json: %s: bits or names are not the catalogue's" % name)
        if [f["supported"] == "yes" for f in fl] != want:
            bad("features --json: %s: %s, JSON bitmap %s" % (name, [f["supported"] for f in fl], want))

    # features openat2
    rows = [re.match(r"^\s*(\d+)\s+(yes|no|\?)\s+(\S+)\s*$", l) for l in open(one_txt)]
    rows = [r for r in rows if r]
    want = bits_of(js["openat2"]["bitmap"], len(features["openat2"]))
    if [int(r.group(1)) for r in rows] != list(range(len(want))):
        bad("features openat2: bit numbers %s" % [r.group(1) for r in rows])
    elif [r.group(3) for r in rows] != features["openat2"]:
        bad("features openat2: names are not the catalogue's")
    elif [r.group(2) == "yes" for r in rows] != want:
        bad("features openat2: %s, JSON bitmap %s" % ([r.group(2) for r in rows], want))


if __name__ == "__main__":
    main()
    sys.exit(1 if probs else 0)
