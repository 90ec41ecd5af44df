#!/usr/bin/env bash
# Benchmark of crown serve's event streams (not a test): N streams of one game held open
# (bench/streams.py, two client processes timing arrivals by the kernel's receive
# stamps), moves played through the API, and the time from each acknowledged move to its
# arrival on every stream (p50/p99/max), with the server's memory before and with the
# streams open and the machine's load average. Goal on the project machine: p99 under
# 100 ms with 10,000 streams. Loopback only; the server is stopped at the end.
#   bench/streams.sh [STREAMS] [MOVES]     (default 10000 streams, 20 moves)
# CROWN=path/to/crown measures another build (before and after a change).
set -eu
cd "$(dirname "$0")/.."
n=${1:-10000}
moves=${2:-20}
procs=$(( n >= 2000 ? 2 : 1 ))
ulimit -n "$(ulimit -Hn)"
crown=${CROWN:-${BENCH_OUT:-build/release}/crown}
[ -n "${CROWN:-}" ] || make --no-print-directory BUILD=release OUT="${BENCH_OUT:-build/release}" >/dev/null
dir=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; rm -rf "$dir"' EXIT
"$crown" serve --port 0 --db "$dir/bench.db" --quiet --rate 10000 \
    --max-per-ip $((n + 100)) --heads-per-ip $((n + 100)) --max-connections $((n + 200)) \
    --streams-per-ip $((n + 100)) --streams-per-game $((n + 100)) >"$dir/out" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q 'http://' "$dir/out" && break; sleep 0.1; done
port=$(grep -o 'http://127.0.0.1:[0-9]*' "$dir/out" | sed 's/.*://')
rss() { awk '/^VmRSS/ {print $2}' "/proc/$pid/status"; }
echo "crown serve on port $port: $n streams over $procs client processes, $moves moves"
before=$(rss)
python3 bench/streams.py --port "$port" --streams "$n" --procs "$procs" --moves "$moves" \
    --hold 2 | while IFS= read -r line; do
    echo "$line"
    case $line in pause:*) echo "server memory: ${before} kB before, $(rss) kB with the streams open";; esac
done
echo "load average: $(cut -d" " -f1-3 /proc/loadavg)"
echo "threads of the server: $(ls /proc/$pid/task | wc -l)"
