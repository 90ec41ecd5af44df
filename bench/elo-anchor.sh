#!/usr/bin/env bash
# bench/elo-anchor.sh [GAMES] [TC] [CROWN_SPEC] - crown's chess Elo on an outside scale:
# crown's King Down engine on the chess-compatible rules (setup=classic castling=on
# en-passant=on promotion=classic) against Debian's stockfish limited with
# UCI_LimitStrength=true and UCI_Elo 1500, 2000 and 2500, then against fairy-stockfish
# on plain chess (UCI_Variant=chess, its own UCI_Elo 2000). GAMES per level (default
# 100), TC as crown match --tc BASE+INC (default 10+0.1) or a fixed time a move for
# both engines written NNNms (crown match --movetime), seats alternating, starts from
# bench/openings-chess.txt. Prints per level the score, W/D/L and crown's Elo (the
# level plus crown match's Elo difference) with its 95% margin, then one estimate from
# every stockfish level together (the maximum-likelihood Elo of the logistic model, with
# its 95% margin). Not part of make test: at the defaults a level takes about an hour on
# one core. The engines run at the ordinary priority (no nice): on a shared machine a
# lower priority than the other programs' would cost them time on the clock.
#
# Environment: CROWN (default build/release/crown), JOBS (crown match --jobs, default
# 1: each game runs two engines that think in turn), LEVELS (default "1500 2000 2500"),
# FAIRY_ELO (default 2000; empty skips fairy-stockfish), MOVE_OVERHEAD (stockfish's, ms;
# unset: stockfish's own default, 10 ms), OUT (a folder for the games).
#
# Fair conditions (issue 33): the same time for both and each engine's defaults. The
# first anchor raised stockfish's Move Overhead to 100 ms at 3 s + 30 ms a game, which
# left it almost no time a move; the defaults are now a fixed 100 ms a move
# (`bench/elo-anchor.sh 200 100ms`) and 10 s + 0.1 s with stockfish's own overhead.
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
overhead=()
[[ -n ${MOVE_OVERHEAD:-} ]] && overhead=(--engine-option "Move Overhead=$MOVE_OVERHEAD")
if [[ $tc =~ ^([0-9]+)ms$ ]]; then
    limit=(--movetime "${BASH_REMATCH[1]}")
else
    limit=(--tc "$tc")
fi
[ -x "$crown" ] || make -j2 BUILD=release >/dev/null
# A missing engine would only show as forfeits: say so at once.
[ -x /usr/games/stockfish ] ||
    { echo "elo-anchor: /usr/games/stockfish is missing (apt-get install stockfish)" >&2; exit 1; }
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
    out=$("$crown" match king-down "${chess[@]}" --players "$spec,$engine" \
        --games "$games" "${limit[@]}" --jobs "$jobs" "${openings[@]}" "$@" \
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
    if [[ -n $wdl && $label == stockfish-* ]]; then
        fit+="$base_elo ${wdl%% of*} "
    fi
    if [[ -z $wdl ]]; then
        printf '%s\n' "$out" | tail -5 >&2
    fi
}

fit=""
said_overhead="its default Move Overhead"
[[ -n ${MOVE_OVERHEAD:-} ]] && said_overhead="Move Overhead $MOVE_OVERHEAD ms"
echo "crown $spec on chess rules, $games games a level, ${limit[*]}, stockfish with $said_overhead, book $book"
printf '%-26s %8s  %-16s %-18s\n' "opponent" "score" "W/D/L" "crown Elo (95%)"
for level in $levels; do
    anchor "stockfish-elo-$level" "$level" "uci:/usr/games/stockfish" \
        --engine-option UCI_LimitStrength=true --engine-option "UCI_Elo=$level" \
        --engine-option Threads=1 --engine-option Hash=16 ${overhead[@]+"${overhead[@]}"}
done
if [[ -n $fairy_elo ]] && [[ -x /usr/games/fairy-stockfish ]]; then
    anchor "fairy-stockfish-elo-$fairy_elo" "$fairy_elo" "uci:/usr/games/fairy-stockfish" \
        --engine-option UCI_Variant=chess --engine-option UCI_LimitStrength=true \
        --engine-option "UCI_Elo=$fairy_elo" --engine-option Threads=1 --engine-option Hash=16 \
        ${overhead[@]+"${overhead[@]}"}
fi

# One Elo for every stockfish level together: the maximum of the logistic likelihood
# (a draw counts half a win), by Newton's method, and its 95% margin from the Fisher
# information.
if [[ -n $fit ]]; then
    echo "$fit" | awk '{
        n = 0
        for (i = 1; i <= NF; i += 2) {
            split($(i + 1), w, "/")
            lv[n] = $i; sc[n] = w[1] + w[2] / 2; gm[n] = w[1] + w[2] + w[3]; n++
        }
        all = 0; total = 0
        for (i = 0; i < n; i++) { all += sc[i]; total += gm[i] }
        if (all == 0 || all == total) {
            print "crown Elo on this scale: no finite estimate (every game went one way)"
            exit
        }
        k = log(10) / 400; e = 0
        for (i = 0; i < n; i++) e += lv[i] / n
        for (it = 0; it < 100; it++) {
            g = 0; h = 0
            for (i = 0; i < n; i++) {
                p = 1 / (1 + exp(k * (lv[i] - e)))
                g += k * (sc[i] - gm[i] * p); h += k * k * gm[i] * p * (1 - p)
            }
            step = g / h
            if (step > 400) step = 400
            if (step < -400) step = -400
            e += step
            if (step < 0.01 && step > -0.01) break
        }
        printf "crown Elo on this scale (all stockfish levels, logistic fit): %d +/- %d\n", e + 0.5, 1.96 / sqrt(h) + 0.5
    }'
fi
