#!/usr/bin/env python3
# kv-perfect-check.py - how perfectly the players of King's Valley games played, by the
# solved table (docs/SOLVED.md): for every action of every game in a file of crown
# records (`crown match ... --out FILE`), whether it kept the position's value (a win
# stays a win, a draw a draw) and, among moves of that value, whether it was the fastest
# win or the slowest loss. Per player: actions, value-losing mistakes, slower wins or
# faster losses. A match between two budgets of a solved game can only score 50% when
# neither budget ever loses the value; this says whether that is what happened.
#
#   bench/kv-perfect-check.py RECORDS TABLE [BINARY]
#
# Needs the Python module (make BUILD=release python). Not a test: a tool for
# bench/levels.sh's King's Valley results.
import collections
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.join(HERE, "..", "build", os.environ.get("BUILD", "release"))
sys.path.insert(0, os.path.join(BUILD, "python"))
import crown  # noqa: E402


def records(path):
    """Yields (game, rules, players, start, moves) per record of the file."""
    text = open(path, encoding="utf-8").read()
    for block in text.split("crown-record ")[1:]:
        game, rules, players, start, moves = None, {}, [], None, []
        for line in block.splitlines()[1:]:
            key, _, value = line.partition(" ")
            if key == "game":
                game = value
            elif key == "rule":
                name, _, v = value.partition("=")
                rules[name] = v
            elif key == "players":
                players = value.split(",")
            elif key == "start":
                start = value
            elif key == "move":
                moves.append(value)
        yield game, rules, players, start, moves


def rank(value):
    """A value's order for the mover: faster wins first, then draws, then slower losses."""
    m = re.match(r"(win|loss) in (\d+)", value)
    if m:
        n = int(m.group(2))
        return (2, -n) if m.group(1) == "win" else (0, n)
    return (1, 0)


def move_values(binary, game, rules, table, position):
    cmd = [binary, "analyze", game, "--tablebase", table, "--position", position]
    for name, v in rules.items():
        cmd += ["--rule", f"{name}={v}"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    values = {}
    for line in out.splitlines():
        m = re.match(r"move (\S+) (.*)$", line)
        if m:
            values[m.group(1)] = m.group(2)
    return values


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: bench/kv-perfect-check.py RECORDS TABLE [BINARY]")
    path, table = sys.argv[1], sys.argv[2]
    binary = sys.argv[3] if len(sys.argv) > 3 else os.path.join(BUILD, "crown")
    stats = collections.defaultdict(lambda: [0, 0, 0])  # actions, mistakes, slower
    games = 0
    for game, rules, players, start, moves in records(path):
        games += 1
        state = crown.load_game(game, rules).new_initial_state()
        state.set_position(start)
        for i, move in enumerate(moves):
            seat = state.current_player()
            values = move_values(binary, game, rules, table, state.position())
            best = max(values.values(), key=rank)
            played = values[move]
            s = stats[players[seat]]
            s[0] += 1
            if rank(played)[0] < rank(best)[0]:
                s[1] += 1
            elif rank(played) != rank(best):
                s[2] += 1
            state.apply_action(state.string_to_action(move))
    print(f"{games} games of {path}")
    print(f"{'player':<16} {'actions':>8} {'value lost':>11} {'slower/faster':>14}")
    for player, (n, lost, slower) in sorted(stats.items()):
        print(f"{player:<16} {n:>8} {lost:>11} {slower:>14}")


if __name__ == "__main__":
    main()
