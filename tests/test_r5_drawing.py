"""R5 Drawing after a bout: the order in which players draw (R5.1), also after a transfer bout
(R9) and with ``draw_order``, and the face-up trump card drawn last (R5.2)."""

from __future__ import annotations

import pytest
from helpers import D24, cards, hands, play, position

from durak import Beat, Card, Lead, Pass, Rules, ShowTrump, Suit, Take, ThrowIn, Transfer

# ---------------------------------------------------------------------------------------------
# R5.1 who draws, in which order
# ---------------------------------------------------------------------------------------------


def test_R5_1_leader_then_other_thrower_then_defender_stock_runs_out() -> None:
    # Three players: seat 0 leads, seat 2 throws in, seat 1 defends. Seat 1 sits between them
    # clockwise, but the defender draws last. The stock runs out during his draw; the face-up
    # trump card (Th) is the last card drawn.
    rules = Rules(players=3, deck_size=24)
    s = position(
        rules,
        ["9c 9d Qc Qd Ac Ad", "Tc Td Js Kh Qh Qs", "9s Kc Kd Ks As Ah"],
        stock="Jc Jd Ts 9h Th",
    )
    s = play(
        s,
        Lead(0, "9c"),
        Beat(1, "9c", "Tc"),
        ThrowIn(0, "9d"),
        Beat(1, "9d", "Td"),
        ThrowIn(2, "9s"),
        Beat(1, "9s", "Js"),
    )
    assert s.table == ()
    assert s.stock == ()
    assert s.hands == hands(
        "Qc Qd Ac Ad Jc Jd",  # leader: needs 2, draws the top two
        "Kh Qh Qs 9h Th",  # defender: needs 3, gets the last two, face-up card last
        "Kc Kd Ks As Ah Ts",  # the other thrower: needs 1
    )
    assert s.trump == Suit.HEARTS
    assert (s.attacker, s.defender) == (1, 2)


DRAW_HANDS = ["6c Kd Ad", "7c 7d 8h", "6d Qc Qd", "6h Jc Jd"]
# Seat 3 throws in before seat 2: join order 0, 3, 2; clockwise order 0, 2, 3.
DRAW_PLAY = (
    Lead(0, "6c"),
    ThrowIn(3, "6h"),
    ThrowIn(2, "6d"),
    Beat(1, "6c", "7c"),
    Beat(1, "6h", "8h"),
    Beat(1, "6d", "7d"),
)


def test_R5_1_draw_order_clockwise_from_the_leader() -> None:
    rules = Rules(players=4, hand_size=3)
    s = play(position(rules, DRAW_HANDS, stock="Ts Js Qs As"), *DRAW_PLAY)
    assert s.stock == ()
    assert s.hands == hands("Kd Ad Ts", "As", "Qc Qd Js", "Jc Jd Qs")


def test_R5_1_draw_order_join_order() -> None:
    rules = Rules(players=4, hand_size=3, draw_order="join_order")
    s = play(position(rules, DRAW_HANDS, stock="Ts Js Qs As"), *DRAW_PLAY)
    assert s.stock == ()
    assert s.hands == hands("Kd Ad Ts", "As", "Qc Qd Qs", "Jc Jd Js")


def test_R5_1_each_draws_his_full_need_before_the_next() -> None:
    rules = Rules(players=4, hand_size=3)
    s = play(position(rules, DRAW_HANDS, stock="Ts Js Qs Ks As"), *DRAW_PLAY)
    # Leader, seat 2 and seat 3 need one each; the defender needs 3 and gets the last two.
    assert s.hands == hands("Kd Ad Ts", "Ks As", "Qc Qd Js", "Jc Jd Qs")


def test_R5_1_other_player_below_hand_size_draws_after_the_attackers() -> None:
    # Set-up position: seat 2 holds one card and never attacks. Order: leader 0, attacker 3,
    # then seat 2, then the defender 1.
    rules = Rules(players=4, hand_size=3)
    s = position(rules, ["6c Kd Ad", "7c 8h Ac", "Qc", "6h Jc Jd"], stock="Ts Js Qs Ks As")
    s = play(s, Lead(0, "6c"), ThrowIn(3, "6h"), Beat(1, "6c", "7c"), Beat(1, "6h", "8h"))
    assert s.stock == ()
    assert s.hands == hands("Kd Ad Ts", "Ac As", "Qc Qs Ks", "Jc Jd Js")


def test_R5_1_player_at_hand_size_or_above_draws_nothing() -> None:
    s = position(D24, ["9c Ac", "Tc Jc Qc Kc Ad As"], stock="9d Td Jd Qd Kd 9h")
    s = play(s, Lead(0, "9c"), Take(1))
    assert s.hands == hands("Ac 9d Td Jd Qd Kd", "9c Tc Jc Qc Kc Ad As")
    assert s.stock == (Card.parse("9h"),)
    assert (s.attacker, s.defender) == (0, 1)


def test_R5_1_final_defender_draws_last_even_if_he_led() -> None:
    # Seat 0 leads, seat 1 transfers to 2, seat 2 transfers back to 0, who beats everything.
    rules = Rules(players=3, deck_size=24, transfer_by_card=True)
    s = position(
        rules,
        ["9c Tc Td Ts Kc Kd", "9d Qc", "9s Qd"],
        stock="Jc Jd Js Qs Ks Ac Ah",
    )
    s = play(
        s,
        Lead(0, "9c"),
        Transfer(1, "9d"),
        Transfer(2, "9s"),
        Beat(0, "9c", "Tc"),
        Beat(0, "9d", "Td"),
        Beat(0, "9s", "Ts"),
    )
    assert s.table == ()
    assert s.stock == ()
    # Seat 1 (first attacker clockwise from the leader) draws 5, seat 2 the last 2; the leader
    # was the final defender and finds the stock empty.
    assert s.hands == hands("Kc Kd", "Qc Jc Jd Js Qs Ks", "Qd Ac Ah")
    assert (s.attacker, s.defender) == (0, 1)


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



def test_R5_1_showing_a_trump_does_not_make_a_player_an_attacker() -> None:
    rules = Rules(
        players=4,
        deck_size=24,
        hand_size=4,
        transfer_by_showing_trump=True,
        throw_order="free",
    )
    s = position(
        rules,
        ["9c Ac Ad As", "9h Qc", "Tc Ts Kd Qd", "9s Jc Jd Js"],
        stock="Qs Ks Kc 9d Kh",
    )
    s = play(
        s,
        Lead(0, "9c"),
        ShowTrump(1, "9h"),
        ThrowIn(3, "9s"),
        Beat(2, "9c", "Tc"),
        Beat(2, "9s", "Ts"),
        Pass(1),
    )
    assert s.table == ()
    assert s.stock == ()
    # Leader 0, attacker 3, then seat 1 (no card on the table), the defender 2 last.
    assert s.hands == hands("Ac Ad As Qs", "9h Qc Kc 9d", "Kd Qd Kh", "Jc Jd Js Ks")
    assert (s.attacker, s.defender) == (2, 3)


def test_R5_1_no_drawing_from_an_empty_stock() -> None:
    s = position(D24, ["9c Ac", "Tc Kd"], trump="h")
    s = play(s, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    assert s.hands == hands("Ac", "Kd")


# ---------------------------------------------------------------------------------------------
# R5.2 the face-up trump card
# ---------------------------------------------------------------------------------------------


def test_R5_2_face_up_trump_card_is_the_last_card_drawn() -> None:
    s = position(D24, ["9c Ac", "Tc Kd"], stock="Kc Th")
    assert s.trump_card == Card.parse("Th")
    s = play(s, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    assert s.stock == ()
    assert s.hands == hands("Ac Kc Th", "Kd")
    assert s.trump == Suit.HEARTS
