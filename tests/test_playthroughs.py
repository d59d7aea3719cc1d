"""Golden playthroughs and perft counts: any change in what is legal shows up at once.

- A **playthrough** (as OpenSpiel keeps for its games) is one seeded random game per preset,
  written as text: every state (hands, stock, table, roles, passes, places) and its full set of
  legal actions, then the action played. ``tests/playthroughs/<preset>.txt`` holds it; the test
  plays the game again and compares line by line, so the first differing line names the step.
- A **perft** count (as chess engines keep) is the number of legal action sequences of a given
  length from a fixed position: the deal of seed 0 of every preset, depths 1 to
  :data:`PERFT_DEPTH`. ``tests/playthroughs/perft.json`` holds them.

After a change that is meant to change what is legal, write the files again with
``DURAK_REGEN=1 python -m pytest tests/test_playthroughs.py`` and read the diff.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from durak import GameState, apply, legal_actions, new_game
from durak.cards import format_cards
from durak.presets import PRESETS

HERE = Path(__file__).parent / "playthroughs"
REGEN = os.environ.get("DURAK_REGEN") == "1"
PERFT_DEPTH = 5
PERFT_FILE = HERE / "perft.json"


def describe(state: GameState) -> list[str]:
    """The state as text, every hidden card included, one fact per line."""
    hands = " / ".join(format_cards(h) or "-" for h in state.hands)
    table = " ".join(f"{a}:{b}" if b is not None else str(a) for a, b in state.table) or "-"
    lines = [
        f"  hands: {hands}",
        f"  stock: {format_cards(state.stock) or '-'}  trump: {state.trump.letter}",
        f"  table: {table}  H: {state.defender_hand}  taken: {state.taken}",
        f"  attacker: {state.attacker}  defender: {state.defender}  leader: {state.leader}"
        f"  joined: {list(state.joined)}  passed: {sorted(state.passed)}",
        f"  bouts: {state.bouts}  defences: {state.defences}  places: {list(state.places)}"
        f"  left: {sorted(state.left)}",
    ]
    if state.result is not None:
        r = state.result
        lines.append(
            f"  result: durak {r.durak}  draw {r.draw}  places {list(r.places)}"
            f"  winners {list(r.winners)}  losers {list(r.losers)}"
        )
    return lines


def playthrough(preset: str) -> list[str]:
    """The text of the preset's golden game."""
    rules = PRESETS[preset].rules()
    rng = random.Random(f"playthrough:{preset}")
    state = new_game(rules, seed=f"playthrough:{preset}")
    out = [f"# {preset}: {rules.to_dict()}"]
    for step in range(2000):
        out.append(f"step {step}")
        out.extend(describe(state))
        legal = legal_actions(state)
        out.append("  legal: " + ", ".join(str(a) for a in legal))
        if state.is_over:
            return out
        action = legal[rng.randrange(len(legal))]
        out.append(f"  play: {action}")
        state = apply(state, action)
    raise AssertionError(f"{preset}: the golden game did not end in 2000 steps")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_golden_playthrough_of_every_preset(preset: str) -> None:
    path = HERE / f"{preset}.txt"
    lines = playthrough(preset)
    if REGEN:
        HERE.mkdir(exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    golden = path.read_text(encoding="utf-8").splitlines()
    for i, (got, want) in enumerate(zip(lines, golden, strict=False)):
        assert got == want, f"{path.name}:{i + 1}: got {got!r}, golden {want!r}"
    assert len(lines) == len(golden), f"{path.name}: {len(lines)} lines, golden {len(golden)}"


def perft(state: GameState, depth: int) -> int:
    """The number of legal action sequences of length ``depth`` from ``state`` (a finished
    game ends a sequence early and counts once)."""
    if depth == 0 or state.is_over:
        return 1
    return sum(perft(apply(state, a), depth - 1) for a in legal_actions(state))


def perft_counts() -> dict[str, list[int]]:
    return {
        preset: [
            perft(new_game(PRESETS[preset].rules(), seed=0), d) for d in range(1, PERFT_DEPTH + 1)
        ]
        for preset in sorted(PRESETS)
    }


def test_perft_counts_of_every_preset() -> None:
    counts = perft_counts()
    if REGEN:
        PERFT_FILE.write_text(json.dumps(counts, indent=1) + "\n", encoding="utf-8")
    golden = json.loads(PERFT_FILE.read_text(encoding="utf-8"))
    assert counts == golden
    # The counts are sequences, so they never shrink with depth in these early positions.
    for preset, row in counts.items():
        assert row == sorted(row), preset
