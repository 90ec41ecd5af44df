#!/bin/sh
# bench/kotv-strength.sh - King of the Valley: the "ai" agent (information-set MCTS with
# the game's guided playouts) against the greedy baseline, every player given the same
# time a move (default 100 ms; greedy needs far less), 400 games each:
#   1. two players, seats alternating (goal: ai wins at least 80%);
#   2. four players, one ai against three greedy, seats rotating (goal: ai first in at
#      least 50%, where chance alone gives 25%).
# About 30 minutes on two cores. Not part of `make test`.
# usage: bench/kotv-strength.sh [GAMES] [MOVETIME_MS] [SEED]
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
crown=${CROWN:-build/release/crown}
need_crown
games=${1:-400}
ms=${2:-100}
seed=${3:-2026}
echo "== king-of-the-valley, 2 players: ai:10 vs greedy, $ms ms a move, $games games"
$crown match king-of-the-valley --players ai:10,greedy --games "$games" --movetime "$ms" \
    --jobs 2 --seed "$seed" | grep -v '^game '
echo "== king-of-the-valley, 4 players: ai:10 vs 3 greedy, $ms ms a move, $games games"
$crown match king-of-the-valley --rule players=4 --players ai:10,greedy,greedy,greedy \
    --games "$games" --movetime "$ms" --jobs 2 --seed "$seed" | grep -v '^game '
