#!/usr/bin/env bash
# The body of `make deb`: builds crown's Debian packages (debian/, docs/INSTALL.md) with
# dpkg-buildpackage from a copy of the tree's files under build/deb/, so that the build's
# `make clean` and debhelper's work files stay out of the tree and the packages land in
# build/deb/ rather than beside the repository, then checks them with lintian: an error
# fails the build, warnings are listed.
#   usage: tools/build-deb.sh [OUT_DIR]      (default build/deb)
set -eu
cd "$(dirname "$0")/.."
out=${1:-build/deb}
version=$(sed -n '1s/^crown (\([^)]*\)).*/\1/p' debian/changelog)
src=$out/crown-$version
rm -rf "$out"
mkdir -p "$src"
# The files git knows, with uncommitted changes and new files not ignored: the build
# is of what the tree holds now. Without git (a tarball), every file but build/.
if git rev-parse --git-dir >/dev/null 2>&1; then
    git ls-files -z --cached --others --exclude-standard |
        while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
        tar --null -T - -cf - | tar -xf - -C "$src"
else
    tar --exclude=./build -cf - . | tar -xf - -C "$src"
fi
jobs=${DEB_JOBS:-$(nproc 2>/dev/null || echo 1)}
echo "make deb: building crown $version in $src (dpkg-buildpackage, $jobs jobs; log $out/build.log)"
if ! (cd "$src" && DEB_BUILD_OPTIONS="parallel=$jobs ${DEB_BUILD_OPTIONS:-}" \
    dpkg-buildpackage -us -uc >../build.log 2>&1); then
    tail -n 40 "$out/build.log" >&2
    echo "make deb: dpkg-buildpackage failed (whole log: $out/build.log)" >&2
    exit 1
fi
changes=$(ls "$out"/crown_"$version"_*.changes)
# lintian exits non-zero on errors only (its default --fail-on error).
lintian --info --display-info "$changes" >"$out/lintian.txt" 2>&1 && lint=0 || lint=$?
errors=$(grep -c '^E: ' "$out/lintian.txt" || true)
warnings=$(grep -c '^W: ' "$out/lintian.txt" || true)
grep -E '^[EW]: ' "$out/lintian.txt" | sort | uniq || true
ls "$out"/*.deb
echo "make deb: lintian: $errors errors, $warnings warnings (all its notes: $out/lintian.txt)"
[ "$lint" -eq 0 ] && [ "$errors" -eq 0 ]
