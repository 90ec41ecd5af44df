#!/usr/bin/env bash
# Starts a new game from crown's template: `tools/new-game.sh NAME "TITLE"` writes a
# complete, playable game (a heap of stones taken in turn) in src/games/DIR/ (DIR is NAME
# without its dashes), registers it in src/play/registry.c, maps its files in
# docs/ARCHITECTURE.md and begins its rules in docs/games/NAME.md. Everything else crown
# knows of a game it reads from the game's GameOps record, so from there the game is
# yours to rewrite (docs/ADDING-A-GAME.md says what to add: rules, tests, a rules page,
# a board drawer). tests/new-game.sh runs this in a copy of the tree and checks the rest.
set -eu
cd "$(dirname "$0")/.."
usage='usage: tools/new-game.sh NAME "TITLE" (NAME as kings-valley, TITLE as "King'"'"'s Valley")'
die() { echo "new-game: $*" >&2; exit 2; }
[ $# -eq 2 ] || die "$usage"
name=$1 title=$2
[[ $name =~ ^[a-z][a-z0-9-]*[a-z0-9]$ ]] || die "NAME is lower-case letters, digits and dashes: '$name'"
[[ $title =~ ^[A-Za-z0-9][A-Za-z0-9\ \':-]*$ ]] || die "TITLE is letters, digits, spaces and ' : -: '$title'"
dir=${name//-/}
prefix=${name//-/_}
upper=${prefix^^}
camel=""
IFS=- read -ra parts <<<"$name"
for p in "${parts[@]}"; do camel+=${p^}; done
[ ! -e "src/games/$dir" ] || die "src/games/$dir exists already"
! grep -rqF "\"$name\"" src/games || die "a game is called '$name' already"

# The title is a C string and a sed replacement: only ' needs care (none in C, \' in sed
# is the same character).
fill() {
    sed -e "s/@NAME@/$name/g" -e "s/@DIR@/$dir/g" -e "s/@PREFIX@/$prefix/g" \
        -e "s/@UPPER@/$upper/g" -e "s/@CAMEL@/$camel/g" -e "s/@TITLE@/$title/g" "$1"
}
mkdir "src/games/$dir"
fill tools/new-game/template.h >"src/games/$dir/$dir.h"
fill tools/new-game/template_ops.c >"src/games/$dir/${dir}_ops.c"

# The registry: the include after the last game's, the record at the end of the table.
awk -v inc="#include \"games/$dir/$dir.h\"" -v ops="    &${prefix}_ops," '
    { lines[NR] = $0 }
    /^#include "games\// { last_inc = NR }
    /^static const GameOps \*const registry\[\] = \{/ { in_table = 1 }
    in_table && /^\};/ { table_end = NR; in_table = 0 }
    END {
        for (i = 1; i <= NR; i++) {
            if (i == table_end) print ops
            print lines[i]
            if (i == last_inc) print inc
        }
    }' src/play/registry.c >src/play/registry.c.new
mv src/play/registry.c.new src/play/registry.c

# The file map: two rows after the last game file's.
awk -v h="| \`src/games/$dir/$dir.h\` | $title: the game's one export, its GameOps record |" \
    -v c="| \`src/games/$dir/${dir}_ops.c\` | $title: its rules, options and GameOps record (begun from tools/new-game/) |" '
    { lines[NR] = $0 }
    /^\| `src\/games\// { last = NR }
    END { for (i = 1; i <= NR; i++) { print lines[i]; if (i == last) { print h; print c } } }' \
    docs/ARCHITECTURE.md >docs/ARCHITECTURE.md.new
mv docs/ARCHITECTURE.md.new docs/ARCHITECTURE.md

cat >"docs/games/$name.md" <<DOC
# $title

The rules as crown plays them, in the project's own words (docs/ADDING-A-GAME.md).

## Rules

Two players take one to \`take\` stones in turn from one heap of \`stones\`; whoever takes
the last stone wins.

## Options

| option | default | meaning |
|---|---|---|
| \`stones\` | 15 | stones on the heap at the start |
| \`take\` | 3 | the most stones one turn may take |

## Notation

An action is the number of stones taken (\`2\`); a position is the stones left and the
player to move (\`15 0\`).

## Rulings

| id | point | how crown plays it | option |
|---|---|---|---|
DOC
echo "new-game: $title is src/games/$dir/ (registered as $name); next: docs/ADDING-A-GAME.md"
