#!/usr/bin/env bash
# Adds a game the documented way to a copy of the tree and checks that it is a game like
# the others with no more than that: tools/new-game.sh touches at most six existing files
# (issue 28: a game is described in its own folder), the copy builds warning-free, the new
# game passes the contract suite, `crown` lists and plays it, and the file map and layers
# still hold. The copy takes the build's objects along, so only what the new game changes
# is compiled again. Usage: tests/new-game.sh [BUILD_DIR], default build/release.
set -eu
cd "$(dirname "$0")/.."
out=${1:-build/release}
[ -x "$out/crown" ] || { echo "new-game: build $out first"; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/crown-new-game-XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "new-game: $*"; echo "new-game: 0 passed, 1 failed"; exit 1; }

# The tree as git sees it (tracked and new files; deleted ones left out), times kept.
git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done |
    tar --null -T - -cf - | tar -xf - -C "$work"
mkdir -p "$work/$(dirname "$out")"
cp -a "$out" "$work/$out"
sums() { (cd "$work" && find . -type f -not -path "./$out/*" -print0 | sort -z | xargs -0 md5sum); }
before=$(sums)

(cd "$work" && tools/new-game.sh pebble-heap "Pebble Heap") || fail "tools/new-game.sh failed"
# Existing files whose content the new game changed (new files are the game's own).
changed_files=$(join -1 2 -2 2 <(echo "$before" | sort -k2) <(sums | sort -k2) |
    awk '$2 != $3 {print $1}')
changed=$(echo "$changed_files" | grep -c . || true)
echo "$changed_files" | sed 's/^/  changed: /'
[ "$changed" -le 6 ] || fail "a new game changed $changed existing files, more than 6"

make -C "$work" -j"$(nproc)" --no-print-directory BUILD="$(basename "$out")" \
    "$out/crown" "$out/tests/test_contract" >"$work/make.log" 2>&1 ||
    { cat "$work/make.log"; fail "the tree with the new game does not build"; }
CROWN_CONTRACT_GAME=pebble-heap "$work/$out/tests/test_contract" test_random_games \
    >"$work/contract.log" 2>&1 || { cat "$work/contract.log"; fail "the contract suite failed"; }
grep -q "pebble-heap" "$work/contract.log" || fail "the contract suite did not play the new game"
"$work/$out/crown" games | grep -q "^pebble-heap " || fail "crown games does not list it"
[ "$("$work/$out/crown" perft pebble-heap 3 | awk '$1 == "perft" && $2 == 3 {print $3}')" = 27 ] ||
    fail "perft 3 of a heap of 15, taking 1-3, is not 27"
(cd "$work" && tools/check-architecture.sh && tools/check-layering.sh) >"$work/checks.log" 2>&1 || { cat "$work/checks.log";
    fail "the file map or the layers do not hold with the new game"; }
echo "new-game: a game added with $changed existing files changed, built, checked and played"
echo "new-game: 1 passed, 0 failed"
