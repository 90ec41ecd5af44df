#!/usr/bin/env bash
# Benchmark of crown serve (not a test): requests a second and latency percentiles for
# reading a game's state (GET /api/games/ID) with wrk, while AI-against-AI games keep the
# AI workers searching. Goal on the project machine: at least 5,000 requests a second
# with a 99th percentile under 50 ms. Loopback only; the server is stopped at the end.
#   bench/web.sh [SECONDS] [CONNECTIONS]     (default 10 s, 32 connections)
set -eu
cd "$(dirname "$0")/.."
secs=${1:-10}
conns=${2:-32}
command -v wrk >/dev/null || { echo "bench/web.sh needs wrk (apt-get install wrk)" >&2; exit 1; }
make --no-print-directory BUILD=release OUT="${BENCH_OUT:-build/release}" >/dev/null
dir=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$dir"' EXIT
"${BENCH_OUT:-build/release}"/crown serve --port 0 --db "$dir/bench.db" --quiet --rate 10000 >"$dir/out" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q 'http://' "$dir/out" && break; sleep 0.1; done
url=$(grep -o 'http://127.0.0.1:[0-9]*' "$dir/out")
post() { curl -s -X POST "$url/api/games" -H 'content-type: application/json' -d "$1"; }
id_of() { sed -n 's/^{"id":"\([0-9a-f]*\)".*/\1/p'; }
# The game that is read, and two games in which both seats are the strongest AI.
read_id=$(post '{"game":"kings-valley","seats":["human","human"]}' | id_of)
post '{"game":"kings-castle","seats":["ai:10","ai:10"]}' >/dev/null
post '{"game":"kings-guard","seats":["ai:10","ai:10"]}' >/dev/null
sleep 1
echo "crown serve at $url: GET /api/games/$read_id for $secs s over $conns connections, AI thinking"
wrk -t2 -c"$conns" -d"${secs}s" --latency "$url/api/games/$read_id" | tee "$dir/wrk"
rps=$(awk '/^Requests\/sec/ {print $2}' "$dir/wrk")
p99=$(awk '$1 == "99%" {print $2}' "$dir/wrk")
echo "result: $rps requests/s, p99 $p99 (goal: >= 5000/s, p99 < 50ms)"
