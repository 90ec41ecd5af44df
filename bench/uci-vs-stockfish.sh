#!/usr/bin/env bash
# One game of `crown uci` against Debian's stockfish, each driven through UCI by this
# script (crown white unless --black), to show that crown plays as a UCI engine: every
# move one side sends must be accepted by the other. A second `crown uci` referees: it
# says when the game is over (mate, stalemate, repetition, fifty moves). Prints the
# moves, then the result. Not part of `make test` (a game takes a minute or more):
#   bench/uci-vs-stockfish.sh [--movetime MS] [--skill 0..20] [--black] [--max-plies N]
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
crown=${CROWN:-build/release/crown}
need_crown
need_stockfish "as the opponent"
movetime=200 skill=0 crown_side=0 max_plies=300
while [ $# -gt 0 ]; do
    case "$1" in
    --movetime) movetime=$2; shift 2 ;;
    --skill) skill=$2; shift 2 ;;
    --black) crown_side=1; shift ;;
    --max-plies) max_plies=$2; shift 2 ;;
    *) echo "usage: $0 [--movetime MS] [--skill 0..20] [--black] [--max-plies N]" >&2; exit 2 ;;
    esac
done

coproc CROWN { "$crown" uci; }
coproc SF { /usr/games/stockfish; }
coproc REF { "$crown" uci; }

# send FD-IN TEXT; wait FD-OUT WORD: the first line that starts with WORD, into $reply.
send() { printf '%s\n' "$2" >&"$1"; }
wait_for() {
    local line
    while IFS= read -r -u "$1" line; do
        case "$line" in "$2"*) reply=$line; return 0 ;; esac
        case "$line" in "info string error"*) echo "$3: $line" >&2 ;; esac
    done
    echo "$3 stopped answering" >&2
    exit 1
}
send "${CROWN[1]}" uci; wait_for "${CROWN[0]}" uciok crown
send "${SF[1]}" uci; wait_for "${SF[0]}" uciok stockfish
send "${SF[1]}" "setoption name Skill Level value $skill"
for e in CROWN SF; do
    declare -n io=$e
    send "${io[1]}" ucinewgame; send "${io[1]}" isready; wait_for "${io[0]}" readyok "$e"
done

moves="" ply=0 result=""
while [ $ply -lt "$max_plies" ]; do
    # The referee: a finished game has no move (bestmove 0000).
    send "${REF[1]}" "position startpos moves$moves"
    send "${REF[1]}" "go depth 1"
    wait_for "${REF[0]}" bestmove referee
    if [ "$reply" = "bestmove 0000" ]; then
        result="game over after $ply plies"
        break
    fi
    if [ $((ply % 2)) -eq $crown_side ]; then who=crown; declare -n io=CROWN
    else who=stockfish; declare -n io=SF; fi
    send "${io[1]}" "position startpos moves$moves"
    send "${io[1]}" "go movetime $movetime"
    wait_for "${io[0]}" bestmove "$who"
    move=${reply#bestmove }; move=${move%% *}
    moves="$moves $move"
    ply=$((ply + 1))
    printf '%d. %s %s\n' "$(((ply + 1) / 2))" "$who" "$move"
done
[ -n "$result" ] || result="stopped at $max_plies plies"
# The side to move in a finished game was mated, stalemated or drawn: stockfish's
# evaluation of the final position tells which.
send "${SF[1]}" "position startpos moves$moves"
send "${SF[1]}" "go depth 1"
wait_for "${SF[0]}" bestmove stockfish
last=$reply
echo "result: $result; stockfish on the final position: $last"
echo "moves:$moves"
for e in CROWN SF REF; do declare -n io=$e; send "${io[1]}" quit; done
wait
