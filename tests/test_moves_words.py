"""Issue 40, items 7 and 8: every word a player types, and every description the library says.

What the library says of a move (``Language(code).say(action.describe())``), in each language it
speaks, ``parse_action`` reads back to that move in its position, in random games of every preset;
and the words and card forms players type (Russian suit letters, the words of each language,
punctuation) are read as the move they mean.
"""

from __future__ import annotations

import random

import pytest
from optional_parts import examples

from durak import Rules, apply, legal_actions, new_game, next_actor, view
from durak.actions import Beat, Lead, Pass, ShowTrump, Take, ThrowIn, Transfer
from durak.cards import Card
from durak.i18n import Language
from durak.moves import parse_action, read_card
from durak.presets import PRESETS
from durak.state import GameState

LANGUAGES = ("en", "de", "pl", "ru")


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_issue40_8_every_description_in_every_language_reads_back_to_its_action(
    preset: str,
) -> None:
    said = 0
    for seed in range(examples(4)):
        rules = PRESETS[preset].rules()
        state = new_game(rules, seed=seed)
        rng = random.Random(seed)
        while state.result is None:
            for seat in range(rules.players):
                seen = view(state, seat)
                for action in seen.legal_actions:
                    for code in LANGUAGES:
                        text = Language(code).say(action.describe())
                        assert parse_action(text, seen) == action, (preset, code, text)
                        said += 1
            state = apply(state, rng.choice(legal_actions(state, next_actor(state))))
    assert said > 100


@pytest.mark.parametrize(
    ("word", "card"),
    [
        ("10ч", "Th"),
        ("Тт", "Ac"),
        ("Вп", "Js"),
        ("Тк", "Ac"),
        ("Дб", "Qd"),
        ("А♣", "Ac"),  # a Cyrillic А
        ("кч", "Kh"),
        ("D♥", "Qh"),
    ],
)
def test_issue40_7_russian_suit_letters_and_a_cyrillic_ace_are_cards(word: str, card: str) -> None:
    assert read_card(word) == Card.parse(card)


def _defending() -> tuple[GameState, int]:
    """A two-player position where seat 1 defends against 6c (seed 1: seat 0 leads 6c)."""
    state = new_game(Rules(players=2), seed=1)
    state = apply(state, Lead(0, (Card.parse("6c"),)))
    return state, 1


@pytest.mark.parametrize(
    "text", ["отбой", "бита", "Бито!", "pass.", "weiter", "passen", "пас", "pasuję", "pasuje"]
)
def test_issue40_7_the_words_for_pass(text: str) -> None:
    state = new_game(Rules(players=2), seed=1)
    state = apply(state, Lead(0, (Card.parse("6c"),)))
    state = apply(state, Beat(1, Card.parse("6c"), Card.parse("9c")))
    assert parse_action(text, view(state, 0)) == Pass(0)


@pytest.mark.parametrize("text", ["забрал", "беру!", "Беру.", "nehme", "biorę", "biore", "take!"])
def test_issue40_7_the_words_for_take(text: str) -> None:
    state, seat = _defending()
    assert parse_action(text, view(state, seat)) == Take(seat)


def test_issue40_7_words_before_or_after_the_cards_in_each_language() -> None:
    state, seat = _defending()
    seen = view(state, seat)
    beat = Beat(1, Card.parse("6c"), Card.parse("9c"))
    for text in ("steche 6c mit 9c", "6♣ mit 9♣ schlagen", "przebij 6c kartą 9c", "бью 6c 9c"):
        assert parse_action(text, seen) == beat, text


def test_issue40_7_transfer_show_and_throw_in_words() -> None:
    rules = PRESETS["perevodnoy-show-trump"].rules(players=3)
    for seed in range(40):
        state = new_game(rules, seed=seed)
        state = apply(state, legal_actions(state, next_actor(state))[0])
        defender = state.defender
        seen = view(state, defender)
        transfers = [a for a in seen.legal_actions if isinstance(a, Transfer)]
        shows = [a for a in seen.legal_actions if isinstance(a, ShowTrump)]
        if not (transfers and shows):
            continue
        card = str(transfers[0].cards[0])
        for text in (f"переведу {card}", f"przekazuję {card}", f"{card} weiterschieben"):
            assert parse_action(text, seen) == transfers[0], text
        shown = str(shows[0].card)
        for text in (f"pokazuję {shown}", f"покажу козырь {shown}", f"Trumpf {shown} zeigen"):
            assert parse_action(text, seen) == shows[0], text
        break
    else:
        pytest.fail("no position with both a transfer and a show")


def test_issue40_7_throw_in_words_and_a_bare_lay_down() -> None:
    for seed in range(60):
        state = new_game(Rules(players=3), seed=seed)
        state = apply(state, legal_actions(state, next_actor(state))[0])
        for seat in range(3):
            throws = [a for a in view(state, seat).legal_actions if isinstance(a, ThrowIn)]
            if throws:
                card = str(throws[0].card)
                seen = view(state, seat)
                for text in (f"подкину {card}", f"dokładam {card}", f"lege {card}", f"{card}!"):
                    assert parse_action(text, seen) == throws[0], text
                return
    pytest.fail("no position with a throw-in")


def test_issue40_7_show_or_throw_with_two_cards_asks_for_one_not_a_beat() -> None:
    from durak.moves import MoveTextError

    state, seat = _defending()
    for text in ("show 9s 9c", "throw 6c 9c"):
        with pytest.raises(MoveTextError) as info:
            parse_action(text, view(state, seat))
        assert info.value.code == "move.one-card"
        assert Language("ru").say(info.value.message).endswith("укажите одну карту")
