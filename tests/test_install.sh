#!/usr/bin/env bash
# The install test, run as one of a build's test programs (the Makefile writes the
# wrapper build/<variant>/tests/test_install): installs that build under a temporary
# PREFIX (and once more under DESTDIR), checks the files, the soname and that the shared
# library exports only crown_* symbols (and the static one defines no other global), links
# tests/install/clash.c statically, then compiles tests/install/perft.c in the
# temporary folder with nothing but `pkg-config --cflags --libs crown` and runs it
# against the installed shared library, and imports the installed Python module.
#   usage: tests/test_install.sh OUT BUILD CC [SANITIZER_FLAGS]
set -eu
out=$1 build=$2 cc=$3 san=${4:-}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "test_install: $*" >&2; exit 1; }
mk() { make --no-print-directory BUILD="$build" CC="$cc" "$@" >"$tmp/make.log" 2>&1 ||
    { cat "$tmp/make.log" >&2; fail "make $* failed"; }; }

prefix=$tmp/prefix
mk install PREFIX="$prefix"
version=$(sed -n 's/^#define CROWN_VERSION "\(.*\)"/\1/p' include/crown.h)
for f in bin/crown lib/libcrown.a "lib/libcrown.so.$version" lib/libcrown.so.0 lib/libcrown.so \
    include/crown.h lib/pkgconfig/crown.pc share/man/man1/crown.1 \
    share/man/man1/crown-serve.1 share/man/man1/crown-play.1 share/man/man1/crown-help.1 \
    share/bash-completion/completions/crown; do
    [ -e "$prefix/$f" ] || fail "make install did not install $f"
done
# A manual page for every command, each saying what its --help says.
for c in $("$prefix/bin/crown" completion words 1 crown "" | grep -v '^-'); do
    page=$prefix/share/man/man1/crown-$c.1
    [ -e "$page" ] || fail "no manual page crown-$c.1"
    "$prefix/bin/crown" help --man "$c" | cmp -s - "$page" || fail "crown-$c.1 is not crown help --man $c"
    # Well-formed roff, where groff is (groff-base, on nearly every Debian system).
    if command -v groff >/dev/null; then
        warnings=$(groff -man -ww -z "$page" 2>&1)
        [ -z "$warnings" ] || fail "crown-$c.1: $warnings"
    fi
done
"$prefix/bin/crown" --version | grep -qx "crown $version" || fail "crown --version is not 'crown $version'"

# The Python module, in the site-packages folder of the prefix. A sanitizer build's
# module needs its runtime preloaded into python3, so there only its presence is checked.
pymod=$(find "$prefix/lib" -path '*-packages/crown.*.so')
[ -n "$pymod" ] || fail "make install did not install the Python module"
if [ -z "$san" ]; then
    got=$(cd "$tmp" && PYTHONPATH=$(dirname "$pymod") /usr/bin/python3 -c \
        'import crown; print(crown.__file__, crown.__version__, len(crown.games()))') ||
        fail "python3 -c 'import crown' failed from the installed prefix"
    [ "$got" = "$pymod $version $("$prefix/bin/crown" games | grep -c '^[a-z]')" ] ||
        fail "the installed module is not the one imported, or not this version: $got"
fi

# DESTDIR stages the same tree under another root.
mk install PREFIX=/opt/crown DESTDIR="$tmp/stage"
[ -x "$tmp/stage/opt/crown/bin/crown" ] || fail "DESTDIR was not honoured"
grep -qx 'prefix=/opt/crown' "$tmp/stage/opt/crown/lib/pkgconfig/crown.pc" || fail "crown.pc has the wrong prefix"
mk uninstall PREFIX=/opt/crown DESTDIR="$tmp/stage"
left=$(find "$tmp/stage" -type f -o -type l)
[ -z "$left" ] || fail "make uninstall left: $left"

lib=$prefix/lib/libcrown.so.$version
objdump -p "$lib" | grep -q 'SONAME *libcrown\.so\.0$' || fail "soname is not libcrown.so.0"
others=$(nm -D --defined-only "$lib" | awk '{print $3}' | grep -v '^crown_' || true)
[ -z "$others" ] || fail "the shared library exports more than crown_*: $(echo $others | head -c 300)"
nm -D --defined-only "$lib" | grep -q ' crown_state_perft$' || fail "crown_state_perft is not exported"

# The static library too defines nothing global but crown_*, so that a program with a
# game_create or rng_below of its own links against it (tests/install/clash.c).
others=$(nm -g --defined-only "$prefix/lib/libcrown.a" | awk 'NF == 3 {print $3}' | grep -v '^crown_' || true)
[ -z "$others" ] || fail "libcrown.a defines more than crown_*: $(echo $others | head -c 300)"
nm -g --defined-only "$prefix/lib/libcrown.a" | grep -q ' crown_state_perft$' || fail "libcrown.a lacks crown_state_perft"

# Out of the tree: only the installed files are visible to the compiler.
cp tests/install/perft.c tests/install/clash.c "$tmp/"
cd "$tmp"
# shellcheck disable=SC2086 # san is words
"$cc" $san -std=c99 -Wall -Wextra -Wpedantic -Werror -I"$prefix/include" -o clash clash.c \
    "$prefix/lib/libcrown.a" -lm -lzstd -pthread || fail "a program with a game_create of its own does not link libcrown.a"
./clash || fail "the program linked with libcrown.a failed"
flags=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs crown)
# shellcheck disable=SC2086 # flags are words
"$cc" $san -std=c99 -Wall -Wextra -Wpedantic -Werror -o perft perft.c $flags ||
    fail "could not compile against the installed library ($flags)"
LD_LIBRARY_PATH="$prefix/lib" ldd ./perft | grep -q "$prefix/lib/libcrown.so.0" ||
    fail "the program is not linked to the installed shared library"
LD_LIBRARY_PATH="$prefix/lib" ./perft || fail "the program failed"
echo "test_install: ok ($build, $cc)"
