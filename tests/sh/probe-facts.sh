# probe --json --no-cache on the running kernel: the document has DESIGN §4's shape
# ({kernel, syscalls: [{name, available, kernel_size, kernel_size_by, flags: {FIELD:
# {supported, unsupported, unknown_bits_accepted}}, bitmap, syscalls_issued, elapsed_us}]}),
# the bitmap says bit for bit what the answers say, the three ways of sizing never disagree;
# on 6.18.x the answers equal kernel-facts.md (§21 sizes, Landlock ABI 7 / errata 7,
# io_uring last_op 62, UFFD features 0x1ffff, the flag scans of "Live measurements on 6.18"),
# and a flag the catalogue dates after the running kernel is not supported (Landlock's and
# UFFDIO_API's words are split by the flags' "since"); on any kernel, a field past the
# kernel's struct (Landlock's quiet_* on 6.18) supports nothing.
# Other kernels: the shape is checked, then skip (the values are facts of 6.18).
set -u
. "$top/tests/lib.sh"
need_linux "not Linux"
need python3 "python3 missing"
scratch_dir
export XDG_CACHE_HOME=$d/cache
"$XSC" --data "$top/data" probe --json --no-cache >probe.json 2>probe.err
rc=$?
[ $rc -eq 0 ] || { echo "probe --json --no-cache exited $rc"; cat probe.err; exit 1; }
[ -s probe.err ] && { echo "probe wrote to stderr:"; cat probe.err; }
[ -e "$XDG_CACHE_HOME/xsc/probe.json" ] || { echo "--no-cache did not refresh the cache"; exit 1; }
case $(uname -r) in
6.18.*)
	python3 "$top/tests/probe/facts.py" probe.json "$top/data" --facts || exit 1
	echo "probe agrees with kernel-facts on $(uname -r)" ;;
*)
	python3 "$top/tests/probe/facts.py" probe.json "$top/data" || exit 1
	echo "shape ok; kernel $(uname -r) is not 6.18.x, whose facts the values are"
	exit 77 ;;
esac
