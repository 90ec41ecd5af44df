#!/usr/bin/env bash
# One command that makes a game's evaluation network from nothing (issue 33, part 2):
# self-play data from `crown tune --generate`, the positions as input features from
# `crown nnue --features`, then tools/nnue/train.py, which writes nets/GAME.nnue and the
# record beside it (nets/GAME.txt). Each game's recipe (below) is the one its newest net
# was made with, or the one docs/TRAINING.md recommends; the data depends only on the
# recipe and its seed, not on the machine or --jobs, so the same recipe gives the same
# data file (its SHA-256 goes in the record) and, with the same torch, the same net.
# The data is kept outside the repository and taken up again when its recipe has not
# changed, so that retraining with other trainer options (after --) costs no self-play.
#
#   tools/nnue/make-net.sh GAME [--games N] [--jobs J] [--data DIR] [--out NET] [--minutes M]
#       [-- TRAIN-OPTIONS]
#
# Needs build/release/crown (make) and Debian's python3-torch. CPU only; on a shared
# machine run it under nice. docs/TRAINING.md says how to test the net it writes.
set -eu -o pipefail
cd "$(dirname "$0")/../.."
usage="usage: tools/nnue/make-net.sh GAME [--games N] [--jobs J] [--data DIR] [--out NET] [--minutes M] [-- TRAIN-OPTIONS]"
game=${1:?$usage}
shift
crown=build/release/crown

# The recipes: self-play (games, the seats' depth, the nodes of each position's score,
# seed) and training (feature set, chance scale, lambda, epochs, shared weights).
case $game in
king-down)
    games=4859 depth=2 score=10000 seed=21
    set_=kd-piece-square-power-1 scale=459 lam=1.0 epochs=12 fac=64:1408 ;;
kings-castle)
    games=8550 depth=2 score=10000 seed=21
    set_=kc-man-cell-1 scale=195 lam=1.0 epochs=12 fac=121:242 ;;
kings-guard)
    games=5000 depth=2 score=5000 seed=1
    set_=kg-piece-level-9x10-1 scale=1356 lam=0.7 epochs=10 fac=90:1800 ;;
kings-guard-8x8)
    games=6000 depth=2 score=5000 seed=1
    set_=kg-piece-level-8x8-1 scale=827 lam=0.7 epochs=10 fac=64:1024 ;;
kings-valley-7x7)
    games=2000 depth=2 score=5000 seed=1
    set_=kv-7x7-man-square-1 scale=42 lam=1.0 epochs=12 fac= ;;
kings-valley-labyrinth)
    games=26450 depth=4 score=20000 seed=21
    set_=kv-labyrinth-man-square-1 scale=32 lam=1.0 epochs=12 fac= ;;
*)
    echo "make-net: no recipe for '$game' (king-down, kings-castle, kings-guard," \
        "kings-guard-8x8, kings-valley-7x7, kings-valley-labyrinth)" >&2
    exit 2 ;;
esac

jobs=2
minutes=
data=${XDG_CACHE_HOME:-$HOME/.cache}/crown/nnue-data/$game
out=nets/$game.nnue
while [ $# -gt 0 ]; do
    case $1 in
    --games) games=${2:?$usage}; shift 2 ;;
    --jobs) jobs=${2:?$usage}; shift 2 ;;
    --data) data=${2:?$usage}; shift 2 ;;
    --out) out=${2:?$usage}; shift 2 ;;
    --minutes) minutes=${2:?$usage}; shift 2 ;;
    --) shift; break ;;
    *) echo "make-net: unknown option '$1'" >&2; echo "$usage" >&2; exit 2 ;;
    esac
done
case $games in '' | *[!0-9]*) echo "make-net: --games wants a number, not '$games'" >&2; exit 2 ;; esac
case $minutes in *[!0-9]*) echo "make-net: --minutes wants a number, not '$minutes'" >&2; exit 2 ;; esac
[ -x "$crown" ] || { echo "make-net: $crown is missing: run make first" >&2; exit 1; }
/usr/bin/python3 -c "import torch" 2>/dev/null ||
    { echo "make-net: /usr/bin/python3 has no torch: apt-get install python3-torch" >&2; exit 1; }

mkdir -p "$data"
# Every net's data so far were played and scored with the hand evaluation: --eval classic
# keeps them so once a net is its game's default.
gen_args=(tune "$game" --generate "$games" --depth "$depth" --per-game 0 --score-nodes "$score"
    --seed "$seed" --eval classic)
asked="crown ${gen_args[*]}${minutes:+, stopped after $minutes minutes}"
if [ -f "$data/data.txt" ] && [ "$(head -1 "$data/recipe" 2>/dev/null)" = "$asked" ]; then
    echo "make-net: taking up the data of '$asked' in $data"
else
    rm -f "$data/recipe" "$data/data.txt"
    echo "make-net: self-play, $asked, --jobs $jobs (progress below)"
    # A Ctrl-C stops crown after a whole game; the script stops then too, leaving the
    # games played in data.part (under another name, so that they never pass for the
    # recipe's). --minutes stops it so on purpose, and what was played is the data.
    trap 'interrupted=1' INT
    interrupted=0
    limit=()
    [ -z "$minutes" ] || limit=(timeout --preserve-status --signal=TERM "$((minutes * 60))")
    "${limit[@]}" "$crown" "${gen_args[@]}" --jobs "$jobs" --out "$data/data.part" |
        tee -i "$data/generate.log"
    trap - INT
    if [ "$interrupted" = 1 ]; then
        echo "make-net: stopped; the games played so far are in $data/data.part" >&2
        exit 130
    fi
    played=$(sed -n 's/^stopped: the first \([0-9]*\) games.*/\1/p' "$data/generate.log")
    [ -n "$played" ] || played=$games
    mv "$data/data.part" "$data/data.txt"
    # The first line is what was asked (compared when the script is run again); the
    # second what the data is, the same as --generate of the games played.
    made_args=("${gen_args[@]}")
    made_args[3]=$played # the number after --generate
    printf '%s\n%s\n' "$asked" "crown ${made_args[*]}" >"$data/recipe"
fi
made=$(sed -n 2p "$data/recipe")
$crown nnue "$game" --features "$data/data.txt" --out "$data/features.txt"
hash=$(sha256sum "$data/data.txt" | cut -c1-64)
/usr/bin/python3 tools/nnue/train.py --features "$data/features.txt" --game "$game" \
    --feature-set "$set_" --out "$out" --epochs "$epochs" --lam "$lam" --scale "$scale" \
    --seed 1 ${fac:+--factorise "$fac"} --data-hash "$hash" \
    --command "tools/nnue/make-net.sh $game${minutes:+ --minutes $minutes}: $made" "$@"
rm -f "$data/features.txt"
echo "make-net: $out written; test it as docs/TRAINING.md says (make python-check, crown sprt)"
