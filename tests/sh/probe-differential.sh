# The probe against `xsc call`: every flag the probe reports supported is accepted (not
# EINVAL) by an ordinary sandboxed call made with the same recipe (the catalogue's "probe"
# key and the flag's companions, read from data/*.json and `show NAME --json`), every flag it
# reports unsupported draws EINVAL; bits the catalogue does not know: accepted exactly when
# the probe lists them in unknown_bits_accepted. See tests/probe/differential.py.
set -u
. "$top/tests/lib.sh"
need_linux "not Linux"
need python3 "python3 missing"
scratch_dir
export XDG_CACHE_HOME=$d/cache
. "$top/tests/live/mnt-id.sh"
mnt=$(root_mnt_id)
python3 "$top/tests/probe/differential.py" "$XSC" "$top/data" "$mnt" \
	openat2 clone3 mount_setattr sched_setattr landlock_create_ruleset statx \
	open_tree_attr setxattrat getxattrat file_setattr file_getattr perf_event_open \
	io_uring_setup userfaultfd UFFDIO_API renameat2 lsm_get_self_attr statmount listmount PIDFD_GET_INFO PROCMAP_QUERY NS_MNT_GET_INFO
