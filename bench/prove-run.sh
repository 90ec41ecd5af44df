#!/usr/bin/env bash
# A run of the proof-number prover on a start nobody has decided (issue 34, part 4), for
# HOURS of this machine, taking up where the last run stopped, on this machine or
# another: bench/prove-runs/GAME.checkpoint.zst keeps the KEEP entries of most work of
# the prover's table as the last run left it (`crown prove --shrink`, zstd), so that the
# runs of several machines add up in the repository. The whole table is kept in
# $CROWN_PROVE_DIR/GAME (default ~/.cache/crown/prove-runs) and taken up instead when it
# is there (a run on the same machine loses nothing). Each run's log is kept beside the
# table; docs/SOLVED.md gives the figures. Not part of `make test`.
#   bench/prove-run.sh GAME HOURS [MEMORY_GB [KEEP]]   (default 4 GB, 131072 entries)
set -eu
cd "$(dirname "$0")/.."
. bench/lib.sh
crown=build/release/crown
need_crown
game=${1:?usage: bench/prove-run.sh GAME HOURS [MEMORY_GB [KEEP]]}
hours=${2:?usage: bench/prove-run.sh GAME HOURS [MEMORY_GB [KEEP]]}
memory=${3:-4}
keep=${4:-131072}
if ! command -v zstd >/dev/null; then
    sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
    $sudo apt-get install -y -qq zstd >/dev/null
fi
kept=bench/prove-runs/$game.checkpoint.zst
dir=${CROWN_PROVE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/crown/prove-runs}/$game
mkdir -p "$dir" bench/prove-runs
if [ ! -f "$dir/prove.checkpoint" ] && [ -f "$kept" ]; then
    echo "taking up $kept"
    zstd -d -q "$kept" -o "$dir/prove.checkpoint"
fi
log=$dir/run-$(date -u +%Y%m%d-%H%M%S).log
echo "prover log: $log (its progress: tail -f)"
# The prover stops at the budget or on SIGINT/SIGTERM (a Ctrl-C reaches it), writing its
# table either way and leaving with status 0, so the script goes on to keep it.
status=0
/usr/bin/time -f "%e s wall, %U s user" -a -o "$log" $crown prove "$game" --memory "$memory" \
    --hours "$hours" --checkpoint "$dir" >>"$log" 2>&1 || status=$?
grep -v '^prove: does' "$log" || true
[ "$status" -eq 0 ] || { echo "prove-run: crown prove failed (status $status), see $log" >&2; exit "$status"; }
$crown prove --shrink "$keep" --checkpoint "$dir" --to "$dir/shrunk"
zstd -19 -q -f "$dir/shrunk/prove.checkpoint" -o "$kept"
rm -r "$dir/shrunk"
echo "$kept: $(stat -c %s "$kept") bytes"
