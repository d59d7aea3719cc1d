"""examples/third_party_frontend.py (issue 32's "done means"): whole games played through it by a
player who types as people do, in every shipped language, saved and loaded half-way."""

from __future__ import annotations

import importlib.util
import io
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from durak import Action, Beat, Game, Lead, Pass, Rules, ShowTrump, Take, ThrowIn, Transfer
from durak.i18n import Language
from durak.presets import PRESETS

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "third_party_frontend.py"

TAKE = {"en": "take", "de": "nehme", "pl": "biorę", "ru": "беру"}
PASS = {"en": "pass", "de": "fertig", "pl": "pas", "ru": "бито"}


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("third_party_frontend", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def typed(action: Action, lang: Language) -> str:
    """What a player writes for ``action`` in ``lang``: the cards as his screen prints them."""
    match action:
        case Lead(cards=cards):
            return lang.cards(cards)
        case Transfer(cards=cards):
            return "transfer " + lang.cards(cards)
        case ThrowIn(card=card):
            return lang.card(card)
        case Beat(attack=attack, card=card):
            return f"{lang.card(attack)} {lang.card(card)}"
        case Take():
            return TAKE[lang.code]
        case Pass():
            return PASS[lang.code]
        case ShowTrump(card=card):
            return "show " + lang.card(card, ascii=True)
    return str(action).partition(" ")[2]


def play(front: object, rng: random.Random, until: int | None = None) -> None:
    """The player types a random legal move of his, each time checked to be the one played."""
    game: Game = front.game  # type: ignore[attr-defined]
    game.play_bots()
    while not game.is_over and (until is None or len(game.moves) < until):
        me = game.view(0)
        action = rng.choice(me.legal_actions)
        answer = front.handle(typed(action, Language(front.lang.code)))  # type: ignore[attr-defined]
        assert action in game.moves, (typed(action, front.lang), answer)  # type: ignore[attr-defined]
        front.screen()  # type: ignore[attr-defined]


RULES = [Rules(players=3), PRESETS["perevodnoy"].rules(players=3, transfer_by_showing_trump=True)]


@pytest.mark.parametrize("lang", ["en", "de", "pl", "ru"])
@pytest.mark.parametrize("rules", RULES, ids=["podkidnoy", "perevodnoy"])
def test_issue32_whole_games_through_the_example_saved_and_loaded_half_way(
    lang: str, rules: Rules, tmp_path: Path
) -> None:
    example = _example()
    for seed in range(3):
        bots = {1: "rule", 2: "random"}
        whole = example.Frontend(Game(rules, seed=seed, bots=bots), lang)
        play(whole, random.Random(seed))
        assert whole.game.is_over and whole.result()

        broken = example.Frontend(Game(rules, seed=seed, bots=bots, meta={"by": "test"}), lang)
        rng = random.Random(seed)
        play(broken, rng, until=25)
        path = tmp_path / f"game-{seed}.json"
        assert broken.handle(f"save {path}") == f"saved to {path}"
        loaded = Game.load(path)
        assert loaded.meta == {"by": "test"}
        again = example.Frontend(loaded, lang)
        play(again, rng)
        assert again.game.moves == whole.game.moves
        assert again.game.outcome() == whole.game.outcome()


def test_issue32_the_example_refuses_in_the_players_language_and_undoes() -> None:
    example = _example()
    front = example.Frontend(Game(Rules(players=3), seed=1, bots={1: "rule", 2: "rule"}), "ru")
    out = io.StringIO()
    example.run(front, ["xx", "2c", "undo", "quit"], out)
    text = out.getvalue()
    assert "это не карта и не ход: 'xx'" in text
    assert "нет 2♣" in text or "2♣" in text
    assert "nothing to undo" in text or "took back" in text


def test_issue32_the_example_runs_and_is_strictly_typed() -> None:
    done = subprocess.run(
        [sys.executable, str(EXAMPLE)], capture_output=True, text=True, timeout=120, check=True
    )
    assert "moves" in done.stdout
    checked = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", str(EXAMPLE)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert checked.returncode == 0, checked.stdout
