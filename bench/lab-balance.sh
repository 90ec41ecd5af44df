#!/usr/bin/env bash
# The studies behind docs/BALANCE.md: for every game and variant with its default rules,
# self-play at one level (first-player advantage, draws, length) and a ladder of levels
# (skill gradient). Slow: run it niced, one study at a time, two threads each.
#   bench/lab-balance.sh [OUT_DIR] [CROWN]
set -eu
out=${1:-build/balance}
crown=${2:-build/release/crown}
jobs=${JOBS:-2}
mkdir -p "$out"
run() { # name, then the lab arguments
    local name=$1
    shift
    echo "== $name: crown lab $* --jobs $jobs --out $out/$name"
    local start=$SECONDS
    nice -n 5 "$crown" lab "$@" --jobs "$jobs" --out "$out/$name"
    echo "   $((SECONDS - start)) s"
}
for g in kings-valley retrieve-the-king kings-valley-7x7 kings-valley-labyrinth; do
    run "$g-self" "$g" --players ai:3,ai:3 --games 400 --seed 1
    run "$g-ladder" "$g" --ladder 1,3,5 --games 60 --seed 2
done
for g in kings-guard kings-guard-8x8; do
    run "$g-self" "$g" --players ai:2,ai:2 --games 120 --seed 1
    run "$g-ladder" "$g" --ladder 1,2,3 --games 30 --seed 2
done
run kings-castle-self kings-castle --players ai:2,ai:2 --games 120 --seed 1
run kings-castle-ladder kings-castle --ladder 1,2,3 --games 30 --seed 2
run king-down-self king-down --players ai:1,ai:1 --games 60 --seed 1
run king-down-ladder king-down --ladder 1,2,3 --games 12 --seed 2
for n in 2 3 4; do
    list=$(printf 'greedy%.0s,' $(seq "$n"))
    run "king-of-the-valley-$n-self" king-of-the-valley --rule "players=$n" \
        --players "${list%,}" --games 200 --seed 1
done
run king-of-the-valley-ladder king-of-the-valley --ladder 1,2,3 --games 8 --seed 2
