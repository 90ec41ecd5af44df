#!/usr/bin/env bash
# The figures docs/SOLVED.md reports, from a finished King's Valley table: crown solve
# --report (the starts' values with and without first-move-soldier, the first moves that
# keep them, perfect games, won/lost/drawn counts, the longest forced win), the check of
# random positions against alpha-beta (bench/solve-check.sh), and the solve's time and
# peak memory from the logs of its runs under /usr/bin/time -v (a solve resumed from
# checkpoints has several; a run killed outright left no time block). Not part of
# `make test`: the check alone takes minutes to an hour, depending on DEPTH.
#   bench/solve-results.sh TABLE [POSITIONS [DEPTH]] [--rule NAME=VALUE]... [--log FILE]...
#   bench/solve-results.sh /work/tables/kings-valley-locked-king-loses-on.kvt 100000 5 \
#       --log /work/tables/solve-on.err --log /work/tables/solve-on2.err
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
crown=build/release/crown
need_crown
table=${1:?usage: bench/solve-results.sh TABLE [POSITIONS [DEPTH]] [--rule NAME=VALUE]... [--log FILE]...}
shift
n=100000
depth=5
[ $# -gt 0 ] && [ "${1#--}" = "$1" ] && { n=$1; shift; }
[ $# -gt 0 ] && [ "${1#--}" = "$1" ] && { depth=$1; shift; }
rules=()
logs=()
while [ $# -gt 0 ]; do
    case $1 in
    --rule) rules+=(--rule "$2"); shift 2 ;;
    --log) logs+=("$2"); shift 2 ;;
    *) echo "solve-results: unknown argument '$1'" >&2; exit 2 ;;
    esac
done

echo "== report"
nice -n 5 $crown solve kings-valley "${rules[@]}" --report --tablebase "$table" || echo "(the report failed)"
echo "== header"
head -c 4096 "$table" | tr -d '\0'

if [ ${#logs[@]} -gt 0 ]; then
    echo "== the solve's runs"
    for log in "${logs[@]}"; do
        block=$(tr '\r' '\n' <"$log" | grep -a -E 'Elapsed \(wall|User time|System time|Maximum resident|terminated by signal|Exit status' || true)
        if [ -z "$block" ]; then
            echo "$log: no time block (the run was killed outright); last modified $(date -u -r "$log" '+%H:%M UTC')"
        else
            echo "$log:"
            echo "$block" | sed 's/.*\(Command terminated by signal [0-9]*\)/\1/; s/^[[:space:]]*/    /'
        fi
    done
fi

echo "== check: $n positions within $depth plies against alpha-beta"
bench/solve-check.sh "$table" "$n" "$depth" "${rules[@]}"
