#!/bin/sh
# bench/levels.sh - issue 18's strength goals for the levels, on every two-player game:
# ai:10 against ai:5 at equal time (goal: at least 70%), and ai:10 at the long move
# time against ai:10 at the short one (goal: at least 65%). Prints each match's score,
# Elo with its interval and distinct games, then a summary table in Markdown, ready for
# docs/STRENGTH.md. A long run (hours at the defaults); not part of `make test`.
#
#   bench/levels.sh [-g GAMES] [-j JOBS] [-s SEED] [-b BINARY] [GAME...]
#
# Defaults: 200 games a match, one job, seed 1, build/release/crown, every two-player
# game. SLOW_MS (200), FAST_MS (50) and LOW (5) set the budgets and the weaker level;
# NICE (5) the priority; LOG_DIR (build/levels) keeps each match's whole output and
# its game records.
set -eu

games=200
jobs=1
seed=1
bin=build/release/crown
while getopts g:j:s:b: opt; do
    case $opt in
    g) games=$OPTARG ;;
    j) jobs=$OPTARG ;;
    s) seed=$OPTARG ;;
    b) bin=$OPTARG ;;
    *) echo "usage: bench/levels.sh [-g GAMES] [-j JOBS] [-s SEED] [-b BINARY] [GAME...]" >&2
       exit 2 ;;
    esac
done
shift $((OPTIND - 1))
if [ $# -eq 0 ]; then
    # Short games first: the King's Valley family finishes in minutes.
    set -- kings-valley retrieve-the-king kings-valley-labyrinth kings-valley-7x7 \
        kings-guard-8x8 kings-guard king-down kings-castle
fi
slow=${SLOW_MS:-200}
fast=${FAST_MS:-50}
low=${LOW:-5}
nice_level=${NICE:-5}
log_dir=${LOG_DIR:-build/levels}
[ -x "$bin" ] || { echo "levels.sh: no program at $bin (make BUILD=release first)" >&2; exit 1; }
mkdir -p "$log_dir"

summary=$(mktemp)
trap 'rm -f "$summary"' EXIT

# One match: its players, the goal in percent; appends a summary row.
run_match() {
    game=$1 players=$2 goal=$3 label=$4
    log="$log_dir/$game-$label.txt"
    load_before=$(cut -d' ' -f1 /proc/loadavg)
    start=$(date +%s)
    echo "== $(date -u '+%Y-%m-%d %H:%M') $game: $players, $games games (load $load_before)"
    nice -n "$nice_level" "$bin" match "$game" --players "$players" --games "$games" \
        --jobs "$jobs" --seed "$seed" --out "$log_dir/$game-$label.rec" >"$log" 2>&1 || true
    load_after=$(cut -d' ' -f1 /proc/loadavg)
    grep -E '^.* vs .*: [0-9]+ games|^score |distinct games of' "$log" || tail -n 3 "$log"
    # "A vs B: N games, W wins, D draws, L losses" / "score S%, Elo difference E" /
    # "K distinct games of N; ..."
    line='^.* vs .*: \([0-9]*\) games, \([0-9]*\) wins, \([0-9]*\) draws, \([0-9]*\) losses$'
    n=$(sed -n "s/$line/\\1/p" "$log")
    wdl=$(sed -n "s/$line/\\2\\/\\3\\/\\4/p" "$log")
    score=$(sed -n 's/^score \([0-9.]*\)%, Elo difference \(.*\)$/\1/p' "$log")
    elo=$(sed -n 's/^score [0-9.]*%, Elo difference \(.*\)$/\1/p' "$log" | sed 's/ (95%)//')
    distinct=$(sed -n 's/^\([0-9]*\) distinct games of.*/\1/p' "$log")
    verdict=missed
    if [ -n "$score" ] && awk "BEGIN { exit !($score >= $goal) }"; then
        verdict=met
    fi
    printf '| %s | %s | %s | %s | %s | %s%% | %s | %s | >= %s%%: %s | %s-%s | %ss |\n' \
        "$(date -u +%Y-%m-%d)" "$game" "$players" "${n:-?}" "${wdl:-failed}" "${score:-?}" \
        "${elo:-?}" "${distinct:-?}" "$goal" "$verdict" "$load_before" "$load_after" \
        "$(($(date +%s) - start))" >>"$summary"
}

for game in "$@"; do
    run_match "$game" "ai:10@$slow,ai:$low@$slow" 70 "level"
    run_match "$game" "ai:10@$slow,ai:10@$fast" 65 "time"
done

echo
echo "Summary (bench/levels.sh -g $games -j $jobs -s $seed; $bin):"
echo
echo "| date | game | players | games | W/D/L | score | Elo (95%) | distinct | goal | load | wall |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
cat "$summary"
