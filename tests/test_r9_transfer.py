"""R9 Transfer (Perevodnoy): transfer by card (R9.1) and its end once any attack card is beaten,
the new defender's hand and the cap (R9.2), chains (R9.3), several cards at once (R9.4), showing
a trump (R9.5), the first bout (R9.6), both kinds together (R9.6a) and the throwers during
transfers (R9.7). Drawing after a transfer bout is in test_r5_drawing.py (R5.1).

Where a scenario refuses a transfer, it first shows that the defender holds a card that would
transfer and that the next player holds enough cards, so that only the rule cited refuses it.
"""

from __future__ import annotations

import pytest
from helpers import D24, assert_illegal, cards, hands, legal, play, position

from durak import Beat, Card, Lead, Pass, Rules, ShowTrump, Take, ThrowIn, Transfer, is_legal

R3T = Rules(players=3, deck_size=24, transfer_by_card=True)
R3S = Rules(players=3, deck_size=24, transfer_by_showing_trump=True)
R4T = Rules(players=4, deck_size=24, hand_size=4, transfer_by_card=True)
BOTH = R3T.replace(transfer_by_showing_trump=True)


def c(text: str) -> Card:
    return Card.parse(text)


def _unbeaten(text: str) -> tuple[tuple[object, None], ...]:
    return tuple((card, None) for card in (cards(t)[0] for t in text.split()))


def defending(state: object, player: int) -> set[object]:
    return {a for a in legal(state, player) if isinstance(a, Beat | Take | Transfer | ShowTrump)}


# Three players, trump spades: seat 0 leads 9c against seat 1, who holds 9d (to transfer) and
# Jc (to beat); seat 2 holds three hearts, none of which beats a club or a diamond.
_THREE = ["9c Ac", "9d Jc Kd", "Th Jh Qh"]


def _led(dealt: list[str] = _THREE, **settings: object) -> object:
    settings.setdefault("transfer_by_card", True)
    rules = D24.replace(players=len(dealt), **settings)
    state = position(rules, dealt, trump="s")
    return play(state, Lead(0, "9c"))


def _shown(dealt: list[str], **settings: object) -> object:
    """Trump hearts; seat 0 leads 9c."""
    settings.setdefault("transfer_by_showing_trump", True)
    rules = D24.replace(players=len(dealt), **settings)
    state = position(rules, dealt, trump="h")
    return play(state, Lead(0, "9c"))


# ---------------------------------------------------------------------------------------------
# R9.1 transfer by card
# ---------------------------------------------------------------------------------------------


def test_R9_1_transfer_passes_the_attack_to_the_next_player() -> None:
    s = position(R3T, ["9c Ac", "9d Qd", "Tc Td Kc"], stock="Ah")
    s = play(s, Lead(0, "9c"))
    assert legal(s, 1) == {Transfer(1, "9d"), Take(1)}
    s = play(s, Transfer(1, "9d"))
    assert s.table == ((c("9c"), None), (c("9d"), None))
    assert (s.attacker, s.defender, s.leader) == (1, 2, 0)
    assert s.defender_hand == 3
    assert s.hands == hands("Ac", "Qd", "Tc Td Kc")


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


def test_R9_1_a_transfer_clears_every_pass() -> None:
    rules = R3T.replace(throw_order="free")
    s = position(rules, ["9c 9s Ac", "9d Qd", "Tc Td Ts Kc"], stock="Ah")
    s = play(s, Lead(0, "9c"), Pass(0))
    assert legal(s, 0) == set()
    s = play(s, Transfer(1, "9d"))
    assert s.passed == frozenset()
    assert legal(s, 0) == {ThrowIn(0, "9s"), Pass(0)}


def test_R9_1_transfer_skips_a_player_who_is_out() -> None:
    # Four players, seat 2 is out: the attack passes from seat 1 to seat 3.
    state = _led(["9c Ac", "9d Jc Kd", "", "Th Jh Qh"])
    after = play(state, Transfer(1, "9d"))
    assert (after.attacker, after.defender, after.defender_hand) == (1, 3, 3)


def test_R9_1_no_transfer_when_no_other_player_is_active() -> None:
    # Two players, stock empty: the leader played his last card and has finished, so there is
    # nobody to pass the attack to.
    rules = D24.replace(transfer_by_card=True)
    s = position(rules, ["9c", "9d Tc"], trump="h")
    s = play(s, Lead(0, "9c"))
    assert not s.is_active(0)
    assert legal(s, 1) == {Beat(1, "9c", "Tc"), Take(1)}
    assert_illegal(s, Transfer(1, "9d"), "R9.1")


def test_R9_1_transferring_the_last_card_with_an_empty_stock_finishes_the_player() -> None:
    s = position(R3T, ["9c Ac", "9d", "Tc Td Kc"], trump="h")
    s = play(s, Lead(0, "9c"), Transfer(1, "9d"))
    assert not s.is_active(1)
    s = play(s, Beat(2, "9c", "Tc"), Beat(2, "9d", "Td"))
    assert s.table == ()
    assert s.places == (None, 1, None)
    assert (s.attacker, s.defender) == (2, 0)


def test_R9_1_transfer_is_off_by_default() -> None:
    rules = Rules(players=3, deck_size=24)
    s = position(rules, ["9c Ac", "9d Qd", "Tc Td Kc"], stock="Ah")
    s = play(s, Lead(0, "9c"))
    assert legal(s, 1) == {Take(1)}
    assert_illegal(s, Transfer(1, "9d"), "R9.1")


def test_R9_1_transfer_card_must_be_of_the_attack_rank() -> None:
    s = position(R3T, ["9c Ac", "9d Qd", "Tc Td Kc"], stock="Ah")
    s = play(s, Lead(0, "9c"))
    assert_illegal(s, Transfer(1, "Qd"), "R9.1")


def test_R9_1_transfer_refused_when_the_defender_does_not_hold_the_card() -> None:
    state = _led(["9c Ac", "9d Jc Kd", "9h Jh Qh"])
    assert_illegal(state, Transfer(1, "9h"), "R13.1")


def test_R9_1_no_transfer_after_a_take() -> None:
    s = position(R3T, ["9c Ac", "9d Qd", "Tc Td Kc"], stock="Ah")
    s = play(s, Lead(0, "9c"), Take(1))
    assert not is_legal(s, Transfer(1, "9d"))
    assert legal(s, 1) == set()


# ---------------------------------------------------------------------------------------------
# R9.1 no transfer once an attack card of the bout is beaten (also by showing, R9.5)
# ---------------------------------------------------------------------------------------------


def test_R9_1_no_transfer_once_a_card_is_beaten() -> None:
    s = position(R3T, ["9c 9s Ac", "Tc 9d Qd", "Td Ts Kc"], stock="Ah")
    s = play(s, Lead(0, "9c"), ThrowIn(0, "9s"), Beat(1, "9c", "Tc"))
    assert legal(s, 1) == {Take(1)}
    assert_illegal(s, Transfer(1, "9d"), "R9.1")


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


# ---------------------------------------------------------------------------------------------
# R9.2 the new defender's hand and the cap
# ---------------------------------------------------------------------------------------------


def test_R9_2_transfer_limited_by_the_new_defenders_hand() -> None:
    s = position(R3T, ["9c Ac", "9d Qd", "Tc"], stock="Ah")
    s = play(s, Lead(0, "9c"))
    assert legal(s, 1) == {Take(1)}
    assert_illegal(s, Transfer(1, "9d"), "R9.2")


def test_R9_2_transfer_allowed_when_next_player_holds_exactly_enough() -> None:
    state = _led(["9c Ac", "9d Jc Kd", "Qh Kh"])
    assert Transfer(1, "9d") in legal(state)
    after = play(state, Transfer(1, "9d"))
    assert (after.defender, after.defender_hand) == (2, 2)


def test_R9_2_transfer_limited_by_the_first_bout_cap() -> None:
    rules = Rules(players=3, deck_size=24, decks=2, lead="same_rank", transfer_by_card=True)
    hands_ = ["9c 9d 9s 9h 9c#2", "9d#2 Tc Td Ts Jc Jd", "Tc#2 Td#2 Ts#2 Jc#2 Jd#2 Js#2"]
    first = position(rules, hands_, stock="Ah", first_bout=True)
    first = play(first, Lead(0, "9c 9d 9s 9h 9c#2"))
    assert Transfer(1, "9d#2") not in legal(first, 1)
    assert_illegal(first, Transfer(1, "9d#2"), "R9.2")
    later = position(rules, hands_, stock="Ah")
    later = play(later, Lead(0, "9c 9d 9s 9h 9c#2"), Transfer(1, "9d#2"))
    assert len(later.table) == 6
    assert later.defender == 2


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


def test_R9_2_transfer_cards_count_towards_the_attack_limit() -> None:
    # The new defender holds 2: the lead and the transfer card fill his limit.
    s = position(R3T, ["9c 9s Ac", "9d Qd", "Tc Td"], stock="Ah")
    s = play(s, Lead(0, "9c"), Transfer(1, "9d"))
    assert s.defender_hand == 2
    assert legal(s, 0) == set()
    assert_illegal(s, ThrowIn(0, "9s"), "R4.6")


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
# R9.3 chains
# ---------------------------------------------------------------------------------------------


def test_R9_3_two_players_the_attack_returns_to_the_leader() -> None:
    rules = D24.replace(transfer_by_card=True)
    s = position(rules, ["9c 9s Ac", "9d Qd Kd Jd"], stock="Ah")
    s = play(s, Lead(0, "9c"), Transfer(1, "9d"))
    assert (s.attacker, s.defender) == (1, 0)
    assert Transfer(0, "9s") in legal(s, 0)
    s = play(s, Transfer(0, "9s"))
    assert (s.attacker, s.defender) == (0, 1)
    assert s.defender_hand == 3
    assert s.attack_cards == cards("9c 9d 9s")


def test_R9_3_three_players_chain() -> None:
    s = position(R3T, ["9c Tc Td Ts Kc Kd", "9d Qc", "9s Qd"], stock="Ah")
    s = play(s, Lead(0, "9c"), Transfer(1, "9d"), Transfer(2, "9s"))
    assert (s.attacker, s.defender) == (2, 0)
    assert legal(s, 0) >= {Beat(0, "9c", "Tc"), Beat(0, "9d", "Td"), Beat(0, "9s", "Ts")}


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


# ---------------------------------------------------------------------------------------------
# R9.4 several cards
# ---------------------------------------------------------------------------------------------


def test_R9_4_transfer_several_cards_at_once() -> None:
    rules = R3T.replace(transfer_several=True)
    s = position(rules, ["9c Ac", "9d 9s Qd", "Tc Td Ts Kc"], stock="Ah")
    s = play(s, Lead(0, "9c"))
    assert legal(s, 1) == {
        Transfer(1, "9d"),
        Transfer(1, "9s"),
        Transfer(1, "9d 9s"),
        Take(1),
    }
    s = play(s, Transfer(1, "9d 9s"))
    assert len(s.table) == 3


def test_R9_4_one_card_only_without_transfer_several() -> None:
    s = position(R3T, ["9c Ac", "9d 9s Qd", "Tc Td Ts Kc"], stock="Ah")
    s = play(s, Lead(0, "9c"))
    assert_illegal(s, Transfer(1, "9d 9s"), "R9.4")


def test_R9_4_the_limit_applies_to_the_total() -> None:
    rules = R3T.replace(transfer_several=True)
    s = position(rules, ["9c Ac", "9d 9s Qd", "Tc Td"], stock="Ah")
    s = play(s, Lead(0, "9c"))
    assert legal(s, 1) == {Transfer(1, "9d"), Transfer(1, "9s"), Take(1)}
    assert_illegal(s, Transfer(1, "9d 9s"), "R9.2")


# ---------------------------------------------------------------------------------------------
# R9.5 transfer by showing a trump
# ---------------------------------------------------------------------------------------------


def test_R9_5_show_a_trump_of_the_attack_rank() -> None:
    s = position(R3S, ["9c Ac", "9h 9d Qd", "Tc Td Kc"], stock="Ah")
    s = play(s, Lead(0, "9c"))
    assert legal(s, 1) == {Beat(1, "9c", "9h"), ShowTrump(1, "9h"), Take(1)}
    assert_illegal(s, ShowTrump(1, "9d"), "R9.5")  # not a trump
    s = play(s, ShowTrump(1, "9h"))
    assert s.table == ((c("9c"), None),)  # the table is unchanged
    assert s.hands[1] == cards("9h 9d Qd")  # the card stays in his hand
    assert (s.attacker, s.defender) == (1, 2)
    assert s.defender_hand == 3
    assert s.shown == frozenset({c("9h")})


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


def test_R9_5_each_card_shown_at_most_once_per_bout() -> None:
    rules = Rules(deck_size=24, decks=2, transfer_by_showing_trump=True)
    s = position(rules, ["9c 9h#2 Ac", "9h Qd Kd"], stock="Ah")
    s = play(s, Lead(0, "9c"), ShowTrump(1, "9h"), ShowTrump(0, "9h#2"))
    assert (s.attacker, s.defender) == (0, 1)
    assert ShowTrump(1, "9h") not in legal(s, 1)
    assert_illegal(s, ShowTrump(1, "9h"), "R9.5")


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


def test_R9_5_show_is_limited_by_the_new_defenders_hand() -> None:
    rules = R3S.replace(lead="same_rank")
    s = position(rules, ["9c 9s Ac", "9h Qd Kd", "Tc"], stock="Ah")
    s = play(s, Lead(0, "9c 9s"))
    assert_illegal(s, ShowTrump(1, "9h"), "R9.2")


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


def test_R9_5_a_shown_trump_clears_every_pass() -> None:
    rules = R3S.replace(throw_order="free")
    s = position(rules, ["9c 9s Ac", "9h Qd Kd", "Tc Td Kc"], stock="Ah")
    s = play(s, Lead(0, "9c"), Pass(0))
    assert s.passed == frozenset({0})
    s = play(s, ShowTrump(1, "9h"))
    assert s.passed == frozenset()
    assert legal(s, 0) == {ThrowIn(0, "9s"), Pass(0)}


# ---------------------------------------------------------------------------------------------
# R9.6 transfer_first_bout
# ---------------------------------------------------------------------------------------------


def test_R9_6_no_transfer_in_the_first_bout_when_off() -> None:
    rules = R3T.replace(transfer_first_bout=False)
    first = play(position(rules, ["9c Ac", "9d Qd", "Tc Td Kc"], stock="Ah", first_bout=True),
                 Lead(0, "9c"))
    assert legal(first, 1) == {Take(1)}
    assert_illegal(first, Transfer(1, "9d"), "R9.6")
    later = play(position(rules, ["9c Ac", "9d Qd", "Tc Td Kc"], stock="Ah"), Lead(0, "9c"))
    assert Transfer(1, "9d") in legal(later, 1)


def test_R9_6_only_the_very_first_bout_whatever_the_scope() -> None:
    rules = R3T.replace(transfer_first_bout=False, first_bout_scope="until_first_discard")
    s = position(rules, ["Ad 9c Kc", "Qd Jd", "9s Ks"], trump="h", first_bout=True)
    s = play(s, Lead(0, "Ad"), Take(1))  # bout 1 ends with a take: no discard yet
    assert (s.attacker, s.defender) == (2, 0)
    s = play(s, Lead(2, "9s"))
    assert Transfer(0, "9c") in legal(s, 0)


def test_R9_6_transfer_in_the_first_bout_by_default() -> None:
    first = play(position(R3T, ["9c Ac", "9d Qd", "Tc Td Kc"], stock="Ah", first_bout=True),
                 Lead(0, "9c"))
    assert Transfer(1, "9d") in legal(first, 1)


def test_R9_6_no_show_in_the_first_bout_when_switched_off() -> None:
    rules = D24.replace(players=3, transfer_by_showing_trump=True, transfer_first_bout=False)
    state = position(rules, ["9c Ac", "9h Jc", "Ts Js Qs"], trump="h", first_bout=True)
    state = play(state, Lead(0, "9c"))
    assert_illegal(state, ShowTrump(1, "9h"), "R9.6")


def test_R9_2_no_show_when_the_table_exceeds_the_new_defenders_hand() -> None:
    # Two nines led; the player after the defender holds one card, so a shown trump would
    # leave him two attack cards to face with one card (R9.2): it is not offered.
    rules = D24.replace(players=3, lead="same_rank", transfer_by_showing_trump=True)
    state = play(position(rules, ["9c 9s Ac", "9h Jc Qc", "Ts"], trump="h"), Lead(0, "9c 9s"))
    assert ShowTrump(1, "9h") not in legal(state, 1)
    assert_illegal(state, ShowTrump(1, "9h"), "R9.2")


# ---------------------------------------------------------------------------------------------
# R9.6a both kinds of transfer
# ---------------------------------------------------------------------------------------------


def test_R9_6a_both_kinds_of_transfer_together() -> None:
    rules = R3T.replace(transfer_by_showing_trump=True)
    s = play(position(rules, ["9c Ac", "9h 9d Qd", "Tc Td Kc"], stock="Ah"), Lead(0, "9c"))
    assert legal(s, 1) == {
        Beat(1, "9c", "9h"),
        Transfer(1, "9d"),
        Transfer(1, "9h"),
        ShowTrump(1, "9h"),
        Take(1),
    }


# ---------------------------------------------------------------------------------------------
# R9.7 throwers during transfers
# ---------------------------------------------------------------------------------------------


def test_R9_7_throwers_follow_the_current_defender() -> None:
    s = position(R3T, ["9c 9s Ac", "9d 9h Qd", "Tc Td Ts Kc"], stock="Ah")
    s = play(s, Lead(0, "9c"), Transfer(1, "9d"))
    # Seat 1 is now the main attacker and may throw in while the transfer is still possible;
    # seat 0 waits for him (attacker_first); seat 2 defends.
    assert legal(s, 1) == {ThrowIn(1, "9h"), Pass(1)}
    assert legal(s, 0) == set()
    assert_illegal(s, ThrowIn(0, "9s"), "R4.5")
    s = play(s, Pass(1))
    assert legal(s, 0) == {ThrowIn(0, "9s"), Pass(0)}
    assert all(a.player != 2 for a in legal(s) if isinstance(a, ThrowIn | Pass))


def test_R9_7_throw_in_of_the_attack_rank_keeps_the_transfer_open() -> None:
    state = _led(["9c 9h Ac", "9d Jc", "Th Jh Qh"])
    state = play(state, ThrowIn(0, "9h"))
    assert legal(state, 1) == {Beat(1, "9c", "Jc"), Transfer(1, "9d"), Take(1)}
    after = play(state, Transfer(1, "9d"))
    assert after.table == _unbeaten("9c 9h 9d")
    assert (after.defender, after.defender_hand) == (2, 3)
