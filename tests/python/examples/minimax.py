import crown

def minimax(state, depth, player):
    """The value for `player` of a two-player game searched `depth` actions deep."""
    if state.is_terminal():
        return state.returns()[player]
    if depth == 0:
        return 0.0
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        values.append(minimax(child, depth - 1, player))
    return max(values) if state.current_player() == player else min(values)

game = crown.load_game("kings-valley")
state = game.new_initial_state()
me = state.current_player()

def value_after(action):
    child = state.clone()
    child.apply_action(action)
    return minimax(child, 2, me)

best = max(state.legal_actions(), key=value_after)
print(state.action_to_string(best))
