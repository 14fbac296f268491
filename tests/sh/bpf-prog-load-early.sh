# BPF_PROG_LOAD's early checks per release, simulated, and the record sizes behind them:
# with no instructions and a NULL license a kernel before 6.5 faults copying the license
# (EFAULT) and 6.5 on answers E2BIG for insn_cnt 0 (the license is copied after the
# instructions since commit 7f6719f7a866); 4.11 to 6.4 answer E2BIG once a license is there,
# 4.4 has no zero test and reaches find_prog_type (EINVAL for type 0). With a socket filter of
# one instruction and a license the verifier's record sizes answer (EINVAL below the kernel's
# record, from 5.0; a longer record's tail is in memory the simulator does not read, so that
# answer stays uncertain, ok). The kernels' own answers to the first
# cases are held by make bpf-old-vm and tests/sh/bpf-union-vm.sh.
set -u
# VERSION SETUP EXPECTED: SETUP is a list of "set" lines joined by ';'
cases() {
	cat <<'LIST'
4.4	-	EFAULT
4.4	license	EINVAL
4.15	-	EFAULT
4.15	license	E2BIG
4.11	license	E2BIG
5.4	-	EFAULT
6.1	-	EFAULT
6.1	license	E2BIG
6.1	license;prog	EFAULT
6.5	-	E2BIG
6.12	-	E2BIG
7.3	-	E2BIG
7.3	license	E2BIG
7.3	prog	EFAULT
7.3	prog;insns	EFAULT
7.3	prog;insns;license	ok
7.3	prog;insns;license;func6	EINVAL
7.3	prog;insns;license;func12	ok
7.3	prog;insns;license;line12	EINVAL
7.3	prog;insns;license;core254	EINVAL
5.4	prog;insns;license;func6	EINVAL
LIST
}
setup() {
	case $1 in
	license) echo 'set license "GPL"' ;;
	prog) printf 'set prog_type 1\nset insn_cnt 1\n' ;;
	insns) echo 'set insns "12345678"' ;;
	func6) printf 'set func_info_cnt 2\nset func_info_rec_size 6\n' ;;
	func12) printf 'set func_info_cnt 2\nset func_info_rec_size 12\n' ;;
	line12) printf 'set line_info_cnt 1\nset line_info_rec_size 12\n' ;;
	core254) printf 'set core_relo_cnt 1\nset core_relo_rec_size 254\n' ;;
	esac
}
cases | while IFS='	' read -r v s want; do
	{
		echo "target sim $v"
		echo "new BPF_PROG_LOAD"
		echo "size 168"
		[ "$s" = - ] || for one in $(echo "$s" | tr ';' ' '); do setup "$one"; done
		echo "call BPF_PROG_LOAD"
	} >case.xsc
	"$XSC" --data "$top/data" case.xsc >case.out 2>&1
	got=$(sed -n 's/^bpf(.*) = -1 \(E[A-Z0-9]*\) .*/\1/p; s/^bpf(.*) = [0-9][0-9]*\( .*\)\{0,1\}$/ok/p' case.out)
	[ "$got" = "$want" ] || { echo "FAIL: target sim $v, $s: $got, not $want"; sed 's/^/    /' case.out | head -8; }
done >fails
# the running kernel: an all-zero attr through the bpf entry (--unsafe: no program can load
# without instructions) must give the simulator's answer at this version, or one it lists
# as possible (EPERM for a caller without CAP_BPF where unprivileged bpf is disabled)
v=$(uname -r | sed -n 's/^\([0-9]*\.[0-9]*\).*/\1/p')
printf 'new bpf\nsize 168\ncall --unsafe bpf cmd=BPF_PROG_LOAD\n' >live.xsc
printf 'target sim %s\nnew BPF_PROG_LOAD\nsize 168\ncall BPF_PROG_LOAD\n' "$v" >sim.xsc
"$XSC" --data "$top/data" live.xsc >live.out 2>&1
"$XSC" --data "$top/data" sim.xsc >sim.out 2>&1
live=$(sed -n 's/^bpf(.*) = -1 \(E[A-Z0-9]*\) .*/\1/p; s/^bpf(.*) = [0-9][0-9]*\( .*\)\{0,1\}$/ok/p' live.out)
sim=$(sed -n 's/^bpf(.*) = -1 \(E[A-Z0-9]*\) .*/\1/p; s/^bpf(.*) = [0-9][0-9]*\( .*\)\{0,1\}$/ok/p' sim.out)
possible=$(sed -n 's/^bpf(.*(simulated; \([A-Z0-9/]*\) \(is\|are\) possible.*/\1/p' sim.out | tr '/' ' ')
[ -n "$live" ] || live="no answer"
case " $sim $possible " in
*" $live "*) ;;
*) echo "FAIL: the running $v kernel answers $live to an all-zero BPF_PROG_LOAD, the simulator $sim${possible:+ (possible: $possible)}"
	sed 's/^/    /' live.out | head -4; echo fail >>fails ;;
esac
[ -s fails ] && { cat fails; exit 1; }
echo "bpf-prog-load-early: $(cases | wc -l) cases agree, and the running $v kernel's all-zero BPF_PROG_LOAD ($live) with target sim $v"
