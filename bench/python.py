#!/usr/bin/env python3
# python.py - speed of the Python module crown (not a test). For King's Valley and King
# Down: (1) apply_action + legal_actions calls a second in a random game loop written in
# Python; (2) that loop's cost per action against the same loop over the C API
# (bench/c_random_loop.c) plus Python's own cost of the module calls it makes, measured
# as an empty METH_NOARGS call. Every figure is the best of REPEATS runs of the same
# seeded games, timed in CPU time of the process (both here and in C), since the machine
# may be busy and waiting for a core is not the module's cost. Run: make bench-python (or, after it,
# bench/python.py [REPEATS]).
import os
import random
import subprocess
import sys
import time
import timeit

HERE = os.path.dirname(os.path.abspath(__file__))
BUILD = os.path.join(HERE, "..", "build", os.environ.get("BUILD", "release"))
sys.path.insert(0, os.path.join(BUILD, "python"))
import crown  # noqa: E402

GAMES = {"kings-valley": 400, "king-down": 100}
# Module calls per action in python_loop: is_terminal, is_chance_node, legal_actions,
# apply_action.
CALLS_PER_ACTION = 4


def python_loop(game, games):
    """Random games, seeds 0..games-1; returns (actions, module calls timed, seconds)."""
    rng = random.Random(1)
    rand = rng.random
    actions = legal_calls = 0
    start = time.process_time()
    for seed in range(games):
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rand() * len(outcomes))][0])
            else:
                legal = state.legal_actions()
                legal_calls += 1
                state.apply_action(legal[int(rand() * len(legal))])
            actions += 1
    return actions, actions + legal_calls, time.process_time() - start


def c_loop_ns(name, games, repeats):
    """Best nanoseconds per action of the same loop over the C API."""
    out = subprocess.run([os.path.join(BUILD, "bench", "c_random_loop"), name, str(games),
                          str(repeats)], check=True, capture_output=True, text=True).stdout
    return float(out.split("best_ns_per_action=")[1])


def empty_call_ns(repeats):
    """An empty METH_NOARGS call on a C object: (0).bit_length() allocates nothing."""
    n = 1_000_000
    times = timeit.repeat("z.bit_length()", globals={"z": 0}, number=n, repeat=repeats,
                          timer=time.process_time)
    return min(times) / n * 1e9


def main():
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; best of {repeats}")
    call = empty_call_ns(repeats)
    print(f"empty METH_NOARGS call: {call:.1f} ns")
    for name, games in GAMES.items():
        game = crown.load_game(name)
        runs = [python_loop(game, games) for _ in range(repeats)]
        actions, calls, secs = min(runs, key=lambda r: r[2])
        py_ns = secs / actions * 1e9
        c_ns = c_loop_ns(name, games, repeats)
        floor = c_ns + CALLS_PER_ACTION * call
        print(f"{name}: {games} games, {actions} actions; {calls / secs:,.0f} "
              f"apply_action+legal_actions calls/s; random game loop {py_ns:.0f} ns/action "
              f"in Python, {c_ns:.0f} ns/action over the C API ({py_ns / c_ns:.1f}x), "
              f"{py_ns / floor:.2f}x of C + {CALLS_PER_ACTION} empty calls ({floor:.0f} ns)")


if __name__ == "__main__":
    main()
