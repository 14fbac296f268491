#!/bin/sh
# Every command answers in the WebAssembly build (make wasm, issue 29): the whole command
# table (its rows read from the build's own `help`, so a new command is covered without
# touching this test) runs once each, with harmless arguments, in build/wasm/xsc.wasm under
# node through the console's JavaScript WASI (cli/wasm/loader.mjs). A command that reaches
# code the build leaves out throws a JavaScript error ("xsc: NAME needs the native program")
# and kills the run: that fails here. A command the build cannot answer is refused first with
# "NAME needs the native program: WHY" (cli/wasm/native.c), exit 1, and a run with
# --keep-going goes on after every refusal. Then 'save' and 'load' round trip and a transcript
# on and off, in the build's in-memory file system, answer byte for byte as the native program.
set -eu
. "$top/tests/lib.sh"
need node "node is missing (make deps installs it)"
need python3
wasm=${XSC_WASM:-$top/build/wasm/xsc.wasm}
[ -f "$wasm" ] || { echo "no $wasm (make wasm builds it; make wasm-deps installs its toolchain)"; exit 77; }
XSC_WASM=$wasm python3 - "$top" <<'PY'
import os, re, subprocess, sys
top = sys.argv[1]
loader = ["node", os.path.join(top, "cli/wasm/loader.mjs"), "--data", "/top/data"]
native = [os.environ["XSC"], "--data", os.path.join(top, "data")]
fail = 0
def no(msg):
    global fail
    print("FAIL " + msg)
    fail = 1

def run(prog, script, args=()):
    # the loader copies the working directory into the module's memory: a script file there
    with open("t.xsc", "w") as f:
        f.write(script)
    r = subprocess.run(prog + list(args) + ["t.xsc"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, stdin=subprocess.DEVNULL, timeout=120)
    return r.stdout + f"exit {r.returncode}\n", r.returncode

# a JavaScript exception out of the module: node prints the error and its stack
TRAP = re.compile(r"^(Uncaught |)(Error|RuntimeError|TypeError|RangeError)\b|^\s+at |^Node\.js v", re.M)

rows = []
help_out, _ = run(loader, "help\n")
for line in help_out.splitlines()[1:]:
    m = re.match(r"^  (\S+)", line)
    if m:
        rows.append(m.group(1))
if len(rows) < 30:
    no(f"the build's help lists {len(rows)} commands: {help_out[:200]!r}")

# harmless arguments, after 'target sim 6.1' and 'new openat2' (none: the command alone)
ARGS = {
    "show": "openat2", "new": "open_how as h2", "use": "open_how", "set": "flags O_CREAT",
    "unset": "flags", "size": "VER0", "poke": "0 1", "expect": "size 24", "call": "openat2",
    "target": "sim 5.6", "matrix": "openat2", "measure": "openat2", "explain": "'openat2(3, \"a\", {flags=O_RDONLY, mode=0, resolve=0}, 24) = 3'",
    "probe": "openat2", "features": "openat2", "doc": "openat2", "import": "linux/openat2.h",
    "lint": "linux/openat2.h", "diff": "/top/data /top/data", "demo": "lineage", "lesson": "1",
    "transcript": "t.md", "struct": "new s", "field": "add u64 a", "flagset": "new f",
    "flag": "add F_A 1", "version": "add 8 6.1", "syscall": "new mysys struct=s",
    "export": "s out", "handout": "-o h.html", "save": "s.xsc", "load": "/dev/null",
}
# what only the native program answers: refused, never a trap
NATIVE = {"measure", "probe", "features", "kernels", "doc", "docs", "site", "import", "lint", "diff", "demo"}
prelude = "target sim 6.1\nnew openat2\n"
for name in rows:
    line = f"{name} {ARGS.get(name, '')}".strip()
    out, rc = run(loader, prelude + ("struct new s\n" if name in ("field", "version", "syscall", "export") else "")
                  + ("flagset new f\n" if name == "flag" else "") + line + "\n")
    if TRAP.search(out) or rc not in (0, 1, 2):
        no(f"'{line}' in the WebAssembly build: exit {rc}, a JavaScript error:\n    " + out[-400:].replace("\n", "\n    "))
    elif name in NATIVE and not re.search(rf"^t\.xsc:\d+: {name} needs the native program: ", out, re.M):
        no(f"'{line}' in the WebAssembly build is not refused as needing the native program: {out[-200:]!r}")
    elif name in NATIVE and rc != 1:
        no(f"'{line}': the refusal exits {rc}, not 1")

# one module, every command in turn: each refusal leaves the run going (--keep-going)
script = prelude + "".join(f"{n} {ARGS.get(n, '')}\n" for n in rows if n != "quit") + "show struct open_how\n"
out, rc = run(loader, script, ["--keep-going"])
if TRAP.search(out) or "struct open_how" not in out.splitlines()[-3] + out:
    no("the whole table in one run does not reach its last command:\n    " + out[-400:].replace("\n", "\n    "))

# save and load, a transcript on and off: files in the module's memory, answers as native
SAME = {
    "save-load": "target sim 6.1\nnew openat2 as h\nset flags O_CREAT\nsize VER0\nsave notes.xsc\n"
                 "save notes.xsc\nsave notes.xsc --force\nload notes.xsc\nbuffers\ndump\n",
    "save-refused": "target sim 6.1\nnew open_how\nsave ../up.xsc\nsave /abs.xsc\nsave sub/none.xsc\n",
    "transcript": "target sim 5.6\ntranscript t.md\nnew openat2\nsize VER0\ncall openat2\ntranscript off\n"
                  "transcript t.md\ntranscript t.md --force\ntranscript off\nload t.md\nbuffers\n",
}
for what, script in SAME.items():
    d = f"same-{what}"
    os.mkdir(d)
    os.chdir(d)
    mine, _ = run(native, script, ["--keep-going"])
    for f in os.listdir("."):
        if f != "t.xsc":
            os.remove(f)
    got, _ = run(loader, script, ["--keep-going"])
    os.chdir("..")
    if TRAP.search(got) or got != mine:
        no(f"{what}: the WebAssembly build answers otherwise than the native program:\n    native: "
           + mine[-600:].replace("\n", "\n    ") + "\n    wasm: " + got[-600:].replace("\n", "\n    "))
print(f"wasm-commands: {len(rows)} commands in the WebAssembly build, {'some' if fail else 'none'} trapped ({len(NATIVE)} refused as "
      f"needing the native program); save/load and transcript as native ({len(SAME)} scripts)")
sys.exit(fail)
PY
