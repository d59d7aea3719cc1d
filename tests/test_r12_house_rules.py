"""R12 optional house rules: the trump-six exchange (R12.1) and the misdeal redeal (R12.2)."""

from __future__ import annotations

from collections import Counter

import pytest
from helpers import D24, assert_illegal, cards, deck_for, legal, play, position

from durak import (
    Beat,
    Lead,
    Pass,
    PositionError,
    Rules,
    Take,
    ThrowIn,
    apply,
    build_deck,
    legal_actions,
    new_game,
    next_actor,
    parse_cards,
)
from durak.actions import ExchangeTrump, Redeal


def _card(text: str) -> object:
    return parse_cards(text)[0]


# ---------------------------------------------------------------------------------------------
# R12.1 trump-six exchange
# ---------------------------------------------------------------------------------------------


def test_R12_1_the_player_dealt_the_trump_six_may_exchange() -> None:
    rules = Rules(trump_six_exchange=True)
    hands = ["6h 7c 8c 9c Tc Jc", "7h 7d 8d 9d Td Jd"]
    state = new_game(rules, deck=deck_for(rules, hands, "Ah"))
    assert state.exchange == frozenset(cards("6h"))
    assert state.attacker == 0
    assert legal(state) == {ExchangeTrump(0, "6h")} | {Lead(0, c) for c in hands[0].split()}


def test_R12_1_lowest_trump_of_a_short_deck_gives_the_right() -> None:
    rules = D24.replace(trump_six_exchange=True)
    hands = ["9h Tc Jc Qc Kc Ac", "Th 9d Td Jd Qd Kd"]
    state = new_game(rules, deck=deck_for(rules, hands, "Ah"))
    assert state.exchange == frozenset(cards("9h"))
    assert ExchangeTrump(0, "9h") in legal(state)
    assert_illegal(state, ExchangeTrump(1, "Th"), "R12.1")


def test_R12_1_exchange_swaps_the_six_for_the_face_up_card() -> None:
    rules = D24.replace(trump_six_exchange=True)
    hands = ["9h Tc Jc Qc Kc Ac", "Th 9d Td Jd Qd Kd"]
    state = new_game(rules, deck=deck_for(rules, hands, "Ah"))
    after = play(state, ExchangeTrump(0, "9h"))
    assert after.hands == (cards("Ah Tc Jc Qc Kc Ac"), state.hands[1])
    assert after.stock == (*state.stock[:-1], _card("9h"))
    assert after.trump_card == _card("9h")
    assert after.trump == state.trump
    assert after.table == ()
    assert (after.attacker, after.defender) == (state.attacker, state.defender)
    assert after.exchange == frozenset()
    assert_illegal(after, ExchangeTrump(0, "9h"), {"R13.1", "R12.1"})


def test_R12_1_the_six_is_then_drawn_last() -> None:
    rules = D24.replace(hand_size=3, trump_six_exchange=True)
    state = position(rules, ["9h Tc Kc", "Jc Qs Ks"], stock="Jd Qd Kd Ah", exchange="9h")
    state = play(state, ExchangeTrump(0, "9h"))
    assert state.stock == parse_cards("Jd Qd Kd 9h")
    # Seat 0 leads Tc and seat 1 takes (seat 0 holds no other ten).
    state = play(state, Lead(0, "Tc"), Take(1))
    # Seat 0 (two cards) draws one: Jd; seat 1 holds four and draws none.
    assert state.hands == (cards("Kc Ah Jd"), cards("Tc Jc Qs Ks"))
    assert state.stock == parse_cards("Qd Kd 9h")
    assert state.stock[-1] == _card("9h")


def test_R12_1_exchange_allowed_when_the_face_up_card_is_the_last_stock_card() -> None:
    rules = D24.replace(hand_size=3, trump_six_exchange=True)
    state = position(rules, ["9h Tc Kc", "Jc Qs Ks"], stock="Ah", exchange="9h")
    assert ExchangeTrump(0, "9h") in legal(state)
    after = play(state, ExchangeTrump(0, "9h"))
    assert after.stock == (_card("9h"),)
    assert after.hands[0] == cards("Ah Tc Kc")


def test_R12_1_holder_keeps_the_right_while_another_player_plays() -> None:
    # Seat 1 holds the 9h with the right; seat 0 leads. Seat 1 has held the 9h ever since, so
    # while defending the exchange is one of his actions.
    rules = D24.replace(hand_size=3, trump_six_exchange=True)
    state = position(rules, ["Tc Td Kc", "9h Qs Ks"], stock="Js Jd Qd Kd Ad Ah", exchange="9h")
    state = play(state, Lead(0, "Tc"))
    assert state.exchange == frozenset(cards("9h"))
    assert legal(state) == {
        Beat(1, "Tc", "9h"),
        Take(1),
        ExchangeTrump(1, "9h"),
        ThrowIn(0, "Td"),
        Pass(0),
    }


def test_R12_1_right_is_lost_when_the_six_leaves_the_hand_even_if_it_comes_back() -> None:
    # Seat 1 beats with his 9h (losing the right), then takes: the 9h is back in his hand, with
    # no right.
    rules = D24.replace(hand_size=3, trump_six_exchange=True)
    state = position(rules, ["Tc Td Kc", "9h Qs Ks"], stock="Js Jd Qd Kd Ad Ah", exchange="9h")
    state = play(state, Lead(0, "Tc"), Beat(1, "Tc", "9h"))
    assert state.exchange == frozenset()
    state = play(state, ThrowIn(0, "Td"), Take(1))
    assert state.table == ()
    assert state.hands == (cards("Kc Js Jd"), cards("Tc Td 9h Qs Ks"))
    assert state.stock == parse_cards("Qd Kd Ad Ah")
    assert_illegal(state, ExchangeTrump(1, "9h"), "R12.1")
    assert not any(isinstance(a, ExchangeTrump) for a in legal_actions(state))


def test_R12_1_a_six_picked_up_in_a_take_gives_no_right() -> None:
    rules = D24.replace(hand_size=3, trump_six_exchange=True)
    state = position(rules, ["9h Tc Kc", "Jc Qs Ks"], stock="Js Jd Qd Kd Ad Ah", exchange="9h")
    state = play(state, Lead(0, "9h"), Take(1))
    assert state.hands[1] == cards("9h Jc Qs Ks")
    assert state.exchange == frozenset()
    assert_illegal(state, ExchangeTrump(1, "9h"), "R12.1")


def test_R12_1_a_six_drawn_from_the_stock_gives_the_right() -> None:
    rules = D24.replace(hand_size=3, trump_six_exchange=True)
    state = position(rules, ["Tc Kc Qc", "Jc Js Qs"], stock="9h Jd Ah")
    state = play(state, Lead(0, "Tc"), Beat(1, "Tc", "Jc"))
    # Seat 0 draws the 9h, seat 1 the Jd; the face-up Ah is the last stock card.
    assert state.hands == (cards("9h Kc Qc"), cards("Jd Js Qs"))
    assert state.stock == (_card("Ah"),)
    assert state.exchange == frozenset(cards("9h"))
    assert (state.attacker, state.defender) == (1, 0)
    assert ExchangeTrump(0, "9h") in legal(state)
    after = play(state, ExchangeTrump(0, "9h"))
    assert after.hands[0] == cards("Ah Kc Qc")
    assert after.stock == (_card("9h"),)


def test_R12_1_exchange_clears_no_pass_and_leaves_the_table() -> None:
    # Seat 0 holds the 9h with the right, leads Tc and passes (he could add Td); his exchange
    # changes no table and his pass still stands.
    rules = D24.replace(players=3, hand_size=3, trump_six_exchange=True)
    state = position(
        rules, ["Tc Td 9h", "Jd Qs Ks", "Kc Th Ac"], stock="Js Qd Kd Ah", exchange="9h"
    )
    state = play(state, Lead(0, "Tc"), Pass(0))
    assert state.passed == frozenset({0})
    assert ExchangeTrump(0, "9h") in legal(state)
    after = play(state, ExchangeTrump(0, "9h"))
    assert after.passed == frozenset({0})
    assert after.table == state.table
    assert after.hands == (cards("Td Ah"), state.hands[1], state.hands[2])
    assert after.stock == parse_cards("Js Qd Kd 9h")
    assert_illegal(after, ThrowIn(0, "Td"), "R4.9")
    # Seat 2 may now throw in his Th: the main attacker's pass stands (R4.5).
    assert legal(after) == {Take(1), ThrowIn(2, "Th"), Pass(2)}


def test_R12_1_a_bout_that_ends_does_not_wait_for_the_exchange() -> None:
    rules = D24.replace(players=3, hand_size=3, trump_six_exchange=True)
    state = position(
        rules, ["Tc Qd Kc", "Jc Qs Ks", "9h Ah Ac"], stock="Js Jd Kd Ad Th", exchange="9h"
    )
    state = play(state, Lead(0, "Tc"), Beat(1, "Tc", "Jc"))
    # Nobody can add a ten or a jack: the bout ended at once, though seat 2 could exchange.
    assert state.table == ()
    assert state.bouts == 2
    assert state.exchange == frozenset(cards("9h"))


def test_R12_1_nothing_happens_when_the_face_up_card_is_the_six() -> None:
    rules = D24.replace(trump_six_exchange=True)
    hands = ["Th Tc Jc Qc Kc Ac", "Jh 9d Td Jd Qd Kd"]
    state = new_game(rules, deck=deck_for(rules, hands, "9h"))
    assert state.stock[-1] == _card("9h")
    assert state.exchange == frozenset()
    assert not any(isinstance(a, ExchangeTrump) for a in legal_actions(state))


def test_R12_1_a_right_cannot_be_given_for_a_six_in_the_stock() -> None:
    rules = D24.replace(trump_six_exchange=True)
    with pytest.raises(PositionError):
        position(rules, ["Th Tc", "Jh"], stock="9h", exchange="9h")


def test_R12_1_no_exchange_once_the_face_up_card_is_drawn() -> None:
    rules = D24.replace(trump_six_exchange=True)
    state = position(rules, ["9h Tc Kc", "Jc Qs Ks"], trump="h", exchange="9h")
    assert_illegal(state, ExchangeTrump(0, "9h"), "R12.1")


def test_R12_1_exchange_refused_when_the_house_rule_is_off() -> None:
    rules = D24
    hands = ["9h Tc Jc Qc Kc Ac", "Th 9d Td Jd Qd Kd"]
    state = new_game(rules, deck=deck_for(rules, hands, "Ah"))
    assert state.exchange == frozenset()
    assert_illegal(state, ExchangeTrump(0, "9h"), "R12.1")


def test_R12_1_exchange_by_a_player_without_the_six_refused() -> None:
    rules = D24.replace(trump_six_exchange=True)
    hands = ["9h Tc Jc Qc Kc Ac", "Th 9d Td Jd Qd Kd"]
    state = new_game(rules, deck=deck_for(rules, hands, "Ah"))
    assert_illegal(state, ExchangeTrump(1, "9h"), {"R13.1", "R12.1"})


# ---------------------------------------------------------------------------------------------
# R12.2 misdeal redeal
# ---------------------------------------------------------------------------------------------

# With seed 466 (two players, 36 cards) seat 1 is dealt five clubs, seat 0 at most three of a
# suit; seat 0 leads.
_SEED = 466


def _misdeal(count: int = 5) -> object:
    state = new_game(Rules(misdeal_suit_count=count), seed=_SEED)
    suits = [max(Counter(c.suit for c in h).values()) for h in state.hands]
    assert suits == [3, 5]
    return state


def test_R12_2_player_with_that_many_cards_of_a_suit_may_demand_a_redeal() -> None:
    state = _misdeal()
    assert state.attacker == 0
    assert legal(state) == {Redeal(1)} | {Lead(0, (c,)) for c in state.hands[0]}
    assert_illegal(state, Redeal(0), "R12.2")


def test_R12_2_fewer_cards_of_a_suit_than_the_setting_gives_no_redeal() -> None:
    state = _misdeal(6)
    assert not any(isinstance(a, Redeal) for a in legal_actions(state))
    assert_illegal(state, Redeal(1), "R12.2")


def test_R12_2_redeal_deals_again_from_the_continued_stream() -> None:
    state = _misdeal()
    after = apply(state, Redeal(1))
    assert after.dealer == state.dealer
    assert after.seed == state.seed
    assert after.shuffles == state.shuffles + 1
    assert (after.bouts, after.table, after.discard) == (0, (), ())
    assert [len(h) for h in after.hands] == [6, 6]
    assert sorted(after.all_cards()) == sorted(build_deck(36))
    assert after.hands != state.hands
    # Deterministic: the same seed and the same demand give the same new deal.
    again = apply(_misdeal(), Redeal(1))
    assert again == after
    # The first attacker follows R3 on the new deal: the lowest trump, or the dealer's left.
    trumps = [min((c.rank for c in h if c.suit == after.trump), default=None) for h in after.hands]
    held = [(r, seat) for seat, r in enumerate(trumps) if r is not None]
    assert after.attacker == (min(held)[1] if held else (after.dealer + 1) % 2)


def test_R12_2_redeal_only_before_the_first_lead() -> None:
    state = _misdeal()
    state = apply(state, Lead(0, state.hands[0][:1]))
    assert_illegal(state, Redeal(1), "R12.2")


def test_R12_2_redeal_refused_after_the_first_bout() -> None:
    state = _misdeal()
    state = apply(state, Lead(0, state.hands[0][:1]))
    state = apply(state, Take(1))
    while state.table:
        actor = next_actor(state)
        assert actor is not None
        state = apply(state, Pass(actor))
    assert state.bouts == 1
    assert_illegal(state, Redeal(1), "R12.2")
    assert not any(isinstance(a, Redeal) for a in legal_actions(state))


def test_R12_2_redeal_refused_with_an_explicit_deck_order() -> None:
    rules = Rules(misdeal_suit_count=5)
    hands = ["6c 7c 8c 9c Tc 6h", "7h 7d 8d 9d Td Jd"]
    state = new_game(rules, deck=deck_for(rules, hands, "Ah"))
    assert_illegal(state, Redeal(0), "R12.2")


def test_R12_2_redeal_refused_when_the_setting_is_off() -> None:
    state = new_game(Rules(), seed=_SEED)
    assert_illegal(state, Redeal(1), "R12.2")
