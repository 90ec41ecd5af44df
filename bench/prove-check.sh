#!/usr/bin/env bash
# Holds the proof-number prover against the solved King's Valley tables (issue 34, part
# 3): for kings-valley and retrieve-the-king under both locked-king-loses settings, N
# random positions (default 10,000 each) that the table decides within 15 plies, each
# proven from an empty prover table; every value must be the table's. Needs both full
# tables in the data directory (`crown solve kings-valley`, with and without
# --rule locked-king-loses=off). Not part of `make test`: tests/test_prove.c runs the
# same command on one-soldier tables. docs/SOLVED.md gives the figures.
# Each check logs its positions in $CROWN_CHECK_DIR/GAME-lkl-SETTING (default under
# ~/.cache/crown/prove-check), so that a stopped run takes up where it was.
# CROWN_PROVE_ARGS adds options to every check (the retrieve-the-king figure under
# locked-king-loses=off in docs/SOLVED.md was taken with "--numbers weak --memory 0.0625");
# its checks log in folders of their own, named after them.
#   bench/prove-check.sh [N [SEED [JOBS]]]   (JOBS threads a check, default 2)
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
crown=build/release/crown
need_crown
n=${1:-10000}
seed=${2:-1}
jobs=${3:-2}
extra=${CROWN_PROVE_ARGS:-}
suffix=$(printf '%s' "$extra" | tr -cs 'a-z0-9.' '-' | sed 's/^-*//; s/-*$//')
logs=${CROWN_CHECK_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/crown/prove-check}
mkdir -p "$logs"
status=0
for lkl in on off; do
    for game in kings-valley retrieve-the-king; do
        echo "== $game, locked-king-loses=$lkl"
        # Retrieve the King is King's Valley from another start: the one table and the
        # same seed would draw the very same positions, so it takes the next seed.
        s=$seed
        [ "$game" = retrieve-the-king ] && s=$((seed + 1))
        /usr/bin/time -f "%e s wall, %U s user" nice -n 5 $crown prove "$game" --check "$n" \
            --seed "$s" --jobs "$jobs" --rule "locked-king-loses=$lkl" \
            --checkpoint "$logs/$game-lkl-$lkl-$n-seed-$s${suffix:+-$suffix}" $extra || status=1
    done
done
exit $status
