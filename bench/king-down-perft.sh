#!/usr/bin/env bash
# King Down against the published chess perft numbers, to the published depths, and
# against Debian's stockfish running "go perft" on the same positions to the same depths
# (issue 6). The chess rules are King Down with setup=classic castling=on en-passant=on
# promotion=classic. Prints, per position, crown's count (checked against the Chess
# Programming Wiki "Perft Results" page), crown's and stockfish's speed and their ratio,
# then the search speed of crown's alpha-beta on the chess start position.
# Not part of `make test` (the deep counts take seconds to minutes):
#   bench/king-down-perft.sh            uses build/release/crown
#   CROWN=build/kd/crown bench/king-down-perft.sh
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
crown=${CROWN:-build/release/crown}
need_crown
need_stockfish "for the perft reference"
rules=(--rule setup=classic --rule castling=on --rule en-passant=on --rule promotion=classic)

# name | FEN | depth | published count (Chess Programming Wiki, "Perft Results")
positions=(
    "start|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1|6|119060324"
    "kiwipete|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|5|193690690"
    "position 3|8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1|5|674624"
    "position 4|r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1|5|15833292"
    "position 5|rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8|5|89941194"
    "position 6|r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10|5|164075551"
)

# Stockfish prints no speed for perft: time it, less its start-up (a perft 1 run).
sf_seconds() {
    local fen=$1 depth=$2 t0 t1 t2
    t0=$(date +%s%N)
    printf 'position fen %s\ngo perft %s\nquit\n' "$fen" "$depth" | /usr/games/stockfish >/dev/null
    t1=$(date +%s%N)
    printf 'position fen %s\ngo perft 1\nquit\n' "$fen" | /usr/games/stockfish >/dev/null
    t2=$(date +%s%N)
    awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN { printf "%.6f\n", ((b - a) - (c - b)) / 1e9 }'
}

printf '%-11s %5s %12s %6s %9s %9s %9s %7s\n' position depth count ok \
    "crown s" "sf s" "crown M/s" ratio
fail=0
total_crown=0
total_sf=0
total_nodes=0
for entry in "${positions[@]}"; do
    IFS='|' read -r name fen depth want <<<"$entry"
    out=$("$crown" perft king-down "$depth" "${rules[@]}" --position "$fen")
    got=$(echo "$out" | awk -v d="$depth" '$1 == "perft" && $2 == d { print $3 }')
    # crown's time covers depths 1..D; count the same leaves for both programs.
    secs=$(echo "$out" | awk '/^time/ { print $2 }')
    sf=$(sf_seconds "$fen" "$depth")
    ok=yes
    [ "$got" = "$want" ] || { ok=NO; fail=1; }
    awk -v n="$name" -v d="$depth" -v g="$got" -v ok="$ok" -v c="$secs" -v s="$sf" -v w="$want" \
        'BEGIN { printf "%-11s %5d %12s %6s %9.3f %9.3f %9.1f %7.2f\n", n, d, g, ok, c, s, w / c / 1e6, s / c }'
    total_crown=$(awk -v a="$total_crown" -v b="$secs" 'BEGIN { print a + b }')
    total_sf=$(awk -v a="$total_sf" -v b="$sf" 'BEGIN { print a + b }')
    total_nodes=$((total_nodes + want))
done
awk -v c="$total_crown" -v s="$total_sf" -v n="$total_nodes" 'BEGIN {
    printf "all six: crown %.2f s (%.1f M leaves/s), stockfish %.2f s (%.1f M leaves/s)\n", c, n / c / 1e6, s, n / s / 1e6
    printf "perft ratio crown/stockfish: %.2fx (goal >= 0.5x)\n", s / c }'

echo "== search speed (alpha-beta, chess start position and a drawn set-up, 3 s each)"
for setup in classic 4321987; do
    "$crown" analyze king-down --rule setup=$setup --movetime 3000 |
        awk -v s="$setup" '/^depth/ { printf "setup=%s: depth %s, %s nodes in %s ms = %.2f M nodes/s\n", s, $2, $4, $6, $4 / $6 / 1000 }'
done
if [ $fail -ne 0 ]; then
    echo "PERFT MISMATCH: see the ok column"
    exit 1
fi
