"""Golden game records, one per preset (R14): replaying each must reach its recorded result.

They catch any change in the engine's behaviour or in the record format; tests/golden/
regenerate.py writes them again when a change is intended. The engine wrote them, so they are
also checked against the property tests' independent ledger (test_properties.Ledger): every
recorded action is one the rule book allows, every state lists exactly the actions the ledger
allows, and the recorded result is the one the ledger's account of the game gives.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_properties import BY_THE_BOOK, Ledger, check_by_the_book, check_result, check_transition

from durak import apply, legal_actions
from durak.presets import PRESETS
from durak.records import dumps, load, replay
from durak.rules.modules import plan_for

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_R14_golden_record_of_every_preset_replays_to_its_result(name: str) -> None:
    path = GOLDEN / f"{name}.json"
    record = load(path)
    assert record.rules == PRESETS[name].rules()
    end = replay(record)  # checks every action (R13.3) and the recorded result
    assert end.result is not None and end.result == record.result
    assert len(record.actions) > 10
    assert dumps(record) == path.read_text(encoding="utf-8")  # the format is stable


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_R13_4_golden_record_of_every_preset_is_legal_by_the_ledger(name: str) -> None:
    record = load(GOLDEN / f"{name}.json")
    rules = record.rules
    deck = sorted(plan_for(rules).deck)  # jokers too (R15.1)
    state = record.initial_state()
    ledger = Ledger.start(state)
    for i, action in enumerate(record.actions):
        assert not state.is_over, f"{name}: actions recorded after the end, from step {i}"
        # The ledger's bounds: the listed actions are exactly the ones the rules allow ...
        check_by_the_book(state, ledger, legal_actions(state))
        # ... and the recorded one is among them (presets enable neither R12 action nor a catch).
        assert isinstance(action, BY_THE_BOOK), f"{name}, step {i}: {action}"
        assert action in ledger.allowed_in(state), (
            f"{name}, step {i}: {action} is not allowed by the rules"
        )
        new = apply(state, action)
        ledger = check_transition(state, action, new, ledger, deck)
        state = new
    assert state.is_over, f"{name}: the record ends before the game"
    check_result(state, ledger)
    assert state.result == record.result


def test_there_is_a_golden_record_for_every_preset_and_no_other() -> None:
    assert sorted(p.stem for p in GOLDEN.glob("*.json")) == sorted(PRESETS)
