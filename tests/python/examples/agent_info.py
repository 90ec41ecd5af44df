import crown

game = crown.load_game("king-down")
state = game.new_initial_state()
agent = crown.Agent("ab", depth=4)
action, score, pv = agent.step_with_info(state)
print(state.action_to_string(action), score, len(pv), agent.last_nodes())
mcts = crown.Agent("mcts", iterations=500, seed=1)
action, value, pv = mcts.step_with_info(state)
print(state.action_to_string(action), f"{value:+.2f}")
