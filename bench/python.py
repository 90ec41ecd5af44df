#!/usr/bin/env python3
# python.py - speed of the Python module crown (not a test): apply_action + legal_actions
# calls per second from Python, and a random game loop in Python against the crown
# program's own random playouts, per action. Run: make python && bench/python.py
import os
import random
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.join(HERE, "..", "build", os.environ.get("BUILD", "release"))
sys.path.insert(0, os.path.join(BUILD, "python"))
import crown  # noqa: E402


def python_loop(game, seconds):
    """Random games in Python; returns (actions, legal_actions calls, games, seconds)."""
    rng = random.Random(1)
    actions = calls = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state(seed=rng.randrange(1 << 30))
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                calls += 1
                state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
        games += 1
    return actions, calls, games, time.perf_counter() - start


def c_playouts(name, games):
    """Playouts per second of the crown program's random games (no Python)."""
    out = subprocess.run([os.path.join(BUILD, "crown"), "playouts", name, "--games", str(games)],
                         check=True, capture_output=True, text=True).stdout
    line = [x for x in out.splitlines() if "playouts per second" in x][-1]
    return float(line.split()[-4])


def main():
    for name in ("kings-valley", "king-down"):
        game = crown.load_game(name)
        actions, calls, games, secs = python_loop(game, 2.0)
        # The C cost per action: its playouts per second over the mean game length seen
        # here (the same random policy, so the same mean length up to noise).
        c_us = 1e6 / (c_playouts(name, 20000) * actions / games)
        py_us = 1e6 * secs / actions
        print(f"{name}: {(actions + calls) / secs:,.0f} apply_action+legal_actions calls/s; "
              f"random game loop {py_us:.3f} us/action in Python, {c_us:.3f} us/action in "
              f"C playouts ({py_us / c_us:.1f}x)")


if __name__ == "__main__":
    main()
