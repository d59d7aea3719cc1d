"""R9 Transfer (Perevodnoy): scenarios beyond test_r9_transfer.py: the refused transfer of a
card not held, transfer targets, R9.2 at its boundary and in a chain, showing a trump (R9.5),
the first bout (R9.6), throw-ins that keep the transfer open (R9.7), and the drawing order
after a transfer bout (R5.1)."""

from __future__ import annotations

import pytest
from helpers import D24, assert_illegal, cards, legal, play, position

from durak import Beat, Lead, Pass, ShowTrump, Take, ThrowIn, Transfer


def _unbeaten(text: str) -> tuple[tuple[object, None], ...]:
    return tuple((c, None) for c in (cards(t)[0] for t in text.split()))


# Three players, trump spades: seat 0 leads 9c against seat 1, who holds 9d (to transfer) and
# Jc (to beat); seat 2 holds three hearts, none of which beats a club or a diamond.
_THREE = ["9c Ac", "9d Jc Kd", "Th Jh Qh"]


def _led(hands: list[str] = _THREE, **settings: object) -> object:
    settings.setdefault("transfer_by_card", True)
    rules = D24.replace(players=len(hands), **settings)
    state = position(rules, hands, trump="s")
    return play(state, Lead(0, "9c"))


# ---------------------------------------------------------------------------------------------
# R9.1 transfer by card
# ---------------------------------------------------------------------------------------------


def test_R9_1_transfer_removes_the_card_from_the_hand_and_passes_the_attack_on() -> None:
    state = _led()
    after = play(state, Transfer(1, "9d"))
    assert after.hands == (cards("Ac"), cards("Jc Kd"), cards("Th Jh Qh"))
    assert after.table == _unbeaten("9c 9d")
    assert (after.attacker, after.defender, after.leader) == (1, 2, 0)
    assert after.joined == (0, 1)
    assert after.defender_hand == 3
    assert after.passed == frozenset()
    # Seat 2 cannot beat either card; no thrower holds a 9.
    assert legal(after) == {Take(2)}


def test_R9_1_transfer_refused_when_the_defender_does_not_hold_the_card() -> None:
    state = _led(["9c Ac", "9d Jc Kd", "9h Jh Qh"])
    assert_illegal(state, Transfer(1, "9h"), "R13.1")


def test_R9_1_transfer_skips_a_player_who_is_out() -> None:
    # Four players, seat 2 is out: the attack passes from seat 1 to seat 3.
    state = _led(["9c Ac", "9d Jc Kd", "", "Th Jh Qh"])
    after = play(state, Transfer(1, "9d"))
    assert (after.attacker, after.defender, after.defender_hand) == (1, 3, 3)


# ---------------------------------------------------------------------------------------------
# R9.2 the new defender's hand and the cap
# ---------------------------------------------------------------------------------------------


def test_R9_2_transfer_allowed_when_next_player_holds_exactly_enough() -> None:
    state = _led(["9c Ac", "9d Jc Kd", "Qh Kh"])
    assert Transfer(1, "9d") in legal(state)
    after = play(state, Transfer(1, "9d"))
    assert (after.defender, after.defender_hand) == (2, 2)


@pytest.mark.parametrize("first_bout", [True, False])
def test_R9_2_transfer_refused_when_it_would_exceed_the_bouts_cap(first_bout: bool) -> None:
    # first_bout_max = 2: in the first bout the second transfer would make three attack cards.
    rules = D24.replace(players=3, transfer_by_card=True, first_bout_max=2)
    dealt = ["9c Ac Kc Qc", "9d Jc Kd", "9h Jh Qh"]
    state = position(rules, dealt, trump="s", first_bout=first_bout)
    state = play(state, Lead(0, "9c"), Transfer(1, "9d"))
    assert (state.attacker, state.defender) == (1, 2)
    if first_bout:
        assert_illegal(state, Transfer(2, "9h"), "R9.2")
        assert legal(state) == {Take(2)}
    else:
        assert legal(state) == {Transfer(2, "9h"), Take(2)}


# ---------------------------------------------------------------------------------------------
# R9.3 chains
# ---------------------------------------------------------------------------------------------


def test_R9_3_transfers_chain_round_the_table_back_to_the_leader() -> None:
    state = _led(["9c Ac Kc Qc", "9d Jc Kd", "9h Jh Qh"])
    state = play(state, Transfer(1, "9d"))
    assert legal(state) == {Transfer(2, "9h"), Take(2)}
    state = play(state, Transfer(2, "9h"))
    assert (state.attacker, state.defender, state.leader) == (2, 0, 0)
    assert state.defender_hand == 3
    assert state.table == _unbeaten("9c 9d 9h")
    assert state.joined == (0, 1, 2)
    assert state.hands == (cards("Ac Kc Qc"), cards("Jc Kd"), cards("Jh Qh"))
    # The leader now defends: he can beat only the 9c (with a higher club), not the 9d or 9h.
    assert legal(state) == {Beat(0, "9c", "Qc"), Beat(0, "9c", "Kc"), Beat(0, "9c", "Ac"), Take(0)}


def test_R9_2_transfer_back_refused_when_the_other_player_holds_too_few() -> None:
    # Two players: seat 1 keeps one card after his transfer, so a transfer back (three attack
    # cards) is refused.
    rules = D24.replace(transfer_by_card=True)
    state = position(rules, ["9c 9h Ac", "9d Jc"], trump="s")
    state = play(state, Lead(0, "9c"), Transfer(1, "9d"))
    assert (state.attacker, state.defender, state.defender_hand) == (1, 0, 2)
    assert_illegal(state, Transfer(0, "9h"), "R9.2")
    assert legal(state) == {Beat(0, "9c", "Ac"), Take(0)}


# ---------------------------------------------------------------------------------------------
# R9.5 transfer by showing a trump
# ---------------------------------------------------------------------------------------------


def _shown(hands: list[str], **settings: object) -> object:
    """Trump hearts; seat 0 leads 9c."""
    settings.setdefault("transfer_by_showing_trump", True)
    rules = D24.replace(players=len(hands), **settings)
    state = position(rules, hands, trump="h")
    return play(state, Lead(0, "9c"))


def test_R9_5_showing_a_trump_of_the_attack_rank_is_offered() -> None:
    state = _shown(["9c Ac", "9h 9d Jc", "Ts Js Qs"])
    # Transfer by card is off (R9.6a): the 9d gives no transfer.
    assert legal(state) == {
        Beat(1, "9c", "Jc"),
        Beat(1, "9c", "9h"),
        ShowTrump(1, "9h"),
        Take(1),
    }
    assert_illegal(state, Transfer(1, "9d"), "R9.1")


def test_R9_5_shown_trump_stays_in_hand_and_the_table_is_unchanged() -> None:
    state = _shown(["9c Ac", "9h 9d Jc", "Ts Js Qs"])
    after = play(state, ShowTrump(1, "9h"))
    assert after.hands == state.hands
    assert after.table == state.table == _unbeaten("9c")
    assert (after.attacker, after.defender, after.leader) == (1, 2, 0)
    assert after.defender_hand == 3
    assert after.shown == frozenset(cards("9h"))
    assert after.joined == (0,)
    assert after.passed == frozenset()
    # Seat 2 holds only spades; seat 1, now the main attacker, may throw in his 9h or 9d.
    assert legal(after) == {Take(2), ThrowIn(1, "9h"), ThrowIn(1, "9d"), Pass(1)}


def test_R9_5_show_refused_for_a_card_that_is_not_trump_or_not_of_the_rank() -> None:
    state = _shown(["9c Ac", "9h 9d Jh", "Ts Js Qs"])
    assert_illegal(state, ShowTrump(1, "9d"), "R9.5")
    assert_illegal(state, ShowTrump(1, "Jh"), "R9.5")


def test_R9_5_show_refused_for_a_card_not_in_hand() -> None:
    state = _shown(["9c Ac", "9d Jc", "9h Js Qs"])
    assert_illegal(state, ShowTrump(1, "9h"), "R13.1")


def test_R9_5_show_refused_when_showing_is_off() -> None:
    state = _shown(["9c Ac", "9h 9d Jc", "Ts Js Qs"], transfer_by_showing_trump=False)
    assert legal(state) == {Beat(1, "9c", "Jc"), Beat(1, "9c", "9h"), Take(1)}
    assert_illegal(state, ShowTrump(1, "9h"), "R9.5")


def test_R9_5_R9_2_counts_only_the_cards_on_the_table() -> None:
    # Seat 2 holds one card: a show (table unchanged, one attack card) is allowed where a
    # transfer by card (two attack cards) is not.
    state = _shown(["9c Ac", "9h 9d Jc", "Qs"], transfer_by_card=True)
    assert legal(state, 1) == {
        Beat(1, "9c", "Jc"),
        Beat(1, "9c", "9h"),
        ShowTrump(1, "9h"),
        Take(1),
    }
    assert_illegal(state, Transfer(1, "9d"), "R9.2")
    after = play(state, ShowTrump(1, "9h"))
    assert (after.defender, after.defender_hand) == (2, 1)


def test_R9_5_same_card_cannot_be_shown_twice_in_a_bout() -> None:
    rules = D24.replace(transfer_by_card=True, transfer_by_showing_trump=True)
    state = position(rules, ["9c 9d Ac Kc", "9h Jc Kd"], trump="h")
    state = play(state, Lead(0, "9c"), ShowTrump(1, "9h"))
    assert (state.attacker, state.defender) == (1, 0)
    state = play(state, Transfer(0, "9d"))
    assert (state.attacker, state.defender, state.defender_hand) == (0, 1, 3)
    assert state.shown == frozenset(cards("9h"))
    assert_illegal(state, ShowTrump(1, "9h"), "R9.5")
    assert legal(state) == {
        Beat(1, "9c", "Jc"),
        Beat(1, "9c", "9h"),
        Beat(1, "9d", "Kd"),
        Beat(1, "9d", "9h"),
        Take(1),
    }


def test_R9_5_shown_cards_are_forgotten_when_the_bout_ends() -> None:
    rules = D24.replace(transfer_by_showing_trump=True)
    state = position(rules, ["9c Ac", "9h Jc Kd"], trump="h", attacker=0)
    # Seat 0 held one card when the attack passed to him, so the bout is full (R4.6) and
    # ends with his take.
    state = play(state, Lead(0, "9c"), ShowTrump(1, "9h"), Take(0))
    assert state.shown == frozenset()
    assert state.hands == (cards("9c Ac"), cards("9h Jc Kd"))
    # Two players: after the take the same attacker (seat 1) leads again (R6.2).
    assert (state.attacker, state.defender) == (1, 0)


# ---------------------------------------------------------------------------------------------
# R9.6 transfer_first_bout
# ---------------------------------------------------------------------------------------------


def test_R9_6_no_show_in_the_first_bout_when_switched_off() -> None:
    rules = D24.replace(players=3, transfer_by_showing_trump=True, transfer_first_bout=False)
    state = position(rules, ["9c Ac", "9h Jc", "Ts Js Qs"], trump="h", first_bout=True)
    state = play(state, Lead(0, "9c"))
    assert_illegal(state, ShowTrump(1, "9h"), "R9.6")


# ---------------------------------------------------------------------------------------------
# R9.7 throwers during transfers
# ---------------------------------------------------------------------------------------------


def test_R9_7_throw_in_of_the_attack_rank_keeps_the_transfer_open() -> None:
    state = _led(["9c 9h Ac", "9d Jc", "Th Jh Qh"])
    state = play(state, ThrowIn(0, "9h"))
    assert legal(state, 1) == {Beat(1, "9c", "Jc"), Transfer(1, "9d"), Take(1)}
    after = play(state, Transfer(1, "9d"))
    assert after.table == _unbeaten("9c 9h 9d")
    assert (after.defender, after.defender_hand) == (2, 3)


# ---------------------------------------------------------------------------------------------
# R5.1 drawing after a transfer bout
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        # clockwise from the leader: 0, 1, 3, then the defender 2
        ("clockwise", ["Kc Ad Js", "Jc Qd Qs", "", "As Ks Ts"]),
        # in the order they first put a card on the table: 0, 3, 1, then 2
        ("join_order", ["Kc Ad Js", "Jc Qd Ts", "", "As Ks Qs"]),
    ],
)
def test_R5_1_drawing_order_after_a_transfer_bout(order: str, expected: list[str]) -> None:
    # Four players, hand size 3, trump hearts. Seat 0 leads 9c against seat 1, seat 3 throws in
    # 9h, seat 1 transfers with 9d to seat 2, who beats all three.
    rules = D24.replace(players=4, hand_size=3, transfer_by_card=True, draw_order=order)
    state = position(
        rules,
        ["9c Kc Ad", "9d Jc Qd", "Tc Th Td", "9h As Ks"],
        stock="Js Qs Ts Jh Qh Ah",
    )
    state = play(state, Lead(0, "9c"), ThrowIn(3, "9h"), Transfer(1, "9d"))
    assert state.joined == (0, 3, 1)
    state = play(state, Beat(2, "9c", "Tc"), Beat(2, "9h", "Th"), Beat(2, "9d", "Td"))
    assert state.table == ()
    assert state.stock == ()
    expected[2] = "Jh Qh Ah"
    assert state.hands == tuple(cards(h) for h in expected)
    assert (state.attacker, state.defender) == (2, 3)
