#!/usr/bin/env bash
# Checks a solved King's Valley table (crown solve) against an independent search: the
# table's checksum, then random positions whose values lie within alpha-beta's horizon
# (default 100,000 positions, 7 plies; one in ten more drawn from beyond it), each
# searched without the table. Within the horizon the search must find the table's exact
# win or loss in n plies; beyond it, no win or loss at all. About 20 minutes on a quiet
# two-core machine. Not part of `make test` (the tests check reduced games exhaustively).
#   bench/solve-check.sh [TABLE [POSITIONS [DEPTH]]]   (--rule options after them)
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
crown=build/release/crown
need_crown
table=${1:-}
n=${2:-100000}
depth=${3:-7}
shift $(( $# < 3 ? $# : 3 ))
out=()
[ -n "$table" ] && out=(--out "$table")
exec nice -n 5 $crown solve kings-valley "${out[@]}" --check "$n" --depth "$depth" "$@"
