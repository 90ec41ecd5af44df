#!/usr/bin/env bash
# Enforces the dependency rule: search never includes game code, games never include
# search code, and core includes neither (except the registry, which lists the games);
# the public API uses the engine but no front end.
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
# The public API (include/crown.h, implemented in src/api/) sits under the front ends:
# it may use every engine layer but no front end, and no engine layer may use it.
while IFS= read -r hit; do bad "the API includes a front end: $hit"; done \
    < <(grep -HnE '#include *"(cli|web)/' src/api/*.[ch] 2>/dev/null || true)
while IFS= read -r hit; do bad "an engine layer includes the public API: $hit"; done \
    < <(grep -HnE '#include *[<"](crown\.h|api/)' src/core/*.[ch] src/games/*/*.[ch] \
        src/search/*.[ch] 2>/dev/null || true)
if [ $fail -ne 0 ]; then exit 1; fi
echo "layering: ok"
