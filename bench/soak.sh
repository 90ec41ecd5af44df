#!/usr/bin/env bash
# Soak of crown serve (not a test): mixed traffic for a set time (bench/soak.py): honest
# players creating games and moving, AI games, watchers on event streams, and two abusing
# addresses (127.0.0.2, .3) flooding creates and streams. Reports requests served, the
# answers by kind, the server's memory every 10 s and the honest players' p99 latency.
#   bench/soak.sh [SECONDS] [HONEST_PLAYERS]     (default 60 s, 8 players)
# CROWN=path/to/crown measures another build (before and after a change).
set -eu
cd "$(dirname "$0")/.."
secs=${1:-60}
players=${2:-8}
ulimit -n "$(ulimit -Hn)"
crown=${CROWN:-${BENCH_OUT:-build/release}/crown}
[ -n "${CROWN:-}" ] || make --no-print-directory BUILD=release OUT="${BENCH_OUT:-build/release}" >/dev/null
dir=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$dir"' EXIT
# The server's own defaults: the limits under test are the ones a site would run with.
"$crown" serve --port 0 --db "$dir/soak.db" --quiet >"$dir/out" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q 'http://' "$dir/out" && break; sleep 0.1; done
port=$(grep -o 'http://127.0.0.1:[0-9]*' "$dir/out" | sed 's/.*://')
echo "crown serve on port $port: $secs s of mixed traffic, $players honest players"
python3 bench/soak.py --port "$port" --pid "$pid" --seconds "$secs" --honest "$players"
