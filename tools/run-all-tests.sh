#!/usr/bin/env bash
# The body of `make test`: runs each part in a temporary folder of its own (TMPDIR),
# so a run leaves nothing in the system's temporary folder, then fails if any part left
# a file there, prints each part's wall and CPU time, and closes with the parts' summed
# "N passed, N failed" line (the line CI's reader looks for).
set -u
cd "$(dirname "$0")/.." || exit 1
make=${MAKE:-make}
# Builds compile one file a job on every core; the test runners share the cores out too.
jobs=$(nproc 2>/dev/null || echo 1)
fuzz_seconds=${1:-20}
run_tmp=$(mktemp -d "${TMPDIR:-/tmp}/crown-test-XXXXXX")
# Parts running as root hand folders to nobody (PostgreSQL); nobody must pass through.
chmod 711 "$run_tmp"
export TMPDIR="$run_tmp"
# What a user keeps in the data directory (a solved King's Valley table, crown.db) must
# not change what a test sees: every part looks in an empty one (a test that wants a
# table makes its own). Outside TMPDIR, whose emptiness is checked below.
data_home=$(mktemp -d "${run_tmp%/*}/crown-data-XXXXXX")
export XDG_DATA_HOME="$data_home"
logdir=build/test-logs
mkdir -p "$logdir"
run_start=$(date +%s%N)

names=() walls=() cpus=() results=()
total_passed=0 total_failed=0
# One part: its output to build/test-logs/NAME.log (and to the terminal when $show), then
# "wall_ms cpu_ms passed failed rc" to NAME.result. Run in a subshell of its own (part),
# whose finished children's CPU is the part's alone.
run_part() {
    local show=$1 name=$2; shift 2
    local log="$logdir/$name.log" start end t0 t1 rc line p f
    # The part's own shell: a command substitution's $BASHPID would be its own.
    local self=$BASHPID
    start=$(date +%s%N)
    t0=$(awk '{print $14+$15+$16+$17}' /proc/$self/stat)
    if [ "$show" = yes ]; then
        "$@" 2>&1 | tee "$log"
        rc=${PIPESTATUS[0]}
    else
        "$@" >"$log" 2>&1
        rc=$?
    fi
    end=$(date +%s%N)
    # Children's CPU is counted once they are waited for: user+sys of finished children.
    t1=$(awk '{print $14+$15+$16+$17}' /proc/$self/stat)
    line=$(grep -Eo '[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    if [ -n "$line" ]; then
        p=${line%% passed*}; f=${line#*, }; f=${f%% failed*}
    else
        p=$((rc == 0)); f=$((rc != 0))
    fi
    [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
    echo "$(((end - start) / 1000000)) $(((t1 - t0) * 1000 / $(getconf CLK_TCK))) $p $f $rc" \
        >"$logdir/$name.result"
}
# Adds a finished part's row to the table and its counts to the totals.
collect() {
    local name=$1 wall cpu p f rc
    read -r wall cpu p f rc <"$logdir/$name.result"
    rm -f "$logdir/$name.result"
    names+=("$name"); walls+=("$wall"); cpus+=("$cpu")
    total_passed=$((total_passed + p)); total_failed=$((total_failed + f))
    results+=("$([ "$rc" -eq 0 ] && echo ok || echo FAILED)")
}
part() {
    (run_part yes "$@")
    collect "$1"
}
part layering tools/check-layering.sh
part architecture tools/check-architecture.sh
part docs tools/check-docs.sh
part release-check "$make" -j"$jobs" --no-print-directory BUILD=release check
# The sanitizer build is clang's (the Makefile's default for BUILD=asan), the release
# build gcc's: each compiler compiles everything once, with warnings as errors.
part asan-check "$make" -j"$jobs" --no-print-directory BUILD=asan check
# The API tests wait on clocks and servers more than they compute (about one core
# busy), so the builds of the parts after them are compiled meanwhile, at the lowest
# priority so as not to slow a timed answer. A part whose build is
# not done, or failed, builds it itself (and shows the errors): the prebuild only warms
# the folders, and is waited for before they are used.
prebuild() {
    nice -n 19 "$make" -j"$jobs" --no-print-directory BUILD=debug \
        build/debug/tests/test_search build/debug/tests/test_contract &&
        nice -n 19 "$make" -j"$jobs" --no-print-directory BUILD=tsan build/tsan/crown &&
        nice -n 19 "$make" -j"$jobs" --no-print-directory BUILD=asan CC=clang fuzz-targets
}
prebuild >"$logdir/prebuild.log" 2>&1 &
prebuild_pid=$!
# The API and cluster tests run under the sanitizers (here and, the API tests, under
# ThreadSanitizer below), not again in the release build: the release server is the one
# the browser tests drive, and the sanitizers see more than a second run would (that
# second run took 115 s of the test command's 23 minutes).
part asan-web "$make" -j"$jobs" --no-print-directory BUILD=asan web-check WEB_TESTS="api cluster"
# The browser tests keep both cores busy (Chromium, four files at a time): they run
# alone. The fuzzers are owed their seconds of wall time, and beside four browser files
# they got a quarter of the inputs they get alone (measured: 45,114 inputs of fuzz_move
# in 183 s there, 202,485 in 92 s beside idle pages), so they run after them.
wait "$prebuild_pid"
part release-e2e "$make" -j"$jobs" --no-print-directory BUILD=release web-check WEB_TESTS=e2e
# The Python module's tests (about one core, half of it building the module) beside the
# fuzzers, which take their seconds of wall time whatever their share of the cores.
(run_part no python "$make" -j"$jobs" --no-print-directory BUILD=release python-check) &
python_pid=$!
part fuzz "$make" -j"$jobs" --no-print-directory fuzz-smoke FUZZ_SECONDS="$fuzz_seconds"
wait "$python_pid"
cat "$logdir/python.log"
collect python
# The ThreadSanitizer API tests time the server's answers: they keep about one core
# busy (measured: 165 s of CPU in 144 s), so three parts that time nothing use the other
# at the lowest priority: cppcheck (one file at a time), a copy of the tree built again
# for one game, and the search and contract tests in the debug build with every state
# checked (without the search tests' wall-clock bounds). Their logs are shown whole, in
# this order, when all are done. (The fuzzers there once slowed a move past a
# keep-alive's second, when every AI move still cleared a 16 MiB table.)
(run_part no lint nice -n 19 "$make" -j"$jobs" --no-print-directory lint) &
lint_pid=$!
(run_part no new-game nice -n 19 tests/new-game.sh build/release) &
new_game_pid=$!
(run_part no debug-invariants nice -n 19 "$make" -j"$jobs" --no-print-directory \
    BUILD=debug check-invariants) &
invariants_pid=$!
part tsan-web "$make" -j"$jobs" --no-print-directory BUILD=tsan web-check WEB_TESTS=api
wait "$lint_pid" "$new_game_pid" "$invariants_pid"
for name in lint new-game debug-invariants; do
    cat "$logdir/$name.log"
    collect "$name"
done

left=$(find "$run_tmp" -mindepth 1 -maxdepth 1)
if [ -n "$left" ]; then
    echo "the test run left files in its temporary folder $run_tmp:"
    echo "$left"
    total_failed=$((total_failed + 1))
fi
rm -rf "$run_tmp" "$data_home"

echo
secs() { printf '%d.%d' $(($1 / 1000)) $(($1 % 1000 / 100)); }
printf '%-18s %9s %9s  %s\n' part 'wall s' 'cpu s' result
tc=0
for i in "${!names[@]}"; do
    printf '%-18s %9s %9s  %s\n' "${names[$i]}" "$(secs "${walls[$i]}")" \
        "$(secs "${cpus[$i]}")" "${results[$i]}"
    tc=$((tc + cpus[i]))
done
# Parts run beside others overlap: the total is the run's own wall time.
tw=$((($(date +%s%N) - run_start) / 1000000))
printf '%-18s %9s %9s\n' total "$(secs $tw)" "$(secs $tc)"
echo "make test: $total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ]
