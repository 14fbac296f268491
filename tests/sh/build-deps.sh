# Building without installing (issue 28): plain 'make' checks only what the build needs; as an
# ordinary user it names what is missing with the apt-get line that installs it, and only
# names the optional packages; on a system without dpkg it says what to install in words.
set -u
fail=0
bad() { echo "FAIL $1"; sed 's/^/    | /' out; fail=1; }
# a PATH of the tools the check uses, without dpkg-query, plus fakes
mkdir -p bin
for t in sh make cc gcc grep printf cat sed; do
	p=$(command -v $t) && ln -sf "$p" bin/$t
done
# dpkg says every package is installed but libjansson-dev and tmux
cat >bin/dpkg-query <<'X'
#!/bin/sh
for p; do :; done
case $p in libjansson-dev|tmux) exit 1 ;; esac
echo 'install ok installed'
X
chmod +x bin/dpkg-query
ln -sf "$(command -v pkg-config)" bin/pkg-config
# an ordinary user, as the check sees one (the real uid stays: the test's directory is
# private to whoever runs the suite)
printf '#!/bin/sh\necho 1000\n' >bin/id && chmod +x bin/id
run() { env PATH="$PWD/bin" make -s -C "$top" "$@" >out 2>&1; }
run build-deps && bad "a missing build package did not stop make"
grep -q '^make: xsc cannot build without these packages; as root:$' out && grep -q '^  apt-get update && apt-get install -y libjansson-dev$' out ||
	bad "the missing build package and its apt-get line"
# only optional ones missing: make goes on and names them
sed -i 's/libjansson-dev|tmux/tmux/' bin/dpkg-query
run build-deps || bad "an optional package stopped make"
grep -q "^make: building; optional, for the tests, 'target vm', the site and the handout: tmux$" out || bad "the optional package named"
# no dpkg: the libraries by pkg-config, the headers by the compiler, the answer in words
rm bin/dpkg-query
run build-deps || bad "no dpkg, everything present"
rm -f bin/pkg-config # a link to the real one: never written through
printf '#!/bin/sh\nexit 1\n' >bin/pkg-config && chmod +x bin/pkg-config
run build-deps CLANG_INCDIR=/nonexistent && bad "no dpkg and no libraries, yet make went on"
grep -q '^make: this system has no dpkg, and xsc needs:$' out && grep -q '^  the jansson library and its development files$' out &&
	grep -q '<clang-c/Index.h>' out && grep -q "Install them with the system's package manager" out || bad "the words without dpkg"
exit $fail
