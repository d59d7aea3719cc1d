"""R8 Strict-suit rule (the "clubs rule"): a strict-suit attack card is beaten only by a higher
card of its suit, unless the strict suit is trump."""

from __future__ import annotations

from helpers import D24, assert_illegal, cards, legal, play, position

from durak import Beat, Lead, Take
from durak.presets import get_preset

# Seat 1 holds clubs, spades and hearts; the attack card decides which of them beat.
_DEFENDER = "Tc Kc 9s Js Ah"


def _attack(card: str, trump: str, strict: object = ("c",)) -> object:
    rules = D24.replace(strict_suits=strict)
    state = position(rules, [f"{card} Qd", _DEFENDER], trump=trump)
    return play(state, Lead(0, card))


def test_R8_1_trump_does_not_beat_a_strict_suit_card() -> None:
    state = _attack("Jc", trump="s")
    # Only the higher club; the spade trumps 9s and Js do not beat a club.
    assert legal(state) == {Beat(1, "Jc", "Kc"), Take(1)}
    assert_illegal(state, Beat(1, "Jc", "Js"), "R8.1")
    assert_illegal(state, Beat(1, "Jc", "9s"), "R8.1")


def test_R8_1_a_lower_card_of_the_strict_suit_still_does_not_beat() -> None:
    state = _attack("Jc", trump="s")
    assert_illegal(state, Beat(1, "Jc", "Tc"), "R4.7")


def test_R8_1_higher_card_of_the_strict_suit_beats() -> None:
    state = _attack("9c", trump="s")
    assert legal(state) == {Beat(1, "9c", "Tc"), Beat(1, "9c", "Kc"), Take(1)}
    after = play(state, Beat(1, "9c", "Kc"))
    # Seat 0 has nothing to add, so the defence succeeds at once (R4.10).
    assert after.table == ()
    assert after.discard[-2:] == cards("9c Kc")
    assert after.hands == (cards("Qd"), cards("Tc 9s Js Ah"))
    assert after.attacker == 1


def test_R8_1_defender_with_only_trumps_against_a_strict_card_must_take() -> None:
    rules = D24.replace(strict_suits=["c"])
    state = position(rules, ["Jc 9h", "9s Js Qs As"], trump="s")
    state = play(state, Lead(0, "Jc"))
    assert legal(state) == {Take(1)}


def test_R8_1_other_suits_are_beaten_by_trump_as_usual() -> None:
    state = _attack("Th", trump="s")
    assert legal(state) == {Beat(1, "Th", "9s"), Beat(1, "Th", "Js"), Beat(1, "Th", "Ah"), Take(1)}


def test_R8_1_strict_suit_that_is_trump_behaves_as_a_normal_trump_suit() -> None:
    # Clubs are strict and trump: a club attack is beaten by a higher club only (as any trump),
    # and the club trumps beat the other suits.
    state = _attack("Jc", trump="c")
    assert legal(state) == {Beat(1, "Jc", "Kc"), Take(1)}
    assert_illegal(state, Beat(1, "Jc", "Ah"), "R4.7")
    state = _attack("Jh", trump="c")
    assert legal(state) == {Beat(1, "Jh", "Tc"), Beat(1, "Jh", "Kc"), Beat(1, "Jh", "Ah"), Take(1)}


def test_R8_1_strict_suits_can_be_several() -> None:
    state = _attack("Ts", trump="c", strict=("c", "s"))
    # Ts: spades are strict and not trump, so the club trumps do not beat it.
    assert legal(state) == {Beat(1, "Ts", "Js"), Take(1)}
    assert_illegal(state, Beat(1, "Ts", "Tc"), "R8.1")
    assert_illegal(state, Beat(1, "Ts", "Kc"), "R8.1")


def test_R8_1_no_strict_suits_by_default_contrast() -> None:
    rules = D24
    state = position(rules, ["Jc 9h", _DEFENDER], trump="s")
    state = play(state, Lead(0, "Jc"))
    assert legal(state) == {Beat(1, "Jc", "Kc"), Beat(1, "Jc", "9s"), Beat(1, "Jc", "Js"), Take(1)}


def test_R8_1_clubs_rule_preset_makes_clubs_strict() -> None:
    rules = get_preset("clubs-rule").rules(deck_size=24)
    state = position(rules, ["Jc 9h", _DEFENDER], trump="s")
    state = play(state, Lead(0, "Jc"))
    assert legal(state) == {Beat(1, "Jc", "Kc"), Take(1)}
