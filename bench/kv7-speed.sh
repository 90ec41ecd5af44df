#!/usr/bin/env bash
# kings-valley-7x7 (trap rule on) against kings-valley-labyrinth, the same board without
# the rule, side by side in one run (issue 18 part 4):
#   1. random playouts per second (`crown playouts` from the start, one core);
#   2. alpha-beta nodes per second (`crown analyze --agent ab:10 --depth 9` of the start; level 10 has no node cap);
# then the two ratios 7x7/labyrinth, against the goals of at least 10% and 25%.
# Rates are per second of CPU time (user + system, best of 3 runs), so that other
# processes on the machine change them little. Two to three minutes of CPU.
# Not part of `make test`; bench/run.sh runs it too.
# Usage: bench/kv7-speed.sh [CROWN_BINARY]; KV7_DEPTH and KV7_GAMES (7x7 playouts, 2000)
# shorten the runs for a slow binary.
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
crown=${1:-build/release/crown}
need_crown
depth=${KV7_DEPTH:-9}
TIMEFORMAT='%U %S'

# Runs the command three times; prints WORK / (best CPU seconds). The command's output
# goes to the file named by $out (its last run).
out=$(mktemp)
trap 'rm -f "$out"' EXIT
per_cpu_second() {
    local work=$1
    shift
    for i in 1 2 3; do
        { time "$@" >"$out"; } 2>&1 | awk '{ print $1 + $2 }'
    done | sort -g | head -1 | awk -v w="$work" '{ printf "%.0f\n", w / ($1 > 0 ? $1 : 0.001) }'
}

playouts() { # GAME GAMES
    per_cpu_second "$2" "$crown" playouts "$1" --games "$2" --seed 1
}

nodes() { # GAME
    "$crown" analyze "$1" --agent ab:10 --depth $depth >"$out"
    local n
    n=$(awk '/^depth/ { print $4 }' "$out")
    per_cpu_second "$n" "$crown" analyze "$1" --agent ab:10 --depth $depth
}

p7=$(playouts kings-valley-7x7 "${KV7_GAMES:-2000}")
pl=$(playouts kings-valley-labyrinth 300000)
n7=$(nodes kings-valley-7x7)
nl=$(nodes kings-valley-labyrinth)
printf 'playouts per CPU second           7x7 %9s   labyrinth %9s\n' "$p7" "$pl"
printf 'alpha-beta nodes per CPU second   7x7 %9s   labyrinth %9s   (depth %d)\n' \
    "$n7" "$nl" $depth
awk -v a="$p7" -v b="$pl" \
    'BEGIN { printf "7x7/labyrinth playouts: %6.2f%% (goal >= 10%%)\n", 100 * a / b }'
awk -v a="$n7" -v b="$nl" \
    'BEGIN { printf "7x7/labyrinth nodes/s:  %6.2f%% (goal >= 25%%)\n", 100 * a / b }'
