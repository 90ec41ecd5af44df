#!/usr/bin/env bash
# Packs solved King's Valley tables for sharing and proves each packed file equal to its
# full table: for every table given, `crown solve --compress` writes TABLE.kvz (left as
# it is if it is already there), checks its checksum, compares every one of its entries
# with the full table's, and times random probes (CPU and wall microseconds, over the
# whole table and within four blocks); then the total size of the packed files.
# The full tables are 1.68 GB each; packing one takes minutes at --level 3 and about
# ten times longer at the default level 19. Not part of `make test` (test_kvs_pack does
# the same on the one-soldier table).
#   bench/solve-pack.sh [--level L] [--probes N] TABLE[:RULE=VALUE,...]...
#   e.g. bench/solve-pack.sh ~/.local/share/crown/kings-valley-locked-king-loses-on.kvt \
#        ~/.local/share/crown/kings-valley-locked-king-loses-off-no-move-loss.kvt:locked-king-loses=off
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
crown=build/release/crown
need_crown
level=()
probes=1000000
while [ $# -gt 0 ]; do
    case $1 in
    --level) level=(--level "$2"); shift 2 ;;
    --probes) probes=$2; shift 2 ;;
    *) break ;;
    esac
done
[ $# -gt 0 ] || { echo "usage: bench/solve-pack.sh [--level L] [--probes N] TABLE[:RULE=VALUE,...]..." >&2; exit 2; }
total=0
for spec in "$@"; do
    table=${spec%%:*}
    rules=()
    if [ "$spec" != "$table" ]; then
        IFS=, read -ra settings <<< "${spec#*:}"
        for r in "${settings[@]}"; do rules+=(--rule "$r"); done
    fi
    packed=${table%.kvt}.kvz
    echo "== $table"
    nice -n 5 $crown solve kings-valley "${rules[@]}" --compress --tablebase "$table" \
        --out "$packed" --check "$probes" "${level[@]}"
    total=$(( total + $(stat -c %s "$packed") ))
done
echo "packed total: $total bytes"
