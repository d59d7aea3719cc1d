"""Play a whole game through the API, printing every action.

Run: python examples/play_game.py
"""

from __future__ import annotations

import random

from durak import Rules, apply, legal_actions, new_game, next_actor

state = new_game(Rules(players=3), seed=2024)  # deal (R2); the lowest trump leads (R3.1)
print(f"trump: {state.trump.name.lower()} (face-up card {state.trump_card})")
rng = random.Random(1)
while not state.is_over:
    player = next_actor(state)  # one actor at a time (R13.2)
    assert player is not None
    action = rng.choice(legal_actions(state, player))
    print(action)  # e.g. "p1 beat 7h 9h"
    state = apply(state, action)  # a new state; the old one is unchanged (R13.3)
assert state.result is not None
print(f"durak: {state.result.durak}, places: {state.result.places}")
