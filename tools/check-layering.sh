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

# The web server (src/web) in layers of its own, from the bottom: values and small
# mechanisms that know no server (base); the store behind one interface; the domain
# (the Server object, sessions, the AI queue, housekeeping); the handlers, one file per
# resource; the route table; the transport (listening, requests and answers, event
# streams); and on top the assembly that starts and stops it all. A file includes only
# its own layer and those below, and no files include each other in a circle. Header
# and source of one name count as one module, and so does a module's private header
# (NAME_backend.h, NAME_internal.h); a new file must be given a layer here.
web_layer() {
    case $1 in
    assets | config | credential | gameclock | lab_folder | language | langpages | loginlimit | \
        message | messages | meta | \
        netaddr | quota | homelimits | ratelimit | realip | secret | waits | webauthn | weblog) echo 1 ;;
    store | store_*) echo 2 ;;
    context | session | session_* | streams | ai | janitor | catalog | tournament | tour_live | mail | \
        mailer) echo 3 ;;
    api | api_* | lab_api | preview | review) echo 4 ;;
    routes) echo 5 ;;
    http | gate | sse | sse_* | origin) echo 6 ;;
    server | serve) echo 7 ;;
    *) echo 0 ;;
    esac
}
edges=""
for f in src/web/*.[ch]; do
    m=$(basename "${f%.*}")
    m=${m%_backend}
    m=${m%_internal}
    lm=$(web_layer "$m")
    [ "$lm" -gt 0 ] || { bad "src/web/$m is in no layer of tools/check-layering.sh"; continue; }
    while IFS= read -r inc; do
        x=${inc%.h}
        x=${x%_backend}
        x=${x%_internal}
        [ "$x" = "$m" ] && continue
        lx=$(web_layer "$x")
        [ "$lx" -le "$lm" ] || bad "$f (layer $lm) includes web/$inc (layer $lx), a layer above"
        edges+="$m $x"$'\n'
    done < <(grep -oE '#include *"web/[a-z_]+\.h"' "$f" | sed -E 's/.*"web\/([a-z_]+\.h)"/\1/')
done
if ! loop=$(printf '%s' "$edges" | tsort 2>&1 >/dev/null) || [ -n "$loop" ]; then
    bad "src/web files include each other in a circle: $(echo "$loop" | sed 's/tsort: //' | tr '\n' ' ')"
fi
while IFS= read -r big; do bad "src/web files stay under 800 lines: $big"; done \
    < <(wc -l src/web/*.[ch] | awk '$2 != "total" && $1 > 800 {print $2 " has " $1}')

if [ $fail -ne 0 ]; then exit 1; fi
echo "layering: ok"
