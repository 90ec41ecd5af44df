# test_crown.py - pytest for the Python module crown. Every registered game is played at
# random through the module and, action for action, through the C engine itself (the
# public C API of libcrown.so, called with ctypes): the same legal actions in the same
# order, chance outcomes, players, hashes and returns. Also: perft against the crown
# program, the observation tensor's shape and determinism, exceptions on bad input that
# leave the state as it was, agents with their score and principal variation, the GIL
# released during perft and searches, and the examples of docs/PYTHON.md, run.
import copy
import ctypes
import io
import os
import random
import re
import runpy
import subprocess
import threading
import time
from contextlib import redirect_stdout

import numpy as np
import pytest

import crown

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
CROWN_BIN = os.environ.get("CROWN_BIN", "crown")
CROWN_LIB = os.environ.get("CROWN_LIB", "libcrown.so.0")
GAMES = crown.games()
MAX_ACTIONS = 1024


class CEngine:
    """The C API of libcrown.so through ctypes: the engine the module must agree with."""

    def __init__(self, path):
        lib = ctypes.CDLL(path)
        p, i, u32, u64 = ctypes.c_void_p, ctypes.c_int, ctypes.c_uint32, ctypes.c_uint64
        sigs = {
            "crown_game_new": (i, [ctypes.c_char_p, p, p, i, ctypes.POINTER(p), p]),
            "crown_game_free": (None, [p]),
            "crown_state_new": (i, [p, u64, ctypes.POINTER(p), p]),
            "crown_state_free": (None, [p]),
            "crown_state_to_move": (i, [p]),
            "crown_state_hash": (u64, [p]),
            "crown_state_legal_actions": (i, [p, ctypes.POINTER(u32), i, ctypes.POINTER(i)]),
            "crown_state_chance_outcomes": (i, [p, ctypes.POINTER(u32),
                                                ctypes.POINTER(ctypes.c_double), i,
                                                ctypes.POINTER(i)]),
            "crown_state_apply": (i, [p, u32]),
            "crown_state_legal_indices": (i, [p, ctypes.POINTER(i),
                                              ctypes.POINTER(ctypes.c_double), i,
                                              ctypes.POINTER(i)]),
            "crown_state_apply_index": (i, [p, i]),
            "crown_state_returns": (i, [p, ctypes.POINTER(ctypes.c_double), i]),
        }
        for name, (res, args) in sigs.items():
            f = getattr(lib, name)
            f.restype, f.argtypes = res, args
        self.lib = lib
        self.actions = (u32 * MAX_ACTIONS)()
        self.indices = (i * MAX_ACTIONS)()
        self.probs = (ctypes.c_double * MAX_ACTIONS)()
        self.count = i()

    def new_game(self, name, options):
        names = (ctypes.c_char_p * (len(options) + 1))(*[k.encode() for k in options])
        values = (ctypes.c_char_p * (len(options) + 1))(*[str(v).encode() for v in options.values()])
        game = ctypes.c_void_p()
        assert self.lib.crown_game_new(name.encode(), names, values, len(options),
                                       ctypes.byref(game), None) == 0
        return game

    def new_state(self, game, seed):
        state = ctypes.c_void_p()
        assert self.lib.crown_state_new(game, seed, ctypes.byref(state), None) == 0
        return state

    def legal_actions(self, state):
        assert self.lib.crown_state_legal_actions(state, self.actions, MAX_ACTIONS,
                                                  ctypes.byref(self.count)) == 0
        return list(self.actions[:self.count.value])

    def chance_outcomes(self, state):
        assert self.lib.crown_state_chance_outcomes(state, self.actions, self.probs, MAX_ACTIONS,
                                                    ctypes.byref(self.count)) == 0
        n = self.count.value
        return list(zip(self.actions[:n], self.probs[:n]))

    def legal_indices(self, state):
        """The action indices with their probabilities (at a chance node), pyspiel's actions."""
        assert self.lib.crown_state_legal_indices(state, self.indices, self.probs, MAX_ACTIONS,
                                                  ctypes.byref(self.count)) == 0
        n = self.count.value
        return list(zip(self.indices[:n], self.probs[:n]))

    def returns(self, state, players):
        out = (ctypes.c_double * 4)()
        assert self.lib.crown_state_returns(state, out, 4) == 0
        return list(out[:players])


@pytest.fixture(scope="module")
def c_engine():
    return CEngine(CROWN_LIB)


def cli_perft(name, position, depth):
    """The crown program's perft counts per depth from a position."""
    out = subprocess.run([CROWN_BIN, "perft", name, str(depth), "--position", position],
                         check=True, capture_output=True, text=True).stdout
    return [int(line.split()[2]) for line in out.splitlines() if line.startswith("perft ")]


def random_game(game, seed, plies=400, check=None):
    """Plays a random game; `check(state)` runs before every action. Returns the state and
    some positions met on the way (at most 4, spread out)."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    seen = []
    while not state.is_terminal() and state.history_length() < plies:
        if check:
            check(state)
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            action = outcomes[rng.randrange(len(outcomes))][0]
        else:
            actions = state.legal_actions()
            assert actions and len(set(actions)) == len(actions)
            action = rng.choice(actions)
            assert state.string_to_action(state.action_to_string(action)) == action
        if len(seen) < 4 and rng.random() < 0.05:
            seen.append(state.position())
        before = state.hash()
        state.apply_action(action)
        assert state.history()[-1] == action
        state.undo_action(action)
        assert state.hash() == before
        state.apply_action(action)
    return state, seen


@pytest.mark.parametrize("name", GAMES)
def test_random_games_match_the_c_engine(name, c_engine):
    # A draw limit short enough that every game ends, and its returns are compared too.
    options = {"max-plies": 120} if "max-plies" in crown.load_game(name).parameters() else {}
    game = crown.load_game(name, options)
    c_game = c_engine.new_game(name, options)
    try:
        for seed in range(6):
            c_state = c_engine.new_state(c_game, seed)
            replayed = []

            def same_as_c(state):
                # Replay what the module applied since the last check, then compare.
                for action in state.history()[len(replayed):]:
                    assert c_engine.lib.crown_state_apply_index(c_state, action) == 0
                    replayed.append(action)
                # crown.h's chance (-2) and finished (-1) are pyspiel's -1 and -4.
                who = c_engine.lib.crown_state_to_move(c_state)
                assert state.current_player() == {-2: -1, -1: -4}.get(who, who)
                assert state.hash() == c_engine.lib.crown_state_hash(c_state)
                indexed = c_engine.legal_indices(c_state)
                if state.is_chance_node():
                    assert state.chance_outcomes() == indexed
                    c_outcomes = c_engine.chance_outcomes(c_state)
                    assert sorted(p for _, p in c_outcomes) == sorted(p for _, p in indexed)
                else:
                    assert len(c_engine.legal_actions(c_state)) == len(indexed)
                # pyspiel's order: ascending, the outcomes too at a chance node.
                assert state.legal_actions() == [a for a, _ in indexed]
                assert state.legal_actions() == sorted(state.legal_actions())

            try:
                state, _ = random_game(game, seed, plies=1000, check=same_as_c)
                same_as_c(state)
                assert state.is_terminal()
                assert state.current_player() == crown.TERMINAL_PLAYER
                assert state.legal_actions() == []
                assert state.result_text() != ""
                returns = state.returns()
                assert returns == c_engine.returns(c_state, game.num_players())
                assert [state.player_return(p) for p in range(len(returns))] == returns
                assert not state.is_player_node()
                assert len(returns) == game.num_players()
            finally:
                c_engine.lib.crown_state_free(c_state)
    finally:
        c_engine.lib.crown_game_free(c_game)


@pytest.mark.parametrize("name", GAMES)
def test_perft_matches_the_crown_program(name):
    """perft from the start and from one position met in a random game: the module against
    the crown program's own perft (and the legal action count)."""
    game = crown.load_game(name)
    start = game.new_initial_state()
    _, seen = random_game(game, 11, plies=60)
    for state in [start] + [crown.parse_position(game, p) for p in seen[:1]]:
        assert crown.parse_position(game, state.position()).position() == state.position()
        counts = cli_perft(name, state.position(), 2)
        assert [state.perft(1), state.perft(2)] == counts
        if not state.is_chance_node() and not state.is_terminal():
            assert len(state.legal_actions()) == counts[0]


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_same_game(name):
    game = crown.load_game(name)
    a, _ = random_game(game, 7, plies=60)
    b, _ = random_game(game, 7, plies=60)
    assert a.hash() == b.hash() and a.position() == b.position()
    assert a.history() == b.history() and a.returns() == b.returns()


@pytest.mark.parametrize("name", GAMES)
def test_clone_is_independent(name):
    state = crown.load_game(name).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    legal = state.legal_actions()
    assert state.legal_actions(state.current_player()) == legal
    assert state.legal_actions(state.current_player() + 1) == []
    assert state.is_player_node() and not state.is_chance_node()
    for other in (state.clone(), copy.copy(state), copy.deepcopy(state)):
        assert other.hash() == state.hash() and other.history() == state.history()
        other.apply_action(other.legal_actions()[0])
        assert other.hash() != state.hash() or other.position() != state.position()
        assert state.legal_actions() == legal
        other.undo()
        assert other.hash() == state.hash() and other.legal_actions() == legal


@pytest.mark.parametrize("name", GAMES)
def test_observation_tensor(name):
    game = crown.load_game(name)
    shape = game.observation_tensor_shape()
    state, _ = random_game(game, 3, plies=20)
    again, _ = random_game(game, 3, plies=20)
    for player in list(range(game.num_players())) + [None]:
        t = state.observation_tensor(player)
        assert isinstance(t, np.ndarray) and t.dtype == np.float32
        assert list(t.shape) == shape and np.all(np.isfinite(t))
        # The same position, asked again or reached again, gives the same tensor.
        assert np.array_equal(t, state.observation_tensor(player))
        assert np.array_equal(t, again.observation_tensor(player))
        assert np.array_equal(t, state.clone().observation_tensor(player))
        assert state.observation_string(player).startswith("{")
    assert list(state.observation_tensor().shape) == shape
    # A tensor is the caller's: changing it changes nothing in the next one.
    t = state.observation_tensor(0)
    t[...] = 7.0
    assert np.array_equal(state.observation_tensor(0), again.observation_tensor(0))
    start = game.new_initial_state(seed=3)
    if start.position() != state.position():
        assert not np.array_equal(start.observation_tensor(), state.observation_tensor())


def test_load_game_options_and_errors():
    game = crown.load_game("kings-valley", {"max-plies": 200})
    assert game.max_game_length() == 200 and game.parameters()["max-plies"] == "200"
    assert game.name() == "kings-valley" and game.num_players() == 2
    with pytest.raises(crown.Error, match="max-plies"):
        crown.load_game("kings-valley", {"max-plies": 5000})
    with pytest.raises(crown.Error, match="kings-valley"):
        crown.load_game("no-such-game")
    with pytest.raises(crown.Error):
        crown.load_game("kings-valley", {"no-such-option": 1})
    with pytest.raises(TypeError):
        crown.load_game("kings-valley", ["max-plies", 200])
    assert issubclass(crown.Error, ValueError)


def snapshot(state):
    return (state.hash(), state.position(), state.history(), state.legal_actions(),
            state.current_player())


@pytest.mark.parametrize("name", GAMES)
def test_bad_actions_never_change_the_state(name):
    """Illegal actions met during random games: an error, and the state as it was."""
    game = crown.load_game(name)
    rng = random.Random(5)
    other = game.new_initial_state(seed=99)

    def try_illegal(state):
        if rng.random() > 0.2:
            return
        before = snapshot(state)
        legal = set(a for a, _ in state.chance_outcomes()) | set(state.legal_actions())
        candidates = [max(legal, default=0) + 1, 1 << 31] + other.legal_actions()
        for action in candidates:
            if action not in legal:
                with pytest.raises(crown.Error, match="illegal"):
                    state.apply_action(action)
                with pytest.raises(crown.Error):
                    state.action_to_string(action)
        if state.history():
            wrong = state.history()[-1] + 1
            with pytest.raises(crown.Error, match="not the last action"):
                state.undo_action(wrong)
        for bad, error in ((-1, crown.Error), (1 << 40, crown.Error), (1 << 70, OverflowError), (None, TypeError),
                           (1.5, TypeError), ("a1-a2", TypeError)):
            with pytest.raises(error):
                state.apply_action(bad)
        with pytest.raises(crown.Error):
            state.string_to_action("z99-q0")
        assert snapshot(state) == before

    random_game(game, 5, plies=80, check=try_illegal)


@pytest.mark.parametrize("name", ["kings-valley", "king-down", "kings-guard-8x8", "kings-castle"])
def test_moves_as_typed_read_as_crown_play_reads_them(name):
    """A random game typed in upper case (and, where it differs, with the dash between two
    squares put in or taken out) is played by apply_text and by `crown play`: both read
    every line and reach the same position."""
    game = crown.load_game(name)
    state = game.new_initial_state(seed=3)
    rng = random.Random(11)
    lines = []
    for _ in range(12):
        if state.is_terminal() or not state.is_player_node():
            break
        text = state.action_to_string(rng.choice(state.legal_actions()))
        if re.fullmatch(r"[a-m][0-9]+-?[a-m][0-9]+", text):
            squares = re.findall(r"[a-m][0-9]+", text)
            text = ("" if "-" in text else "-").join(squares)
        if re.fullmatch(r"[a-m0-9,-]+", text):
            text = text.upper()
        lines.append(text)
        action = state.string_to_action(text)
        state.apply_text(text)
        assert state.history()[-1] == action
    assert len(lines) >= 6
    script = "\n".join(lines + ["position", "quit"]) + "\n"
    out = subprocess.run([CROWN_BIN, "play", name, "--players", "human,human", "--seed", "3"],
                         input=script, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "error" not in out.stdout
    assert state.position() in out.stdout.splitlines()


def test_apply_text_whole_turns_and_refusals():
    game = crown.load_game("kings-guard-8x8")
    state = crown.parse_position(game, "7k/8/3G4/8/3G4/8/8/K7 2 1")
    state.apply_text("H8H7")
    assert state.history_length() >= 2 and state.current_player() == 0
    before = (state.position(), state.history())
    for bad in ("", "z9-z8", "a1-a2;h7-h6"):
        with pytest.raises(crown.Error):
            state.apply_text(bad)
        assert (state.position(), state.history()) == before
    with pytest.raises(TypeError):
        state.apply_text(5)


def test_result_words_as_crown_play_says_them():
    game = crown.load_game("kings-valley")
    state = game.new_initial_state()
    assert state.result_words() == "unfinished"
    state, _ = random_game(game, 17, plies=5000)
    assert state.is_terminal()
    first, second = state.returns()
    neutral = state.result_words()
    assert neutral.endswith(": " + state.result_text())
    assert neutral.startswith("first player wins" if first > second else
                              "second player wins" if second > first else "draw")
    assert state.result_words(0).startswith("You won" if first > second else
                                            "You lost" if second > first else "Draw")
    with pytest.raises(crown.Error, match="viewer 2"):
        state.result_words(2)
    with pytest.raises(TypeError):
        state.result_words(0, 1)


def test_bad_input_raises_and_leaves_the_state():
    game = crown.load_game("kings-valley")
    state = game.new_initial_state()
    before = snapshot(state)
    with pytest.raises(crown.Error, match="nothing to undo"):
        state.undo()
    with pytest.raises(crown.Error, match="nothing to undo"):
        state.undo_action(state.legal_actions()[0])
    with pytest.raises(TypeError):
        state.undo_action()
    with pytest.raises(crown.Error):
        state.set_position("not a position")
    with pytest.raises(crown.Error):
        crown.parse_position(game, "x/y/z")
    with pytest.raises(crown.Error):
        state.observation_tensor(7)
    with pytest.raises(TypeError):
        state.observation_tensor(0, 1)
    with pytest.raises(crown.Error):
        state.perft(-1)
    with pytest.raises(crown.Error, match="not a seat"):
        state.player_return(2)
    assert state.player_return(0) == 0.0
    with pytest.raises(crown.Error, match="max-plies"):
        crown.load_game("kings-valley", {"max-plies": "many"})
    assert snapshot(state) == before
    # pyspiel's undo_action(player, action): the player must be the one who acted.
    first = state.legal_actions()[0]
    mover = state.current_player()
    state.apply_action(first)
    after = snapshot(state)
    with pytest.raises(crown.Error, match="played by player"):
        state.undo_action(1 - mover, first)
    assert snapshot(state) == after
    state.undo_action(mover, first)
    assert snapshot(state) == before


def test_agents_give_action_score_and_pv():
    game = crown.load_game("kings-valley")
    state = game.new_initial_state()
    for spec, kwargs in (("ab", {"depth": 3}), ("mcts", {"iterations": 200}),
                         ("ai:7", {"movetime_ms": 50}), ("random", {})):
        agent = crown.Agent(spec, seed=1, **kwargs)
        assert agent.last_score() is None and agent.last_pv() == []
        action = agent.step(state)
        assert action in state.legal_actions()
        assert agent.last_pv()[0] == action
    agent = crown.Agent("ab", depth=4, seed=3)
    action, score, pv = agent.step_with_info(state)
    assert isinstance(score, int) and abs(score) < 1000000
    assert pv[0] == action and 1 <= len(pv) <= 4
    child = state.clone()
    for a in pv:  # the principal variation is a line of legal actions
        child.apply_action(a)
    # Exact under a depth limit for the same seed; the agent's own later steps may pick
    # another move of the same value (variety among equal moves).
    assert crown.Agent("ab", depth=4, seed=3).step_with_info(state) == (action, score, pv)
    assert agent.step_with_info(state)[1] == score
    action, value, pv = crown.Agent("mcts", iterations=300, seed=2).step_with_info(state)
    assert isinstance(value, float) and -1.0 <= value <= 1.0 and pv[0] == action
    with pytest.raises(crown.Error):
        crown.Agent("no-such-agent").step(state)

    class Mine(crown.Agent):  # Python players may build on crown's
        pass

    assert Mine("ab", depth=2).step(state) in state.legal_actions()
    with pytest.raises(crown.Error, match="unknown agent"):
        Mine("no-such-agent").step(state)
    with pytest.raises(TypeError):
        crown.Agent("ab").step(game)
    over = crown.parse_position(game, "ss1ss/5/2k2/5/SSKSS 2 9")
    assert over.is_terminal()
    with pytest.raises(crown.Error, match="illegal"):
        crown.Agent("ab", depth=2).step(over)


def progress_while(work):
    """Runs work() in a thread; returns how many times this thread counted meanwhile, which
    stays near 0 if work() holds the GIL."""
    started = threading.Event()
    result = []

    def run():
        started.set()
        result.append(work())

    thread = threading.Thread(target=run)
    thread.start()
    started.wait()
    count = 0
    while thread.is_alive():
        count += 1
    thread.join()
    return count, result[0]


def test_gil_released_during_perft_and_search():
    game = crown.load_game("kings-valley")
    state = game.new_initial_state()
    expected = 67433120  # kings-valley perft 7 from the start: about 0.3 s
    count, nodes = progress_while(lambda: state.perft(7))
    assert nodes == expected and count > 1000
    # No depth or node cap: the search thinks its whole 150 ms (level 5 alone is a few ms).
    count, action = progress_while(lambda: crown.Agent("ab", depth=-1, nodes=-1, movetime_ms=150).step(state))
    assert action in state.legal_actions() and count > 1000

    # The state may be used meanwhile: perft and step work on a copy.
    def use_state():
        for _ in range(200):
            state.apply_action(state.legal_actions()[0])
            state.undo()
        return True

    busy = crown.Agent("mcts", nodes=-1, movetime_ms=10000)  # thinks until stopped
    started = threading.Event()

    def think():
        started.set()
        busy.step(state)

    thread = threading.Thread(target=think)
    start = time.monotonic()
    thread.start()
    started.wait()
    time.sleep(0.05)
    assert use_state()
    with pytest.raises(crown.Error, match="already thinking"):
        busy.step(state)  # one agent thinks in one thread at a time
    busy.stop()  # the step returns soon with its best so far
    thread.join()
    assert time.monotonic() - start < 5
    assert state.perft(6) == 4489260 and state.history() == []


def test_examples_of_the_docs_run():
    """Every Python example in docs/PYTHON.md is a file of tests/python/examples, and runs."""
    with open(os.path.join(ROOT, "docs", "PYTHON.md")) as f:
        blocks = re.findall(r"```python\n(.*?)```", f.read(), re.S)
    folder = os.path.join(HERE, "examples")
    examples = {}
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name)) as f:
            examples[name] = f.read()
    assert sorted(blocks) == sorted(examples.values()), "docs/PYTHON.md and examples/ differ"
    for name in examples:
        out = io.StringIO()
        with redirect_stdout(out):
            runpy.run_path(os.path.join(folder, name), run_name="__main__")
        assert out.getvalue().strip(), f"{name} printed nothing"
