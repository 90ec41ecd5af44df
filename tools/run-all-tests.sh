#!/usr/bin/env bash
# The body of `make test`: runs each part in a temporary folder of its own (TMPDIR),
# so a run leaves nothing in the system's temporary folder, then fails if any part left
# a file there, prints each part's wall and CPU time, and closes with the parts' summed
# "N passed, N failed" line (the line CI's reader looks for).
set -u
cd "$(dirname "$0")/.."
make=${MAKE:-make}
# Builds compile one file a job on every core; the test runners share the cores out too.
jobs=$(nproc 2>/dev/null || echo 1)
fuzz_seconds=${1:-36}
run_tmp=$(mktemp -d "${TMPDIR:-/tmp}/crown-test-XXXXXX")
# Parts running as root hand folders to nobody (PostgreSQL); nobody must pass through.
chmod 711 "$run_tmp"
export TMPDIR="$run_tmp"
logdir=build/test-logs
mkdir -p "$logdir"

names=() walls=() cpus=() results=()
total_passed=0 total_failed=0
part() {
    local name=$1; shift
    local log="$logdir/$name.log" start end t0 t1 rc
    start=$(date +%s%N)
    t0=$(awk '{print $14+$15+$16+$17}' /proc/$$/stat)
    "$@" 2>&1 | tee "$log"
    rc=${PIPESTATUS[0]}
    end=$(date +%s%N)
    # Children's CPU is counted once they are waited for: user+sys of finished children.
    t1=$(awk '{print $14+$15+$16+$17}' /proc/$$/stat)
    names+=("$name")
    walls+=("$(((end - start) / 1000000))")
    cpus+=("$(((t1 - t0) * 1000 / $(getconf CLK_TCK)))")
    local line p f
    line=$(grep -Eo '[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    if [ -n "$line" ]; then
        p=${line%% passed*}; f=${line#*, }; f=${f%% failed*}
    else
        p=$((rc == 0)); f=$((rc != 0))
    fi
    [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
    total_passed=$((total_passed + p)); total_failed=$((total_failed + f))
    results+=("$([ "$rc" -eq 0 ] && echo ok || echo FAILED)")
}

part layering tools/check-layering.sh
part architecture tools/check-architecture.sh
part docs tools/check-docs.sh
part lint "$make" -j"$jobs" --no-print-directory lint
part release-check "$make" -j"$jobs" --no-print-directory BUILD=release check
part new-game tests/new-game.sh build/release
part python "$make" -j"$jobs" --no-print-directory BUILD=release python-check
# The sanitizer build is clang's (the Makefile's default for BUILD=asan), the release
# build gcc's: each compiler compiles everything once, with warnings as errors.
part asan-check "$make" -j"$jobs" --no-print-directory BUILD=asan check
# The web parts wait on pages, clocks and servers more than they compute, so the builds of
# the parts after them are compiled meanwhile, at the lowest priority so as not to slow a
# timed answer. A part whose build is not done, or failed, builds it itself (and shows
# the errors): the prebuild only warms the folders, and is waited for before they are used.
prebuild() {
    nice -n 19 "$make" -j"$jobs" --no-print-directory BUILD=debug \
        build/debug/tests/test_search build/debug/tests/test_contract &&
        nice -n 19 "$make" -j"$jobs" --no-print-directory BUILD=tsan build/tsan/crown &&
        nice -n 19 "$make" -j"$jobs" --no-print-directory BUILD=fuzz fuzz-targets
}
prebuild >"$logdir/prebuild.log" 2>&1 &
prebuild_pid=$!
part asan-web "$make" -j"$jobs" --no-print-directory BUILD=asan web-check WEB_TESTS="api cluster"
part release-web "$make" -j"$jobs" --no-print-directory BUILD=release web-check
wait "$prebuild_pid"
part debug-invariants "$make" -j"$jobs" --no-print-directory BUILD=debug check-invariants
part tsan-web "$make" -j"$jobs" --no-print-directory BUILD=tsan web-check WEB_TESTS=api
part fuzz "$make" -j"$jobs" --no-print-directory fuzz FUZZ_SECONDS="$fuzz_seconds"

left=$(find "$run_tmp" -mindepth 1 -maxdepth 1)
if [ -n "$left" ]; then
    echo "the test run left files in its temporary folder $run_tmp:"
    echo "$left"
    total_failed=$((total_failed + 1))
fi
rm -rf "$run_tmp"

echo
secs() { printf '%d.%d' $(($1 / 1000)) $(($1 % 1000 / 100)); }
printf '%-18s %9s %9s  %s\n' part 'wall s' 'cpu s' result
tw=0 tc=0
for i in "${!names[@]}"; do
    printf '%-18s %9s %9s  %s\n' "${names[$i]}" "$(secs "${walls[$i]}")" \
        "$(secs "${cpus[$i]}")" "${results[$i]}"
    tw=$((tw + walls[i])); tc=$((tc + cpus[i]))
done
printf '%-18s %9s %9s\n' total "$(secs $tw)" "$(secs $tc)"
echo "make test: $total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ]
