"""R9.1: no transfer (by card or by showing a trump, R9.5) once any attack card of the bout is
beaten, in several set-ups: more players and throwers, a beat followed by throw-ins, a beat
after a transfer chain, ``transfer_several``, and both kinds of transfer at once (R9.6a).

Each scenario first shows that the defender holds a card that would transfer (the rank of
every unbeaten card, a next player with enough cards), so that only R9.1 refuses it.
"""

from __future__ import annotations

from helpers import assert_illegal, cards, legal, play, position

from durak import Beat, Card, Lead, Pass, Rules, ShowTrump, Take, ThrowIn, Transfer

R3T = Rules(players=3, deck_size=24, transfer_by_card=True)
R4T = Rules(players=4, deck_size=24, hand_size=4, transfer_by_card=True)
BOTH = R3T.replace(transfer_by_showing_trump=True)


def c(text: str) -> Card:
    return Card.parse(text)


def defending(state: object, player: int) -> set[object]:
    return {a for a in legal(state, player) if isinstance(a, Beat | Take | Transfer | ShowTrump)}


def test_R9_1_transfer_open_before_the_beat_and_closed_after_it() -> None:
    # Trump hearts. Seat 0 leads 9c and adds 9s; seat 1 holds 9d to transfer and Tc to beat.
    s = position(R3T, ["9c 9s Ac", "Tc 9d Qd", "Td Ts Kc Ks"], stock="Ah")
    s = play(s, Lead(0, "9c"), ThrowIn(0, "9s"))
    assert Transfer(1, "9d") in legal(s, 1)
    s = play(s, Beat(1, "9c", "Tc"))
    # 9s is still unbeaten and seat 2 holds four cards, but 9c is beaten.
    assert s.unbeaten == (c("9s"),)
    assert defending(s, 1) == {Take(1)}
    err = assert_illegal(s, Transfer(1, "9d"), "R9.1")
    assert "9d" in str(err)


def test_R9_1_no_transfer_after_a_beat_and_a_throw_in_of_the_attack_rank() -> None:
    # Seat 1 beats the lead; seat 0 then throws in another nine, which seat 1 could "transfer"
    # with his 9d if nothing had been beaten.
    s = position(R3T, ["9c 9s Ac", "Tc 9d Qd Kd", "Td Ts Kc Ks"], stock="Ah")
    s = play(s, Lead(0, "9c"), Beat(1, "9c", "Tc"), ThrowIn(0, "9s"))
    assert s.table == ((c("9c"), c("Tc")), (c("9s"), None))
    assert defending(s, 1) == {Take(1)}
    assert_illegal(s, Transfer(1, "9d"), "R9.1")
    # He takes (seat 0 has nothing more; seat 2 passes on his tens): the attack stays with
    # him, and the transfer card stays in his hand.
    s = play(s, Take(1), Pass(2))
    assert s.table == ()
    assert s.hands[1] == cards("9c Tc 9s 9d Qd Kd")
    assert (s.attacker, s.defender) == (2, 0)


def test_R9_1_no_transfer_after_a_beat_with_several_throwers() -> None:
    # Four players, free order: seats 0 and 2 both throw a nine in, the defender beats one of
    # the three, then holds 9h for the two left unbeaten.
    rules = R4T.replace(throw_order="free")
    s = position(rules, ["9c Ac", "Tc 9h Qd Kd", "9d Js Qs Jd", "9s Th Jh Qh"], stock="Ks As")
    s = play(s, Lead(0, "9c"), ThrowIn(2, "9d"))
    assert Transfer(1, "9h") in legal(s, 1)
    s = play(s, Beat(1, "9c", "Tc"))
    assert s.unbeaten == (c("9d"),)
    assert defending(s, 1) == {Beat(1, "9d", "Qd"), Beat(1, "9d", "Kd"), Take(1)}
    assert_illegal(s, Transfer(1, "9h"), "R9.1")
    # The beat brought rank T: seat 3 may throw Th in; the transfer stays closed after it.
    s = play(s, ThrowIn(3, "Th"))
    assert s.unbeaten == (c("9d"), c("Th"))
    assert_illegal(s, Transfer(1, "9h"), "R9.1")


def test_R9_1_no_transfer_after_a_beat_by_the_new_defender_of_a_chain() -> None:
    # Seat 0 leads 9c, seat 1 transfers with 9d to seat 2: nothing is beaten yet, so seat 2 may
    # transfer too. He beats 9c instead; now his 9s cannot pass the remaining 9d on.
    s = position(R3T, ["9c Ac Kc Qc", "9d Qd", "Tc 9s Jh Qh"], stock="Ah")
    s = play(s, Lead(0, "9c"), Transfer(1, "9d"))
    assert (s.attacker, s.defender) == (1, 2)
    assert Transfer(2, "9s") in legal(s, 2)
    s = play(s, Beat(2, "9c", "Tc"))
    assert s.unbeaten == (c("9d"),)
    assert defending(s, 2) == {Beat(2, "9d", "Jh"), Beat(2, "9d", "Qh"), Take(2)}
    assert_illegal(s, Transfer(2, "9s"), "R9.1")


def test_R9_1_no_transfer_after_a_beat_in_a_two_player_game() -> None:
    rules = Rules(deck_size=24, transfer_by_card=True)
    s = position(rules, ["9c 9s Ac Kc Qc", "Tc 9d Qd Kd"], stock="Ah")
    s = play(s, Lead(0, "9c"), ThrowIn(0, "9s"))
    assert Transfer(1, "9d") in legal(s, 1)
    s = play(s, Beat(1, "9c", "Tc"))
    assert defending(s, 1) == {Take(1)}
    assert_illegal(s, Transfer(1, "9d"), "R9.1")


def test_R9_1_no_transfer_of_several_cards_after_a_beat() -> None:
    rules = R3T.replace(transfer_several=True)
    s = position(rules, ["9c 9s Ac", "Tc 9d 9h Qd", "Td Ts Kc Ks Js"], stock="Ah")
    s = play(s, Lead(0, "9c"), ThrowIn(0, "9s"))
    assert {Transfer(1, "9d"), Transfer(1, "9h"), Transfer(1, "9d 9h")} <= legal(s, 1)
    s = play(s, Beat(1, "9c", "Tc"))
    assert defending(s, 1) == {Beat(1, "9s", "9h"), Take(1)}
    for transfer in (Transfer(1, "9d"), Transfer(1, "9h"), Transfer(1, "9d 9h")):
        assert_illegal(s, transfer, "R9.1")


def test_R9_1_no_show_of_a_trump_after_a_beat() -> None:
    # R9.5: a show passes the attack "as in R9.1", so a beaten card closes it too.
    rules = Rules(players=3, deck_size=24, transfer_by_showing_trump=True)
    s = position(rules, ["9c 9s Ac", "Tc 9h Qd", "Td Ts Kc Ks"], stock="Ah")
    s = play(s, Lead(0, "9c"), ThrowIn(0, "9s"))
    assert ShowTrump(1, "9h") in legal(s, 1)
    s = play(s, Beat(1, "9c", "Tc"))
    assert defending(s, 1) == {Beat(1, "9s", "9h"), Take(1)}
    assert_illegal(s, ShowTrump(1, "9h"), "R9.1")
    # The 9h still beats as a trump, and stays in his hand until then.
    s = play(s, Beat(1, "9s", "9h"))
    assert s.table == ((c("9c"), c("Tc")), (c("9s"), c("9h")))


def test_R9_1_both_kinds_closed_after_a_beat() -> None:
    s = position(BOTH, ["9c 9s Ac", "Tc 9d 9h Qd", "Td Ts Kc Ks"], stock="Ah")
    s = play(s, Lead(0, "9c"), ThrowIn(0, "9s"))
    assert {Transfer(1, "9d"), Transfer(1, "9h"), ShowTrump(1, "9h")} <= legal(s, 1)
    s = play(s, Beat(1, "9c", "Tc"))
    assert defending(s, 1) == {Beat(1, "9s", "9h"), Take(1)}
    assert_illegal(s, Transfer(1, "9d"), "R9.1")
    assert_illegal(s, Transfer(1, "9h"), "R9.1")
    assert_illegal(s, ShowTrump(1, "9h"), "R9.1")


def test_R9_1_a_shown_trump_then_a_beat_closes_the_transfer_for_the_new_defender() -> None:
    # Seat 1 shows 9h: seat 2 defends the 9c and 9s; he beats 9c and may no longer transfer
    # with his 9d, by card or by showing.
    rules = BOTH.replace(lead="same_rank")
    s = position(rules, ["9c 9s Ac Kc Qc", "9h Qd Kd", "Tc 9d Jh Qh"], stock="Ah")
    s = play(s, Lead(0, "9c 9s"), ShowTrump(1, "9h"))
    assert (s.attacker, s.defender) == (1, 2)
    assert Transfer(2, "9d") in legal(s, 2)
    s = play(s, Beat(2, "9c", "Tc"))
    assert s.unbeaten == (c("9s"),)
    assert defending(s, 2) == {Beat(2, "9s", "Jh"), Beat(2, "9s", "Qh"), Take(2)}
    assert_illegal(s, Transfer(2, "9d"), "R9.1")
