#!/usr/bin/env python3
"""The catalogue's layouts, size versions, flags and syscall numbers against the uapi headers of
several kernels (make headers-ref: build/headers-ref/V/import/*.json, each written by 'xsc
import' from the headers 'make headers' installed from linux-source-V).

    compare.py DATA REF [VERSION...]

For each version V found (or named), every catalogue struct the headers define and every flag
set and syscall, dated as the catalogue dates them:
  - a field dated at or before V sits at the header's offset with the header's size (a name
    "a.b" of a flattened nested struct lies inside the header's member a); one dated after V
    is not in V's headers under its own name (a field present in the 6.12 headers cannot claim
    "since 6.13"); a member of V's headers the catalogue lacks (not reserved) is an error;
  - sizeof at V is the newest size version dated at or before V (the struct's size when it has
    no versions); every *_SIZE_VERn macro of V is the catalogue's version of that name, dated
    at or before V; a named version dated at or before V is in V's headers unless its
    "internal" key says which kernel-internal header defines it;
  - a flag defined in V's headers has the header's value; one dated after V is not there;
  - a macro of V's headers that shares a catalogue flag set's prefix and its group (the macros
    'xsc import' gathers together with one of the set's flags) is in the catalogue, unless
    NOT_MEMBERS says why not: a flag the headers have and the catalogue lacks is missing;
  - a syscall's x86_64 number is V's __NR_ when V has it; one dated after V is not there.
Prints one line per problem and a summary per version; exit 1 on any problem, 77 when no
headers are there (the suite's skip)."""
import json
import os
import re
import sys


def num(v):
    if isinstance(v, int):
        return v
    s = str(v).strip()
    neg = s.startswith("-")
    s = s.lstrip("-")
    if s.startswith(("0x", "0X")):
        n = int(s, 16)
    elif len(s) > 1 and s.startswith("0"):
        n = int(s, 8)
    else:
        n = int(s)
    return -n if neg else n


def kv(s):
    parts = [int(x) for x in str(s).split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


TYPE_SIZE = {"u8": 1, "s8": 1, "char": 1, "u16": 2, "s16": 2, "u32": 4, "s32": 4,
             "u64": 8, "s64": 8, "aligned_u64": 8, "ptr": 8}


def tsize(t):
    if "[" in t:
        base, n = t[:-1].split("[")
        return TYPE_SIZE[base] * int(n)
    return TYPE_SIZE[t]


def load_catalogue(data):
    cat = {"structs": {}, "flagsets": {}, "syscalls": {}}
    for fn in sorted(os.listdir(data)):
        if fn.endswith(".json") and fn != "schema.json":
            d = json.load(open(os.path.join(data, fn)))
            for k in cat:
                for e in d.get(k, []):
                    cat[k][e["name"]] = e
    return cat


# Macros a flag set's prefix and group take in that are not flags of the set, with the reason.
NOT_MEMBERS = {
    "mount_propagation": ("MS_", "MS_* also names mount(2)'s flags; the set holds the propagation types"),
    "at_flags": ("AT_", "AT_* names the flags of many calls; each set holds one call's"),
    "at_statx_flags": ("AT_", "AT_* names the flags of many calls; each set holds one call's"),
    "at_path_flags": ("AT_", "AT_* names the flags of many calls; each set holds one call's"),
    "xattr_flags": ("XATTR_", "the XATTR_*_PREFIX and _LEN macros are name prefixes, not flags"),
    "perf_ioctls": ("PERF_EVENT_IOC_", "the set holds the perf ioctls that carry an extensible struct "
                    "(PERF_EVENT_IOC_MODIFY_ATTRIBUTES); the others take a fixed-size argument or none"),
    "bpf_prog_load_flags": ("BPF_F_", "BPF_F_* names the flags of many bpf commands (attach, query, map and link flags); "
                            "the set holds BPF_PROG_LOAD's prog_flags"),
    "capabilities": ("CAP_", "CAP_LAST_CAP and the CAP_TO_INDEX/CAP_TO_MASK helpers are not capabilities"),
    "ptrace_requests": ("PTRACE_", "the set holds the ptrace requests that carry a size-versioned struct; "
                        "the others, the PTRACE_O_/EVENT_ options and events are not its members"),
    "tcp_sockopts": ("TCP_", "the set holds the size-versioned TCP options; the others take an int or a "
                     "fixed struct, and TCP_MSS_*, TCP_REPAIR_ON/OFF are values, not options"),
    "seccomp_ops": ("SECCOMP_", "SECCOMP_* also names the modes, filter flags, return actions and notify "
                    "flags; the set holds seccomp(2)'s operations (SECCOMP_SET_MODE_*, SECCOMP_GET_*)"),
    "prctl_mm_options": ("PR_SET_MM", "PR_SET_MM_* are PR_SET_MM's second argument, not prctl options"),
    "name_to_handle_flags": ("AT_", "AT_* names the flags of many calls; each set holds one call's"),
    "fscrypt_ioctls": ("FS_IOC_GET_ENCRYPTION_POLICY", "FS_IOC_GET_ENCRYPTION_POLICY takes the fixed "
                       "struct fscrypt_policy_v1; the set holds the _EX ioctl, whose struct carries a size"),
    "LIVEUPDATE_IOCTL_TYPE": "the live-update ioctls' type byte, not a request",
    "LIVEUPDATE_SESSION_NAME_LENGTH": "the length of a session's name, not a request",
    "O_ACCMODE": "a mask of the access modes, not a flag",
    "O_NDELAY": "O_NONBLOCK's old name",
    "SCHED_RESET_ON_FORK": "OR'ed into sched_setscheduler's policy; sched_attr says SCHED_FLAG_RESET_ON_FORK",
    "SCHED_GETATTR_FLAG_DL_DYNAMIC": "sched_getattr's flags argument, which the catalogue does not give a flag set yet",
}


def missing_flags(cat, ref, V, bad):
    """flags of V's headers in a catalogued set's group and prefix that the catalogue lacks"""
    known = {f["name"] for fs in cat["flagsets"].values() for f in fs["flags"]}
    known |= {v["name"] for cs in cat["structs"].values() for v in cs.get("versions", []) if v.get("name")}
    for fs in cat["flagsets"].values():
        prefix = fs.get("prefix")
        if fs["name"] == "constants" or not prefix or fs["name"] in NOT_MEMBERS:
            continue
        mine = {f["name"] for f in fs["flags"]}
        for group in ref["groups"]:
            if not mine & set(group):
                continue
            for n in group:
                if n.startswith(prefix) and n not in known and n not in NOT_MEMBERS and "_SIZE_VER" not in n:
                    bad("flag %s (%#x) of the %s headers is missing from flag set %s" % (n, ref["macros"][n], V, fs["name"]))


def load_ref(dirname):
    ref = {"structs": {}, "macros": {}, "versions": {}, "full": None, "groups": [], "dir": dirname, "unsourced": None}
    src = os.path.join(dirname, "source")
    if os.path.exists(src):  # "linux-source-6.1 6.1.192 (Debian 6.1.192-3)"
        # the full version decides which backported facts apply: one that is not V's (a
        # damaged cache entry) would hold the catalogue to the wrong release
        V = os.path.basename(os.path.normpath(dirname))
        line = open(src, errors="replace").read().strip()
        m = re.fullmatch(r"linux-source-(\S+) (\d+\.\d+(?:\.\d+)?)(?: .*)?", line, re.S)
        if m and m.group(1) == V and (m.group(2) == V or m.group(2).startswith(V + ".")):
            ref["full"] = kv(m.group(2))
        else:
            ref["unsourced"] = "%s does not say which %s it is ('linux-source-%s %s.N ...'): %r" % (src, V, V, V, line[:80])
    imp = os.path.join(dirname, "import")
    for fn in sorted(os.listdir(imp)):
        d = json.load(open(os.path.join(imp, fn)))
        for s in d.get("structs", []):
            ref["structs"].setdefault(s["name"], s)
            for v in s.get("versions", []):
                if v.get("name"):
                    ref["versions"][v["name"]] = v["size"]
        for fs in d.get("flagsets", []):
            for f in fs["flags"]:
                ref["macros"].setdefault(f["name"], num(f["value"]))
            ref["groups"].append([f["name"] for f in fs["flags"]])
    return ref


def header_define(ref, header, name):
    """NAME's integer value from '#define NAME n' in V's installed header, or None: 'xsc import'
    pairs a *_SIZE_VERn macro with its struct by name, and some names do not pair
    (LBMD_SIZE_VER0 of struct logical_block_metadata_cap)"""
    path = os.path.join(ref["dir"], "usr", "include", header)
    if not os.path.exists(path):
        return None
    m = re.search(r"^#define\s+%s\s+(\w+)\s*$" % re.escape(name), open(path).read(), re.M)
    try:
        return num(m.group(1)) if m else None
    except ValueError:
        return None


def fields_of(hs):
    """name -> (offset, size) of a header struct's members, holes left out"""
    out = {}
    for f in hs["fields"]:
        if f["name"].startswith("__hole_"):
            continue
        out[f["name"]] = (f["offset"], tsize(f["type"]))
        for a in f.get("aliases", []):
            out[a] = (f["offset"], tsize(f["type"]))
    return out


def struct_end(hs):
    return max((f["offset"] + tsize(f["type"]) for f in hs["fields"]), default=0)


def later(entry, vk, full):
    """entry is dated after V, and V's stable release has no backport of it"""
    if kv(entry["since"]) <= vk:
        return False
    for b in entry.get("backported", []):
        bk = kv(b)
        if bk[:2] == vk[:2] and full and bk <= full:
            return False
    return True


def check_struct(V, vk, cs, hs, ref, bad):
    name = cs["name"]
    hf = fields_of(hs)
    cnames = set()
    covered = []  # (from, to) byte ranges the catalogue names at V
    spans = [(f["offset"], f["offset"] + tsize(f["type"]), False) for f in cs["fields"]]  # at any date
    for f in cs["fields"]:
        size = tsize(f["type"])
        names = [f["name"]] + f.get("aliases", [])
        cnames.update(names)
        if "." in f["name"]:
            cnames.add(f["name"].split(".")[0])
        if later(f, vk, ref["full"]):
            if f["name"] in hf and "." not in f["name"]:
                bad("%s.%s is dated %s but the %s headers have it (at %d)" % (name, f["name"], f["since"], V, hf[f["name"]][0]))
            continue
        covered.append((f["offset"], f["offset"] + size, f.get("reserved", False)))
        if "." in f["name"]:
            parent = f["name"].split(".")[0]
            p = hf.get(parent)
            if not p or not (p[0] <= f["offset"] and f["offset"] + size <= p[0] + p[1]):
                bad("%s.%s (at %d, %d bytes) is not inside the %s headers' member %s" % (name, f["name"], f["offset"], size, V, parent))
            continue
        hit = [n for n in names if n in hf]
        if not hit:
            if not f.get("reserved"):
                bad("%s.%s is dated %s but the %s headers have no member of that name" % (name, f["name"], f["since"], V))
            continue
        off, hsize = hf[hit[0]]
        if (off != f["offset"] or hsize != size) and not f.get("reserved"):  # spare space moves
            bad("%s.%s: the catalogue has offset %d, %d bytes; the %s headers %d, %d bytes" % (name, f["name"], f["offset"], size, V, off, hsize))
    for f in hs["fields"]:
        n = f["name"]
        if n.startswith("__hole_") or n in cnames or any(a in cnames for a in f.get("aliases", [])):
            continue
        lo, hi = f["offset"], f["offset"] + tsize(f["type"])
        # a member the catalogue describes as reserved space (or under another name) is fine
        if any(a <= lo and hi <= b for a, b, _ in covered):
            continue
        # spare space: its names and extents move as fields take it over (statx's __spare1 of
        # 6.12 is stx_dio_read_offset_align of 6.14)
        # (io_uring_buf_reg's pad of 6.1 is flags from 6.4; ptrace_syscall_info's pad[3] of 6.12
        # is reserved and flags from 6.16)
        if "reserved" in n or "spare" in n or n.startswith(("__", "pad")):
            if any(a < hi and lo < b for a, b, _ in covered + spans):
                continue
        bad("%s: the %s headers have member %s (at %d, %d bytes) that the catalogue lacks or dates later" % (name, V, n, lo, hi - lo))
    # sizes
    end = struct_end(hs)
    versions = [v for v in cs.get("versions", []) if not later(v, vk, ref["full"])]
    if cs.get("versions"):
        want = max((v["size"] for v in versions), default=None)
        if want is not None and want != end and not cs.get("align"):
            bad("%s: sizeof is %d in the %s headers; the catalogue's newest version there is %d" % (name, end, V, want))
    for v in cs.get("versions", []):
        if not v.get("name"):
            continue
        hsz = ref["versions"].get(v["name"], ref["macros"].get(v["name"]))
        if hsz is None:
            hsz = header_define(ref, cs["header"], v["name"])
        if hsz is None:
            if not later(v, vk, ref["full"]) and not v.get("internal"):
                bad("%s: %s (%d, since %s) is not defined in the %s headers (a kernel-internal name? say so with \"internal\")" % (name, v["name"], v["size"], v["since"], V))
            continue
        if hsz != v["size"]:
            bad("%s: %s is %d in the %s headers, %d in the catalogue" % (name, v["name"], hsz, V, v["size"]))
        if later(v, vk, ref["full"]):
            bad("%s: %s is dated %s but the %s headers define it" % (name, v["name"], v["since"], V))


def check(data, refdir, V):
    cat = load_catalogue(data)
    ref = load_ref(os.path.join(refdir, V))
    vk = kv(V)
    problems = []
    bad = problems.append
    nstructs = nflags = ncalls = 0
    if ref["unsourced"]:
        bad(ref["unsourced"])
    for cs in cat["structs"].values():
        hs = ref["structs"].get(cs["name"])
        if hs:
            nstructs += 1
            check_struct(V, vk, cs, hs, ref, bad)
    for fs in cat["flagsets"].values():
        if fs["name"] == "constants":
            continue
        for f in fs["flags"]:
            if f["name"] not in ref["macros"]:
                continue
            nflags += 1
            hv, cv = ref["macros"][f["name"]], num(f["value"])
            if hv != cv and (hv & (2**64 - 1)) != (cv & (2**64 - 1)):
                bad("flag %s (%s) is %#x in the %s headers, %#x in the catalogue" % (f["name"], fs["name"], hv, V, cv))
            if later(f, vk, ref["full"]):
                bad("flag %s (%s) is dated %s but the %s headers define it" % (f["name"], fs["name"], f["since"], V))
    missing_flags(cat, ref, V, bad)
    for sc in cat["syscalls"].values():
        nr = sc.get("nr", {}).get("x86_64")
        fn = re.search(r"(\w+)\s*\(", sc["prototype"])
        # ioctls and io_uring_register's operations are named by their constant, not a syscall
        if sc.get("ioctl") or nr is None or not fn or fn.group(1) != sc["name"]:
            continue
        hv = ref["macros"].get("__NR_" + sc["name"])
        if hv is None:
            if kv(sc["since"]) <= vk and "__NR_read" in ref["macros"]:
                bad("syscall %s is dated %s but the %s headers have no __NR_%s" % (sc["name"], sc["since"], V, sc["name"]))
            continue
        ncalls += 1
        if hv != nr:
            bad("syscall %s is %d in the %s headers, %d in the catalogue" % (sc["name"], hv, V, nr))
        if kv(sc["since"]) > vk:
            bad("syscall %s is dated %s but the %s headers have __NR_%s" % (sc["name"], sc["since"], V, sc["name"]))
    # an import that lost its headers (a cache entry emptied or cut short) would compare
    # nothing and pass: every release has the catalogue's structs and the syscall numbers
    if not nstructs or "__NR_read" not in ref["macros"]:
        bad("the imported %s headers (%s) hold %d of the catalogue's structs and %s syscall numbers: a broken import compares nothing"
            % (V, os.path.join(refdir, V, "import"), nstructs, "its" if "__NR_read" in ref["macros"] else "no"))
    src = open(os.path.join(refdir, V, "source")).read().strip() if os.path.exists(os.path.join(refdir, V, "source")) else V
    for p in problems:
        print("layout-ref %s: %s" % (V, p))
    print("layout-ref %s (%s): %d structs, %d flags, %d syscall numbers compared; %d problems"
          % (V, src, nstructs, nflags, ncalls, len(problems)))
    return len(problems)


def dated_facts(data):
    """(name, entry) of every field, size version and flag of the catalogue"""
    cat = load_catalogue(data)
    for cs in cat["structs"].values():
        for e in cs["fields"] + cs.get("versions", []):
            yield "%s.%s" % (cs["name"], e.get("name", e.get("size"))), e
    for fs in cat["flagsets"].values():
        for e in fs["flags"]:
            yield e["name"], e


def unverified(data):
    """(name, about a kernel >= 5.0) of every flag, field and version marked "unverified" """
    return [(n, kv(e["since"]) >= (5, 0, 0)) for n, e in dated_facts(data) if e.get("unverified")]


def unsourced(data):
    """names of the flags, fields and versions about kernels >= 5.0 with neither a "source" of their
    own nor an "unverified" mark: the layout test bounds their since from above, it does not pin it"""
    return [n for n, e in dated_facts(data)
            if "source" not in e and not e.get("unverified") and kv(e["since"]) >= (5, 0, 0)]


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: compare.py DATA REF [VERSION...]")
    data, refdir = sys.argv[1:3]
    versions = sys.argv[3:]
    if not versions and os.path.isdir(refdir):
        versions = sorted((v for v in os.listdir(refdir) if os.path.isdir(os.path.join(refdir, v, "import"))), key=kv)
    if not versions:
        print("layout-ref: no headers in %s (make headers-ref installs them)" % refdir)
        sys.exit(77)
    nbad = sum(check(data, refdir, V) for V in versions)
    unv = unverified(data)
    print("layout-ref: %d facts marked unverified (%d about kernels 5.0 or later), %d about kernels 5.0 or later with no source of their own"
          % (len(unv), sum(1 for u in unv if u[1]), len(unsourced(data))))
    sys.exit(1 if nbad else 0)


if __name__ == "__main__":
    main()
