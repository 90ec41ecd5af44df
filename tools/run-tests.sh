#!/usr/bin/env bash
# Runs every test binary of one build (build/<variant>/tests/*) with CROWN_BIN pointing
# at that build's crown program, and prints one closing line "N passed, N failed"
# counting test binaries. Exits non-zero if any failed.
#
# The binaries are independent processes, so they run CROWN_TEST_JOBS at a time (default:
# the machine's cores), the longest first; each one's output is held back and printed
# whole, in name order, so a failure reads the same as in a serial run.
set -u
out=${1:?usage: tools/run-tests.sh BUILD_DIR}
cd "$(dirname "$0")/.."
export CROWN_BIN="$PWD/$out/crown"
jobs=${CROWN_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
logs=$(mktemp -d "${TMPDIR:-/tmp}/crown-tests-XXXXXX")
trap 'rm -rf "$logs"' EXIT

names=()
for t in "$out"/tests/test_*; do
    [ -x "$t" ] && names+=("$(basename "$t")")
done
# The longest binaries start first, so that the last to finish is not a long one started
# late (in the sanitizer build test_cli alone is a quarter of the CPU time): the rest
# follow in name order. Longest first, as measured in the sanitizer build.
slow=(test_cli test_prove test_contract test_king_down_perft test_kv_perft test_search)
order=()
for name in "${slow[@]}"; do
    [ -x "$out/tests/$name" ] && order+=("$name")
done
for name in "${names[@]}"; do
    [[ " ${slow[*]} " == *" $name "* ]] || order+=("$name")
done

# One test: its output to logs/NAME.out, then "status ms" to logs/NAME.rc.
run_one() {
    local name=$1 start rc
    start=$(date +%s%N)
    "$out/tests/$name" >"$logs/$name.out" 2>&1
    rc=$?
    echo "$rc $((($(date +%s%N) - start) / 1000000))" >"$logs/$name.rc"
}

running=0
for name in "${order[@]}"; do
    if [ "$running" -ge "$jobs" ]; then
        wait -n
        running=$((running - 1))
    fi
    run_one "$name" &
    running=$((running + 1))
done
wait

passed=0
failed=0
failed_names=()
for name in "${names[@]}"; do
    cat "$logs/$name.out"
    read -r rc ms <"$logs/$name.rc"
    if [ "$rc" -eq 0 ]; then
        passed=$((passed + 1))
        status=ok
    else
        failed=$((failed + 1))
        failed_names+=("$name")
        status=FAILED
    fi
    printf '%s: %s in %d.%03d s (%s)\n' "$name" "$status" $((ms / 1000)) $((ms % 1000)) "$out"
done
if [ $failed -ne 0 ]; then
    echo "failed in $out: ${failed_names[*]}"
fi
echo "$out: $passed passed, $failed failed"
[ $failed -eq 0 ]
