"""R9 Transfer (Perevodnoy): the parts the engine already has."""

from __future__ import annotations

from helpers import D24, assert_illegal, cards, hands, legal, play, position

from durak import Beat, Card, Lead, Pass, Rules, ShowTrump, Take, ThrowIn, Transfer, is_legal

R3T = Rules(players=3, deck_size=24, transfer_by_card=True)
R3S = Rules(players=3, deck_size=24, transfer_by_showing_trump=True)


def c(text: str) -> Card:
    return Card.parse(text)


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


def test_R9_1_a_transfer_clears_every_pass() -> None:
    rules = R3T.replace(throw_order="free")
    s = position(rules, ["9c 9s Ac", "9d Qd", "Tc Td Ts Kc"], stock="Ah")
    s = play(s, Lead(0, "9c"), Pass(0))
    assert legal(s, 0) == set()
    s = play(s, Transfer(1, "9d"))
    assert s.passed == frozenset()
    assert legal(s, 0) == {ThrowIn(0, "9s"), Pass(0)}


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


def test_R9_1_no_transfer_once_a_card_is_beaten() -> None:
    s = position(R3T, ["9c 9s Ac", "Tc 9d Qd", "Td Ts Kc"], stock="Ah")
    s = play(s, Lead(0, "9c"), ThrowIn(0, "9s"), Beat(1, "9c", "Tc"))
    assert legal(s, 1) == {Take(1)}
    assert_illegal(s, Transfer(1, "9d"), "R9.1")


def test_R9_1_transfer_card_must_be_of_the_attack_rank() -> None:
    s = position(R3T, ["9c Ac", "9d Qd", "Tc Td Kc"], stock="Ah")
    s = play(s, Lead(0, "9c"))
    assert_illegal(s, Transfer(1, "Qd"), "R9.1")


def test_R9_1_no_transfer_after_a_take() -> None:
    s = position(R3T, ["9c Ac", "9d Qd", "Tc Td Kc"], stock="Ah")
    s = play(s, Lead(0, "9c"), Take(1))
    assert not is_legal(s, Transfer(1, "9d"))
    assert legal(s, 1) == set()


# ---------------------------------------------------------------------------------------------
# R9.2 the limit
# ---------------------------------------------------------------------------------------------


def test_R9_2_transfer_limited_by_the_new_defenders_hand() -> None:
    s = position(R3T, ["9c Ac", "9d Qd", "Tc"], stock="Ah")
    s = play(s, Lead(0, "9c"))
    assert legal(s, 1) == {Take(1)}
    assert_illegal(s, Transfer(1, "9d"), "R9.2")


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


def test_R9_2_transfer_cards_count_towards_the_attack_limit() -> None:
    # The new defender holds 2: the lead and the transfer card fill his limit.
    s = position(R3T, ["9c 9s Ac", "9d Qd", "Tc Td"], stock="Ah")
    s = play(s, Lead(0, "9c"), Transfer(1, "9d"))
    assert s.defender_hand == 2
    assert legal(s, 0) == set()
    assert_illegal(s, ThrowIn(0, "9s"), "R4.6")


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
# R9.5 showing a trump
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


def test_R9_5_each_card_shown_at_most_once_per_bout() -> None:
    rules = Rules(deck_size=24, decks=2, transfer_by_showing_trump=True)
    s = position(rules, ["9c 9h#2 Ac", "9h Qd Kd"], stock="Ah")
    s = play(s, Lead(0, "9c"), ShowTrump(1, "9h"), ShowTrump(0, "9h#2"))
    assert (s.attacker, s.defender) == (0, 1)
    assert ShowTrump(1, "9h") not in legal(s, 1)
    assert_illegal(s, ShowTrump(1, "9h"), "R9.5")


def test_R9_5_show_is_limited_by_the_new_defenders_hand() -> None:
    rules = R3S.replace(lead="same_rank")
    s = position(rules, ["9c 9s Ac", "9h Qd Kd", "Tc"], stock="Ah")
    s = play(s, Lead(0, "9c 9s"))
    assert_illegal(s, ShowTrump(1, "9h"), "R9.2")


def test_R9_5_a_shown_trump_clears_every_pass() -> None:
    rules = R3S.replace(throw_order="free")
    s = position(rules, ["9c 9s Ac", "9h Qd Kd", "Tc Td Kc"], stock="Ah")
    s = play(s, Lead(0, "9c"), Pass(0))
    assert s.passed == frozenset({0})
    s = play(s, ShowTrump(1, "9h"))
    assert s.passed == frozenset()
    assert legal(s, 0) == {ThrowIn(0, "9s"), Pass(0)}


# ---------------------------------------------------------------------------------------------
# R9.6 first bout, R9.6a both kinds, R9.7 throwers
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
