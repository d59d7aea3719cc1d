"""R3 Who leads the first bout: the holder of the lowest trump, who shows it (R3.1), with several
decks the first of identical lowest trumps clockwise from the dealer's left (R3.2), and the lead
when nobody holds a trump (R3.3)."""

from __future__ import annotations

import pytest
from helpers import D24, deck_for, hands

from durak import (
    Card,
    Lead,
    Rules,
    RulesError,
    Suit,
    build_deck,
    legal_actions,
    new_game,
    view,
)

R3P = Rules(players=3, deck_size=24)


# ---------------------------------------------------------------------------------------------
# R3.1 the holder of the lowest trump leads
# ---------------------------------------------------------------------------------------------


def test_R3_1_holder_of_the_lowest_trump_leads() -> None:
    # Trump hearts (face-up 9h). Seat 2 holds Jh, seat 1 Kh Ah: seat 2 leads although the
    # dealer's left neighbour is seat 0.
    deck = deck_for(
        R3P,
        ["9c Tc Jc Qc Kc Ac", "9d Td Jd Qd Kh Ah", "9s Ts Js Qs Jh Qh"],
        "9h Th Kd Ad Ks As",
    )
    s = new_game(R3P, deck=deck)
    assert s.trump == Suit.HEARTS
    assert s.dealer == 2
    assert (s.attacker, s.defender) == (2, 0)
    assert {a.player for a in legal_actions(s)} == {2}
    assert all(isinstance(a, Lead) for a in legal_actions(s))


def test_R3_1_lowest_trump_anywhere_at_the_table() -> None:
    deck = deck_for(
        R3P,
        ["9c Tc Jc Qc Kc Th", "9d Td Jd Qd Kh Ah", "9s Ts Js Qs Jh Qh"],
        "9h Ac Kd Ad Ks As",
    )
    s = new_game(R3P, deck=deck)
    assert (s.attacker, s.defender) == (0, 1)


def test_R3_1_face_up_trump_in_no_hand_does_not_count() -> None:
    # The face-up 9h is the lowest trump; Th in the stock neither counts. Seat 1 has Jh.
    rules = Rules(deck_size=24)
    deck = deck_for(
        rules,
        ["9c Tc Jc Qc Kc Qh", "9d Td Jd Qd Kd Jh"],
        "9h Th Ac Ad Kh Ah 9s Ts Js Qs Ks As",
    )
    s = new_game(rules, deck=deck)
    assert s.trump_card == Card.parse("9h")
    assert s.stock[-1] == Card.parse("9h")
    assert s.dealer == 1
    assert (s.attacker, s.defender) == (1, 0)


def test_R3_1_full_deal_dealers_shown_card_counts() -> None:
    rules = Rules(players=4, deck_size=24)
    deck = deck_for(
        rules,
        ["9c Tc Jc Qc Th Jh", "9d Td Jd Qd Qh Kh", "9s Ts Js Qs Ks Ah", "Ac Ad As Kc Kd 9h"],
        "",
    )
    s = new_game(rules, deck=deck)
    assert s.stock == ()
    assert s.trump_card == Card.parse("9h")  # the dealer's last card, shown
    assert Card.parse("9h") in s.hands[3]
    assert (s.dealer, s.attacker, s.defender) == (3, 3, 0)


def test_R3_1_several_decks_show_the_lowest_trump_by_rank_not_by_copy() -> None:
    rules = Rules(players=2, decks=2)
    deck = deck_for(rules, ["Kd 6d#2 7c 8c 9c Tc", "7s 8s 9s Ts Js Qs"], "Ad", dealer=1)
    state = new_game(rules, deck=deck, dealer=1)
    assert state.trump.letter == "d"
    assert state.attacker == 0
    shown = {str(c) for c in state.known[0]}
    assert shown == {"6d#2"}, "the leader shows his lowest trump, the six, not the king"
    for seat in (0, 1, None):
        assert {str(c) for c in view(state, seat).known[0]} == {"6d#2"}
    assert view(state, 1).known[1] == frozenset()


def test_R3_1_of_two_copies_of_the_lowest_trump_the_first_is_shown() -> None:
    rules = Rules(players=2, decks=2)
    deck = deck_for(rules, ["6d#2 Kd 6d 8c 9c Tc", "7s 8s 9s Ts Js Qs"], "Ad", dealer=1)
    state = new_game(rules, deck=deck, dealer=1)
    assert {str(c) for c in state.known[0]} == {"6d"}


# ---------------------------------------------------------------------------------------------
# R3.2 several decks: ties for the lowest trump
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("dealer", "leader"), [(0, 1), (1, 2), (2, 1)])
def test_R3_2_tied_lowest_trumps_go_clockwise_from_the_dealers_left(
    dealer: int, leader: int
) -> None:
    rules = Rules(players=3, deck_size=24, decks=2)
    dealt = ["Tc Jc Qc Kc Ac Th", "9c Td Jd Qd Kd 9h#2", "9d 9s Ts Js Qs 9h"]
    # Ah is turned up; the rest of the double deck forms the stock.
    deck = deck_for(rules, dealt, "Ah", dealer=dealer)
    s = new_game(rules, deck=deck, dealer=dealer)
    assert s.trump == Suit.HEARTS
    assert s.hands == hands(*dealt)
    assert s.attacker == leader
    assert s.defender == (leader + 1) % 3


def test_R3_2_only_identical_lowest_trumps_tie() -> None:
    # Seat 1 (first from the dealer's left among the trump holders) holds Th#2 and Jh#2, seat 2
    # holds the lowest trump 9h: seat 2 leads.
    dealt = ["9c Tc Jc Qc Kc Ac", "Th#2 Jh#2 9d Td Jd Qd", "9h Jh 9s Ts Js Qs"]
    rules = D24.replace(decks=2, players=3)
    state = new_game(rules, deck=deck_for(rules, dealt, "Ah"))
    assert state.attacker == 2


# ---------------------------------------------------------------------------------------------
# R3.3 nobody holds a trump
# ---------------------------------------------------------------------------------------------

NO_TRUMP_HANDS = ["9c Tc Jc Qc Kc Ac", "9d Td Jd Qd Kd Ad", "9s Ts Js Qs Ks As"]


@pytest.mark.parametrize(("dealer", "leader"), [(0, 1), (1, 2), (2, 0)])
def test_R3_3_no_trump_dealer_left_leads(dealer: int, leader: int) -> None:
    deck = deck_for(R3P, NO_TRUMP_HANDS, "9h Th Jh Qh Kh Ah", dealer=dealer)
    s = new_game(R3P, deck=deck, dealer=dealer)
    assert s.hands == hands(*NO_TRUMP_HANDS)
    assert s.trump == Suit.HEARTS
    assert (s.attacker, s.defender) == (leader, (leader + 1) % 3)


def test_R3_3_redeal_with_explicit_deck_is_an_error() -> None:
    rules = Rules(players=3, deck_size=24, no_trump_lead="redeal")
    deck = deck_for(rules, NO_TRUMP_HANDS, "9h Th Jh Qh Kh Ah")
    with pytest.raises(RulesError) as info:
        new_game(rules, deck=deck)
    assert info.value.setting == "no_trump_lead"


def test_R3_3_redeal_with_explicit_deck_fine_when_a_trump_is_held() -> None:
    rules = Rules(players=3, deck_size=24, no_trump_lead="redeal")
    deck = deck_for(
        rules,
        ["9c Tc Jc Qc Kc Ac", "9d Td Jd Qd Kd Jh", "9s Ts Js Qs Ks As"],
        "9h Th Ad Qh Kh Ah",
    )
    s = new_game(rules, deck=deck)
    assert (s.attacker, s.defender) == (1, 2)


REDEAL_SEED = 112  # with 24 cards and 2 players, this seed's first shuffle deals no trump


def test_R3_3_redeal_with_a_seed_deals_again() -> None:
    plain = Rules(deck_size=24)
    redeal = Rules(deck_size=24, no_trump_lead="redeal")
    first = new_game(plain, seed=REDEAL_SEED)
    # The premise: the seed's first deal gives nobody a trump (so dealer_left applies).
    assert not any(c.suit == first.trump for h in first.hands for c in h)
    assert (first.attacker, first.defender) == (0, 1)

    s = new_game(redeal, seed=REDEAL_SEED)
    assert s == new_game(redeal, seed=REDEAL_SEED)  # still deterministic (R2.5)
    assert s.dealer == first.dealer == 1  # the same dealer deals again
    assert s.hands != first.hands  # a fresh deal
    assert sorted(s.all_cards()) == sorted(build_deck(24))
    assert s.trump_card == s.stock[-1]
    trumps = [(c.rank, seat) for seat, h in enumerate(s.hands) for c in h if c.suit == s.trump]
    assert trumps, "after a redeal somebody holds a trump"
    assert s.attacker == min(trumps)[1]
    assert s.defender == 1 - s.attacker
