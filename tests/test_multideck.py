"""Several decks shuffled together (decks = k), beyond the cases in test_r1_cards.py and
test_r3_first_lead.py: each copy is its own card (R1.2, R4.7), only identical lowest trumps tie
(R3.2), more than four cards of a rank in a bout (R4.3, R4.6), and up to floor(cards / 6)
players (R2.1)."""

from __future__ import annotations

import pytest
from helpers import D24, assert_illegal, cards, deck_for, legal, play, position

from durak import (
    Beat,
    Lead,
    Pass,
    PositionError,
    Rules,
    RulesError,
    Take,
    ThrowIn,
    Transfer,
    build_deck,
    new_game,
    new_position,
    parse_cards,
)


def double(**settings: object) -> Rules:
    """Two 24-card decks (48 cards)."""
    return D24.replace(decks=2, **settings)


# ---------------------------------------------------------------------------------------------
# R1.2 / R4.7 identical cards never beat each other
# ---------------------------------------------------------------------------------------------


def test_R1_2_the_second_copy_is_beaten_like_the_first() -> None:
    state = position(double(), ["Tc#2 9d", "Tc Jc Ts As"], trump="s")
    state = play(state, Lead(0, "Tc#2"))
    assert legal(state) == {
        Beat(1, "Tc#2", "Jc"),
        Beat(1, "Tc#2", "Ts"),
        Beat(1, "Tc#2", "As"),
        Take(1),
    }
    assert_illegal(state, Beat(1, "Tc#2", "Tc"), "R4.7")


def test_R1_2_each_copy_is_a_distinct_physical_card_in_a_position() -> None:
    rules = double()
    with pytest.raises(PositionError):
        # 9c listed twice, 9c#2 missing.
        deck = [c for c in build_deck(24, 2) if str(c) not in ("9c", "9c#2", "Tc")]
        new_position(rules, hands=["9c Tc", "9c"], discard=deck, trump="s", attacker=0)
    deck = [c for c in build_deck(24, 2) if str(c) not in ("9c", "9c#2", "Tc")]
    state = new_position(rules, hands=["9c Tc", "9c#2"], discard=deck, trump="s", attacker=0)
    assert state.hands == (cards("9c Tc"), cards("9c#2"))


def test_R1_2_transfer_with_the_identical_copy_of_the_attack_card() -> None:
    rules = double(players=3, transfer_by_card=True)
    state = position(rules, ["9c Ac", "9c#2 Jc", "Th Jh Qh"], trump="s")
    state = play(state, Lead(0, "9c"))
    assert legal(state) == {Beat(1, "9c", "Jc"), Transfer(1, "9c#2"), Take(1)}
    state = play(state, Transfer(1, "9c#2"))
    assert state.table == ((parse_cards("9c")[0], None), (parse_cards("9c#2")[0], None))
    assert state.defender == 2


# ---------------------------------------------------------------------------------------------
# R3.2 ties for the lowest trump
# ---------------------------------------------------------------------------------------------


def test_R3_2_only_identical_lowest_trumps_tie() -> None:
    # Seat 1 (first from the dealer's left among the trump holders) holds Th#2 and Jh#2, seat 2
    # holds the lowest trump 9h: seat 2 leads.
    hands = ["9c Tc Jc Qc Kc Ac", "Th#2 Jh#2 9d Td Jd Qd", "9h Jh 9s Ts Js Qs"]
    rules = double(players=3)
    state = new_game(rules, deck=deck_for(rules, hands, "Ah"))
    assert state.attacker == 2


# ---------------------------------------------------------------------------------------------
# R4.3 / R4.6 more than four cards of one rank in a bout
# ---------------------------------------------------------------------------------------------


def test_R4_3_six_cards_of_one_rank_in_one_bout() -> None:
    rules = double()
    state = position(rules, ["9c 9d 9h 9s 9c#2 9d#2", "Ac Ad Ah Jc Jd Jh"], trump="s")
    state = play(
        state,
        Lead(0, "9c"),
        Take(1),
        ThrowIn(0, "9d"),
        ThrowIn(0, "9h"),
        ThrowIn(0, "9s"),
        ThrowIn(0, "9c#2"),
    )
    assert len(state.table) == 5
    assert legal(state) == {ThrowIn(0, "9d#2"), Pass(0)}
    state = play(state, ThrowIn(0, "9d#2"))
    # Six attack cards, the cap: the bout ends and seat 1 picks up all six nines.
    assert state.table == ()
    # the hand in display order: suit, then rank, then copy (R1.1)
    assert state.hands[1] == cards("9c 9c#2 Jc Ac 9d 9d#2 Jd Ad 9h Jh Ah 9s")
    assert state.hands[0] == ()


# ---------------------------------------------------------------------------------------------
# R2.1 players: up to floor(cards / 6)
# ---------------------------------------------------------------------------------------------


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
