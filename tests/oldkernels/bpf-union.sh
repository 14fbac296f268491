# bpf's union bpf_attr before 5.10 held to real older kernels: Ubuntu's kernel images of 4.4,
# 4.11 (azure), 4.15, 5.4, 5.6 (oem), 5.8 and 5.13 (downloaded once from archive.ubuntu.com into
# xsc's cache, each checked against the SHA256 its suite's Packages file gives) boot under
# qemu with tests/oldkernels/bpf-guest.c as /init, which calls bpf with one nonzero byte of a
# 168-byte attr; 'target sim' at that version must answer the same where the kernel says E2BIG
# (past that release's union) or EINVAL (after the command's last field, CHECK_ATTR), and must
# say neither where the kernel gives another answer (the byte before the boundary).
# Not part of make test (about 78 MB once, then seven boots of 2-6 s): make bpf-old-vm.
# Run from an empty directory with top, XSC (and XDG_CACHE_HOME) set, as make does.
set -u
. "$top/tests/lib.sh"
need qemu-system-x86_64 "qemu-system-x86_64 is missing (make deps installs it)"
need curl "curl is missing"
need dpkg-deb "dpkg-deb is missing"
need cpio "cpio is missing"
cache=${XDG_CACHE_HOME:-$HOME/.cache}/xsc/ubuntu-kernels
mkdir -p "$cache" || exit 1
pool=http://archive.ubuntu.com/ubuntu/pool/main/l
# VERSION  POOL-PATH  SHA256 (from the Packages file of xenial, xenial-updates, bionic, focal and
# focal-updates; 4.11 is the azure flavour, the only 4.5-4.14 kernel xenial-updates has)
images() {
	cat <<'LIST'
4.4 linux/linux-image-4.4.0-21-generic_4.4.0-21.37_amd64.deb be0b48760d001839a8625e8de33011700a495255e3b258511ec4ffdab43c06ff
4.11 linux-azure/linux-image-4.11.0-1009-azure_4.11.0-1009.9_amd64.deb a000e45b13c20e983a78d9cca18e343f60665d93a53d4a215f310b2340545469
4.15 linux-signed/linux-image-4.15.0-20-generic_4.15.0-20.21_amd64.deb b92991dc7c21f0212978f17e043d32a7551fc12dd1d9365434f803a25cd1adf8
5.4 linux-signed/linux-image-5.4.0-26-generic_5.4.0-26.30_amd64.deb 5f619f3d9123f40603a164c6358fdcb1485b742c9bf497099bcc642076e0e782
5.6 linux-signed-oem-5.6/linux-image-5.6.0-1008-oem_5.6.0-1008.8_amd64.deb 08a3d4ea83c478c39e5bc1c2d1b9ea6c189b3339a3522102269054f80a0d9f67
5.8 linux-signed-hwe-5.8/linux-image-5.8.0-23-generic_5.8.0-23.24~20.04.1_amd64.deb d581fdb505a3ae8cd30f0ba6a19a67f74014e22ad3e6c1d5fef7134ccda26ff6
5.13 linux-signed-hwe-5.13/linux-image-5.13.0-21-generic_5.13.0-21.21~20.04.1_amd64.deb 722d9e009c4229b760de32c88fe05f33acba40bf63e3f366a4f4fa37d9c5734b
LIST
}
# VERSION ENTRY CMD-NUMBER BYTE FD: ENTRY is the catalogue's (a per-command entry, or bpf with
# cmd=COMMAND); FD 1 puts -1 in the attr's first word, FD 2 a license "GPL" at offset 16
# (BPF_PROG_LOAD's); BYTE -1 sets no byte: BPF_PROG_LOAD's early checks with no instructions,
# whose answer must be the kernel's exactly (EFAULT from the NULL license's copy, E2BIG for
# insn_cnt 0 once a license is there: 4.11 on; 4.4 has no zero test and goes on to the
# verifier)
cases() {
	cat <<'LIST'
4.4 BPF_PROG_LOAD 5 -1 0
4.4 BPF_PROG_LOAD 5 -1 2
4.4 BPF_PROG_LOAD 5 43 0
4.4 BPF_PROG_LOAD 5 44 0
4.4 BPF_PROG_LOAD 5 48 0
4.4 bpf:BPF_MAP_LOOKUP_ELEM 1 23 1
4.4 bpf:BPF_MAP_LOOKUP_ELEM 1 24 1
4.4 bpf:BPF_MAP_LOOKUP_ELEM 1 48 1
4.11 BPF_PROG_LOAD 5 -1 0
4.11 BPF_PROG_LOAD 5 -1 2
4.15 BPF_PROG_LOAD 5 -1 0
4.15 BPF_PROG_LOAD 5 -1 2
4.15 BPF_PROG_LOAD 5 67 0
4.15 BPF_PROG_LOAD 5 68 0
4.15 BPF_PROG_LOAD 5 72 0
4.15 BPF_PROG_TEST_RUN 10 40 1
4.15 BPF_PROG_TEST_RUN 10 72 1
4.15 BPF_OBJ_GET_INFO_BY_FD 15 16 1
4.15 BPF_OBJ_GET_INFO_BY_FD 15 72 1
4.15 bpf:BPF_PROG_QUERY 16 27 1
4.15 bpf:BPF_PROG_QUERY 16 28 1
5.4 BPF_PROG_LOAD 5 -1 0
5.4 BPF_PROG_LOAD 5 -1 2
5.4 BPF_PROG_LOAD 5 103 0
5.4 BPF_PROG_LOAD 5 108 0
5.4 BPF_PROG_LOAD 5 112 0
5.4 BPF_PROG_TEST_RUN 10 64 1
5.4 BPF_PROG_TEST_RUN 10 112 1
5.4 BPF_OBJ_GET_INFO_BY_FD 15 15 1
5.4 BPF_OBJ_GET_INFO_BY_FD 15 72 1
5.4 BPF_OBJ_GET_INFO_BY_FD 15 112 1
5.6 BPF_PROG_LOAD 5 -1 0
5.6 BPF_PROG_LOAD 5 115 0
5.6 BPF_PROG_LOAD 5 116 0
5.6 BPF_PROG_LOAD 5 120 0
5.6 bpf:BPF_MAP_DELETE_ELEM 3 15 1
5.6 bpf:BPF_MAP_DELETE_ELEM 3 16 1
5.8 BPF_LINK_CREATE 28 16 1
5.8 BPF_LINK_CREATE 28 120 1
5.8 BPF_PROG_TEST_RUN 10 64 1
5.13 BPF_PROG_LOAD 5 -1 0
5.13 BPF_PROG_LOAD 5 -1 2
5.13 BPF_LINK_CREATE 28 28 1
5.13 BPF_LINK_CREATE 28 120 1
5.13 BPF_PROG_TEST_RUN 10 72 1
5.13 BPF_PROG_LOAD 5 116 0
5.13 BPF_PROG_LOAD 5 120 0
LIST
}
# an answer's class: E2BIG and EINVAL are the size checks' answers, anything else is not
class() { case $1 in E2BIG|EINVAL) echo "$1" ;; *) echo other ;; esac; }

cc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -static -O1 -o init "$top/tests/oldkernels/bpf-guest.c" ||
	{ echo "tests/oldkernels/bpf-guest.c does not build statically (libc6-dev's libc.a?)"; exit 77; }
fail=0 total=0
for v in $(images | awk '{ print $1 }'); do
	set -- $(images | awk -v v="$v" '$1 == v { print $2, $3 }')
	deb=$cache/$(basename "$1") sum=$2
	if [ ! -e "$deb" ]; then
		curl -fsS -o "$deb.part" "$pool/$1" || { rm -f "$deb.part"; echo "cannot download $pool/$1"; exit 77; }
		mv "$deb.part" "$deb"
	fi
	echo "$sum  $deb" | sha256sum -c --quiet - || { echo "FAIL: $deb is not the package its suite lists"; rm -f "$deb"; exit 1; }
	rm -rf img root && mkdir img root
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C img --wildcards './boot/vmlinuz-*' || exit 1
	cases | awk -v v="$v" '$1 == v { print $3, $4, $5 }' >root/cases
	cp init root/init
	(cd root && printf 'init\ncases\n' | cpio -o -H newc 2>/dev/null) >initrd
	timeout 300 qemu-system-x86_64 -accel tcg -cpu max -m 512M -nodefaults -no-user-config -nographic \
		-serial stdio -no-reboot -kernel img/boot/vmlinuz-* -initrd initrd \
		-append 'console=ttyS0 quiet panic=-1' </dev/null 2>&1 | tr -d '\r' >guest.out
	sed -n 's/^= //p' guest.out >kernel.answers
	{
		echo "target sim $v"
		cases | awk -v v="$v" '$1 == v { print $2, $4, $5 }' | while read -r entry byte fd; do
			name=${entry%%:*}
			echo "new $name"
			echo "size 168"
			[ "$fd" = 1 ] && echo "poke 0 0xff 0xff 0xff 0xff"
			[ "$fd" = 2 ] && echo 'set license "GPL"'
			[ "$byte" -ge 0 ] && echo "poke $byte 1"
			case $entry in
			bpf:*) echo "call bpf cmd=${entry#bpf:}" ;;
			*) echo "call $name" ;;
			esac
		done
	} >sim.xsc
	"$XSC" --data "$top/data" --keep-going sim.xsc >sim.out 2>&1
	sed -n 's/^bpf(.*) = -1 \(E[A-Z0-9]*\) .*/\1/p; s/^bpf(.*) = [0-9][0-9]* .*/ok/p; s/^bpf(.*) = [0-9][0-9]*$/ok/p' sim.out >sim.answers
	cases | awk -v v="$v" '$1 == v { print $2 ":" $4 ($5 == 2 ? ":license" : "") }' >names
	n=$(wc -l <names)
	if [ "$(wc -l <kernel.answers)" -ne "$n" ] || ! grep -q '^END' guest.out; then
		echo "FAIL: the $v guest did not answer every call:"; sed 's/^/    /' guest.out | tail -n 20; fail=1; continue
	fi
	if [ "$(wc -l <sim.answers)" -ne "$n" ]; then
		echo "FAIL: the simulator did not answer every call at $v:"; sed 's/^/    /' sim.out | tail -n 20; fail=1; continue
	fi
	paste -d' ' names kernel.answers sim.answers | while read -r name k s; do
		case $name in
		*:-1*) [ "$k" = "$s" ] || echo "FAIL: $v $name: the kernel $k, the simulator $s" ;;
		*) [ "$(class "$k")" = "$(class "$s")" ] || echo "FAIL: $v $name: the kernel $k, the simulator $s" ;;
		esac
	done >bad
	if [ -s bad ]; then cat bad; fail=1; fi
	total=$((total + n))
	echo "$v: $n calls, $(paste -d= names kernel.answers | tr '\n' ' ')"
done
[ $fail -eq 0 ] && echo "bpf-union: $total calls in seven older kernels, the simulator agrees with each"
exit $fail
