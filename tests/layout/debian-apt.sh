# Sourced by tests/layout/headers-ref.sh and tests/census/trees.sh: Debian's linux-source
# packages through a private apt state in $APT (its own sources, lists and cache; the system's
# keyrings), so the system's apt configuration is never changed. Needs MIRROR, SECURITY, APT
# and a say() function.
apt_private() {
	apt_opts apt-get -q "$@"
}
apt_opts() {
	tool=$1
	shift
	"$tool" -o Dir::Etc::sourcelist="$APT/sources.list" -o Dir::Etc::sourceparts="$APT/parts" \
		-o Dir::State::Lists="$APT/lists" -o Dir::Cache="$APT/cache" -o Dir::State::status=/var/lib/dpkg/status \
		-o APT::Sandbox::User=root "$@"
}
apt_setup() {
	[ -e "$APT/updated" ] && return 0
	mkdir -p "$APT/parts" "$APT/lists/partial" "$APT/cache/archives/partial"
	k=/usr/share/keyrings/debian-archive-keyring.gpg
	cat >"$APT/sources.list" <<EOF
deb [signed-by=$k] $MIRROR bookworm main
deb [signed-by=$k] $SECURITY bookworm-security main
deb [signed-by=$k] $MIRROR trixie-backports main
EOF
	say "apt-get update (private state in $APT)"
	apt_private update >"$APT/update.log" 2>&1 || { cat "$APT/update.log"; exit 1; }
	# apt-get update exits 0 when no mirror answers: without a package list nothing can be fetched
	ls "$APT/lists" | grep -q '_Packages' || {
		say "apt-get update fetched no package list (no network?): $(grep -m1 '^[EW]:' "$APT/update.log")"
		exit 1
	}
	: >"$APT/updated"
}

# The newest linux-source-X.Y any suite offers (N=1), or the one before it (N=2).
newest() {
	apt_setup
	apt_opts apt-cache pkgnames linux-source- 2>/dev/null |
		sed -n 's|^linux-source-\([0-9][0-9]*\.[0-9][0-9]*\)$|\1|p' | sort -u -t. -k1,1n -k2,2n | tail -"$1" | head -1
}

