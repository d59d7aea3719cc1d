"""R2 Set-up: players and hand size, also with several decks (R2.1), seats and seat numbers
(R2.2), dealing (R2.3), trump (R2.4), shuffling (R2.5)."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import D24, cards, hands, legal, play, position

from durak import (
    Beat,
    Card,
    DurakError,
    Lead,
    Pass,
    Rules,
    RulesError,
    SeatError,
    Suit,
    Take,
    build_deck,
    legal_actions,
    new_game,
    next_actor,
    parse_cards,
    shuffled_deck,
    view,
)

# ---------------------------------------------------------------------------------------------
# R2.1 players and hand size
# ---------------------------------------------------------------------------------------------


def test_R2_1_defaults_two_players_six_cards() -> None:
    rules = Rules()
    assert (rules.players, rules.hand_size) == (2, 6)
    state = new_game(rules, seed=5)
    assert [len(h) for h in state.hands] == [6, 6]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_R2_1_one_36_card_deck_takes_2_to_6_players(players: int) -> None:
    state = new_game(Rules(players=players), seed=1)
    assert [len(h) for h in state.hands] == [6] * players
    assert len(state.stock) == 36 - 6 * players


def test_R2_1_seven_players_on_36_cards_rejected_naming_the_setting() -> None:
    with pytest.raises(RulesError) as info:
        Rules(players=7)
    assert info.value.setting == "players"
    assert "players" in str(info.value)


def test_R2_1_fewer_than_two_players_rejected() -> None:
    for players in (1, 0):
        with pytest.raises(RulesError) as info:
            Rules(players=players)
        assert info.value.setting == "players"


def test_R2_1_hand_size_zero_rejected() -> None:
    with pytest.raises(RulesError) as info:
        Rules(hand_size=0)
    assert info.value.setting == "hand_size"
    assert "hand_size" in str(info.value)


@pytest.mark.parametrize(
    ("settings", "ok"),
    [
        ({"players": 4, "deck_size": 24}, True),  # 24 cards for 24
        ({"players": 5, "deck_size": 24}, False),  # 30 cards for 24
        ({"players": 3, "deck_size": 24, "hand_size": 8}, True),  # 24 for 24
        ({"players": 3, "deck_size": 24, "hand_size": 9}, False),  # 27 for 24
        ({"players": 12, "decks": 2}, True),  # 72 for 72
        ({"players": 13, "decks": 2}, False),  # 78 for 72
        ({"players": 8, "deck_size": 52}, True),  # 48 for 52
        ({"players": 9, "deck_size": 52}, False),  # 54 for 52
    ],
)
def test_R2_1_players_times_hand_size_within_the_decks(settings: dict, ok: bool) -> None:
    if ok:
        rules = Rules(**settings)
        state = new_game(rules, seed=4)
        assert [len(h) for h in state.hands] == [rules.hand_size] * rules.players
    else:
        with pytest.raises(RulesError) as info:
            Rules(**settings)
        assert info.value.setting in {"players", "hand_size"}


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("lead", "x"),
        ("throwers", "everyone"),
        ("throw_order", "random"),
        ("first_bout_scope", "always"),
        ("draw_order", "anticlockwise"),
        ("objective", "last_out"),
        ("on_last_cleared", "attacker_loses"),
        ("no_trump_lead", "dealer"),
        ("deck_size", 40),
        ("max_attack", 0),
        ("hand_size", -1),
        ("decks", 0),
        ("players", "2"),
        ("throw_after_take", "yes"),
    ],
)
def test_R2_1_bad_values_rejected_naming_the_setting(setting: str, value: object) -> None:
    with pytest.raises(RulesError) as info:
        Rules(**{setting: value})
    assert info.value.setting == setting
    assert setting in str(info.value)


@pytest.mark.parametrize(("deck_size", "decks"), [(36, 2), (24, 2), (32, 3), (52, 2)])
def test_R2_1_multideck_takes_up_to_a_sixth_of_the_cards_in_players(
    deck_size: int, decks: int
) -> None:
    most = deck_size * decks // 6
    rules = Rules(deck_size=deck_size, decks=decks, players=most)
    assert rules.players == most
    with pytest.raises(RulesError) as info:
        Rules(deck_size=deck_size, decks=decks, players=most + 1)
    assert info.value.setting == "players"


def test_R2_1_twelve_players_with_two_decks_deal_every_card() -> None:
    rules = Rules(decks=2, players=12)
    state = new_game(rules, seed=11)
    assert [len(h) for h in state.hands] == [6] * 12
    assert state.stock == ()
    assert sorted(state.all_cards()) == sorted(build_deck(36, 2))
    # Full deal: the dealer's last dealt card fixes trump and stays in his hand (R2.4).
    assert state.trump_card in state.hands[state.dealer]


# ---------------------------------------------------------------------------------------------
# R2.2 seats, clockwise
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("attacker", "defender"), [(0, 1), (1, 2), (2, 3), (3, 0)])
def test_R2_2_left_neighbour_is_next_seat_clockwise(attacker: int, defender: int) -> None:
    rules = Rules(players=4, deck_size=24, hand_size=4)
    s = position(
        rules,
        ["9c Tc", "9d Td", "9s Ts", "Jc Jd"],
        stock="Qc Qh",
        trump="h",
        attacker=attacker,
    )
    assert (s.attacker, s.defender) == (attacker, defender)
    led = play(s, Lead(attacker, s.hands[attacker][:1]))
    assert {a.player for a in legal(led) if isinstance(a, Beat | Take)} == {defender}


def test_R2_2_throwers_are_asked_clockwise_from_the_attacker() -> None:
    # Attacker 2, defender 3; both other seats can throw in: seat 0 (next clockwise from the
    # attacker) is asked before seat 1.
    rules = Rules(players=4, deck_size=24, hand_size=4)
    s = position(
        rules,
        ["9d Jc", "9s Jd", "9c Ac", "Tc Td"],
        stock="Qc Qh",
        trump="h",
        attacker=2,
    )
    s = play(s, Lead(2, "9c"), Beat(3, "9c", "Tc"))
    assert next_actor(s) == 0
    s = play(s, Pass(0))
    assert next_actor(s) == 1


@pytest.mark.parametrize("seat", [2, 7, -1, 10**30])
def test_R2_2_a_seat_that_does_not_exist_is_a_seat_error(seat: int) -> None:
    state = new_game(Rules(), seed=1)
    with pytest.raises(SeatError, match=r"no seat .* \(seats 0-1, R2.2\)") as info:
        legal_actions(state, seat)
    assert isinstance(info.value, DurakError) and isinstance(info.value, IndexError)
    with pytest.raises(SeatError):
        view(state, seat)


@pytest.mark.parametrize("seat", ["0", 1.0, True, None.__class__, [0]])
def test_R2_2_a_seat_that_is_not_a_number_is_a_type_error(seat: Any) -> None:
    state = new_game(Rules(), seed=1)
    with pytest.raises(TypeError, match="seat number"):
        legal_actions(state, seat)
    with pytest.raises(TypeError, match="seat number"):
        view(state, seat)


# ---------------------------------------------------------------------------------------------
# R2.3 dealing
# ---------------------------------------------------------------------------------------------


def test_R2_3_deal_one_at_a_time_from_the_dealers_left() -> None:
    rules = Rules(players=3, deck_size=24)
    deck = build_deck(24)  # canonical order: 9c Tc Jc Qc Kc Ac 9d ... As
    s = new_game(rules, deck=deck)
    assert s.dealer == 2  # first game: seat n-1
    assert s.hands == (
        tuple(sorted(deck[0:18:3])),
        tuple(sorted(deck[1:18:3])),
        tuple(sorted(deck[2:18:3])),
    )
    assert s.hands == hands(
        "9c Qc 9d Qd 9h Qh",
        "Tc Kc Td Kd Th Kh",
        "Jc Ac Jd Ad Jh Ah",
    )


def test_R2_3_given_dealer_deals_from_his_left() -> None:
    rules = Rules(players=3, deck_size=24)
    deck = build_deck(24)
    s = new_game(rules, deck=deck, dealer=0)
    assert s.dealer == 0
    assert s.hands == hands(
        "Jc Ac Jd Ad Jh Ah",
        "9c Qc 9d Qd 9h Qh",
        "Tc Kc Td Kd Th Kh",
    )


def test_R2_3_deal_from_text_deck_order() -> None:
    rules = Rules(deck_size=24)
    order = "9c 9d Tc Td Jc Jd Qc Qd Kc Kd Ac Ad Qs 9h Th Jh Qh Kh Ah 9s Ts Js Ks As"
    s = new_game(rules, deck=order)
    assert s.hands == hands("9c Tc Jc Qc Kc Ac", "9d Td Jd Qd Kd Ad")


# ---------------------------------------------------------------------------------------------
# R2.4 trump
# ---------------------------------------------------------------------------------------------


def test_R2_4_next_card_turned_up_under_the_stock() -> None:
    rules = Rules(deck_size=24)
    deck = build_deck(24)
    s = new_game(rules, deck=deck)
    face_up = deck[12]  # the 13th card: after 2 x 6 dealt
    assert face_up == Card.parse("9h")
    assert s.trump == Suit.HEARTS
    assert s.trump_card == face_up
    assert s.stock == (*deck[13:], face_up)
    assert all(face_up not in h for h in s.hands)


def test_R2_4_full_deal_six_players_dealers_last_card_fixes_trump() -> None:
    rules = Rules(players=6)
    deck = shuffled_deck(rules, 2024)
    s = new_game(rules, deck=deck)
    last = deck[35]
    assert s.stock == ()
    assert s.dealer == 5
    assert s.trump_card == last
    assert s.trump == last.suit
    assert last in s.hands[5]  # it stays in the dealer's hand
    assert s.hands[5] == tuple(sorted(deck[5::6]))
    assert sum(len(h) for h in s.hands) == 36


def test_R2_4_full_deal_with_another_dealer() -> None:
    rules = Rules(players=4, deck_size=24)
    deck = build_deck(24)  # the last card dealt is As
    s = new_game(rules, deck=deck, dealer=1)
    assert s.stock == ()
    assert s.trump_card == Card.parse("As")
    assert s.trump == Suit.SPADES
    assert Card.parse("As") in s.hands[1]
    assert s.hands[1] == tuple(sorted(deck[3::4]))


def test_R2_4_trump_suit_lasts_after_the_trump_card_is_drawn() -> None:
    s = position(D24, ["9c Ac", "Tc Ks"], stock="9h", trump="h")
    s = play(s, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    # The attacker drew the face-up 9h; the stock is empty.
    assert s.stock == ()
    assert s.hands == hands("Ac 9h", "Ks")
    assert s.trump == Suit.HEARTS
    # Hearts are still trump: 9h beats the king of spades, the ace of clubs does not.
    s = play(s, Lead(1, "Ks"))
    assert legal(s, 0) == {Beat(0, "Ks", "9h"), Take(0)}


# ---------------------------------------------------------------------------------------------
# R2.5 shuffling
# ---------------------------------------------------------------------------------------------


def test_R2_5_same_seed_same_deal() -> None:
    for rules in (Rules(), Rules(players=4, deck_size=52), Rules(decks=2, players=3)):
        assert new_game(rules, seed=42) == new_game(rules, seed=42)
        assert new_game(rules, seed="abc") == new_game(rules, seed="abc")
        assert shuffled_deck(rules, 42) == shuffled_deck(rules, 42)
    assert new_game(Rules(), seed=1) != new_game(Rules(), seed=2)


def test_R2_5_seed_zero_deal_is_frozen() -> None:
    # Computed once from the documented algorithm; a change here breaks every recorded game.
    assert shuffled_deck(Rules(), 0) == parse_cards(
        "Qh Js Tc Ad 9h 9c Kc 6c 7s Jc 8s Td 6d Kd Qs Jd 8h Ah Kh 6h Ac 6s 8d 7h "
        "7d Ks Ts Qc 8c Th 7c 9s Jh Qd 9d As"
    )
    assert shuffled_deck(Rules(deck_size=24), 0)[:12] == parse_cards(
        "Ac Ah Qs Ad Kh Jh Qd Kd 9h Th Js Td"
    )
    assert shuffled_deck(Rules(), "durak")[:8] == parse_cards("8c 7s 9d Tc As Kh 7h 9s")


def test_R2_5_seed_deal_is_the_shuffled_deck_dealt() -> None:
    rules = Rules()
    s = new_game(rules, seed=0)
    order = shuffled_deck(rules, 0)
    from_deck = new_game(rules, deck=order)
    assert s.hands == from_deck.hands
    assert s.stock == from_deck.stock
    assert s.trump_card == from_deck.trump_card
    # Deal per R2.3 from the frozen order: dealer 1, so seat 0 gets cards 0, 2, 4 ...
    assert s.hands == hands("Qh Tc 9h Kc 7s 8s", "Js Ad 9c 6c Jc Td")
    assert s.trump_card == Card.parse("6d")
    assert s.trump == Suit.DIAMONDS
    assert s.stock == (*order[13:], Card.parse("6d"))


def test_R2_5_explicit_deck_must_hold_every_card_once() -> None:
    deck = list(build_deck(24))
    with pytest.raises(DurakError) as info:
        new_game(D24, deck=deck[:-1])
    assert "As" in str(info.value)
    with pytest.raises(DurakError) as info:
        new_game(D24, deck=[*deck[:-1], deck[0]])
    assert "9c" in str(info.value)


def test_R2_5_seed_and_deck_together_rejected() -> None:
    with pytest.raises(RulesError):
        new_game(D24, seed=1, deck=build_deck(24))


def test_R2_5_hands_hold_the_dealt_cards() -> None:
    s = new_game(Rules(players=3), seed=9)
    dealt = shuffled_deck(Rules(players=3), 9)
    assert s.hands[0] == cards(dealt[0:18:3])
