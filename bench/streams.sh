#!/usr/bin/env bash
# Benchmark of crown serve's event streams (not a test): N streams of one game held open
# (bench/streams.py, two client processes timing arrivals by the kernel's receive
# stamps), moves played through the API, and the time from each acknowledged move to its
# arrival on every stream (p50/p99/max), with the server's memory before and with the
# streams open and the machine's load average. Goal on the project machine: p99 under
# 100 ms with 10,000 streams, also at load 4. Loopback only; the server is stopped at
# the end.
#   bench/streams.sh [--load L] [STREAMS] [MOVES]     (default 10000 streams, 20 moves)
# --load L runs L busy processes at normal priority for the whole run (killed at the end),
# so that "at load 4" can be repeated; the figure is printed with the machine's load
# (the 1-minute average, and the runnable threads of others sampled before each move).
# CROWN=path/to/crown measures another build (before and after a change);
# BENCH_PER_MOVE=1 adds a line per move (its first, median and last arrival).
set -eu
cd "$(dirname "$0")/.."
load=0
if [ "${1:-}" = --load ]; then
    load=${2:?--load needs a number of busy processes}
    shift 2
fi
case $load in *[!0-9]*) echo "--load: not a number: $load" >&2; exit 2;; esac
n=${1:-10000}
moves=${2:-20}
procs=$(( n >= 2000 ? 2 : 1 ))
ulimit -n "$(ulimit -Hn)"
crown=${CROWN:-${BENCH_OUT:-build/release}/crown}
[ -n "${CROWN:-}" ] || make --no-print-directory BUILD=release OUT="${BENCH_OUT:-build/release}" >/dev/null
dir=$(mktemp -d)
pid=
busy=
stop() {
    for p in $busy $pid; do kill "$p" 2>/dev/null || true; done
    for p in $busy $pid; do wait "$p" 2>/dev/null || true; done
    rm -rf "$dir"
}
trap stop EXIT
trap 'exit 130' INT TERM
"$crown" serve --port 0 --db "$dir/bench.db" --quiet --rate 10000 \
    --max-per-ip $((n + 100)) --heads-per-ip $((n + 100)) --max-connections $((n + 200)) \
    --streams-per-ip $((n + 100)) --streams-per-game $((n + 100)) >"$dir/out" 2>&1 &
pid=$!
for _ in $(seq "$load"); do
    (while :; do :; done) &
    busy="$busy $!"
done
for _ in $(seq 100); do grep -q 'http://' "$dir/out" && break; sleep 0.1; done
port=$(grep -o 'http://127.0.0.1:[0-9]*' "$dir/out" | sed 's/.*://')
rss() { awk '/^VmRSS/ {print $2}' "/proc/$pid/status"; }
# The server's CPU time so far (user and system, all threads) in ms.
cpu_ms() { awk -v hz="$(getconf CLK_TCK)" '{print int(($14 + $15) * 1000 / hz)}' "/proc/$pid/stat"; }
echo "crown serve on port $port: $n streams over $procs client processes, $moves moves"
[ "$load" -eq 0 ] || echo "busy processes: $load, pids$busy (ended with the run)"
before=$(rss)
python3 bench/streams.py --port "$port" --streams "$n" --procs "$procs" --moves "$moves" \
    --hold 2 ${BENCH_PER_MOVE:+--per-move} | while IFS= read -r line; do
    case $line in
    pause:*)
        echo "$line"
        echo "server memory: ${before} kB before, $(rss) kB with the streams open"
        cpu_ms >"$dir/cpu0";;
    played:*)
        # The work a move costs the server, whatever the load: what a busier machine
        # changes is only how long the server waits for its share of the cores.
        c0=$(cat "$dir/cpu0")
        c1=$(cpu_ms)
        m=${line#played: }
        m=${m% moves}
        if [ "$m" -gt 0 ]; then echo "server CPU: $(( (c1 - c0) / m )) ms a move ($m moves)"; fi;;
    *) echo "$line";;
    esac
done
echo "load average: $(cut -d" " -f1-3 /proc/loadavg)"
echo "threads of the server: $(ls /proc/$pid/task | wc -l)"
