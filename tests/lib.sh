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
