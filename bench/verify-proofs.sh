#!/usr/bin/env bash
# Re-checks the proofs of the King's Valley and Retrieve the King starts that ship in
# bench/proofs (issue 34, parts 2 and 3): each zstd file is unpacked to a temporary file
# and given to `crown prove --verify`, which replays the strategy with the rules alone.
# Prints each game's verdict, its positions and the check's time; fails if any proof
# is refused. docs/SOLVED.md says how each proof was made.
#   bench/verify-proofs.sh
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
crown=build/release/crown
need_crown
command -v zstd >/dev/null || { echo "verify-proofs: needs the zstd command (apt-get install zstd)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for packed in bench/proofs/*.proof.zst; do
    name=$(basename "$packed" .zst)
    zstd -q -d "$packed" -o "$tmp/$name"
    echo "== $name ($(stat -c %s "$tmp/$name") bytes)"
    /usr/bin/time -f "checked in %e s, %M KB" -o "$tmp/time" $crown prove --verify "$tmp/$name" ||
        status=1
    cat "$tmp/time"
    rm -f "$tmp/$name"
done
exit $status
