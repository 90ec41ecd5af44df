#!/usr/bin/env bash
# Fails if a tracked file points outside the repository for the rules: at the rulings
# file or the rulebook texts the project was specified from, or at the shared folder
# beside the checkout. The repository stands alone: every ruling is written in the
# project's own words in docs/games/<game>.md ("Rulings", ids such as R-KV-7), and code,
# tests and docs point there instead.
set -eu
cd "$(dirname "$0")/.."
# Spelled in pieces so that this script does not match itself.
pattern='RULING''S|rulebooks''/|\.\./shared''/|/work/shared|shared''/rules'
# The check itself must bite, and must let the repository's own words through: pointers
# of each kind are caught, the doc sections and plain mentions of a rulebook are not.
for bad in "see RULING""S.md 2.2" "from rulebooks""/kings-valley.txt" "../shared""/rules/x"; do
    echo "$bad" | grep -qE "$pattern" || { echo "docs: the check misses '$bad'"; exit 1; }
done
for good in "R-KV-7" "its Rulings section" "the rulebook leaves it open"; do
    if echo "$good" | grep -qE "$pattern"; then echo "docs: the check flags '$good'"; exit 1; fi
done
if git rev-parse --git-dir >/dev/null 2>&1; then
    hits=$(git grep -n -I -E "$pattern" -- . ':!tools/check-docs.sh' || true)
else
    hits=$(grep -rn -I -E "$pattern" --exclude-dir=build --exclude-dir=.git \
        --exclude-dir=node_modules --exclude=check-docs.sh . || true)
fi
if [ -n "$hits" ]; then
    echo "$hits"
    echo "docs: the lines above point outside the repository; point at the game's" \
         "Rulings section in docs/games/ instead"
    exit 1
fi
echo "docs: no pointer outside the repository"
