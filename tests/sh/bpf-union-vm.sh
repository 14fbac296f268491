# bpf's per-command entries held to real kernels: in a guest of Debian's 5.10 and 6.12, the
# bpf entry is called (--unsafe; no object behind it) with one nonzero byte after the
# command's last field but inside that release's union bpf_attr, and one past the union; the
# simulator's entry of the command (BPF_PROG_LOAD, ...) must give the same errno at that
# kernel: EINVAL from CHECK_ATTR inside the union, E2BIG from bpf_check_uarg_tail_zero past it
# (not E2BIG past the command's own member, as it once said). A descriptor of -1 at offset 0
# (bpf_fd, prog_fd) makes the command's own first failure EBADF, so EINVAL is CHECK_ATTR's.
# BPF_PROG_LOAD:none is an all-zero attr (no byte set): a NULL license and no instructions,
# EFAULT from the license's copy up to 6.4 (5.10, 6.1), E2BIG for insn_cnt 0 from 6.5 (6.12,
# 7.3), where the license is copied after the instructions.
set -u
. "$top/tests/lib.sh"
vm_need 5.10 6.1 6.12 7.3
fail=0
# VERSION: CMD:BYTE[:fd] ...
cases() {
	case $1 in
	5.10) echo "BPF_PROG_LOAD:none BPF_PROG_LOAD:116 BPF_PROG_LOAD:120 BPF_OBJ_GET_INFO_BY_FD:16:fd BPF_OBJ_GET_INFO_BY_FD:120:fd BPF_PROG_TEST_RUN:72:fd BPF_PROG_TEST_RUN:120:fd BPF_LINK_CREATE:28:fd BPF_LINK_CREATE:120:fd" ;;
	6.1) echo "BPF_PROG_LOAD:none BPF_PROG_LOAD:140 BPF_PROG_LOAD:144" ;;
	6.12) echo "BPF_PROG_LOAD:none BPF_PROG_LOAD:148 BPF_PROG_LOAD:152 BPF_OBJ_GET_INFO_BY_FD:20:fd BPF_OBJ_GET_INFO_BY_FD:152:fd BPF_PROG_TEST_RUN:76:fd BPF_PROG_TEST_RUN:150:fd BPF_LINK_CREATE:60:fd BPF_LINK_CREATE:152:fd" ;;
	7.3) echo "BPF_PROG_LOAD:none BPF_PROG_LOAD:3" ;;
	esac
}
errnos() { sed -n 's/^bpf(.*) = -1 \(E[A-Z0-9]*\) .*/\1/p; s/^bpf(.*) = \([0-9][0-9]*\).*/\1/p' "$1"; }
for v in 5.10 6.1 6.12 7.3; do
	{ echo "target vm $v"; echo "new bpf"; echo "size 168"; } >vm.xsc
	echo "target sim $v" >sim.xsc
	for c in $(cases $v); do
		cmd=${c%%:*} rest=${c#*:} byte=${rest%%:*} fd=0
		case $rest in *:fd) fd=0xff ;; esac
		set1= unset1=
		[ "$byte" != none ] && set1="poke $byte 1" unset1="poke $byte 0"
		printf 'poke 0 %s %s %s %s\n%s\ncall --unsafe bpf cmd=%s\n%s\n' $fd $fd $fd $fd "$set1" "$cmd" "$unset1" >>vm.xsc
		printf 'new %s\nsize 168\npoke 0 %s %s %s %s\n%s\ncall %s\n' "$cmd" $fd $fd $fd $fd "$set1" "$cmd" >>sim.xsc
	done
	"$XSC" --data "$top/data" --keep-going vm.xsc >vm.out 2>&1
	"$XSC" --data "$top/data" --keep-going sim.xsc >sim.out 2>&1
	errnos vm.out >vm.errnos
	errnos sim.out >sim.errnos
	cases $v | tr ' ' '\n' >names
	if [ "$(wc -l <vm.errnos)" -ne "$(wc -l <names)" ]; then
		echo "FAIL: the $v guest did not answer every call:"
		sed 's/^/    /' vm.out | head -40
		fail=1
		continue
	fi
	paste -d' ' names vm.errnos sim.errnos >table
	if awk '$2 != $3 { bad = 1; print "FAIL: " $0 " (case, the kernel, the simulator)" } END { exit bad }' table; then
		echo "$v: $(wc -l <names) calls, the kernel and the simulator agree: $(awk '{ printf "%s%s=%s", (NR > 1 ? ", " : ""), $1, $2 }' table)"
	else
		fail=1
	fi
done
exit $fail
