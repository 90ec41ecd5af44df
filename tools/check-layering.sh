#!/usr/bin/env bash
# Enforces the dependency rule: search never includes game code, games never include
# search code, and core includes neither (except the registry, which lists the games).
set -eu
cd "$(dirname "$0")/.."
fail=0
bad() { echo "layering: $1"; fail=1; }
while IFS= read -r hit; do bad "search includes game code: $hit"; done \
    < <(grep -HnE '#include *"games/' src/search/*.[ch] 2>/dev/null || true)
while IFS= read -r hit; do bad "game includes search code: $hit"; done \
    < <(grep -HnE '#include *"(search|cli)/' src/games/*/*.[ch] 2>/dev/null || true)
while IFS= read -r hit; do bad "core includes outer layers: $hit"; done \
    < <(grep -HnE '#include *"(search|cli)/' src/core/*.[ch] 2>/dev/null || true)
while IFS= read -r hit; do bad "only the registry may include games: $hit"; done \
    < <(grep -HnE '#include *"games/' src/core/*.[ch] | grep -v '^src/core/registry.c:' || true)
if [ $fail -ne 0 ]; then exit 1; fi
echo "layering: ok"
