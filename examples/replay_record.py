"""Record a game, save it as JSON, load it back and replay it step by step.

Run: python examples/replay_record.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from durak import Rules, apply, new_game, next_actor, view
from durak.bots import RuleBot
from durak.records import Record, dump, load, replay

rules = Rules(players=2)
state = new_game(rules, seed=5)
record = Record.start(rules, seed=5)
bots = [RuleBot(seed=0), RuleBot(seed=1)]
while not state.is_over:
    seat = next_actor(state)
    assert seat is not None
    action = bots[seat].choose(view(state, seat))
    state, record = apply(state, action), record.add(action)
record = record.finish(state)

with tempfile.TemporaryDirectory() as folder:
    path = Path(folder) / "game.json"
    dump(record, path)
    loaded = load(path)

# replay() checks every action and the recorded result; stepping by hand shows each move
assert replay(loaded) == state
step = loaded.initial_state()
for i, action in enumerate(loaded.actions):
    step = apply(step, action)
    if i < 5 or i == len(loaded.actions) - 1:
        print(f"{i:3}: {action}")
print(f"{len(loaded.actions)} actions, durak {loaded.result.durak if loaded.result else None}")
