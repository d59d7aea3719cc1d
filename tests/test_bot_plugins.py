"""Bots from outside the library: ``--bots module:Class`` and ``make_bot("module:Class")``, and
bots that installed packages add through the ``durak.bots`` entry points, listed by
``durak bots`` (R13: a bot chooses from its view's legal actions)."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from durak import Rules, apply, new_game, next_actor, view
from durak.bots import ENTRY_POINT_GROUP, bot_names, installed_bots, make_bot
from durak.cli import main
from durak.tournament import run_tournament

BOT_MODULE = '''
"""Bots for the tests: not part of durak."""


class LastBot:
    """Always the last of the legal actions."""

    def __init__(self, seed=None, offset=0):
        self.seed = seed
        self.offset = offset

    def choose(self, view):
        return view.legal_actions[-1 - self.offset]


class NoSeedBot:
    """Always the first legal action; takes no seed."""

    def choose(self, view):
        return view.legal_actions[0]


class NotABot:
    pass


def broken():
    raise RuntimeError("cannot start")
'''


@pytest.fixture
def plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A module ``outside_bots`` on the path, and a distribution ``outside-bots`` whose entry
    points add the bots ``last`` and ``broken`` (and try to replace ``rule``)."""
    (tmp_path / "outside_bots.py").write_text(BOT_MODULE, encoding="utf-8")
    info = tmp_path / "outside_bots-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: outside-bots\nVersion: 1.0\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(
        f"[{ENTRY_POINT_GROUP}]\nlast = outside_bots:LastBot\nbroken = outside_bots:Gone\n"
        "rule = outside_bots:NoSeedBot\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    sys.modules.pop("outside_bots", None)


def _play(bots: list[object]) -> int:
    state = new_game(Rules(players=len(bots)), seed=3)
    moves = 0
    while not state.is_over:
        seat = next_actor(state)
        assert seat is not None
        state = apply(state, bots[seat].choose(view(state, seat)))  # type: ignore[attr-defined]
        moves += 1
    return moves


def test_R13_a_module_class_bot_is_made_with_its_seed_and_options(plugin: Path) -> None:
    bot = make_bot("outside_bots:LastBot:offset=0", 7)
    assert type(bot).__name__ == "LastBot" and bot.seed == 7  # type: ignore[attr-defined]
    assert type(make_bot("outside_bots:NoSeedBot", 7)).__name__ == "NoSeedBot"
    assert _play([bot, make_bot("outside_bots:NoSeedBot")]) > 0


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("no_such_module:Bot", "cannot import the bot module 'no_such_module'"),
        ("outside_bots:Missing", "has no 'Missing'"),
        ("outside_bots:NotABot", "has no choose method"),
        ("outside_bots:broken", "bot 'outside_bots:broken' failed to start: cannot start"),
        ("outside_bots:LastBot:colour=red", "bad options for bot 'outside_bots:LastBot'"),
        (
            "nonsense",
            "unknown bot 'nonsense' (known: random, rule, search, learned, guided, leaf, broken, "
            "last",
        ),
    ],
)
def test_a_bot_that_cannot_be_made_is_named_with_the_reason(
    plugin: Path, name: str, words: str
) -> None:
    with pytest.raises(ValueError, match=re.escape(words)):
        make_bot(name, 1)


def test_installed_packages_add_bots_through_entry_points_but_cannot_replace_one(
    plugin: Path,
) -> None:
    assert sorted(installed_bots()) == ["broken", "last"]
    assert bot_names() == (
        "random", "rule", "search", "learned", "guided", "leaf", "broken", "last"
    )
    assert type(make_bot("last", 1)).__name__ == "LastBot"
    assert type(make_bot("rule", 1)).__name__ == "RuleBot"  # the built-in one wins
    with pytest.raises(ValueError, match=r"the installed bot 'broken' .*fails to load"):
        make_bot("broken", 1)


def test_durak_bots_lists_the_built_in_and_the_installed_bots(
    plugin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bots", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    by_name = {row["name"]: row for row in rows}
    assert list(by_name) == [
        "random", "rule", "search", "learned", "guided", "leaf", "broken", "last"
    ]
    assert by_name["rule"]["source"] == "built in"
    assert by_name["last"] == {
        "name": "last",
        "source": "outside-bots",
        "target": "outside_bots:LastBot",
        "summary": "Always the last of the legal actions.",
    }
    assert by_name["broken"]["summary"].startswith("(fails to load: ")
    assert main(["bots"]) == 0
    text = capsys.readouterr().out
    assert "last     outside-bots (outside_bots:LastBot): Always the last" in text


def test_simulate_takes_module_class_and_installed_bots(
    plugin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["simulate", "--games", "6", "--seed", "1", "--json", "--quiet"]
    assert main([*args, "--bots", "outside_bots:LastBot,last"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 6


def test_a_bad_bots_option_exits_2_naming_the_module(
    plugin: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", "--games", "2", "--bots", "no_such_module:Bot"])
    assert exit_.value.code == 2
    assert "cannot import the bot module 'no_such_module'" in capsys.readouterr().err


def test_a_tournament_takes_a_module_class_bot(plugin: Path) -> None:
    result = run_tournament(Rules(), ["outside_bots:LastBot", "random"], games=4, seed=2)
    assert [s.name for s in result.stats] == ["outside_bots:LastBot", "random"]
    assert sum(s.games for s in result.stats) == 8
