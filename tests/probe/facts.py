#!/usr/bin/env python3
"""Checks a `probe --json` document: its shape (DESIGN §4) and that a field past the kernel's
struct supports nothing, always; with --facts, its answers against kernel-facts.md (§21
summary table, §22, "Live measurements on 6.18"), where a word's flags are split into
supported and unsupported by the catalogue's "since" against the running kernel.

usage: facts.py PROBE_JSON DATADIR [--facts]
Prints one line per problem; exit 1 when there is any.
"""
import glob
import json
import os
import sys

probs = []


def bad(msg):
    probs.append(msg)
    print("FAIL " + msg)


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def ver(s):
    out = []
    for p in str(s).split("."):
        try:
            out.append(int(p))
        except ValueError:
            out.append(0)
    return tuple(out)


def main():
    doc = json.load(open(sys.argv[1]))
    data = sys.argv[2]
    facts = "--facts" in sys.argv[3:]
    features, since, recipes = {}, {}, {}
    flagsets, structs, struct_of = {}, {}, {}
    for path in glob.glob(os.path.join(data, "*.json")):
        if path.endswith("schema.json"):
            continue
        d = json.load(open(path))
        for sc in d.get("syscalls", []):
            if "features" in sc:
                features[sc["name"]] = sc["features"]
            if sc.get("struct"):
                struct_of[sc["name"]] = sc["struct"]
        for st in d.get("structs", []):
            structs[st["name"]] = {f["name"]: f for f in st.get("fields", [])}
        for fs in d.get("flagsets", []):
            flagsets[fs["name"]] = fs
            for f in fs["flags"]:
                since.setdefault(f["name"], f.get("since"))

    # ---- shape ----
    if {"kernel", "syscalls", "syscalls_issued", "elapsed_us"} - set(doc):
        bad("top-level keys %s" % sorted(doc))
    if not isinstance(doc.get("kernel"), str) or not doc.get("kernel"):
        bad("kernel is not a release string: %r" % doc.get("kernel"))
    scs = doc.get("syscalls")
    if not isinstance(scs, list) or not scs:
        bad("syscalls is not a non-empty list")
        return
    by = {}
    total = 0
    for s in scs:
        n = s.get("name")
        by[n] = s
        for k in ("name", "available", "reason", "kernel_size", "kernel_size_by", "flags", "queries", "bitmap",
                  "syscalls_issued", "elapsed_us"):
            if k not in s:
                bad("%s: no key %s" % (n, k))
        if s.get("available") not in ("yes", "no", "inconclusive"):
            bad("%s: available %r" % (n, s.get("available")))
        if s.get("available") != "yes" and not s.get("reason"):
            bad("%s: available %s without a reason" % (n, s.get("available")))
        ks = s.get("kernel_size")
        if ks is not None and not (is_int(ks) and ks > 0):
            bad("%s: kernel_size %r" % (n, ks))
        by_ = s.get("kernel_size_by") or {}
        if set(by_) != {"bisection", "writeback", "btf", "disagree"}:
            bad("%s: kernel_size_by keys %s" % (n, sorted(by_)))
        ways = [by_.get(k) for k in ("bisection", "writeback", "btf") if by_.get(k) is not None]
        if any(not is_int(w) for w in ways):
            bad("%s: kernel_size_by values %r" % (n, by_))
        if len(set(ways)) > 1:
            bad("%s: the three ways disagree: %r" % (n, by_))
        if by_.get("disagree") is not (len(set(ways)) > 1):
            bad("%s: disagree=%r but the ways are %r" % (n, by_.get("disagree"), ways))
        if ways and ks != ways[0]:
            bad("%s: kernel_size %r is none of the ways %r" % (n, ks, by_))
        flags = s.get("flags")
        if not isinstance(flags, dict):
            bad("%s: flags is not an object" % n)
            flags = {}
        for h, v in flags.items():
            if not isinstance(v, dict) or not {"supported", "unsupported", "unknown_bits_accepted"} <= set(v):
                bad("%s: flags.%s lacks supported/unsupported/unknown_bits_accepted" % (n, h))
                continue
            seen = {}
            for k in ("supported", "unsupported", "inconclusive"):
                for f in v.get(k, []):
                    if f in seen:
                        bad("%s: %s:%s is both %s and %s" % (n, h, f, seen[f], k))
                    seen[f] = k
            for b in v["unknown_bits_accepted"]:
                try:
                    x = int(b, 16)
                    if x & (x - 1):
                        bad("%s: %s: unknown bit %s is not one bit" % (n, h, b))
                except (TypeError, ValueError):
                    bad("%s: %s: unknown bit %r is not hex" % (n, h, b))
        # a field that starts past the kernel's struct is one the kernel cannot read: a
        # nonzero byte there is E2BIG, so none of its flags and no unknown bit is accepted
        fields = structs.get(struct_of.get(n), {})
        for h, v in flags.items():
            f = fields.get(h)
            if not isinstance(v, dict) or not f or not is_int(ks) or f["offset"] < ks:
                continue
            if v.get("supported") or v.get("unknown_bits_accepted") or (v.get("inconclusive") and s.get("available") == "yes"):
                bad("%s: %s lies at %d, past the kernel's %d-byte struct, yet supported %r, inconclusive %r, "
                    "unknown bits accepted %r" % (n, h, f["offset"], ks, v.get("supported"), v.get("inconclusive"),
                                                  v.get("unknown_bits_accepted")))
        if not isinstance(s.get("queries"), dict):
            bad("%s: queries is not an object" % n)
        bm = s.get("bitmap")
        if not isinstance(bm, list) or any(not is_int(w) or w < 0 or w >= 1 << 32 for w in bm):
            bad("%s: bitmap %r is not a list of 32-bit words" % (n, bm))
            bm = []
        if not is_int(s.get("syscalls_issued")) or s.get("syscalls_issued") < 1:
            bad("%s: syscalls_issued %r" % (n, s.get("syscalls_issued")))
        else:
            total += s["syscalls_issued"]
        if not is_int(s.get("elapsed_us")) or s.get("elapsed_us") < 0:
            bad("%s: elapsed_us %r" % (n, s.get("elapsed_us")))
        # the bitmap says what the answers say, bit by bit, in the catalogue's numbering
        feats = features.get(n)
        if feats is None:
            bad("%s: the catalogue has no feature list for it" % n)
            continue
        if len(bm) != (len(feats) + 31) // 32:
            bad("%s: %d bitmap words for %d feature bits" % (n, len(bm), len(feats)))
            continue
        for b, f in enumerate(feats):
            got = bool(bm[b // 32] >> (b % 32) & 1)
            if f == "available":
                want = s.get("available") == "yes"
            elif f.startswith("size:"):
                want = s.get("available") == "yes" and ks is not None and ks >= int(f[5:])
            elif f.startswith("query:"):
                continue
            else:
                h, fl = f.split(":", 1)
                want = s.get("available") == "yes" and fl in (flags.get(h) or {}).get("supported", [])
            if got != want:
                bad("%s: bitmap bit %d (%s) is %d, the answers say %d" % (n, b, f, got, want))
    if is_int(doc.get("syscalls_issued")):
        if doc["syscalls_issued"] != total:
            bad("top-level syscalls_issued %d is not the sum of the syscalls' %d" % (doc["syscalls_issued"], total))
    else:
        bad("top-level syscalls_issued %r" % doc.get("syscalls_issued"))
    if not is_int(doc.get("elapsed_us")) or doc["elapsed_us"] < max((s.get("elapsed_us") or 0) for s in scs):
        bad("top-level elapsed_us %r is not an integer at least each syscall's" % doc.get("elapsed_us"))

    if not facts:
        return

    # ---- the facts of 6.18 (kernel-facts §21 and the live measurements) ----
    sizes = {"openat2": 24, "clone3": 88, "sched_setattr": 56, "sched_getattr": 56, "perf_event_open": 136,
             "bpf": 168, "mount_setattr": 32, "open_tree_attr": 32, "statmount": 32, "listmount": 32,
             "setxattrat": 16, "getxattrat": 16, "file_getattr": 24, "file_setattr": 24,
             "landlock_create_ruleset": 24, "PIDFD_GET_INFO": 72, "statx": 256, "io_uring_setup": 120,
             "UFFDIO_API": 24, "rseq": 32, "PROCMAP_QUERY": 104, "NS_MNT_GET_INFO": 16}
    for n, want in sizes.items():
        s = by.get(n)
        if not s:
            bad("%s: not probed" % n)
            continue
        if s["available"] != "yes":
            bad("%s: available %s (%s), kernel-facts measured it" % (n, s["available"], s["reason"]))
        if s["kernel_size"] != want:
            bad("%s: kernel_size %r, kernel-facts (BTF and live bisection) say %d" % (n, s["kernel_size"], want))
        for way, v in s["kernel_size_by"].items():
            if way != "disagree" and v is not None and v != want:
                bad("%s: %s found %r, not %d" % (n, way, v, want))
    # how each size must have been found: bisection where a nonzero tail is E2BIG, write-back
    # where the kernel writes its size (sched_setattr, perf_event_open), BTF always
    for n in ("openat2", "clone3", "sched_setattr", "perf_event_open", "bpf", "mount_setattr", "statmount",
              "setxattrat", "file_setattr", "landlock_create_ruleset"):
        s = by.get(n)
        if s and s["kernel_size_by"]["bisection"] is None:
            bad("%s: no bisection result (kernel-facts measured E2BIG past %d)" % (n, sizes[n]))
        if s and s["kernel_size_by"]["btf"] is None and os.path.exists("/sys/kernel/btf/vmlinux"):
            bad("%s: no BTF size although /sys/kernel/btf/vmlinux exists" % n)
    for n in ("sched_setattr", "perf_event_open"):
        s = by.get(n)
        if s and s["kernel_size_by"]["writeback"] != sizes[n]:
            bad("%s: write-back size %r, kernel-facts measured %d" % (n, s["kernel_size_by"]["writeback"], sizes[n]))

    queries = {("landlock_create_ruleset", "landlock_abi"): 7, ("landlock_create_ruleset", "landlock_errata"): 7,
               ("IORING_REGISTER_PROBE", "io_uring_last_op"): 62,
               ("IORING_REGISTER_PROBE", "io_uring_ops_supported"): 63,
               ("io_uring_setup", "io_uring_features"): 0x3ffff, ("UFFDIO_API", "uffd_features"): 0x1ffff,
               ("statmount", "statmount_supported_mask"): 0x7fff, ("rseq", "rseq_feature_size"): 28,
               ("rseq", "rseq_align"): 32}
    for (n, q), want in queries.items():
        got = (by.get(n) or {}).get("queries", {}).get(q)
        if got != want:
            bad("%s: query %s = %r, kernel-facts measured %#x" % (n, q, got, want))

    def answer(n, h, f):
        v = ((by.get(n) or {}).get("flags") or {}).get(h)
        if v is None:
            return None
        for k in ("supported", "unsupported", "inconclusive"):
            if f in v.get(k, []):
                return k
        return "absent"

    def expect(n, h, names, want):
        for f in names:
            got = answer(n, h, f)
            ok = got in want if isinstance(want, tuple) else got == want
            if not ok:
                bad("%s: %s:%s is %s, kernel-facts say %s" % (n, h, f, got, want))

    # openat2 §1: RESOLVE_* bits 0-5 accepted; the open flags accepted
    expect("openat2", "resolve", ["RESOLVE_NO_XDEV", "RESOLVE_NO_MAGICLINKS", "RESOLVE_NO_SYMLINKS",
                                  "RESOLVE_BENEATH", "RESOLVE_IN_ROOT", "RESOLVE_CACHED"], "supported")
    expect("openat2", "flags", ["O_WRONLY", "O_RDWR", "O_CREAT", "O_EXCL", "O_NOCTTY", "O_TRUNC", "O_APPEND",
                                "O_NONBLOCK", "O_DSYNC", "O_DIRECTORY", "O_NOFOLLOW", "O_CLOEXEC", "O_PATH"],
           "supported")
    for h in ("flags", "resolve"):
        if answer("openat2", h, "x") is not None and by["openat2"]["flags"][h]["unknown_bits_accepted"]:
            bad("openat2: %s: unknown bits accepted %s, kernel-facts: every other bit EINVAL" %
                (h, by["openat2"]["flags"][h]["unknown_bits_accepted"]))
    # clone3 §2: CLONE_DETACHED EINVAL; the rest accepted (INTO_CGROUP needs a cgroup fd)
    expect("clone3", "flags", ["CLONE_DETACHED"], "unsupported")
    expect("clone3", "flags", ["CLONE_NEWTIME", "CLONE_VM", "CLONE_FS", "CLONE_FILES", "CLONE_SIGHAND",
                               "CLONE_PIDFD", "CLONE_PTRACE", "CLONE_VFORK", "CLONE_PARENT", "CLONE_THREAD",
                               "CLONE_NEWNS", "CLONE_SYSVSEM", "CLONE_SETTLS", "CLONE_PARENT_SETTID",
                               "CLONE_CHILD_CLEARTID", "CLONE_UNTRACED", "CLONE_CHILD_SETTID", "CLONE_NEWCGROUP",
                               "CLONE_NEWUTS", "CLONE_NEWIPC", "CLONE_NEWUSER", "CLONE_NEWPID", "CLONE_NEWNET",
                               "CLONE_IO", "CLONE_CLEAR_SIGHAND"], "supported")
    expect("clone3", "flags", ["CLONE_INTO_CGROUP"], ("supported", "inconclusive"))
    # sched §3: bits 0-4 accepted, 5-6 EOPNOTSUPP (not EINVAL: known to the kernel)
    expect("sched_setattr", "sched_flags", ["SCHED_FLAG_RESET_ON_FORK", "SCHED_FLAG_RECLAIM", "SCHED_FLAG_DL_OVERRUN",
                                            "SCHED_FLAG_KEEP_POLICY", "SCHED_FLAG_KEEP_PARAMS",
                                            "SCHED_FLAG_UTIL_CLAMP_MIN", "SCHED_FLAG_UTIL_CLAMP_MAX"], "supported")
    # mount_setattr §6: attr_set bits 0,1,2,3,7,21 alone; atime values with attr_clr; IDMAP needs a userns
    atts = ["MOUNT_ATTR_RDONLY", "MOUNT_ATTR_NOSUID", "MOUNT_ATTR_NODEV", "MOUNT_ATTR_NOEXEC",
            "MOUNT_ATTR_NOATIME", "MOUNT_ATTR_STRICTATIME", "MOUNT_ATTR_NODIRATIME", "MOUNT_ATTR_NOSYMFOLLOW"]
    for n in ("mount_setattr", "open_tree_attr"):
        expect(n, "attr_set", atts, "supported")
        expect(n, "attr_clr", atts, "supported")
        expect(n, "attr_set", ["MOUNT_ATTR_IDMAP"], ("supported", "inconclusive"))
        for h in ("attr_set", "attr_clr"):
            if (by.get(n) or {}).get("flags", {}).get(h, {}).get("unknown_bits_accepted"):
                bad("%s: %s: unknown bits accepted %s; kernel-facts: all other bits EINVAL" %
                    (n, h, by[n]["flags"][h]["unknown_bits_accepted"]))
    expect("mount_setattr", "flags", ["AT_RECURSIVE"], "supported")
    kv = ver(doc["kernel"].split("-")[0])[:2]

    def by_since(n, h, fsname, mask):
        """The flags of fsname the catalogue dates at or before this kernel are supported, the
        later ones unsupported, no unknown bit accepted; the older ones make up mask, what
        kernel-facts measured on 6.18."""
        v = ((by.get(n) or {}).get("flags") or {}).get(h) or {}
        flags = [f for f in flagsets[fsname]["flags"] if not f.get("mask") and int(str(f["value"]), 0)]
        old = sorted(f["name"] for f in flags if f.get("since") and ver(f["since"])[:2] <= kv)
        new = sorted(f["name"] for f in flags if f["name"] not in old)
        got = 0
        for f in flags:
            if f["name"] in old:
                got |= int(str(f["value"]), 0)
        if got != mask:
            bad("%s: %s: the catalogue dates %#x at or before %s, kernel-facts measured %#x" % (n, h, got, doc["kernel"], mask))
        if sorted(v.get("supported", [])) != old or sorted(v.get("unsupported", [])) != new or v.get("inconclusive") \
                or v.get("unknown_bits_accepted"):
            bad("%s: %s %r; by the catalogue's dates: supported %s, unsupported %s" % (n, h, v, old, new))

    # landlock §11: fs 0xffff, net 0x3, scoped 0x3; the rights of a newer ABI unsupported
    by_since("landlock_create_ruleset", "handled_access_fs", "landlock_access_fs", 0xffff)
    by_since("landlock_create_ruleset", "handled_access_net", "landlock_access_net", 0x3)
    by_since("landlock_create_ruleset", "scoped", "landlock_scope", 0x3)
    expect("landlock_create_ruleset", "flags", ["LANDLOCK_CREATE_RULESET_VERSION", "LANDLOCK_CREATE_RULESET_ERRATA"],
           "supported")
    # statx §20.1: reserved bit EINVAL, unknown mask bits silently dropped
    expect("statx", "mask", ["STATX__RESERVED"], "unsupported")
    expect("statx", "mask", ["STATX_BTIME", "STATX_MNT_ID", "STATX_MNT_ID_UNIQUE", "STATX_DIO_READ_ALIGN"], "supported")
    # statmount §8, statx §20.1, PIDFD_GET_INFO: unknown request-mask bits ignored by design,
    # so the probe says so and does not list them as accepted unknown bits
    sm = (by.get("statmount") or {}).get("flags", {}).get("param", {})
    if len(sm.get("supported", [])) != 15:
        bad("statmount: param supported %r, kernel-facts: bits 0-14" % sm.get("supported"))
    for n, h in (("statmount", "param"), ("statx", "mask"), ("PIDFD_GET_INFO", "mask")):
        v = (by.get(n) or {}).get("flags", {}).get(h)
        if v is not None and (not v.get("ignores_unknown_bits") or v.get("unknown_bits_accepted")):
            bad("%s: %s: ignores_unknown_bits %r, unknown_bits_accepted %r; kernel-facts: unknown bits are ignored"
                % (n, h, v.get("ignores_unknown_bits"), v.get("unknown_bits_accepted")))
    # the checks' order: an unknown clone3 flag is EINVAL (kernel/fork.c clone3_args_valid)
    # before the cgroup descriptor is looked at (EBADF), so CLONE_INTO_CGROUP is decided
    expect("clone3", "flags", ["CLONE_INTO_CGROUP"], "supported")
    expect("listmount", "flags", ["LISTMOUNT_REVERSE"], "supported")
    # xattr §9, fileattr §10
    expect("setxattrat", "flags", ["XATTR_CREATE", "XATTR_REPLACE"], "supported")
    expect("getxattrat", "flags", ["XATTR_CREATE", "XATTR_REPLACE"], "unsupported")
    expect("file_setattr", "fa_xflags", ["FS_XFLAG_EXTSZINHERIT"], "unsupported")
    expect("file_setattr", "fa_xflags", ["FS_XFLAG_PROJINHERIT", "FS_XFLAG_IMMUTABLE", "FS_XFLAG_APPEND",
                                         "FS_XFLAG_NOATIME"], "supported")
    # userfaultfd §20.2: the 17 feature bits of 6.18 (0x1ffff), the later ones unsupported
    by_since("UFFDIO_API", "features", "uffd_features", 0x1ffff)
    # No false "no": a flag the catalogue dates at or before this kernel is only "unsupported"
    # where kernel-facts measured EINVAL for it; otherwise the probe lacked a companion and
    # must say "inconclusive".
    measured_einval = {("clone3", "CLONE_DETACHED"), ("file_setattr", "FS_XFLAG_EXTSZINHERIT"),
                       ("statx", "STATX__RESERVED"), ("getxattrat", "XATTR_CREATE"),
                       ("getxattrat", "XATTR_REPLACE")}
    for s in scs:
        fields = structs.get(struct_of.get(s["name"]), {})
        for h, v in s["flags"].items():
            if h in fields and is_int(s["kernel_size"]) and fields[h]["offset"] >= s["kernel_size"]:
                continue  # a field past the kernel's struct: nothing in it is supported (checked above)
            # a flag the catalogue dates after this kernel is not supported, unless the word
            # is a request mask whose unknown bits the kernel ignores
            for f in v["supported"]:
                sn = since.get(f)
                if sn and ver(sn)[:2] > kv and not v.get("ignores_unknown_bits"):
                    bad("%s: %s:%s reported supported, but the catalogue dates it from %s and this is %s"
                        % (s["name"], h, f, sn, doc["kernel"]))
            for f in v["unsupported"]:
                sn = since.get(f)
                if sn and ver(sn)[:2] <= kv and (s["name"], f) not in measured_einval:
                    bad("%s: %s:%s reported unsupported, but it dates from %s and this is %s; "
                        "a missing companion should make it inconclusive" % (s["name"], h, f, sn, doc["kernel"]))


if __name__ == "__main__":
    main()
    sys.exit(1 if probs else 0)
