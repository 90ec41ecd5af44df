#!/usr/bin/env bash
# Builds with make (its arguments passed on) and shows the progress on one line,
# "building crown: 57/180 files", instead of make's line per file: a first build takes a
# minute or more, and ./play should not sit silent meanwhile. The count of files to
# compile comes from a dry run (make -n) first. On a terminal the line is rewritten in
# place; elsewhere a line is written at each tenth. A failure prints make's whole output.
#   tools/build-progress.sh BUILD=release
set -u
make_cmd=${MAKE:-make}
total=$($make_cmd --no-print-directory -n "$@" 2>/dev/null | grep -c 'echo "  CC')
log=$(mktemp "${TMPDIR:-/tmp}/crown-build-XXXXXX")
trap 'rm -f "$log"' EXIT
if [ "$total" -eq 0 ]; then
    $make_cmd --no-print-directory "$@" >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
    exit 0
fi
tty=false
[ -t 1 ] && tty=true
done_n=0 shown=-1
status=0
while IFS= read -r line; do
    printf '%s\n' "$line" >>"$log"
    case $line in
    "  CC "*) done_n=$((done_n + 1)) ;;
    *) continue ;;
    esac
    [ "$done_n" -gt "$total" ] && total=$done_n
    if $tty; then
        printf '\rbuilding crown: %d/%d files' "$done_n" "$total"
    elif [ $((done_n * 10 / total)) -ne "$shown" ]; then
        shown=$((done_n * 10 / total))
        printf 'building crown: %d/%d files\n' "$done_n" "$total"
    fi
done < <($make_cmd --no-print-directory "$@" 2>&1; echo "make-status $?")
status=$(sed -n 's/^make-status //p' "$log")
if [ "${status:-1}" -ne 0 ]; then
    $tty && echo
    grep -v '^make-status ' "$log" >&2
    exit 1
fi
$tty && printf '\rbuilding crown: %d/%d files, done\n' "$done_n" "$total"
exit 0
