#!/usr/bin/env bash
# Runs every test binary of one build (build/<variant>/tests/*) with CROWN_BIN pointing
# at that build's crown program, and prints one closing line "N passed, N failed"
# counting test binaries. Exits non-zero if any failed.
set -u
out=${1:?usage: tools/run-tests.sh BUILD_DIR}
cd "$(dirname "$0")/.."
export CROWN_BIN="$PWD/$out/crown"
passed=0
failed=0
failed_names=()
for t in "$out"/tests/test_*; do
    [ -x "$t" ] || continue
    name=$(basename "$t")
    start=$(date +%s%N)
    if "$t"; then
        passed=$((passed + 1))
        status=ok
    else
        failed=$((failed + 1))
        failed_names+=("$name")
        status=FAILED
    fi
    ms=$((($(date +%s%N) - start) / 1000000))
    printf '%s: %s in %d.%03d s (%s)\n' "$name" "$status" $((ms / 1000)) $((ms % 1000)) "$out"
done
if [ $failed -ne 0 ]; then
    echo "failed in $out: ${failed_names[*]}"
fi
echo "$out: $passed passed, $failed failed"
[ $failed -eq 0 ]
