"""Golden game records, one per preset (R14): replaying each must reach its recorded result.

They catch any change in the engine's behaviour or in the record format; tests/golden/
regenerate.py writes them again when a change is intended.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from durak.presets import PRESETS
from durak.records import dumps, load, replay

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


def test_there_is_a_golden_record_for_every_preset_and_no_other() -> None:
    assert sorted(p.stem for p in GOLDEN.glob("*.json")) == sorted(PRESETS)
