#!/usr/bin/env bash
# Times whole King's Valley solves (issue 34, part 5: each within 15 minutes on this
# 2-core machine) for the three rule sets (locked-king-loses on; off with no-move loss;
# off with no-move draw) into a scratch folder, with wall time, CPU and peak memory from
# /usr/bin/time, and compares each new table byte for byte with the one of the same
# name in DIR (the data directory by default) where there is one: a faster solver must
# write the same table. Needs 1.7 GB of memory and of disk a table; the scratch tables
# are removed at the end. Not part of `make test` (tests/test_solve.c solves the
# reduced games and checks them against a plain solver).
#   bench/solve-time.sh [--threads N] [DIR]
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
crown=build/release/crown
need_crown
threads=2
if [ "${1:-}" = "--threads" ]; then
    threads=$2
    shift 2
fi
dir=${1:-${XDG_DATA_HOME:-$HOME/.local/share}/crown}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/crown-solve-time-XXXXXX")
trap 'rm -rf "$scratch"' EXIT
status=0
for rules in "locked-king-loses=on" "locked-king-loses=off no-move=loss" \
             "locked-king-loses=off no-move=draw"; do
    case $rules in
    *on) name=kings-valley-locked-king-loses-on.kvt ;;
    *loss) name=kings-valley-locked-king-loses-off-no-move-loss.kvt ;;
    *) name=kings-valley-locked-king-loses-off-no-move-draw.kvt ;;
    esac
    args=()
    for r in $rules; do args+=(--rule "$r"); done
    echo "== $rules"
    /usr/bin/time -f "wall %e s, user %U s, system %S s, peak %M KB" \
        "$crown" solve kings-valley "${args[@]}" --threads "$threads" \
        --out "$scratch/$name" 2>&1 >"$scratch/out" | tr '\r' '\n' | grep -v '^\(terminal\|ply\) '
    cat "$scratch/out"
    if [ -f "$dir/$name" ]; then
        if cmp -s "$scratch/$name" "$dir/$name"; then
            echo "the same table as $dir/$name"
        else
            echo "DIFFERS from $dir/$name"
            status=1
        fi
    fi
    rm -f "$scratch/$name"
done
exit $status
