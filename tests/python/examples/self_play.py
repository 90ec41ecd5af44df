import numpy as np, crown

game = crown.load_game("kings-valley", {"max-plies": 100})
agent = crown.Agent("ab", depth=2, seed=1)
observations, players, results = [], [], []
for seed in range(4):
    state = game.new_initial_state(seed=seed)
    start = len(observations)
    while not state.is_terminal():
        player = state.current_player()
        observations.append(state.observation_tensor(player))
        players.append(player)
        state.apply_action(agent.step(state))
    returns = state.returns()
    results.extend(returns[p] for p in players[start:])
x = np.stack(observations)            # (positions, planes, rows, cols), float32
y = np.array(results, dtype=np.float32)
print(x.shape, y.shape)
