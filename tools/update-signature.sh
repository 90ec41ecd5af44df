#!/usr/bin/env bash
# Rewrites bench/signature from the current release build's `crown bench`: every line but
# the timing (each position's best move, score and nodes, each game's total, the Bench
# line). Run it in the commit that changes search, evaluation or rules behaviour (or
# registers a game), say why, and end the commit message with the new `Bench: N` line.
set -eu
cd "$(dirname "$0")/.."
make --no-print-directory BUILD=release >/dev/null
out=$(build/release/crown bench)
{
    echo "# Expected output of 'crown bench', all but the timing line. The tests compare it"
    echo "# line by line; a change of search, evaluation or rules that alters it must update"
    echo "# this file in the same commit (tools/update-signature.sh) and end its message"
    echo "# with the Bench line."
    echo "$out" | grep -v '^time '
} > bench/signature
grep '^Bench: ' bench/signature
