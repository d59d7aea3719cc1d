"""R1 Cards: ranks and suits (R1.1), decks, also several decks shuffled together, where each copy
is a card of its own (R1.2), and the text form (R1.3)."""

from __future__ import annotations

import pytest
from helpers import D24, assert_illegal, cards, legal, play, position

from durak import (
    Beat,
    Card,
    InvalidCardError,
    Lead,
    PositionError,
    Rank,
    Rules,
    RulesError,
    Suit,
    Take,
    Transfer,
    build_deck,
    format_cards,
    new_game,
    new_position,
    parse_cards,
)

# ---------------------------------------------------------------------------------------------
# R1.1 ranks and suits
# ---------------------------------------------------------------------------------------------


def test_R1_1_ranks_low_to_high() -> None:
    assert [r.letter for r in sorted(Rank)] == list("23456789TJQKA")
    assert Rank.TWO < Rank.NINE < Rank.TEN < Rank.JACK < Rank.QUEEN < Rank.KING < Rank.ACE


def test_R1_1_rank_order_decides_beating_in_play() -> None:
    # 52-card deck: a 7 of spades is beaten by exactly the higher spades 8 .. A.
    rules = Rules(deck_size=52)
    s = position(
        rules,
        ["7s 2c", "2s 3s 4s 5s 6s 8s 9s Ts Js Qs Ks As"],
        stock="2h",
        trump="h",
    )
    s = play(s, Lead(0, "7s"))
    beaters = cards("8s 9s Ts Js Qs Ks As")
    assert legal(s, 1) == {Beat(1, "7s", c) for c in beaters} | {Take(1)}


def test_R1_1_suits_sort_clubs_diamonds_hearts_spades() -> None:
    assert [s.letter for s in sorted(Suit)] == ["c", "d", "h", "s"]
    mixed = parse_cards("As Kh Ac Qd Ad Ah 9s")
    assert format_cards(sorted(mixed, key=lambda c: c.sort_key)) == "Ac Qd Ad Kh Ah 9s As"


def test_R1_1_suits_have_no_order_in_play() -> None:
    # Clubs led, trump hearts: the defender's higher diamonds and spades do not beat it.
    s = position(D24, ["9c Tc", "Ad As Kd Ks"], stock="9h", trump="h")
    s = play(s, Lead(0, "9c"))
    assert legal(s, 1) == {Take(1)}
    assert_illegal(s, Beat(1, "9c", "As"), "R4.7")
    assert_illegal(s, Beat(1, "9c", "Ad"), "R4.7")


# ---------------------------------------------------------------------------------------------
# R1.2 decks
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "low"), [(36, "6"), (32, "7"), (24, "9"), (52, "2")]
)
def test_R1_2_deck_sizes(size: int, low: str) -> None:
    deck = build_deck(size)
    assert len(deck) == len(set(deck)) == size
    ranks = "23456789TJQKA"
    expected_ranks = set(ranks[ranks.index(low) :])
    for suit in Suit:
        in_suit = [c for c in deck if c.suit == suit]
        assert {c.rank.letter for c in in_suit} == expected_ranks
        assert len(in_suit) == size // 4


def test_R1_2_default_deck_is_36() -> None:
    assert Rules().deck_size == 36
    assert Rules().decks == 1
    state = new_game(Rules(), seed=3)
    assert sorted(state.all_cards()) == sorted(build_deck(36))


def test_R1_2_unknown_deck_size_rejected() -> None:
    with pytest.raises(RulesError) as info:
        Rules(deck_size=40)
    assert info.value.setting == "deck_size"


def test_R1_2_several_decks_have_distinct_physical_cards() -> None:
    deck = build_deck(36, 2)
    assert len(deck) == len(set(deck)) == 72
    first, second = Card.parse("Qh"), Card.parse("Qh#2")
    assert first in deck and second in deck
    assert first != second
    assert (first.rank, first.suit) == (second.rank, second.suit)
    state = new_game(Rules(decks=2, players=4), seed=11)
    everything = state.all_cards()
    assert len(everything) == len(set(everything)) == 72


def test_R1_2_identical_cards_never_beat_each_other() -> None:
    rules = Rules(deck_size=24, decks=2)
    # A plain suit: the king and any trump beat the queen of spades; its twin does not.
    s = position(rules, ["Qs Qh 9c", "Qs#2 Ks Qh#2 Kh 9d"], stock="Ah", trump="h")
    led = play(s, Lead(0, "Qs"))
    assert legal(led, 1) == {
        Beat(1, "Qs", "Ks"),
        Beat(1, "Qs", "Qh#2"),
        Beat(1, "Qs", "Kh"),
        Take(1),
    }
    assert_illegal(led, Beat(1, "Qs", "Qs#2"), "R4.7")
    # The trump suit: the twin trump queen does not beat the trump queen.
    led = play(s, Lead(0, "Qh"))
    assert legal(led, 1) == {Beat(1, "Qh", "Kh"), Take(1)}
    assert_illegal(led, Beat(1, "Qh", "Qh#2"), "R4.7")


def test_R1_2_the_second_copy_is_beaten_like_the_first() -> None:
    state = position(D24.replace(decks=2), ["Tc#2 9d", "Tc Jc Ts As"], trump="s")
    state = play(state, Lead(0, "Tc#2"))
    assert legal(state) == {
        Beat(1, "Tc#2", "Jc"),
        Beat(1, "Tc#2", "Ts"),
        Beat(1, "Tc#2", "As"),
        Take(1),
    }
    assert_illegal(state, Beat(1, "Tc#2", "Tc"), "R4.7")


def test_R1_2_each_copy_is_a_distinct_physical_card_in_a_position() -> None:
    rules = D24.replace(decks=2)
    with pytest.raises(PositionError):
        # 9c listed twice, 9c#2 missing.
        deck = [c for c in build_deck(24, 2) if str(c) not in ("9c", "9c#2", "Tc")]
        new_position(rules, hands=["9c Tc", "9c"], discard=deck, trump="s", attacker=0)
    deck = [c for c in build_deck(24, 2) if str(c) not in ("9c", "9c#2", "Tc")]
    state = new_position(rules, hands=["9c Tc", "9c#2"], discard=deck, trump="s", attacker=0)
    assert state.hands == (cards("9c Tc"), cards("9c#2"))


def test_R1_2_transfer_with_the_identical_copy_of_the_attack_card() -> None:
    rules = D24.replace(decks=2, players=3, transfer_by_card=True)
    state = position(rules, ["9c Ac", "9c#2 Jc", "Th Jh Qh"], trump="s")
    state = play(state, Lead(0, "9c"))
    assert legal(state) == {Beat(1, "9c", "Jc"), Transfer(1, "9c#2"), Take(1)}
    state = play(state, Transfer(1, "9c#2"))
    assert state.table == ((parse_cards("9c")[0], None), (parse_cards("9c#2")[0], None))
    assert state.defender == 2


# ---------------------------------------------------------------------------------------------
# R1.3 text form
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("Td", "Td"),
        ("10d", "Td"),
        ("T♦", "Td"),
        ("10♦", "Td"),
        ("TD", "Td"),
        ("6s", "6s"),
        ("6S", "6s"),
        ("6♠", "6s"),
        ("Ah", "Ah"),
        ("A♥", "Ah"),
        ("2c", "2c"),
        ("2♣", "2c"),
        ("Jd", "Jd"),
        ("10h", "Th"),
        ("Qh#2", "Qh#2"),
    ],
)
def test_R1_3_parse_accepted_forms(text: str, canonical: str) -> None:
    card = Card.parse(text)
    assert str(card) == canonical
    assert Card.parse(canonical) is card


def test_R1_3_text_names_rank_and_suit() -> None:
    assert Card.parse("10h") == Card.of(Rank.TEN, Suit.HEARTS)
    assert Card.parse("T♦") == Card.of(Rank.TEN, Suit.DIAMONDS)
    second = Card.parse("Qh#2")
    assert (second.rank, second.suit, second.copy) == (Rank.QUEEN, Suit.HEARTS, 1)
    assert second != Card.parse("Qh")


def test_R1_3_canonical_form_is_two_characters() -> None:
    for card in build_deck(52):
        assert len(str(card)) == 2
        assert str(card)[0] in "23456789TJQKA"
        assert str(card)[1] in "cdhs"


def test_R1_3_round_trip_every_card_and_copy() -> None:
    deck = build_deck(52, 3)
    assert len({str(c) for c in deck}) == len(deck)  # every copy has its own text
    for card in deck:
        assert Card.parse(str(card)) is card
    assert parse_cards(format_cards(deck)) == deck


@pytest.mark.parametrize(
    "text",
    ["", "1h", "Xh", "T", "h", "Tx", "10", "11h", "1c", "Th5", "Qh#", "Qh#0", "Qh#x", "hT", "Zz"],
)
def test_R1_3_bad_text_raises_naming_the_text(text: str) -> None:
    with pytest.raises(InvalidCardError) as info:
        Card.parse(text)
    assert isinstance(info.value, ValueError)
    assert repr(text) in str(info.value)


def test_R1_3_bad_text_in_a_card_list_is_named() -> None:
    with pytest.raises(InvalidCardError) as info:
        parse_cards("9h Xq Ts")
    assert "Xq" in str(info.value)
