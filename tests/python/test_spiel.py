# test_spiel.py - the module as OpenSpiel's algorithms use pyspiel. The contract of every
# registered game (player ids, game type, dense action indices, masks, serialization and
# pickling, information states), then three algorithms written against pyspiel's
# documented API alone, with `pyspiel` bound to crown and not a line changed for it:
# textbook MCTS (UCT with random rollouts), tabular CFR on King of the Valley's
# information states (a bounded depth of it), and an AlphaZero-style policy/value loop
# with numpy only.
import math
import pickle
import random

import numpy as np
import pytest

import crown as pyspiel

GAMES = pyspiel.registered_names()


def random_state(game, seed, plies):
    """A state `plies` random actions (chance outcomes by their odds) into a game."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal() and state.move_number() < plies:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


# ---- The contract ----------------------------------------------------------------------


def test_player_ids_and_names():
    assert (pyspiel.PlayerId.CHANCE, pyspiel.PlayerId.SIMULTANEOUS, pyspiel.PlayerId.INVALID,
            pyspiel.PlayerId.TERMINAL) == (-1, -2, -3, -4)
    assert pyspiel.CHANCE_PLAYER == -1 and pyspiel.TERMINAL_PLAYER == -4
    assert "king-of-the-valley" in GAMES and GAMES == pyspiel.games()
    game = pyspiel.load_game("kings-valley(max-plies=100)")
    assert game.get_parameters()["max-plies"] == "100" and game.max_game_length() == 100
    assert pyspiel.load_game(str(game)) == game
    with pytest.raises(pyspiel.Error, match="no value"):
        pyspiel.load_game("kings-valley(max-plies)")
    # King Down's captured pieces are counted per kind, not one slot per piece.
    assert pyspiel.load_game("king-down").observation_tensor_shape() == [87, 8, 8]


@pytest.mark.parametrize("name", GAMES)
def test_contract(name):
    game = pyspiel.load_game(name)
    kind = game.get_type()
    chance = game.max_chance_outcomes() > 0
    assert kind.short_name == name and kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == (pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if chance
                                else pyspiel.GameType.ChanceMode.DETERMINISTIC)
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert kind.provides_observation_tensor and kind.provides_information_state_string
    assert kind.min_num_players <= game.num_players() <= kind.max_num_players
    assert set(kind.parameter_specification) == set(game.get_parameters())
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.observation_tensor_size() == math.prod(game.observation_tensor_shape())
    assert pickle.loads(pickle.dumps(game)) == game
    n = game.num_distinct_actions()
    state = game.new_initial_state()
    rng = random.Random(5)
    while not state.is_terminal():
        actions = state.legal_actions()
        assert actions == sorted(set(actions)) and actions
        limit = game.max_chance_outcomes() if state.is_chance_node() else n
        assert 0 <= actions[0] and actions[-1] < limit
        if state.is_chance_node():
            assert state.current_player() == pyspiel.PlayerId.CHANCE
            assert [a for a, _ in state.chance_outcomes()] == actions
        else:
            player = state.current_player()
            assert 0 <= player < game.num_players() and not state.is_simultaneous_node()
            if state.move_number() % 23 == 0:
                mask = state.legal_actions_mask()
                assert len(mask) == n and [a for a in range(n) if mask[a]] == actions
            assert state.legal_actions(1 - player if player < 2 else 0) == []
            action = rng.choice(actions)
            assert state.action_to_string(player, action) == state.action_to_string(action)
            assert state.string_to_action(state.action_to_string(action)) == action
            assert np.array_equal(state.observation_tensor(), state.observation_tensor(player))
        if state.move_number() % 37 == 0:
            child = state.child(actions[0])
            assert child.history() == state.history() + [actions[0]]
            again = game.deserialize_state(state.serialize())
            assert again.history() == state.history() and again.hash() == state.hash()
            copied = pickle.loads(pickle.dumps(state))
            assert copied.position() == state.position() and copied.get_game() == game
        state.apply_action(rng.choice(actions))
        assert state.rewards() == state.returns()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.move_number() == len(state.history()) <= game.max_game_length()
    assert sum(state.returns()) == pytest.approx(game.utility_sum())
    history = state.full_history()
    assert [h.action for h in history] == state.history()
    assert all(h.player in range(game.num_players()) or h.player == pyspiel.PlayerId.CHANCE
               for h in history)


def test_information_states_of_king_of_the_valley():
    game = pyspiel.load_game("king-of-the-valley")
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert (kind.min_num_players, kind.max_num_players) == (2, 4)
    state = random_state(game, 3, 30)
    player = state.current_player()
    text = state.information_state_string(player)
    assert text == state.information_state_string()
    assert text != state.information_state_string(1 - player)
    tensor = state.information_state_tensor(player)
    assert list(tensor.shape) == game.information_state_tensor_shape()
    rng = random.Random(1)
    sample = state.resample_from_infostate(player, rng.random)
    assert sample.information_state_string(player) == text
    assert sample.legal_actions() == state.legal_actions()
    with pytest.raises(pyspiel.Error, match="seat"):
        state.information_state_string(7)


# ---- OpenSpiel's algorithms, as written for pyspiel -------------------------------------


def uct_search(state, iterations, rng, c=1.4):
    """Textbook MCTS: UCT selection, one node expanded per iteration, a uniformly random
    rollout to the end, returns backed up for the player who chose each action."""
    root = {"n": 0, "children": {}}
    for _ in range(iterations):
        node, path, working = root, [], state.clone()
        while not working.is_terminal():
            if working.is_chance_node():
                actions, probs = zip(*working.chance_outcomes())
                working.apply_action(rng.choices(actions, probs)[0])
                continue
            player = working.current_player()
            untried = [a for a in working.legal_actions() if a not in node["children"]]
            if untried:
                action = rng.choice(untried)
                node["children"][action] = {"n": 0, "w": 0.0, "children": {}}
            else:
                action = max(node["children"], key=lambda a: node["children"][a]["w"] /
                             node["children"][a]["n"] + c * math.sqrt(
                                 math.log(node["n"]) / node["children"][a]["n"]))
            path.append((node, player))
            node = node["children"][action]
            path[-1] = (path[-1][0], player, node)
            working.apply_action(action)
            if untried:
                break
        while not working.is_terminal():
            if working.is_chance_node():
                actions, probs = zip(*working.chance_outcomes())
                working.apply_action(rng.choices(actions, probs)[0])
            else:
                working.apply_action(rng.choice(working.legal_actions()))
        returns = working.returns()
        root["n"] += 1
        for parent, player, child in path:
            child["n"] += 1
            child["w"] += returns[player]
    return max(root["children"], key=lambda a: root["children"][a]["n"])


@pytest.mark.parametrize("name", GAMES)
def test_textbook_mcts(name):
    game = pyspiel.load_game(name)
    state = random_state(game, 1, 4)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    action = uct_search(state, 12, random.Random(2))
    assert action in state.legal_actions()


def cfr(game, root, depth, iterations):
    """Tabular CFR (regret matching, average strategy) over information_state_string, on
    the tree of `depth` player actions below root, with a leaf's value its returns (zero
    while the game goes on). Returns the average policy per information state."""
    regrets, strategy_sum = {}, {}

    def policy(key, actions):
        positive = [max(regrets.setdefault(key, {}).get(a, 0.0), 0.0) for a in actions]
        total = sum(positive)
        return [p / total if total else 1.0 / len(actions) for p in positive]

    def walk(state, reach, left):
        if state.is_terminal() or left == 0:
            return np.array(state.returns())
        if state.is_chance_node():
            return sum(p * walk(state.child(a), reach * p, left)
                       for a, p in state.chance_outcomes())
        player, actions = state.current_player(), state.legal_actions()
        key = state.information_state_string(player)
        probs = policy(key, actions)
        values = [walk(state.child(a), reach * np.where(np.arange(len(reach)) == player, p, 1),
                       left - 1) for a, p in zip(actions, probs)]
        value = sum(p * v for p, v in zip(probs, values))
        others = np.prod(np.delete(reach, player))
        table, sums = regrets[key], strategy_sum.setdefault(key, {})
        for a, p, v in zip(actions, probs, values):
            table[a] = table.get(a, 0.0) + others * (v[player] - value[player])
            sums[a] = sums.get(a, 0.0) + reach[player] * p
        return value

    for _ in range(iterations):
        walk(root.clone(), np.ones(game.num_players()), depth)
    return {key: {a: s / (sum(sums.values()) or 1.0) for a, s in sums.items()}
            for key, sums in strategy_sum.items()}


def test_cfr_on_king_of_the_valley_information_states():
    game = pyspiel.load_game("king-of-the-valley")
    root = game.new_initial_state()
    average = cfr(game, root, 2, 3)
    assert root.information_state_string() in average
    for table in average.values():
        assert sum(table.values()) == pytest.approx(1.0)


def alphazero_step(game, params, rng, simulations=4, moves=6, lr=0.01):
    """An AlphaZero-style loop: PUCT search guided by a policy/value network (one tanh
    layer, numpy), a short self-play game, then a gradient step of the cross-entropy to
    the visit counts and the squared error to the outcome."""
    proj, w_policy, w_value = params

    def net(state):
        x = np.asarray(state.observation_tensor(), dtype=np.float64).ravel()
        h = np.tanh(proj @ x)
        legal = state.legal_actions()
        logits = h @ w_policy[:, legal]
        prior = np.exp(logits - logits.max())
        return x, h, legal, prior / prior.sum(), float(np.tanh(h @ w_value))

    def puct(state):
        _, _, legal, prior, _ = net(state)
        visits, totals = np.zeros(len(legal)), np.zeros(len(legal))
        for s in range(simulations):
            score = totals / np.maximum(visits, 1) + 1.5 * prior * math.sqrt(s + 1) / (1 + visits)
            i = int(np.argmax(score))
            child = state.child(legal[i])
            while child.is_chance_node():
                actions, probs = zip(*child.chance_outcomes())
                child.apply_action(rng.choices(actions, probs)[0])
            value = (child.returns()[state.current_player()] if child.is_terminal()
                     else net(child)[4] * (1 if child.current_player() == state.current_player()
                                           else -1))
            visits[i] += 1
            totals[i] += value
        return legal, visits / visits.sum()

    state, samples = game.new_initial_state(), []
    while not state.is_terminal() and len(samples) < moves:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
            continue
        legal, target = puct(state)
        samples.append((state.clone(), state.current_player(), legal, target))
        state.apply_action(legal[int(rng.choices(range(len(legal)), target)[0])])
    outcome = state.returns()
    loss = 0.0
    for sample, player, legal, target in samples:
        x, h, _, prior, value = net(sample)
        loss += -float(np.log(prior + 1e-12) @ target) + (outcome[player] - value) ** 2
        grad_logits = prior - target
        grad_value = -2 * (outcome[player] - value) * (1 - value ** 2)
        grad_h = w_policy[:, legal] @ grad_logits + grad_value * w_value
        w_policy[:, legal] -= lr * np.outer(h, grad_logits)
        w_value -= lr * grad_value * h
        proj -= lr * np.outer(grad_h * (1 - h ** 2), x)
    return loss / max(len(samples), 1)


@pytest.mark.parametrize("name", GAMES)
def test_alphazero_style_loop(name):
    game = pyspiel.load_game(name)
    rng, np_rng = random.Random(3), np.random.default_rng(3)
    hidden = 8
    params = (np_rng.normal(0, 0.01, (hidden, game.observation_tensor_size())),
              np.zeros((hidden, game.num_distinct_actions())), np.zeros(hidden))
    losses = [alphazero_step(game, params, rng) for _ in range(2)]
    assert all(math.isfinite(loss) for loss in losses)
