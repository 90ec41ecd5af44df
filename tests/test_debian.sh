#!/usr/bin/env bash
# The Debian packaging's quick checks, run as one of a build's test programs (the
# Makefile writes the wrapper build/<variant>/tests/test_debian): what can go stale in
# debian/ without a package build. Building and installing the packages takes minutes
# and is `make deb-test` (bench/deb-test.sh). Checked here: the changelog's version is
# crown.h's; libcrown0.symbols lists exactly what this build's libcrown.so exports, under
# its soname, each declared in crown.h; every package has its .install file; the unit
# keeps its hardening; and the unit's command, with the shipped configuration, starts,
# answers and stops (tests/deb/service-try.sh).
#   usage: tests/test_debian.sh OUT
set -eu
out=$1
cd "$(dirname "$0")/.."
fail() { echo "test_debian: $*" >&2; exit 1; }

version=$(sed -n 's/^#define CROWN_VERSION "\(.*\)"/\1/p' include/crown.h)
deb_version=$(sed -n '1s/^crown (\([^)-]*\)[^)]*).*/\1/p' debian/changelog)
[ "$deb_version" = "$version" ] ||
    fail "debian/changelog is at $deb_version, crown.h at $version: add a changelog entry"

lib=$out/libcrown.so.$version
soname=$(objdump -p "$lib" | awk '$1 == "SONAME" {print $2}')
head -1 debian/libcrown0.symbols | grep -qx "$soname libcrown0 #MINVER#" ||
    fail "debian/libcrown0.symbols does not start with '$soname libcrown0 #MINVER#'"
exported=$(nm -D --defined-only "$lib" | awk '{print $3}' | sort)
listed=$(sed -n 's/^ \([^@ ]*\)@Base .*/\1/p' debian/libcrown0.symbols | sort)
[ "$exported" = "$listed" ] || fail "debian/libcrown0.symbols and $lib differ (< exported, > listed):
$(diff <(echo "$exported") <(echo "$listed") | grep '^[<>]')"
for s in $exported; do
    case $s in crown_*) ;; *) fail "libcrown exports $s, not a crown_* function" ;; esac
    grep -qw "$s" include/crown.h || fail "libcrown exports $s, which crown.h does not declare"
done

for p in $(sed -n 's/^Package: //p' debian/control); do
    [ -f "debian/$p.install" ] || fail "package $p has no debian/$p.install"
done

unit=debian/crown-server.service
for key in User=crown NoNewPrivileges=yes ProtectSystem=strict ProtectHome=yes PrivateTmp=yes \
    PrivateDevices=yes ReadWritePaths=/var/lib/crown CapabilityBoundingSet= \
    'RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX AF_NETLINK' SystemCallFilter=@system-service; do
    grep -qx "$key" "$unit" || fail "$unit lacks $key"
done

state=$(mktemp -d)
trap 'rm -rf "$state"' EXIT
tests/deb/service-try.sh "$unit" debian/serve.conf "$PWD/$out/crown" "$state" >/dev/null ||
    fail "the unit's command does not serve"
echo "test_debian: ok ($out)"
