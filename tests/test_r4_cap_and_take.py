"""R4.6 the cap against a defender who holds more cards than the cap, and R4.8 with
``throw_after_take = False`` in several set-ups.

The R4.6 scenarios in test_r4_bout.py all face a defender of six cards, where ``min(cap, H)`` is
six whether the cap is six or more; here the defender holds seven or eight (after a take, or in
a position that stands for one), so only the cap can stop the seventh card.
"""

from __future__ import annotations

import pytest
from helpers import assert_illegal, cards, hands, legal, play, position

from durak import Beat, Card, Lead, Pass, Rules, Take, ThrowIn, Transfer

D36 = Rules()
R3P = Rules(players=3)


def c(text: str) -> Card:
    return Card.parse(text)


# ---------------------------------------------------------------------------------------------
# R4.6 the cap of six (max_attack) against a defender with more than six cards
# ---------------------------------------------------------------------------------------------

# Trump hearts. Seat 0 holds seven cards of ranks 6 and 7, seat 1 holds eight (as after a take):
# he beats the lead 6s with 7s, which brings rank 7 onto the table.
BIG_HANDS = ["6s 6c 6d 6h 7c 7d 7h 9d", "7s 8s 9s Ts Js Qs 8d 8c"]
SIX_CARDS = (Lead(0, "6s"), Beat(1, "6s", "7s"), ThrowIn(0, "6c"), ThrowIn(0, "6d"),
             ThrowIn(0, "6h"), ThrowIn(0, "7c"))


def test_R4_6_cap_of_six_holds_against_a_defender_with_more_cards() -> None:
    s = position(D36, BIG_HANDS, stock="Kh Ah")
    s = play(s, *SIX_CARDS[:2])
    assert s.defender_hand == 8  # H = 8, so min(cap, H) is the cap
    s = play(s, *SIX_CARDS[2:])
    assert len(s.table) == 5
    # The sixth card is still allowed: 7d or 7h.
    assert legal(s, 0) == {ThrowIn(0, "7d"), ThrowIn(0, "7h"), Pass(0)}
    s = play(s, ThrowIn(0, "7d"))
    assert len(s.table) == 6
    # Five unbeaten cards against seven in hand: only the cap refuses the seventh.
    assert len(s.unbeaten) == 5 and len(s.hands[1]) == 7
    assert legal(s, 0) == set()
    err = assert_illegal(s, ThrowIn(0, "7h"), "R4.6")
    assert "(R4.6)" in str(err)
    # The bout goes on: the defender still has to beat or take.
    assert Take(1) in legal(s, 1)


def test_R4_6_cap_of_six_holds_for_a_larger_hand_size() -> None:
    # hand_size = 8: both players are dealt eight, yet a bout still holds at most six cards.
    rules = Rules(hand_size=8)
    s = position(rules, BIG_HANDS, stock="Kh Ah")
    s = play(s, *SIX_CARDS, ThrowIn(0, "7h"))
    assert len(s.table) == 6
    assert s.defender_hand == 8
    assert_illegal(s, ThrowIn(0, "7d"), "R4.6")
    # The defender takes: the bout ends at once (no thrower can add a card at the cap), and he
    # picks up the six attack cards and his beating card 7s.
    s = play(s, Take(1))
    assert s.table == ()
    assert s.hands[1] == cards("8s 9s Ts Js Qs 8d 8c 7s 6s 6c 6d 6h 7c 7h")


def test_R4_6_cap_of_six_after_a_take_with_two_throwers() -> None:
    # Three players, trump hearts, all played out from six-card hands:
    # bout 1: seat 0 leads 9c, seat 1 takes, seat 0 adds 9d: seat 1 now holds eight;
    # bout 2: seat 2 leads Ks against seat 0, who beats it with As (a successful defence);
    # bout 3: seat 0 leads against seat 1 (eight cards), seat 2 throws in after seat 0.
    s = position(
        R3P,
        ["9c 9d As 8s 8c 8d", "Js Ts Qs 6d 7s Qc", "Ks 8h Jd Jh 7c 7d"],
        stock="Jc 6c Th 6s Ah",
    )
    s = play(s, Lead(0, "9c"), Take(1), ThrowIn(0, "9d"))
    assert s.table == () and len(s.hands[1]) == 8
    assert (s.attacker, s.defender) == (2, 0)  # R6.2
    s = play(s, Lead(2, "Ks"), Beat(0, "Ks", "As"))
    assert s.table == () and (s.attacker, s.defender) == (0, 1)  # R6.1
    assert s.hands == hands("8s 8c 8d Jc 6c 6s", "Js Ts Qs 6d 7s Qc 9c 9d", "8h Jd Jh 7c 7d Th")
    s = play(s, Lead(0, "8s"), Beat(1, "8s", "Js"))
    assert s.defender_hand == 8
    s = play(s, ThrowIn(0, "8c"), ThrowIn(0, "8d"), ThrowIn(0, "Jc"))
    # Seat 0 has nothing more to add, so seat 2 may throw in at once (R4.5, R4.9).
    assert legal(s, 2) == {ThrowIn(2, "8h"), ThrowIn(2, "Jd"), ThrowIn(2, "Jh"), Pass(2)}
    s = play(s, ThrowIn(2, "8h"), ThrowIn(2, "Jd"))
    assert len(s.table) == 6
    assert len(s.hands[1]) == 7 and len(s.unbeaten) == 5
    assert legal(s, 2) == set()
    assert_illegal(s, ThrowIn(2, "Jh"), "R4.6")


# Trump hearts. Seat 1 (eight cards) beats 6s with 8s and 6c with 7c, so ranks 6, 7 and 8 lie
# on the table; seat 0 throws in the rest in this order.
MAX_HANDS = ["6s 6c 6d 6h 8c 8d 8h 7d", "8s 7c 9s Ts Js Qs 9c Tc"]
MAX_THROWS = ["6d", "6h", "8c", "8d", "8h", "7d"]


@pytest.mark.parametrize("cap", [3, 5, 7])
def test_R4_6_max_attack_caps_the_bout_against_a_larger_hand(cap: int) -> None:
    rules = D36.replace(max_attack=cap)
    s = position(rules, MAX_HANDS, stock="Kh Ah")
    s = play(s, Lead(0, "6s"), Beat(1, "6s", "8s"), ThrowIn(0, "6c"), Beat(1, "6c", "7c"))
    assert s.defender_hand == 8
    throws = iter(MAX_THROWS)
    while len(s.table) < cap:
        s = play(s, ThrowIn(0, next(throws)))
    # The bout is at the cap, the defender holds more than enough to face another card, and
    # seat 0 still holds a card of a table rank: R4.6 alone refuses it.
    assert len(s.table) == cap
    refused = ThrowIn(0, next(throws))
    assert len(s.unbeaten) < len(s.hands[1])
    assert legal(s, 0) == set()
    assert_illegal(s, refused, "R4.6")


def test_R4_6_max_attack_above_six_allows_a_seventh_card() -> None:
    rules = D36.replace(max_attack=7)
    s = position(rules, BIG_HANDS, stock="Kh Ah")
    s = play(s, *SIX_CARDS, ThrowIn(0, "7d"))
    assert legal(s, 0) == {ThrowIn(0, "7h"), Pass(0)}
    s = play(s, ThrowIn(0, "7h"))
    assert len(s.table) == 7
    assert s.hands[0] == cards("9d")


def test_R4_6_the_first_bout_cap_also_holds_against_a_larger_hand() -> None:
    s = position(D36, BIG_HANDS, stock="Kh Ah", first_bout=True)
    s = play(s, *SIX_CARDS)
    assert len(s.table) == 5 and s.defender_hand == 8
    assert_illegal(s, ThrowIn(0, "7d"), "R4.6")


# ---------------------------------------------------------------------------------------------
# R4.8 throw_after_take = False: the take ends the bout at once
# ---------------------------------------------------------------------------------------------

NO_THROW = Rules(players=3, deck_size=24, hand_size=3, throw_after_take=False)


def test_R4_8_no_throw_after_take_the_other_throwers_lose_their_chance() -> None:
    # Seat 0 leads 9c; seat 2 could throw in 9s (and seat 0 his 9d), but seat 1 takes at once.
    start = position(NO_THROW, ["9c 9d Ac", "Tc Qd Kd", "9s Ks Qs"], stock="Jh Ah")
    s = play(start, Lead(0, "9c"))
    assert ThrowIn(0, "9d") in legal(s, 0)
    s = play(s, Take(1))
    assert s.table == ()
    assert s.discard == start.discard
    # Seat 1 picks up the one card; seat 0 draws one (Jh); seat 2 keeps his nine.
    assert s.hands == hands("9d Ac Jh", "9c Tc Qd Kd", "9s Ks Qs")
    assert s.stock == cards("Ah")
    # R6.2: the player after the defender leads, against seat 0.
    assert (s.attacker, s.defender) == (2, 0)
    assert legal(s) == {Lead(2, "9s"), Lead(2, "Ks"), Lead(2, "Qs")}


def test_R4_8_no_throw_after_take_with_free_order_and_a_standing_pass() -> None:
    rules = NO_THROW.replace(players=4, throw_order="free")
    start = position(rules, ["9c 9d Ac", "Tc Qd Kd Ks", "9s Js", "9h Jd"], stock="Qs Ah")
    s = play(start, Lead(0, "9c"), Pass(0), ThrowIn(3, "9h"))
    assert s.passed == frozenset()
    assert len(s.unbeaten) == 2
    s = play(s, Beat(1, "9c", "Tc"))
    # Seats 0, 2 and 3 could still throw in, but a take now ends the bout.
    assert {a.player for a in legal(s) if isinstance(a, ThrowIn)} == {0, 2}
    s = play(s, Take(1))
    assert s.table == ()
    assert s.hands[1] == cards("9c Tc 9h Qd Kd Ks")
    assert s.discard == start.discard
    assert (s.attacker, s.defender) == (2, 3)


def test_R4_8_no_throw_after_take_after_a_beat_and_a_throw_in_with_neighbours() -> None:
    rules = NO_THROW.replace(players=4, throwers="neighbours")
    start = position(rules, ["9c Jd Ac", "Jc 9d Qd Kd", "9s Ts", "9h Th"], trump="s")
    s = play(start, Lead(0, "9c"), Beat(1, "9c", "Jc"), ThrowIn(0, "Jd"))
    # Seat 0 has nothing more to add. Only the main attacker and seat 2 (after the defender)
    # are throwers: seat 2 may throw in his nine, seat 3 may not.
    assert legal(s, 2) == {ThrowIn(2, "9s"), Pass(2)}
    assert legal(s, 3) == set()
    s = play(s, Take(1))
    assert s.table == ()
    assert s.hands == hands("Ac", "9c Jc Jd 9d Qd Kd", "9s Ts", "9h Th")
    assert s.discard == start.discard
    assert s.taken is False and s.passed == frozenset()
    assert (s.attacker, s.defender) == (2, 3)


def test_R4_8_no_throw_after_take_in_a_two_player_game_the_attacker_leads_again() -> None:
    rules = NO_THROW.replace(players=2)
    start = position(rules, ["9c 9d 9s Ac", "Tc Qd Kd"], stock="Jh Ah")
    s = play(start, Lead(0, "9c"), ThrowIn(0, "9d"), Take(1))
    assert s.table == ()
    assert s.hands == hands("9s Ac Jh", "9c 9d Tc Qd Kd")
    assert s.stock == cards("Ah")
    assert (s.attacker, s.defender) == (0, 1)  # R6.2 with two players


def test_R4_8_no_throw_after_take_after_a_transfer() -> None:
    rules = NO_THROW.replace(transfer_by_card=True)
    start = position(rules, ["9c 9s Ac", "9d Qd", "Tc Td Kc"], stock="Jh Ah")
    s = play(start, Lead(0, "9c"), Transfer(1, "9d"))
    assert (s.attacker, s.defender) == (1, 2)
    # The new main attacker has nothing to add, so seat 0 could throw in his 9s at once.
    assert legal(s, 0) == {ThrowIn(0, "9s"), Pass(0)}
    s = play(s, Take(2))
    assert s.table == ()
    assert s.hands[2] == cards("9c 9d Tc Td Kc")
    # Seat 0 led and seat 1 added a card: both draw (R5.1); seat 0 keeps his nine.
    assert s.hands[0] == cards("9s Ac Jh")
    assert s.hands[1] == cards("Qd Ah")
    assert (s.attacker, s.defender) == (0, 1)  # R6.2: after seat 2 comes seat 0


def test_R4_8_throw_after_take_on_by_contrast_lets_the_throwers_add() -> None:
    # The same position as the first no-throw scenario, with the default setting.
    rules = NO_THROW.replace(throw_after_take=True)
    s = position(rules, ["9c 9d Ac", "Tc Qd Kd", "9s Ks Qs"], stock="Jh Ah")
    s = play(s, Lead(0, "9c"), Take(1))
    assert s.table == ((c("9c"), None),) and s.taken
    assert legal(s) == {ThrowIn(0, "9d"), Pass(0)}
    s = play(s, Pass(0))
    assert legal(s) == {ThrowIn(2, "9s"), Pass(2)}
    s = play(s, ThrowIn(2, "9s"))
    # The throw-in cleared seat 0's pass: he may add his 9d now, or pass again.
    assert legal(s) == {ThrowIn(0, "9d"), Pass(0)}
    s = play(s, Pass(0))
    assert s.table == ()
    assert s.hands[1] == cards("9c 9s Tc Qd Kd")
