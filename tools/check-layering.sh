#!/usr/bin/env bash
# Enforces the dependency rule, layers from the bottom: core (includes only core), games
# (core), search (core, never a game), solve (core: solved tables, seen through game.h),
# play (core, search, and games only in its registry), the lab (self-play studies: core,
# search, play; no game, no front end), then the public C API (src/api, include/crown.h)
# and the front ends cli and web (anything below, never each other; the CLI's --version
# reads crown.h). The Python
# module (python/) sits on top too but sees only include/crown.h, nothing of src/.
set -eu
cd "$(dirname "$0")/.."
fail=0
bad() { echo "layering: $1"; fail=1; }
check() { # message, files glob, forbidden include pattern
    local msg=$1 pattern=$3
    shift 3
    while IFS= read -r hit; do bad "$msg: $hit"; done \
        < <(grep -HnE "#include *\"($pattern)/" "$@" 2>/dev/null || true)
}
shopt -s nullglob
check "core includes outside core" x 'games|search|solve|play|lab|cli|web' src/core/*.[ch]
check "game includes an upper layer" x 'search|solve|play|lab|cli|web' src/games/*/*.[ch]
check "search includes a game or an upper layer" x 'games|solve|play|lab|cli|web' src/search/*.[ch]
check "solve includes a game or an upper layer" x 'games|search|play|lab|cli|web' src/solve/*.[ch]
check "play includes a front end" x 'cli|web|lab' src/play/*.[ch]
check "the lab includes a front end" x 'cli|web|api' src/lab/*.[ch]
check "the lab includes a game" x 'games' src/lab/*.[ch]
while IFS= read -r hit; do bad "only the play registry may include games: $hit"; done \
    < <(grep -HnE '#include *"games/' src/play/*.[ch] | grep -v '^src/play/registry.c:' || true)
check "cli includes the web server" x 'web' src/cli/*.[ch]
check "web includes the cli" x 'cli' src/web/*.[ch]
check "the API includes a front end or the lab" x 'cli|web|lab' src/api/*.[ch]
while IFS= read -r hit; do bad "an engine layer includes the public API: $hit"; done \
    < <(grep -HnE '#include *[<"](crown\.h|api/)' src/core/*.[ch] src/games/*/*.[ch] \
        src/search/*.[ch] src/solve/*.[ch] src/play/*.[ch] 2>/dev/null || true)
while IFS= read -r hit; do bad "the Python module includes more than crown.h: $hit"; done \
    < <(grep -HnE '#include *"' python/*.[ch] 2>/dev/null | grep -vE '#include *"crown\.h"' || true)
if [ $fail -ne 0 ]; then exit 1; fi
echo "layering: ok"
