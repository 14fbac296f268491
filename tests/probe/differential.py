#!/usr/bin/env python3
"""Probe against `xsc call`: every flag the probe reports must draw the matching answer from
an ordinary sandboxed call made with the same recipe (the catalogue's "probe" key for the
baseline, the flag's "companions" for what it needs).

usage: differential.py XSC DATADIR MNT_ID SYSCALL...
Prints one line per disagreement and a summary per syscall; exit 1 when any disagree,
77 when nothing could be compared.

The recipe, as cli/kernel/probe.c applies it (DESIGN §4):
  * baseline struct: the catalogue's probe.set FIELD=VALUE on a zeroed buffer at the newest
    known size; arguments: their defaults, overridden by probe.args ARG=VALUE;
  * a flag of a struct field is OR-ed into the baseline value of that field; a flag of an
    argument replaces the argument's default (the bit alone);
  * companions: a bare NAME is another flag of the same word (OR-ed); FIELD=VALUE sets a
    struct field (OR-ed when it is the flag's own field); ARG=VALUE sets an argument (OR-ed
    when it is the flag's own argument); SCRATCH is a scratch buffer, MNT_ID a mount id;
    USERNS_FD, IO_URING_FD, CGROUP_FD cannot be made: the probe says "inconclusive", or,
    where the checks' order tells (its by_check_order), probes with a descriptor never open
    and says "supported" when the errno is not the unknown flag's: replayed so, with
    call --unsafe (the sandbox refuses a descriptor it did not prepare), that errno again;
  * the verdict: EINVAL is "unsupported"; success or any other errno but EPERM, EACCES,
    ENOSYS and E2BIG is "supported". A field that lies past the kernel's struct (its
    kernel_size) is one the kernel cannot read: its flags are "unsupported", and the call
    with one set draws E2BIG.
Bits the catalogue does not know are checked too: listed in unknown_bits_accepted means the
call is not EINVAL; not listed means EINVAL (or an inconclusive errno).
"""
import glob
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from jsondocs import docs  # noqa: E402

INCONCLUSIVE = {"EPERM", "EACCES", "ENOSYS", "E2BIG"}
UNMAKEABLE = {"USERNS_FD", "IO_URING_FD", "CGROUP_FD"}
STANDIN_FD = "2147483647"  # cli/kernel/probe.c STANDIN_FD: a descriptor number never open


def num(text):
    t = str(text).strip()
    neg = t.startswith("-")
    if neg:
        t = t[1:]
    if t.startswith(("0x", "0X")):
        v = int(t, 16)
    elif len(t) > 1 and t.startswith("0") and t.isdigit():
        v = int(t, 8)
    else:
        v = int(t, 0)
    return -v if neg else v


def run_json(argv):
    out = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return out


def main():
    xsc, data, mnt_id = sys.argv[1], sys.argv[2], sys.argv[3]
    names = sys.argv[4:]
    # companions and probe recipes live only in the catalogue files
    companions, recipes = {}, {}
    for path in glob.glob(os.path.join(data, "*.json")):
        if path.endswith("schema.json"):
            continue
        d = json.load(open(path))
        for fs in d.get("flagsets", []):
            for f in fs.get("flags", []):
                companions[(fs["name"], f["name"])] = f.get("companions", [])
        for sc in d.get("syscalls", []):
            recipes[sc["name"]] = sc.get("probe", {})
    total_bad = total_checked = 0
    for name in names:
        show = run_json([xsc, "--data", data, "show", name, "--json"])
        if show.returncode:
            print("%s: xsc show failed: %s" % (name, show.stderr.strip()))
            total_bad += 1
            continue
        sc = json.loads(show.stdout)
        pr = run_json([xsc, "--data", data, "probe", "--no-cache", name, "--json"])
        if pr.returncode:
            print("%s: xsc probe failed: %s" % (name, pr.stderr.strip()))
            total_bad += 1
            continue
        rep = json.loads(pr.stdout)["syscalls"][0]
        if rep["available"] != "yes":
            print("%s: not available here (%s), nothing to compare" % (name, rep["reason"]))
            continue
        recipe = recipes.get(name, {})
        flagsets = {fs["name"]: fs for fs in sc.get("flagsets", [])}
        layout = sc.get("layout") or {}
        fields = {f["name"]: f for f in layout.get("fields", [])}
        args = {a["name"]: a for a in sc["args"]}
        struct = sc.get("struct")
        skip = set(recipe.get("skip_fields", []))
        base_set = {}
        for s in recipe.get("set", []):
            k, v = s.split("=", 1)
            base_set[k] = v
        base_args = {}
        for s in recipe.get("args", []):
            k, v = s.split("=", 1)
            base_args[k] = v

        def resolve(v, standin=False):
            if v == "SCRATCH":
                return "&scratch"
            if v == "MNT_ID":
                return mnt_id or None
            if v in UNMAKEABLE:
                return STANDIN_FD if standin else None
            return v

        # holders: (holder name, is_field, width bytes, flagset)
        holders = []
        for f in layout.get("fields", []):
            fs = flagsets.get(f.get("flagset") or "")
            if not fs or fs["kind"] != "bits" or f.get("reserved") or f.get("count"):
                continue
            if "*" in skip or f["name"] in skip or name == "rseq":
                continue
            if f.get("direction") in ("out", "ignored"):
                continue  # the call does not read it: the probe leaves it alone
            width = f["size"]
            holders.append((f["name"], True, width, fs))
        for a in sc["args"]:
            fs = flagsets.get(a.get("flagset") or "")
            if a["role"] != "flags" or not fs or fs["kind"] != "bits" or name == "rseq":
                continue
            t = a["type"]
            width = 8 if ("long" in t or "64" in t or "size_t" in t) else 4
            holders.append((a["name"], False, width, fs))

        cases = []  # (holder, label, expected, script lines, call args) ; expected "yes"/"no"
        for holder, is_field, width, fs in holders:
            answers = rep["flags"].get(holder)
            if answers is None:
                print("%s: the probe reports nothing for %s" % (name, holder))
                total_bad += 1
                continue
            known = 0
            byname = {}
            for fl in fs["flags"]:
                try:
                    byname[fl["name"]] = num(fl["value"])
                    known |= num(fl["value"])
                except ValueError:
                    pass
            for fl in fs["flags"]:
                if fl.get("mask") or fl["name"] not in byname or not byname[fl["name"]]:
                    continue
                fname = fl["name"]
                if fname in answers["supported"]:
                    expect = "yes"
                elif fname in answers["unsupported"]:
                    expect = "no"
                else:
                    continue  # inconclusive: nothing to compare
                # told by the checks' order: probed with a descriptor never open, whose
                # errno (not the unknown flag's) said "known"; replayed the same way, which
                # the sandbox allows only with --unsafe (the call fails on the descriptor)
                order = [o for o in answers.get("by_check_order", []) if o["flag"] == fname]
                if order:
                    expect = "errno " + (order[0]["errno"] or "OK")
                bit = byname[fname]
                hold_val = [("%s|" % base_set[holder]) if is_field and holder in base_set else "", "%#x" % bit]
                sets, cargs, ok = {}, {}, True
                for c in companions.get((fs["name"], fname), []):
                    if "=" not in c:
                        if c not in byname:
                            ok = False
                            break
                        hold_val.append("|%#x" % byname[c])
                        continue
                    k, v = c.split("=", 1)
                    v = resolve(v, standin=bool(order))
                    if v is None:
                        ok = False
                        break
                    if k == holder:
                        hold_val.append("|" + v)
                    elif k in fields:
                        sets[k] = v
                    elif k in args:
                        cargs[k] = v
                    else:
                        ok = False
                        break
                if not ok:
                    print("%s: %s:%s is %s but its recipe cannot be replayed" % (name, holder, fname, expect))
                    continue
                cases.append((holder, is_field, fname, expect, "".join(hold_val), sets, cargs))
            for b in range(width * 8):
                bit = 1 << b
                if known & bit or answers.get("ignores_unknown_bits"):
                    continue  # a request mask's unknown bits are ignored by design: not probed
                expect = "yes" if ("%#x" % bit) in answers["unknown_bits_accepted"] else "no-or-inconclusive"
                hv = ("%s|" % base_set[holder] if is_field and holder in base_set else "") + "%#x" % bit
                cases.append((holder, is_field, "bit %d" % b, expect, hv, {}, {}))

        lines = []
        if struct:
            lines.append("new statx as scratch")
            lines.append("size 4096")
        for i, (holder, is_field, label, expect, hv, sets, cargs) in enumerate(cases):
            call_args = dict(base_args)
            if struct:
                lines.append("new %s as c%d" % (struct, i))
                for k, v in base_set.items():
                    v = resolve(v)
                    if v is None:
                        break
                    lines.append("set %s %s" % (k, v))
                for k, v in sets.items():
                    lines.append("set %s %s" % (k, v))
            if is_field:
                lines.append("set %s %s" % (holder, hv))
            else:
                call_args[holder] = hv
            call_args.update(cargs)
            lines.append("call %s%s %s" % ("--unsafe " if expect.startswith("errno ") else "", name,
                                           " ".join("%s=%s" % kv for kv in call_args.items())))
        script = "%s.diff.xsc" % name
        with open(script, "w") as fh:
            fh.write("\n".join(lines) + "\n")
        res = run_json([xsc, "--data", data, "--json", "--keep-going", script])
        calls = [d for d in docs(res.stdout) if isinstance(d, dict) and "syscall" in d]
        if len(calls) != len(cases):
            print("%s: %d cases, %d calls answered (stderr: %s)" % (name, len(cases), len(calls), res.stderr.strip()[:400]))
            total_bad += 1
            continue

        def past(field):
            ks = rep.get("kernel_size")
            return ks is not None and fields[field]["offset"] >= ks

        bad = 0
        for (holder, is_field, label, expect, hv, sets, cargs), c in zip(cases, calls):
            e = c.get("errno_name")
            if expect == "yes":
                good = e != "EINVAL" and e not in INCONCLUSIVE
            elif expect.startswith("errno "):
                good = (e or "OK") == expect[6:]
            elif expect == "no" and is_field and past(holder):
                good = e == "E2BIG"  # the field lies past the kernel's struct
            elif expect == "no":
                good = e == "EINVAL"
            else:
                good = e == "EINVAL" or e in INCONCLUSIVE
            if not good:
                bad += 1
                print("%s: %s:%s probe says %s, xsc call says %s\n    %s" % (
                    name, holder, label, {"yes": "supported", "no": "unsupported"}.get(
                        expect, expect if expect.startswith("errno ") else "not accepted"),
                    e or "OK", c.get("line")))
        print("%s: %d flags and bits compared, %d disagree" % (name, len(cases), bad))
        total_bad += bad
        total_checked += len(cases)
    if total_checked == 0 and total_bad == 0:
        print("nothing compared")
        sys.exit(77)
    sys.exit(1 if total_bad else 0)


if __name__ == "__main__":
    main()
