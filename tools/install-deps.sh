#!/usr/bin/env bash
# Installs the Debian packages crown needs, only those missing.
#   tools/install-deps.sh build   compiler and make: enough to build and play
#   tools/install-deps.sh test    also cmocka and clang, for `make test`
set -eu
want=(gcc make)
if [ "${1:-build}" = test ]; then
    want+=(libcmocka-dev clang)
fi
missing=()
for p in "${want[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing Debian packages: ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq "${missing[@]}" >/dev/null
