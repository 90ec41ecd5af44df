#!/usr/bin/env bash
# Runs every libFuzzer target of one build (BUILD_DIR/fuzz/fuzz_*) for SECONDS each,
# starting from its seed corpus tests/fuzz/corpus/<target>/. New inputs go to a scratch
# directory under the build, never into the committed seeds; a crash, leak or failed
# property leaves its input in BUILD_DIR/fuzz-artifacts/ and makes the script fail.
# Each target is one single-threaded process and is owed SECONDS of one core. All of them
# run at once for SECONDS x targets / CROWN_TEST_JOBS (default: the machine's cores), so
# each gets that share of the cores: five targets on two cores take 2.5 x SECONDS, where
# running two at a time took three rounds with a core idle in the last.
set -u
out=${1:?usage: tools/run-fuzz.sh BUILD_DIR [SECONDS]}
seconds=${2:-30}
cd "$(dirname "$0")/.."
jobs=${CROWN_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}

# One target: its libFuzzer log in BUILD_DIR/fuzz-TARGET.log, "status seconds" in .rc.
fuzz_one() {
    local bin=$1 target=$2 start rc
    local seeds=tests/fuzz/corpus/$target work=$out/fuzz-work/$target
    local artifacts=$out/fuzz-artifacts/$target/
    mkdir -p "$work" "$artifacts"
    start=$(date +%s)
    # -timeout: one input taking this long is a hang; -rss_limit_mb: runaway memory.
    "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$artifacts" -print_final_stats=1 "$work" "$seeds" \
        >"$out/fuzz-$target.log" 2>&1
    rc=$?
    echo "$rc $(($(date +%s) - start))" >"$out/fuzz-$target.rc"
}

targets=() bins=()
for bin in "$out"/fuzz/fuzz_*; do
    [ -x "$bin" ] || continue
    name=$(basename "$bin")
    bins+=("$bin")
    targets+=("${name#fuzz_}")
done
if [ ${#targets[@]} -gt "$jobs" ]; then
    seconds=$(((seconds * ${#targets[@]} + jobs - 1) / jobs))
fi
for i in "${!targets[@]}"; do
    rm -f "$out/fuzz-${targets[$i]}.rc"
    fuzz_one "${bins[$i]}" "${targets[$i]}" &
done
wait

failed=()
passed=0
for target in "${targets[@]}"; do
    rc=1 secs=?
    [ -f "$out/fuzz-$target.rc" ] && read -r rc secs <"$out/fuzz-$target.rc"
    rm -f "$out/fuzz-$target.rc"
    if [ "$rc" -eq 0 ]; then
        status=ok
        passed=$((passed + 1))
    else
        status=FAILED
        failed+=("$target")
        tail -n 40 "$out/fuzz-$target.log"
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/fuzz-$target.log")
    echo "fuzz $target: $status, ${runs:-?} inputs in $secs s (log $out/fuzz-$target.log)"
done
if [ ${#failed[@]} -ne 0 ]; then
    echo "fuzz targets failed: ${failed[*]} (inputs in $out/fuzz-artifacts/)"
fi
# The closing line, in the same form as the test runs' (targets, not inputs).
echo "$out: $passed passed, ${#failed[@]} failed"
[ ${#failed[@]} -eq 0 ]
