#!/usr/bin/env bash
# make deb-test: installs the packages `make deb` built (build/deb) into a fresh Debian
# root made by debootstrap from the mirror this machine's apt uses, then, inside it:
# `crown --version`, a program built against libcrown-dev with pkg-config alone
# (tests/install/perft.c), `import crown` in the system's python3, and the service's
# command started as its system user with the shipped configuration
# (tests/deb/service-try.sh); then purges crown-server and checks its data went. The
# packages' dependencies come from the mirror through apt, so a missing Depends fails
# here. Minutes, and root (debootstrap, chroot, mount): not part of `make test`, whose
# tests/test_debian.sh checks the packaging's files quickly.
#   usage: bench/deb-test.sh            (after make deb; make deb-test does both)
# Downloads and the debootstrapped root are kept in build/deb-cache for the next run.
set -eu
cd "$(dirname "$0")/.."
fail() { echo "deb-test: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || fail "needs root for debootstrap and chroot (sudo make deb-test)"
version=$(sed -n '1s/^crown (\([^)]*\)).*/\1/p' debian/changelog)
debs=()
for p in crown crown-server libcrown0 libcrown-dev python3-crown; do
    f=$(ls build/deb/"${p}_${version}"_*.deb 2>/dev/null) || fail "no build/deb/${p}_${version}_*.deb: make deb first"
    debs+=("$f")
done

# The suite and mirror this machine's apt reads (deb822 sources or sources.list).
suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
mirror=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -n 's/^URIs: *\([^ ]*\/debian\)\/\{0,1\}$/\1/p' | head -1)
[ -n "$mirror" ] || mirror=$(sed -n 's/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\/debian\)\/\{0,1\} .*/\2/p' /etc/apt/sources.list 2>/dev/null | head -1)
mirror=${mirror:-http://deb.debian.org/debian}

start=$(date +%s)
cache=$PWD/build/deb-cache
mkdir -p "$cache/debootstrap" "$cache/apt/partial"
root=$(mktemp -d "$PWD/build/deb-root.XXXXXX")
mounted=()
cleanup() {
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}"; done
    rm -rf --one-file-system "$root"
}
trap cleanup EXIT
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }

# The fresh root: debootstrap's minimal system, made once and kept as a tarball (a week),
# since making it is most of the test's time; each run unpacks it anew.
base=$cache/$suite-minbase.tar
if [ -z "$(find "$base" -mtime -7 2>/dev/null)" ]; then
    echo "deb-test: debootstrap $suite from $mirror (kept as $base)"
    debootstrap --variant=minbase --cache-dir="$cache/debootstrap" "$suite" "$root" "$mirror" \
        >"$cache/debootstrap.log" 2>&1 || { tail -n 20 "$cache/debootstrap.log" >&2; fail "debootstrap failed"; }
    tar -C "$root" --one-file-system -cf "$base.tmp" . && mv "$base.tmp" "$base"
else
    echo "deb-test: a fresh $suite root from $base (debootstrap's, made $(date -r "$base" +%F))"
    tar -C "$root" -xf "$base"
fi
# mktemp made it 0700 (and the tarball keeps that), which would shut the crown user out.
chmod 755 "$root"
mount -t proc proc "$root/proc" && mounted+=("$root/proc")
mount --bind "$cache/apt" "$root/var/cache/apt/archives" && mounted+=("$root/var/cache/apt/archives")
cp /etc/resolv.conf "$root/etc/resolv.conf"
mkdir -p "$root/tmp/crown"
cp "${debs[@]}" tests/install/perft.c tests/deb/service-try.sh "$root/tmp/crown/"

echo "deb-test: apt-get install ${debs[*]##*/} (with gcc, libc6-dev and pkgconf to build against it)"
in_root sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends /tmp/crown/*.deb gcc libc6-dev pkgconf' >"$cache/apt.log" 2>&1 ||
    { tail -n 30 "$cache/apt.log" >&2; fail "apt-get could not install the packages"; }

got=$(in_root crown --version) || fail "crown --version failed"
[ "$got" = "crown $version" ] || fail "crown --version says '$got'"
for f in /usr/share/man/man1/crown.1.gz /usr/share/man/man1/crown-serve.1.gz \
    /usr/share/bash-completion/completions/crown /etc/crown/serve.conf \
    /usr/lib/sysusers.d/crown-server.conf /lib/systemd/system/crown-server.service; do
    [ -e "$root$f" ] || fail "$f is not installed"
done
echo "deb-test: crown --version: $got; manual pages, completion, unit and configuration installed"

in_root sh -c 'cd /tmp/crown && cc -std=c99 -Wall -Wextra -Werror -o perft perft.c \
    $(pkg-config --cflags --libs crown) && ./perft' >"$cache/perft.log" 2>&1 ||
    { cat "$cache/perft.log" >&2; fail "a program built with pkg-config against libcrown-dev failed"; }
in_root ldd /tmp/crown/perft | grep -Eq 'libcrown\.so\.0 => (/usr)?/lib/' ||
    fail "the program is not linked to the packaged libcrown.so.0"
echo "deb-test: built against libcrown-dev with pkg-config: $(tail -1 "$cache/perft.log")"

got=$(in_root python3 -c 'import crown; print(crown.__version__, len(crown.games()))') ||
    fail "python3 -c 'import crown' failed"
[ "${got%% *}" = "$version" ] || fail "the Python module says '$got'"
echo "deb-test: import crown: version and games: $got"

in_root id crown >/dev/null || fail "no system user crown"
owner=$(in_root stat -c %U:%a /var/lib/crown) || fail "no /var/lib/crown"
[ "$owner" = crown:750 ] || fail "/var/lib/crown is $owner, not crown:750"
# As systemd would run it: the unit's user, its command and its environment file.
chroot --userspec=crown:crown "$root" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/var/lib/crown \
    bash /tmp/crown/service-try.sh /lib/systemd/system/crown-server.service /etc/crown/serve.conf ||
    fail "the service's command did not serve"

in_root sh -c 'DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq crown-server' >>"$cache/apt.log" 2>&1 ||
    fail "apt-get purge crown-server failed"
[ ! -e "$root/var/lib/crown" ] || fail "purging crown-server left /var/lib/crown"
[ ! -e "$root/etc/crown/serve.conf" ] || fail "purging crown-server left /etc/crown/serve.conf"
echo "deb-test: ok: every package installed and used in a fresh $suite root, in $(($(date +%s) - start)) s"
