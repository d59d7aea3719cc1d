"""Golden OpenSpiel playthroughs of python_durak, one per preset (as OpenSpiel keeps for its own
games): OpenSpiel's ``generate_playthrough`` writes every observer's strings and tensors, the
legal actions and the returns of a seeded random game, and the test replays the recorded actions
and compares the whole text. A change of the action ids, the observations or the rules shows up
as a diff naming the state.

The games stop after 8 player moves (``max_game_length`` = deal + 30) to keep the files small.
After an intended change, write them again with
``DURAK_REGEN=1 python -m pytest tests/test_rl_openspiel_playthroughs.py`` and read the diff.

CI installs the extra, so there a missing library fails the run instead of skipping it.
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest
from absl import flags
from open_spiel.python.algorithms import generate_playthrough

import durak.rl.openspiel_game  # noqa: F401 - registers python_durak
from durak.presets import PRESETS

HERE = Path(__file__).parent / "openspiel_playthroughs"
REGEN = os.environ.get("DURAK_REGEN") == "1"
PLAYER_MOVES = 8

if not flags.FLAGS.is_parsed():
    # generate_playthrough reads an absl flag (whether actions are recorded by id or by text);
    # outside an absl program the defaults stand: by text.
    flags.FLAGS.mark_as_parsed()


def game_string(preset: str) -> str:
    cards = PRESETS[preset].rules().cards
    return f"python_durak(max_game_length={cards + PLAYER_MOVES},preset={preset})"


def golden(preset: str) -> str:
    """The stored playthrough of ``preset`` (written anew under DURAK_REGEN=1)."""
    path = HERE / f"{preset}.txt.gz"
    if not REGEN and not path.exists():
        pytest.fail(f"{path.name} is missing: write it with DURAK_REGEN=1")
    if REGEN:
        HERE.mkdir(exist_ok=True)
        text = generate_playthrough.playthrough(game_string(preset), None, seed=15)
        # mtime=0: the same text gives the same bytes.
        path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    return gzip.decompress(path.read_bytes()).decode("utf-8")


@pytest.mark.parametrize("preset", list(PRESETS))
def test_openspiel_playthrough_matches_the_golden_file(preset: str) -> None:
    original = golden(preset)
    assert original.startswith(f"game: {game_string(preset)}\n")
    kwargs = generate_playthrough._playthrough_params(original.splitlines())
    assert len(kwargs["action_sequence"]) == PRESETS[preset].rules().cards + PLAYER_MOVES
    new = generate_playthrough.playthrough(**kwargs)
    old_lines, new_lines = original.splitlines(), new.splitlines()
    for number, (old_line, new_line) in enumerate(zip(old_lines, new_lines, strict=False), start=1):
        assert new_line == old_line, f"{preset}.txt.gz line {number}"
    assert len(new_lines) == len(old_lines)


def test_german_classic_playthrough_leads_several_cards() -> None:
    """R4.2: the golden game of german-classic holds a lead of several cards of one rank."""
    text = golden("german-classic")
    leads = [
        line
        for line in text.splitlines()
        if line.startswith('# Apply action "p') and " attack " in line
    ]
    assert any(len(line.split(" attack ")[1].rstrip('"').split()) > 1 for line in leads)
