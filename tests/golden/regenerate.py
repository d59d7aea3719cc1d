"""Write the golden game records: one finished game per preset, played by seeded random choices.

The records pin the engine's behaviour: tests/test_golden.py replays each one and must reach
the recorded result. Run this only when a change of behaviour is intended (and say so in the
CHANGELOG):

    python tests/golden/regenerate.py
"""

from __future__ import annotations

import random
from pathlib import Path

from durak import apply, legal_actions, new_game
from durak.presets import PRESETS
from durak.records import Record, dumps

HERE = Path(__file__).parent
STEP_BOUND = 3_000


def golden(name: str) -> Record:
    """The golden record of preset ``name``: seed ``golden:<name>``, uniform random choices."""
    rules = PRESETS[name].rules()
    seed = f"golden:{name}"
    state = new_game(rules, seed=seed)
    record = Record.start(rules, seed=seed, dealer=state.dealer)
    rng = random.Random(seed)
    for _ in range(STEP_BOUND):
        if state.is_over:
            break
        action = rng.choice(legal_actions(state))
        state = apply(state, action)
        record = record.add(action)
    assert state.is_over, f"{name}: no end within {STEP_BOUND} steps"
    return record.finish(state)


if __name__ == "__main__":
    for name in PRESETS:
        (HERE / f"{name}.json").write_text(dumps(golden(name)), encoding="utf-8")
        print(f"wrote {name}.json")
