#!/usr/bin/env bash
# Makes the puzzle sets the web server ships (src/web/static/data/puzzles/GAME.jsonl,
# one puzzle a line as `crown puzzles` writes them): 2,000 proven puzzles for each solved
# game (the kings-valley table must be there: `crown solve kings-valley`, docs/SOLVED.md)
# and 300 searched ones for each other two-player game, from seed 1, so that the same
# build makes the same sets. docs/PUZZLES.md says what they are and how long this takes.
#   tools/make-puzzles.sh [--seconds N] [GAME...]
# --seconds N stops each game after N seconds and keeps the puzzles found by then (the
# set is then short of its count, and the script says so).
set -eu
cd "$(dirname "$0")/.."
crown=${CROWN_BIN:-build/release/crown}
seconds=0
if [ "${1:-}" = --seconds ]; then
    seconds=${2:?--seconds takes a number}
    shift 2
fi
[ $# -eq 0 ] && set -- kings-valley retrieve-the-king kings-valley-7x7 kings-valley-labyrinth \
    kings-guard kings-guard-8x8 kings-castle king-down
dir=src/web/static/data/puzzles
mkdir -p "$dir" build/puzzles
for game in "$@"; do
    case $game in
    kings-valley | retrieve-the-king) count=2000 ;;
    *) count=300 ;;
    esac
    part="build/puzzles/$game.part"
    start=$(date +%s)
    rc=0
    if [ "$seconds" -gt 0 ]; then
        timeout "$seconds" "$crown" puzzles "$game" --count "$count" --seed 1 --max-plies 9 \
            --out "$part" || rc=$?
    else
        "$crown" puzzles "$game" --count "$count" --seed 1 --max-plies 9 --out "$part" || rc=$?
    fi
    found=$(wc -l <"$part")
    if [ "$found" -eq 0 ]; then
        rm -f "$part"
        echo "$game: no puzzles (exit $rc)" >&2
        exit 1
    fi
    mv "$part" "$dir/$game.jsonl"
    echo "$game: $found of $count puzzles in $(($(date +%s) - start)) s"
done
