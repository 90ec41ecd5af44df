#!/bin/sh
# fake-engine.sh MODE - a misbehaving outside engine for the match runner's tests. It
# answers the UCI or UGI handshake, then on `go`: `illegal` sends a move that is never
# legal (a3-a3), `silent` never answers, `exit` exits with status 3; `log FILE` also
# appends every setoption and go line it reads to FILE, then plays as `illegal` does.
mode=${1:?usage: fake-engine.sh illegal|silent|exit|log FILE}
while read -r cmd rest; do
    case "$cmd" in
    setoption|go) [ "$mode" = log ] && echo "$cmd $rest" >> "${2:?log needs a FILE}" ;;
    esac
    case "$cmd" in
    uci) echo "id name fake"; echo "uciok" ;;
    ugi) echo "id name fake"; echo "ugiok" ;;
    isready) echo "readyok" ;;
    go)
        case "$mode" in
        illegal|log) echo "bestmove a3-a3" ;;
        exit) exit 3 ;;
        esac ;;
    quit) exit 0 ;;
    esac
done
