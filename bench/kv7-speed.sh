#!/usr/bin/env bash
# kings-valley-7x7 (trap rule on) against kings-valley-labyrinth, the same board without
# the rule, side by side in one run (issue 18 part 4):
#   1. random playouts per second (`crown playouts`, one core, best of 3 runs of 3 s);
#   2. alpha-beta nodes per second, a depth-8 search of the start position (best of 3);
# then the two ratios 7x7/labyrinth, against the goals of at least 10% and 25%.
# About a minute. Not part of `make test`; bench/run.sh runs it too.
# Usage: bench/kv7-speed.sh [CROWN_BINARY]
set -eu
cd "$(dirname "$0")/.."
crown=${1:-build/release/crown}
[ -x "$crown" ] || make --no-print-directory BUILD=release
depth=8

playouts_per_s() {
    for i in 1 2 3; do
        "$crown" playouts "$1" --games 1000000 --movetime 3000 --seed "$i" |
            awk '/playouts per second/ { print $(NF-3) }'
    done | sort -g | tail -1
}

nodes_per_s() {
    for i in 1 2 3; do
        "$crown" analyze "$1" --agent ab --depth $depth |
            awk '/^depth/ { printf "%.0f\n", $4 / ($6 > 0 ? $6 : 1) * 1000 }'
    done | sort -g | tail -1
}

p7=$(playouts_per_s kings-valley-7x7)
pl=$(playouts_per_s kings-valley-labyrinth)
n7=$(nodes_per_s kings-valley-7x7)
nl=$(nodes_per_s kings-valley-labyrinth)
printf 'playouts/s        7x7 %10.0f   labyrinth %10.0f\n' "$p7" "$pl"
printf 'ab nodes/s (d%d)   7x7 %10.0f   labyrinth %10.0f\n' $depth "$n7" "$nl"
awk -v a="$p7" -v b="$pl" 'BEGIN { printf "7x7/labyrinth playouts: %5.1f%% (goal >= 10%%)\n", 100 * a / b }'
awk -v a="$n7" -v b="$nl" 'BEGIN { printf "7x7/labyrinth nodes/s:  %5.1f%% (goal >= 25%%)\n", 100 * a / b }'
