# test_crown.py - pytest for the Python module crown: every registered game played at
# random and checked against the C engine (the crown program's perft from the same
# positions, which is the legal-action count at depth 1), hashes and returns, the
# observation tensor's shape and determinism, and exceptions on bad input.
import os
import random
import subprocess

import numpy as np
import pytest

import crown

CROWN_BIN = os.environ.get("CROWN_BIN", "crown")
GAMES = crown.games()


def cli_perft(name, position, depth):
    """The crown program's perft counts per depth from a position."""
    out = subprocess.run([CROWN_BIN, "perft", name, str(depth), "--position", position],
                         check=True, capture_output=True, text=True).stdout
    return [int(line.split()[2]) for line in out.splitlines() if line.startswith("perft ")]


def random_game(game, seed, plies=400):
    """Plays a random game; returns the positions met (at most 8, spread out)."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    seen = []
    while not state.is_terminal() and state.history_length() < plies:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            action = outcomes[rng.randrange(len(outcomes))][0]
        else:
            actions = state.legal_actions()
            assert actions and len(set(actions)) == len(actions)
            action = rng.choice(actions)
            text = state.action_to_string(action)
            assert state.string_to_action(text) == action
        before = state.hash()
        if len(seen) < 8 and rng.random() < 0.1:
            seen.append(state.position())
        state.apply_action(action)
        state.undo()
        assert state.hash() == before
        state.apply_action(action)
    return state, seen


@pytest.mark.parametrize("name", GAMES)
def test_random_games_match_the_c_engine(name):
    game = crown.load_game(name)
    for seed in range(10):
        state, seen = random_game(game, seed)
        if state.is_terminal():
            assert state.current_player() == crown.TERMINAL_PLAYER
            assert state.legal_actions() == []
            returns = state.returns()
            assert len(returns) == game.num_players()
            assert state.result_text() != ""
        for position in seen[:3]:
            here = crown.parse_position(game, position)
            assert here.position() == position
            counts = cli_perft(name, position, 2)
            assert [here.perft(1), here.perft(2)] == counts
            if not here.is_chance_node() and not here.is_terminal():
                assert len(here.legal_actions()) == counts[0]


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_same_game(name):
    game = crown.load_game(name)
    a, _ = random_game(game, 7, plies=60)
    b, _ = random_game(game, 7, plies=60)
    assert a.hash() == b.hash() and a.position() == b.position()
    assert a.returns() == b.returns()


@pytest.mark.parametrize("name", GAMES)
def test_start_perft_matches_the_c_engine(name):
    game = crown.load_game(name)
    state = game.new_initial_state()
    assert [state.perft(d) for d in (1, 2)] == cli_perft(name, state.position(), 2)


@pytest.mark.parametrize("name", GAMES)
def test_clone_is_independent(name):
    state = crown.load_game(name).new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    copy = state.clone()
    assert copy.hash() == state.hash() and copy.history_length() == state.history_length()
    copy.apply_action(copy.legal_actions()[0])
    assert copy.hash() != state.hash() or copy.position() != state.position()
    copy.undo()
    assert copy.hash() == state.hash()


@pytest.mark.parametrize("name", GAMES)
def test_observation_tensor(name):
    game = crown.load_game(name)
    shape = game.observation_tensor_shape()
    state, _ = random_game(game, 3, plies=20)
    for player in range(game.num_players()):
        t = state.observation_tensor(player)
        assert isinstance(t, np.ndarray) and t.dtype == np.float32
        assert list(t.shape) == shape
        assert np.array_equal(t, state.observation_tensor(player))
        assert state.observation_string(player).startswith("{")
    assert list(state.observation_tensor().shape) == shape


def test_load_game_options_and_errors():
    game = crown.load_game("kings-valley", {"max-plies": 200})
    assert game.max_game_length() == 200 and game.parameters()["max-plies"] == "200"
    with pytest.raises(crown.Error, match="max-plies"):
        crown.load_game("kings-valley", {"max-plies": 5000})
    with pytest.raises(crown.Error, match="kings-valley"):
        crown.load_game("no-such-game")
    with pytest.raises(crown.Error):
        crown.load_game("kings-valley", {"no-such-option": 1})


def test_bad_input_raises_and_leaves_the_state():
    game = crown.load_game("kings-valley")
    state = game.new_initial_state()
    before = (state.hash(), state.position(), state.history_length())
    with pytest.raises(crown.Error, match="illegal"):
        state.apply_action(123456)
    with pytest.raises(crown.Error):
        state.string_to_action("z9-z1")
    with pytest.raises(crown.Error):
        state.action_to_string(123456)
    with pytest.raises(crown.Error):
        state.undo()
    with pytest.raises(crown.Error):
        state.set_position("not a position")
    with pytest.raises(crown.Error):
        crown.parse_position(game, "x/y/z")
    with pytest.raises(OverflowError):
        state.apply_action(-1)
    with pytest.raises(TypeError):
        state.apply_action("a1-a2")
    assert (state.hash(), state.position(), state.history_length()) == before


def test_agents():
    game = crown.load_game("kings-valley")
    state = game.new_initial_state()
    for spec, kwargs in (("ab", {"depth": 3}), ("mcts", {"iterations": 200}),
                         ("ai:7", {"movetime_ms": 50}), ("random", {})):
        agent = crown.Agent(spec, seed=1, **kwargs)
        action = agent.step(state)
        assert action in state.legal_actions()
    exact = [crown.Agent("ab", depth=4).step(state) for _ in range(2)]
    assert exact[0] == exact[1]
    with pytest.raises(crown.Error):
        crown.Agent("no-such-agent").step(state)
