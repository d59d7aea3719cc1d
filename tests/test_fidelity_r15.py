"""Fidelity of the R15 extensions against the rule book's text, and the bound on a listing.

- R15.1 with R15.5: a card on a joker breaks R15.1, which cheating does not lift, so no cheat
  beat is offered on a joker; every refusal that concerns a joker cites R15.1.
- R15.5: the cheating facts of a position (``extra["cheats"]``) must agree with the table: a
  lead, a transfer card or a fair beat is no cheat, a cheat has its true owner, a card is
  listed once.
- R13.1: the largest listing any accepted :class:`~durak.Rules` can produce is bounded
  (:func:`durak.rules.listing_bound`), and rules past :data:`durak.rules.MAX_LISTING` are
  refused naming the setting.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers import assert_illegal, cards, legal, play

from durak import (
    Beat,
    GameState,
    Lead,
    PositionError,
    Rules,
    RulesError,
    Take,
    ThrowIn,
    legal_actions,
    new_position,
    validate_state,
)
from durak.rules import MAX_LISTING, listing_bound
from durak.rules.extensions import Catch, cheats_on_table
from durak.rules.modules import plan_for
from durak.serialize import state_from_dict, state_to_dict


def at(rules: Rules, hand_texts: list[str], **fields: Any) -> GameState:
    """A position; every card of the rules' deck (jokers too) not named lies in the discard."""
    used = {c for h in hand_texts for c in cards(h)}
    table = fields.get("table", ())
    for attack, card in table:
        used |= set(cards(attack)) | (set(cards(card)) if card else set())
    used |= set(cards(fields.get("stock", "")))
    discard = [c for c in plan_for(rules).deck if c not in used]
    fields.setdefault("attacker", 0)
    return new_position(rules, hands=hand_texts, discard=discard, **fields)


# --------------------------------------------------------------------------------------------
# R15.1 with R15.5: no cheat beats a joker
# --------------------------------------------------------------------------------------------


def test_R15_1_R15_5_a_led_joker_must_be_taken_also_with_cheating() -> None:
    rules = Rules(deck_size=52, jokers=1, cheating=True)
    state = at(rules, ["Jk 5d", "Ah Kh 2c"], stock="Qh", trump="h")
    state = play(state, Lead(0, "Jk"))
    assert legal(state, 1) == {Take(1)}  # no beat, fair or cheat, of a joker (R15.1)
    for card in ("Ah", "Kh", "2c"):
        assert_illegal(state, Beat(1, "Jk", card), "R15.1")


def test_R15_1_R15_5_no_joker_beats_another_joker_as_a_cheat() -> None:
    rules = Rules(players=3, deck_size=52, jokers=2, cheating=True)
    state = at(rules, ["Jk 9c", "Jk#2 As Ks", "7d 8d"], trump="s")
    state = play(state, Lead(0, "Jk"))
    assert legal(state, 1) == {Take(1)}
    assert_illegal(state, Beat(1, "Jk", "Jk#2"), "R15.1")
    # A cheat still breaks R4.7 as it did: a low card "beats" a plain card; a joker beats it.
    state = at(rules, ["9c Kd", "Jk 2h As", "7d 8d"], trump="s")
    state = play(state, Lead(0, "9c"))
    assert {Beat(1, "9c", "2h"), Beat(1, "9c", "Jk"), Beat(1, "9c", "As")} <= legal(state, 1)


def test_R15_1_a_refusal_that_concerns_a_joker_cites_R15_1() -> None:
    # Hearts trump: under R4.7 alone the trump ace beats any plain card, so the rule that
    # forbids it on a joker is R15.1.
    rules = Rules(deck_size=52, jokers=1)
    state = play(at(rules, ["Jk 5d", "Ah Kh 2c"], stock="Qh", trump="h"), Lead(0, "Jk"))
    err = assert_illegal(state, Beat(1, "Jk", "Ah"), "R15.1")
    assert "(R15.1)" in str(err) and "R4.7" not in str(err)
    # R4.7 and R8 keep their own citations.
    plain = play(at(Rules(), ["7h 6c", "6h Ac"], trump="s"), Lead(0, "7h"))
    assert_illegal(plain, Beat(1, "7h", "6h"), "R4.7")
    strict = Rules(strict_suits=["c"])
    clubs = play(at(strict, ["7c 6h", "6s Ac"], trump="s"), Lead(0, "7c"))
    assert_illegal(clubs, Beat(1, "7c", "6s"), "R8.1")


def test_R15_1_a_position_with_a_card_on_a_joker_is_refused_citing_R15_1() -> None:
    rules = Rules(deck_size=52, jokers=1)
    with pytest.raises(PositionError, match=r"Ah does not beat Jk \(R15\.1\)"):
        at(rules, ["5d", "Kh 2c"], stock="Qh", trump="h", table=[("Jk", "Ah")])
    with pytest.raises(PositionError, match=r"6h does not beat 7h \(R4\.7\)"):
        at(Rules(), ["6c", "Ac"], trump="s", table=[("7h", "6h")])


# --------------------------------------------------------------------------------------------
# R15.5: the cheating facts agree with the table
# --------------------------------------------------------------------------------------------

CHEATING = Rules(players=3, cheating=True)


def cheat_position(extra: dict[str, Any], **fields: Any) -> GameState:
    """Seat 0 led 7c, seat 2 threw in 9h (a cheat: no nine on the table), seat 1 beat 7c with
    8c (fair) and 9h with 6d (a cheat beat)."""
    fields.setdefault("table", [("7c", "8c"), ("9h", "6d")])
    fields.setdefault("joined", [0, 2])
    return at(
        CHEATING, ["Tc 7d", "Qd Kd Ad", "Js Qs"], trump="s", defender=1, extra=extra, **fields
    )


def test_R15_5_consistent_cheating_facts_are_accepted() -> None:
    state = cheat_position({"cheats": (("9h", 2), ("6d", 1))})
    assert [(str(c), p) for c, p in cheats_on_table(state)] == [("9h", 2), ("6d", 1)]
    assert Catch(0, "9h") in legal(state, 0) and Catch(0, "6d") in legal(state, 0)
    assert Catch(2, "9h") not in legal(state, 2)  # not the owner (R15.5)


@pytest.mark.parametrize(
    ("cheats", "words"),
    [
        ((("7c", 0),), "7c led the bout, and a lead is never a cheat"),
        ((("8c", 1),), "8c beats 7c by the rules: a fair beat, not a cheat"),
        ((("6d", 0),), "the cheat beat 6d is credited to seat 0, but only the defender"),
        ((("9h", 1),), "the cheat throw-in 9h is credited to seat 1"),
        ((("9h", 2), ("9h", 2)), "9h is listed twice"),
    ],
)
def test_R15_5_cheating_facts_that_contradict_the_table_are_refused(
    cheats: tuple[tuple[str, int], ...], words: str
) -> None:
    with pytest.raises(PositionError, match=f"extra: cheats: {words}"):
        cheat_position({"cheats": cheats})
    # A saved state is read with the same check, and so is a hand-built one.
    good = cheat_position({"cheats": (("9h", 2),)})
    data = state_to_dict(good)
    with pytest.raises(PositionError, match=f"extra: cheats: {words}"):
        state_from_dict({**data, "extra": {"cheats": [list(c) for c in cheats]}})


def test_R15_5_a_throw_in_matching_an_earlier_attack_card_is_no_cheat() -> None:
    # 7h matches the 7c led before it: a fair throw-in (R4.3), whatever the facts say.
    table = [("7c", None), ("7h", None)]
    with pytest.raises(PositionError, match="7h matches 7c, on the table before it"):
        cheat_position({"cheats": (("7h", 2),)}, table=table)
    # Under R15.2 a card of a suit on the table is fair too.
    rules = Rules(players=3, cheating=True, throw_in_by_suit=True)
    with pytest.raises(PositionError, match="9c matches 7c, on the table before it"):
        at(
            rules, ["Tc Jc", "Qd Kd Ad", "Js Qs"], trump="s", defender=1,
            table=[("7c", None), ("9c", None)], joined=[0, 2], extra={"cheats": (("9c", 2),)},
        )  # fmt: skip


def test_R15_5_benched_and_caught_facts_agree_with_the_bout() -> None:
    with pytest.raises(PositionError, match="extra: benched: seat 1 put no attack card"):
        cheat_position({"benched": (1,)})
    with pytest.raises(PositionError, match="extra: caught: a caught cheat beat makes"):
        cheat_position({"caught": True})


def test_R15_5_catches_listed_from_valid_facts_are_legal_and_read_back() -> None:
    state = cheat_position({"cheats": (("9h", 2), ("6d", 1))})
    for action in legal_actions(state):
        if isinstance(action, Catch):
            after = play(state, action)
            validate_state(after)
            assert state_from_dict(state_to_dict(after)) == after


# --------------------------------------------------------------------------------------------
# R13.1: the largest listing is bounded by the rules
# --------------------------------------------------------------------------------------------


def test_R13_1_rules_whose_listing_passes_the_bound_are_refused_naming_the_setting() -> None:
    with pytest.raises(RulesError) as err:
        Rules(deck_size=24, decks=16, hand_size=192, lead="same_rank")
    assert err.value.setting == "lead"
    assert f"more than the {MAX_LISTING}" in str(err.value) and "decks = 16" in str(err.value)
    # The rule book's largest settings are far inside the bound.
    assert listing_bound(Rules(deck_size=52, decks=2, lead="same_rank")) < 5_000
    assert listing_bound(Rules(players=6, transfer_by_card=True, transfer_several=True)) < 1_000


def test_R13_1_the_listing_bound_at_its_edge() -> None:
    # With 16 decks of 52 the beats term (max_attack x cards) decides: find the last cap the
    # bound admits, and the first it refuses.
    base = {"deck_size": 52, "decks": 16}
    caps = [cap for cap in range(1, 833) if _bound_of(base, cap) <= MAX_LISTING]
    edge = caps[-1]
    assert Rules(**base, max_attack=edge).max_attack == edge
    with pytest.raises(RulesError) as err:
        Rules(**base, max_attack=edge + 1)
    assert err.value.setting == "max_attack"


def _bound_of(base: dict[str, Any], cap: int) -> int:
    # The bound's own formula, term by term (docs/performance.md): single leads N, beats L x N,
    # throw-ins N, shows and exchanges 2 x decks, the take, passes and redeals 2 x players.
    n = base["deck_size"] * base["decks"]
    return n + cap * n + n + 2 * base["decks"] + 1 + 2 * 2


def test_R13_1_a_several_card_lead_listing_reaches_its_term() -> None:
    # Two decks, lead = same_rank: the leader holding every nine has sum(C(8, k), k = 1..6)
    # leads of nines, the term the bound counts per rank.
    rules = Rules(decks=2, lead="same_rank", first_bout_max=None)
    nines = "9c 9c#2 9d 9d#2 9h 9h#2 9s 9s#2"
    state = at(rules, [nines, "6c 6d 6h 6s 7c 7d 7h"], trump="s")
    leads = [a for a in legal_actions(state) if isinstance(a, Lead)]
    assert len(leads) == 8 + 28 + 56 + 70 + 56 + 28
    assert len(legal_actions(state)) <= listing_bound(rules)


def test_R13_1_no_listing_of_a_random_game_passes_its_bound() -> None:
    import random

    from durak import apply, new_game

    for settings in (
        {"decks": 2, "lead": "same_rank", "players": 4},
        {"players": 3, "deck_size": 52, "jokers": 2, "cheating": True, "throw_in_by_suit": True},
        {"players": 2, "transfer_by_card": True, "transfer_several": True, "decks": 2},
    ):
        rules = Rules(**settings)
        bound = listing_bound(rules)
        rng = random.Random(7)
        for seed in range(8):
            state = new_game(rules, seed=seed)
            while not state.is_over:
                actions = legal_actions(state)
                assert len(actions) <= bound
                throw = [a for a in actions if isinstance(a, ThrowIn)]
                state = apply(state, rng.choice(throw or actions))


# --------------------------------------------------------------------------------------------
# R13.4: a state and a view read pleasantly, and a view never shows a hidden card
# --------------------------------------------------------------------------------------------


def test_R13_4_str_of_a_state_is_its_text_form_and_reads_back_between_bouts() -> None:
    from durak import new_game
    from durak.notation import format_position, parse_position

    rules = Rules(players=3)
    state = new_game(rules, seed=3)
    text = str(state)
    assert text == format_position(state) and "\n" not in text and len(text) < 400
    assert text.startswith("hands: ") and f"trump: {state.trump.letter}" in text
    back = parse_position(text, rules)
    assert (back.hands, back.stock, back.trump, back.attacker) == (
        state.hands, state.stock, state.trump, state.attacker,
    )  # fmt: skip
    # During a bout: the defender and the table; over: the result.
    bout = play(at(Rules(), ["7h 9c", "9h Ac"], trump="s"), Lead(0, "7h"), Beat(1, "7h", "9h"))
    assert "defender: 1; table: 7h:9h" in str(bout)
    assert "Rules(" not in str(bout)


def test_R13_4_str_of_a_view_shows_only_what_the_player_may_see() -> None:
    import random

    from durak import apply, new_game, view

    state = new_game(Rules(players=3), seed=5)
    rng = random.Random(2)
    while not state.is_over:
        for seat in (0, 1, 2, None):
            v = view(state, seat)
            text = str(v)
            mine = set(state.hands[seat]) if seat is not None else set()
            public = set(state.discard) | {c for pair in state.table for c in pair if c}
            public |= {c for cards in state.known for c in cards}
            if v.face_up is not None:
                public.add(v.face_up)
            hidden = {c for h in state.hands for c in h} | set(state.stock)
            for card in hidden - mine - public:
                assert str(card) not in text.split(), f"{card} shown to {seat}: {text}"
            if seat is not None:
                assert f"hand: {' '.join(str(c) for c in state.hands[seat])}" in text
        state = apply(state, rng.choice(legal_actions(state)))
    assert "result: durak" in str(view(state, 0)) or "result: draw" in str(view(state, 0))
