#!/usr/bin/env bash
# Rewrites bench/signature from the current release build's `crown bench`. Run it in the
# commit that changes search or rules behaviour (or registers a game), and say why.
set -eu
cd "$(dirname "$0")/.."
make --no-print-directory BUILD=release >/dev/null
out=$(build/release/crown bench)
{
    echo "# Expected output of 'crown bench' (node totals). The tests compare the Bench line;"
    echo "# a change of search or rules that alters it must update this file in the same commit"
    echo "# (tools/update-signature.sh)."
    echo "$out" | grep -E ' total |^Bench: '
} > bench/signature
cat bench/signature
