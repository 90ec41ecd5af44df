#!/usr/bin/env bash
# Fails if a tracked source, test, tool, bench or doc file is missing from the file map in
# docs/ARCHITECTURE.md, or the map names a file that does not exist. A cell written
# "`dir/name.h`, `.c`" stands for both files.
set -eu
cd "$(dirname "$0")/.."
map=docs/ARCHITECTURE.md
named=$(grep -E '^\| `' "$map" | cut -d'|' -f2 | awk '{
    n = split($0, parts, ",")
    last = ""
    for (i = 1; i <= n; i++) {
        p = parts[i]; gsub(/[ `]/, "", p)
        if (p ~ /^\./ && last != "") { sub(/\.[^.\/]*$/, "", last); p = last p }
        print p; last = p
    }
}' | sort -u)
if git rev-parse --git-dir >/dev/null 2>&1; then
    files=$( (git ls-files; git ls-files --others --exclude-standard) | sort -u)
else
    files=$(find . -type f -not -path './build/*' -not -path './.git/*' | sed 's#^\./##' | sort)
fi
want=$(echo "$files" | grep -E '^(src/|python/|tests/|tools/|bench/|docs/|Makefile$|play$|\.ci/run$)' | grep -vE '^tests/perft/|^tests/fuzz/corpus/|^docs/games/' || true)
fail=0
for f in $want; do
    echo "$named" | grep -qxF "$f" || { echo "architecture: $f is not in $map"; fail=1; }
done
for f in $named; do
    [ -e "$f" ] || { echo "architecture: $map names $f, which does not exist"; fail=1; }
done
[ $fail -eq 0 ] && echo "architecture: every file is mapped"
exit $fail
