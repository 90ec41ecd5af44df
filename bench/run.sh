#!/usr/bin/env bash
# The performance figures of issue 2, measured in one run on this machine:
#   1. kings-valley perft 7 from the start, in nodes per second, against Debian's
#      stockfish running "go perft 6" from the chess start position (best of 3 each);
#   2. random playouts of kings-valley to the end of the game, per second, one core;
#   3. kings-valley-7x7 against kings-valley-labyrinth, playouts and alpha-beta nodes per
#      second and their ratios (bench/kv7-speed.sh);
#   4. with --strength: the strongest AI against plain UCT, 0.5 s a move, 200 games
#      (about half an hour on two cores).
# Not part of `make test`: run it with `make bench` or bench/run.sh [--strength].
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
crown=build/release/crown
need_crown
need_stockfish "for the perft reference"

best_of_3() { sort -g | tail -1; }

echo "== perft"
crown_nps=$(for i in 1 2 3; do
    $crown perft kings-valley 7 | awk '/nodes per second/ { print $(NF-3) }'
done | best_of_3)
sf_nps=$(for i in 1 2 3; do
    # Stockfish prints no speed for perft: time it, less its start-up (a perft 1 run).
    t0=$(date +%s%N)
    printf 'position startpos\ngo perft 6\nquit\n' | /usr/games/stockfish >/dev/null
    t1=$(date +%s%N)
    printf 'position startpos\ngo perft 1\nquit\n' | /usr/games/stockfish >/dev/null
    t2=$(date +%s%N)
    awk -v n=119060324 -v a="$t0" -v b="$t1" -v c="$t2" \
        'BEGIN { printf "%.0f\n", n / (((b - a) - (c - b)) / 1e9) }'
done | best_of_3)
printf 'crown kings-valley perft 7: %.0f nodes/s\n' "$crown_nps"
printf 'stockfish chess perft 6:    %.0f nodes/s\n' "$sf_nps"
awk -v a="$crown_nps" -v b="$sf_nps" \
    'BEGIN { printf "perft ratio crown/stockfish: %.2fx (goal >= 2.0x)\n", a / b }'

echo "== random playouts (one core; best of 3 runs of 300000 games or 2 s)"
games=$($crown games | awk '/^[a-z]/ { print $1 }')
for g in $games; do
    for i in 1 2 3; do
        $crown playouts "$g" --games 300000 --movetime 2000 --seed 1 | tail -1
    done | sort -t, -k2 -g | awk -F', ' '{ line = $0 } END { print line }'
done
echo "goal: kings-valley >= 300000 playouts per second"

echo "== perft speed (no deeper depth started after 1 s)"
for g in $games; do
    printf '%s: ' "$g"
    $crown perft "$g" 12 --movetime 1000 | tail -2 | tr '\n' ' '
    echo
done

echo "== kings-valley-7x7 (trap rule) against labyrinth: speed ratios"
bench/kv7-speed.sh "$crown"

if [ "${1:-}" = --strength ]; then
    echo "== strength: strongest AI against plain UCT, 0.5 s a move, 200 games"
    $crown match kings-valley --players ai:10,uct --games 200 --movetime 500 --jobs 2 \
        --seed 2026 | tail -3
fi
