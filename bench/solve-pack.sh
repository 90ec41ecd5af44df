#!/usr/bin/env bash
# Packs solved King's Valley tables for sharing and proves each packed file equal to its
# full table: for every table given, `crown solve --compress` writes TABLE.kvz (left as
# it is if it is already there), checks its checksum, compares every one of its entries
# with the full table's, and times random probes (CPU and wall microseconds, over the
# whole table and within four blocks, and of whole values with the wins' distances);
# then the total size of the packed files. Give the tables in base order (on, then off
# with no-move=loss, then no-move=draw): each is coded against the one before it when
# that one's packed form is beside it. The full tables are 1.68 GB each; packing one
# takes about four minutes at the default level 19 (30 s at --level 3), and the check
# unpacks it whole (7 to 15 minutes on two cores). Not part of `make test`
# (test_kvs_pack does the same on the one-soldier tables).
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
