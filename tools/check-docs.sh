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
