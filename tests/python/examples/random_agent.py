import random, crown

game = crown.load_game("kings-valley")
state = game.new_initial_state(seed=1)
rng = random.Random(1)
while not state.is_terminal():
    if state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        state.apply_action(rng.choices(actions, probs)[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))
print(state.returns(), state.result_text())
