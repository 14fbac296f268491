# Helpers the shell tests share: `. "$top/tests/lib.sh"`.

# wait_for REGEX WHAT: polls the tmux pane (T is the test's tmux command, $pane a scratch
# file) for up to 10 s; on a miss prints the pane, sets fail=1 and returns 1.
wait_for() {
	i=0
	while [ $i -lt 100 ]; do
		T capture-pane -p -t xsc >"$pane" 2>/dev/null && grep -q -- "$1" "$pane" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "FAIL: $2: no line matching '$1' in the pane:"
	sed 's/^/    | /' "$pane" | grep -v '^    | $'
	fail=1
	return 1
}

# start_httpd: starts tests/headers/httpd.py on 127.0.0.1 in the background; sets srv (its
# pid, killed at exit), P (its port) and U (its base URL), or exits 77 when it cannot start.
start_httpd() {
	command -v python3 >/dev/null 2>&1 || { echo "python3 is missing"; exit 77; }
	rm -f port.txt
	python3 "$top/tests/headers/httpd.py" >port.txt 2>httpd.err &
	srv=$!
	trap 'kill $srv 2>/dev/null' EXIT
	i=0
	while [ ! -s port.txt ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
	[ -s port.txt ] || { echo "the test server did not start: $(cat httpd.err)"; exit 77; }
	P=$(cat port.txt)
	U=http://127.0.0.1:$P
}

# need_linux [MESSAGE]: skips the test (exit 77) anywhere but on Linux, saying why.
need_linux() {
	[ "$(uname -s)" = Linux ] && return 0
	echo "${1:-not Linux (this is $(uname -s))}"
	exit 77
}

# need COMMAND [MESSAGE]: skips the test (exit 77) when COMMAND is not on PATH.
need() {
	command -v "$1" >/dev/null 2>&1 && return 0
	echo "${2:-$1 is missing}"
	exit 77
}

# scratch_dir: makes a temporary directory, enters it and removes it at exit; sets d.
scratch_dir() {
	d=$(mktemp -d) && cd "$d" || exit 1
	trap 'rm -rf "$d"' EXIT
}

# kernel_release: the running kernel's MAJOR.MINOR, the version 'target sim' is given to
# compare the simulator with the live kernel.
kernel_release() {
	uname -r | sed 's/^\([0-9]*\.[0-9]*\).*/\1/'
}

# T ARGS: tmux on the test's own server ($sock names it), without the user's configuration.
T() {
	tmux -L "$sock" -f /dev/null "$@"
}

# vm_need VERSION...: for the VM tests: exits 77 with the reason when qemu is missing or a
# kernel image cannot be fetched (fetching only what the cache lacks).
vm_need() {
	need qemu-system-x86_64 "qemu-system-x86_64 is missing (make deps installs it)"
	$XSC --data "$top/data" kernels fetch "$@" >fetch.out 2>&1 ||
		{ echo "the kernel images $* cannot be fetched: $(grep -v '^ ' fetch.out | tail -n 1)"; exit 77; }
}

# need_chromium: sets chromium (Debian's headless Chromium) and pw (the playwright-core that
# drives it, installed once with npm under $BUILD/npm), or exits 77 saying what is missing.
need_chromium() {
	chromium=${CHROMIUM:-/usr/bin/chromium}
	[ -x "$chromium" ] || { echo "chromium is not installed (make deps installs it)"; exit 77; }
	command -v node >/dev/null || { echo "node is not installed"; exit 77; }
	pw=$BUILD/npm
	if [ ! -d "$pw/node_modules/playwright-core" ]; then
		mkdir -p "$pw"
		( cd "$pw" && timeout 300 npm install --no-audit --no-fund --silent playwright-core >/dev/null 2>&1 ) ||
			{ echo "cannot install playwright-core with npm (no network?)"; exit 77; }
	fi
}
