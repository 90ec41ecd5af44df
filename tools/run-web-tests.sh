#!/usr/bin/env bash
# Runs the web tests of one build against its crown program: the JSON API and limits
# tests (api), the browser tests in headless Chromium (e2e) and several processes on one
# PostgreSQL database behind HAProxy (cluster), with node's test runner, and prints
# one closing line "<build>/web: N passed, N failed" counting tests. Installs what the
# browser tests need (Chromium, playwright-core) first when it is missing.
#   tools/run-web-tests.sh build/release api e2e cluster
set -u
out=${1:?usage: tools/run-web-tests.sh BUILD_DIR [api] [e2e] [cluster]}
shift
cd "$(dirname "$0")/.."
[ $# -eq 0 ] && set -- api e2e cluster
serial=() paired=() browser=()
for suite in "$@"; do
    case $suite in
    api)
        # Files that time the server's answers (a read while an AI thinks, lock-outs,
        # slow clients, clocks, offers expiring) run alone; the others two at a time, the
        # longest first. The mail file mostly waits on its retries and a flag (timed in
        # seconds of --day-seconds, not in milliseconds): it runs beside the others.
        serial+=(tests/web/api.test.mjs tests/web/accounts.test.mjs tests/web/passkeys-api.test.mjs tests/web/offers.test.mjs tests/web/limits.test.mjs tests/web/slowloris.test.mjs tests/web/clock.test.mjs)
        paired+=(tests/web/mail.test.mjs tests/web/tournaments.test.mjs tests/web/review-api.test.mjs tests/web/analysis-api.test.mjs tests/web/import-api.test.mjs tests/web/finish.test.mjs
                 tests/web/lab-api.test.mjs tests/web/bench.test.mjs tests/web/i18n.test.mjs
                 tests/web/puzzle-ratings.test.mjs tests/web/ratings.test.mjs)
        ;;
    e2e)
        # The longest files first, so that none starts late and runs alone at the end.
        browser+=(tests/web/e2e.test.mjs tests/web/learn.test.mjs tests/web/comeback.test.mjs tests/web/analysis.test.mjs tests/web/review.test.mjs tests/web/languages.test.mjs tests/web/seeks.test.mjs tests/web/lab.test.mjs tests/web/solution.test.mjs tests/web/fixes.test.mjs tests/web/reconnect.test.mjs tests/web/words.test.mjs
                 tests/web/home.test.mjs tests/web/puzzles.test.mjs tests/web/passkeys.test.mjs
                 tests/web/tournaments-page.test.mjs tests/web/ratings-page.test.mjs)
        tools/install-deps.sh web || exit 1
        ;;
    cluster) serial+=(tests/web/cluster.test.mjs) ;;
    *) echo "run-web-tests: unknown suite '$suite' (api, e2e, cluster)" >&2; exit 2 ;;
    esac
done
if ! command -v node >/dev/null; then
    tools/install-deps.sh web || exit 1
fi
export CROWN_BIN="$PWD/$out/crown"
export SCREENSHOT_DIR="${SCREENSHOT_DIR:-$PWD/build/web-screenshots}"
[ -x "$CROWN_BIN" ] || { echo "run-web-tests: $CROWN_BIN is not built" >&2; exit 1; }
log=$(mktemp)
start=$(date +%s%N)
# The timed API files and the cluster files one after the other: they time the server's
# answers (a read while an AI thinks, a flag's fall, a stop) on two cores. The other API
# files two at a time, then the browser files
# CROWN_WEB_JOBS at a time (default 4): each keeps about a quarter of a core busy, waiting
# on its pages and its server the rest of the time, and every wait is on a condition of
# the page, bounded by a timeout (four at once passed on a machine at load 30).
status=0
run_files() {
    local jobs=$1; shift
    [ $# -eq 0 ] && return
    node --test --test-concurrency="$jobs" --test-timeout=600000 --test-reporter=tap "$@" >"$log" 2>&1 || status=1
    # The TAP stream without the passing details; failures in full.
    grep -vE '^ *(duration_ms|\.\.\.|---|type: .test.)' "$log" | grep -vE '^# (Subtest|tests|suites|cancelled|skipped|todo|duration_ms)' || true
    local p f
    p=$(sed -n 's/^# pass \([0-9]*\)$/\1/p' "$log" | tail -1)
    f=$(sed -n 's/^# fail \([0-9]*\)$/\1/p' "$log" | tail -1)
    passed=$((passed + ${p:-0}))
    failed=$((failed + ${f:-0}))
}
passed=0 failed=0
run_files 1 "${serial[@]}"
run_files 2 "${paired[@]}"
run_files "${CROWN_WEB_JOBS:-4}" "${browser[@]}"
ms=$((($(date +%s%N) - start) / 1000000))
rm -f "$log"
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
    failed=1 # the runner itself failed (a file that did not load, say)
fi
printf '%s web tests (%s) in %d.%03d s; screenshots in %s\n' "$out" "$*" $((ms / 1000)) $((ms % 1000)) "$SCREENSHOT_DIR"
echo "$out/web: $passed passed, $failed failed"
[ "$status" -eq 0 ] && [ "$failed" -eq 0 ]
