#!/usr/bin/env bash
# bench/elo-anchor.sh [GAMES] [TC] [CROWN_SPEC] - crown's chess Elo on an outside scale:
# crown's King Down engine on the chess-compatible rules (setup=classic castling=on
# en-passant=on promotion=classic) against Debian's stockfish limited with
# UCI_LimitStrength=true and UCI_Elo 1500, 2000 and 2500, then against fairy-stockfish
# on plain chess (UCI_Variant=chess, its own UCI_Elo 2000). GAMES per level (default
# 100), TC as crown match --tc BASE+INC (default 10+0.1), seats alternating, starts from
# bench/openings-chess.txt. Prints per level the score, W/D/L and crown's Elo (the
# level plus crown match's Elo difference) with its 95% margin. Not part of make test:
# at the defaults a level takes about an hour on one core.
#
# Environment: CROWN (default build/release/crown), JOBS (crown match --jobs, default
# 1: each game runs two engines that think in turn), LEVELS (default "1500 2000 2500"),
# FAIRY_ELO (default 2000; empty skips fairy-stockfish), MOVE_OVERHEAD (stockfish's, ms,
# default 100), OUT (a folder for the games).
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-100}
tc=${2:-10+0.1}
spec=${3:-ai:10}
crown=${CROWN:-build/release/crown}
jobs=${JOBS:-1}
levels=${LEVELS:-1500 2000 2500}
fairy_elo=${FAIRY_ELO-2000}
book=bench/openings-chess.txt
# The runner's clock counts the pipes and the scheduling too: stockfish keeps back more
# than its default 10 ms a move, so that a busy machine does not flag it.
overhead="Move Overhead=${MOVE_OVERHEAD:-100}"
[ -x "$crown" ] || make -j2 BUILD=release >/dev/null
chess=(--rule setup=classic --rule castling=on --rule en-passant=on --rule promotion=classic)
openings=()
if "$crown" match --help 2>&1 | grep -q -- --openings; then
    openings=(--openings "$book")
else
    echo "note: this crown match has no --openings yet; every game starts from the start" >&2
fi

# One match; prints "label  score  W/D/L  Elo +/- margin" from crown match's summary.
anchor() {
    local label=$1 base_elo=$2 engine=$3
    shift 3
    local out
    out=$(nice -n 5 "$crown" match king-down "${chess[@]}" --players "$spec,$engine" \
        --games "$games" --tc "$tc" --jobs "$jobs" "${openings[@]}" "$@" \
        ${OUT:+--out "$OUT/elo-anchor-$label.txt"} 2>&1) || true
    local wdl score diff
    wdl=$(printf '%s\n' "$out" | sed -n 's/.*: \([0-9]*\) games, \([0-9]*\) wins, \([0-9]*\) draws, \([0-9]*\) losses.*/\2\/\3\/\4 of \1/p' | tail -1)
    score=$(printf '%s\n' "$out" | sed -n 's/^score \([0-9.]*%\).*/\1/p' | tail -1)
    diff=$(printf '%s\n' "$out" | sed -n 's/^score [0-9.]*%, Elo difference \(.*\)$/\1/p' | tail -1)
    local forfeits
    forfeits=$(printf '%s\n' "$out" | grep -c 'forfeits\|lost on time\|which is illegal' || true)
    local elo=-
    if [[ $diff =~ ^([+-][0-9]+)\ \+/-\ ([0-9]+) ]]; then
        elo="$((base_elo + BASH_REMATCH[1])) +/- ${BASH_REMATCH[2]}"
    elif [[ $diff =~ ^([+-][0-9]+) ]]; then
        elo="$((base_elo + BASH_REMATCH[1])) (no margin)"
    elif [[ -n $diff ]]; then
        elo="${diff%% *} (one-sided)"
    fi
    printf '%-26s %8s  %-16s %-18s forfeits %s\n' "$label" "${score:--}" "${wdl:--}" "$elo" \
        "$forfeits"
    if [[ -z $wdl ]]; then
        printf '%s\n' "$out" | tail -5 >&2
    fi
}

echo "crown $spec on chess rules, $games games a level, --tc $tc, book $book"
printf '%-26s %8s  %-16s %-18s\n' "opponent" "score" "W/D/L" "crown Elo (95%)"
for level in $levels; do
    anchor "stockfish-elo-$level" "$level" "uci:/usr/games/stockfish" \
        --engine-option UCI_LimitStrength=true --engine-option "UCI_Elo=$level" \
        --engine-option Threads=1 --engine-option Hash=16 --engine-option "$overhead"
done
if [[ -n $fairy_elo ]] && [[ -x /usr/games/fairy-stockfish ]]; then
    anchor "fairy-stockfish-elo-$fairy_elo" "$fairy_elo" "uci:/usr/games/fairy-stockfish" \
        --engine-option UCI_Variant=chess --engine-option UCI_LimitStrength=true \
        --engine-option "UCI_Elo=$fairy_elo" --engine-option Threads=1 --engine-option Hash=16 \
        --engine-option "$overhead"
fi
