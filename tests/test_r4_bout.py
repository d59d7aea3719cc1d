"""R4 The bout: the defender (R4.1), the lead (R4.2), throwing in (R4.3), who may throw in
(R4.4), in which order (R4.5), the attack limit (R4.6), beating (R4.7), taking (R4.8), passing
(R4.9) and the end of the bout (R4.10).

Each variant setting is tested under its rule: ``lead`` under R4.2, ``throwers`` under R4.4,
``throw_order`` under R4.5, ``first_bout_max``, ``first_bout_scope`` and ``max_attack`` under
R4.6, ``throw_after_take`` under R4.8.
"""

from __future__ import annotations

import pytest
from helpers import (
    D24,
    assert_illegal,
    cards,
    discard_added,
    hands,
    legal,
    play,
    position,
    throwers_able,
)

from durak import (
    Beat,
    Card,
    Lead,
    Pass,
    PositionError,
    Rules,
    Take,
    ThrowIn,
    Transfer,
    apply,
    attack_limit,
    legal_actions,
    new_game,
    next_actor,
    view,
)
from durak.serialize import state_from_dict, state_to_dict

R3P = Rules(players=3, deck_size=24)
R4P = Rules(players=4, deck_size=24, hand_size=4)
D36 = Rules()
R3_36 = Rules(players=3)


def c(text: str) -> Card:
    return Card.parse(text)


# ---------------------------------------------------------------------------------------------
# R4.1 the defender
# ---------------------------------------------------------------------------------------------


def test_R4_1_defender_is_next_player_clockwise_from_the_attacker() -> None:
    s = position(R4P, ["Tc Jc", "9d", "9s", "9c Ad"], stock="Kh", attacker=3)
    assert (s.attacker, s.defender) == (3, 0)
    s = play(s, Lead(3, "9c"))
    assert s.defender == 0
    defending = {a for a in legal(s) if isinstance(a, Beat | Take)}
    assert defending == {Beat(0, "9c", "Tc"), Beat(0, "9c", "Jc"), Take(0)}
    assert_illegal(s, Take(1), "R4.1")


def test_R4_1_defender_skips_a_player_who_is_out() -> None:
    # Stock empty, seat 1 holds nothing: he is out, so seat 2 defends against seat 0.
    s = position(R3P, ["9c Tc", "", "Jc Qd"], trump="h")
    assert s.places == (None, 1, None)
    assert (s.attacker, s.defender) == (0, 2)
    s = play(s, Lead(0, "9c"))
    assert legal(s, 2) == {Beat(2, "9c", "Jc"), Take(2)}
    assert legal(s, 1) == set()


def test_R4_1_only_the_attacker_leads() -> None:
    s = position(R3P, ["9c Tc", "Jc", "Qc"], stock="Kh")
    assert legal(s) == {Lead(0, "9c"), Lead(0, "Tc")}
    assert_illegal(s, Lead(1, "Jc"), "R4.1")
    assert_illegal(s, Lead(2, "Qc"), "R4.1")


# ---------------------------------------------------------------------------------------------
# R4.2 the lead; lead = same_rank
# ---------------------------------------------------------------------------------------------


def test_R4_2_single_lead_is_one_card_of_any_rank() -> None:
    s = position(D24, ["9c 9d Qs Ah", "Tc Td Ts Th"], stock="Kh")
    assert legal(s) == {Lead(0, "9c"), Lead(0, "9d"), Lead(0, "Qs"), Lead(0, "Ah")}
    assert_illegal(s, Lead(0, "9c 9d"), "R4.2")


def test_R4_2_same_rank_lead_of_one_or_more_cards_of_one_rank() -> None:
    rules = Rules(deck_size=24, lead="same_rank")
    s = position(rules, ["9c 9d 9s Kc", "Tc Td Ts Jc Jd Js"], stock="Kh")
    nines = ["9c", "9d", "9s", "9c 9d", "9c 9s", "9d 9s", "9c 9d 9s"]
    assert legal(s) == {Lead(0, cards(t)) for t in nines} | {Lead(0, "Kc")}
    s2 = play(s, Lead(0, "9c 9s"))
    assert s2.table == ((c("9c"), None), (c("9s"), None))
    assert s2.hands[0] == cards("9d Kc")


def test_R4_2_same_rank_lead_of_mixed_ranks_rejected() -> None:
    rules = Rules(deck_size=24, lead="same_rank")
    s = position(rules, ["9c 9d Kc", "Tc Td Ts Jc Jd Js"], stock="Kh")
    assert_illegal(s, Lead(0, "9c Kc"), "R4.2")


def test_R4_2_same_rank_lead_listing_one_card_twice_rejected() -> None:
    rules = Rules(deck_size=24, lead="same_rank")
    s = position(rules, ["9c 9d Kc", "Tc Td Ts Jc Jd Js"], stock="Kh")
    err = assert_illegal(s, Lead(0, ["9c", "9c"]), "R1.2")
    assert "9c" in str(err)


def test_R4_2_same_rank_lead_stays_within_the_limit() -> None:
    rules = Rules(deck_size=24, lead="same_rank")
    s = position(rules, ["9c 9d 9s", "Tc Td"], stock="Kh")
    nines = ["9c", "9d", "9s", "9c 9d", "9c 9s", "9d 9s"]
    assert legal(s) == {Lead(0, cards(t)) for t in nines}
    assert_illegal(s, Lead(0, "9c 9d 9s"), "R4.6")


def test_R4_2_same_rank_lead_of_identical_cards_of_two_decks() -> None:
    rules = Rules(deck_size=24, decks=2, lead="same_rank")
    s = position(rules, ["9c 9c#2", "Tc Td Ts"], stock="Kh")
    assert legal(s) == {Lead(0, "9c"), Lead(0, "9c#2"), Lead(0, "9c 9c#2")}


def test_R4_2_same_rank_lead_with_neighbours_german_classic() -> None:
    # The German article's game: seat 0 leads two nines; only the main attacker and the player
    # after the defender (seat 2) may add the other nines, seat 3 may not.
    rules = D24.replace(players=4, lead="same_rank", throwers="neighbours", throw_order="free")
    state = position(rules, ["9c 9d Ac", "Tc Jc Qd Kd", "9h Ah", "9s As"], trump="d")
    state = play(state, Lead(0, "9c 9d"))
    assert state.table == ((cards("9c")[0], None), (cards("9d")[0], None))
    assert state.defender_hand == 4
    assert legal(state) == {
        Beat(1, "9c", "Tc"),
        Beat(1, "9c", "Jc"),
        Beat(1, "9c", "Qd"),
        Beat(1, "9c", "Kd"),
        Beat(1, "9d", "Qd"),
        Beat(1, "9d", "Kd"),
        Take(1),
        ThrowIn(2, "9h"),
        Pass(2),
    }
    assert_illegal(state, ThrowIn(3, "9s"), "R4.4")
    state = play(state, ThrowIn(2, "9h"))
    assert state.joined == (0, 2)
    assert len(state.table) == 3


# ---------------------------------------------------------------------------------------------
# R4.3 throwing in
# ---------------------------------------------------------------------------------------------


def test_R4_3_throw_in_ranks_of_attack_and_beating_cards() -> None:
    s = position(D24, ["9s 9d Td Kc", "Ts Qs Js Qd"], stock="Kh")
    s = play(s, Lead(0, "9s"), Beat(1, "9s", "Ts"))
    assert legal(s, 0) == {ThrowIn(0, "9d"), ThrowIn(0, "Td"), Pass(0)}
    assert_illegal(s, ThrowIn(0, "Kc"), "R4.3")
    s = play(s, ThrowIn(0, "Td"))
    assert s.table == ((c("9s"), c("Ts")), (c("Td"), None))


def test_R4_3_throw_in_while_earlier_cards_are_unbeaten() -> None:
    s = position(D24, ["9s 9d Kc", "Td Ts Qs Kh"], stock="Ah")
    s = play(s, Lead(0, "9s"))
    assert legal(s, 0) == {ThrowIn(0, "9d"), Pass(0)}
    s = play(s, ThrowIn(0, "9d"))
    assert s.table == ((c("9s"), None), (c("9d"), None))
    assert legal(s, 1) == {
        Beat(1, "9s", "Ts"),
        Beat(1, "9s", "Qs"),
        Beat(1, "9s", "Kh"),
        Beat(1, "9d", "Td"),
        Beat(1, "9d", "Kh"),
        Take(1),
    }


def test_R4_3_six_cards_of_one_rank_in_one_bout() -> None:
    rules = D24.replace(decks=2)
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
# R4.4 who may throw in: throwers = all | neighbours | attacker
# ---------------------------------------------------------------------------------------------


# Most scenarios use throw_order = free, to look at R4.4 alone.
THROWERS_HANDS = ["9c 9h", "Tc Jc Qc Kc", "9d Ad", "9s As"]


@pytest.mark.parametrize(
    ("setting", "others"),
    [("all", {2, 3}), ("neighbours", {2}), ("attacker", set())],
)
def test_R4_4_who_may_throw_in(setting: str, others: set[int]) -> None:
    rules = R4P.replace(throwers=setting, throw_order="free")
    s = position(rules, THROWERS_HANDS, stock="Kh")
    s = play(s, Lead(0, "9c"))
    # The main attacker is always a thrower.
    assert legal(s, 0) == {ThrowIn(0, "9h"), Pass(0)}
    assert legal(s, 1) == {Beat(1, "9c", "Tc"), Beat(1, "9c", "Jc"), Beat(1, "9c", "Qc"),
                           Beat(1, "9c", "Kc"), Take(1)}
    own = {2: "9d", 3: "9s"}
    for seat in (2, 3):
        if seat in others:
            assert legal(s, seat) == {ThrowIn(seat, own[seat]), Pass(seat)}
        else:
            assert legal(s, seat) == set()
            assert_illegal(s, ThrowIn(seat, own[seat]), "R4.4")


def test_R4_4_neighbours_skip_a_player_who_is_out() -> None:
    # Seat 2 is out (no cards, empty stock): the next active player after the defender is 3.
    rules = R4P.replace(throwers="neighbours", throw_order="free")
    s = position(rules, ["9c 9h", "Tc Jc Qc Kc", "", "9s As"], trump="h")
    s = play(s, Lead(0, "9c"))
    assert legal(s, 3) == {ThrowIn(3, "9s"), Pass(3)}


def test_R4_4_neighbours_with_three_players() -> None:
    rules = R3P.replace(throwers="neighbours", throw_order="free")
    s = position(rules, ["9c 9h", "Tc Jc Qc Kc", "9s As"], stock="Kh")
    s = play(s, Lead(0, "9c"))
    assert legal(s, 2) == {ThrowIn(2, "9s"), Pass(2)}


def test_R4_4_defender_never_throws_in() -> None:
    s = position(D24, ["9c Ac", "9d Tc"], stock="Kh")
    s = play(s, Lead(0, "9c"))
    assert legal(s, 1) == {Beat(1, "9c", "Tc"), Take(1)}
    assert_illegal(s, ThrowIn(1, "9d"), "R4.4")


# Seat 0 leads 9c against seat 1, who beats it with Tc; every other seat holds a 9 or a T, so
# each of them could throw in if he were a thrower. Seats listed in ``out`` hold nothing
# (the stock is empty, so they are out).
_SIX = ["9c 9d", "Tc Jc", "9h 6c", "Td 6d", "9s 6h", "Th 6s"]


def _after_beat(rules: Rules, out: tuple[int, ...] = ()) -> object:
    dealt = [("" if seat in out else h) for seat, h in enumerate(_SIX[: rules.players])]
    state = position(rules, dealt, trump="c")
    return play(state, Lead(0, "9c"), Beat(1, "9c", "Tc"))


def _thrown(seat: int) -> ThrowIn:
    """The throw-in open to ``seat`` after the beat (seat 0 has led his 9c)."""
    return ThrowIn(seat, "9d" if seat == 0 else _SIX[seat].split()[0])


@pytest.mark.parametrize(
    ("players", "out", "expected"),
    [
        (3, (), {0, 2}),
        (4, (), {0, 2}),
        (6, (), {0, 2}),
        (4, (2,), {0, 3}),
        (6, (2,), {0, 3}),
        (6, (2, 3), {0, 4}),
        (3, (2,), {0}),
        (2, (), {0}),
    ],
)
def test_R4_4_neighbours_are_the_attacker_and_the_player_after_the_defender(
    players: int, out: tuple[int, ...], expected: set[int]
) -> None:
    rules = Rules(players=players, throwers="neighbours", throw_order="free")
    state = _after_beat(rules, out)
    assert throwers_able(state) == expected
    assert legal(state) == {_thrown(p) for p in expected} | {Pass(p) for p in expected}
    for seat in range(2, players):
        if seat not in expected and seat not in out:
            assert_illegal(state, _thrown(seat), "R4.4")


@pytest.mark.parametrize("players", [3, 4, 6])
def test_R4_4_all_throwers_contrast_every_player_but_the_defender(players: int) -> None:
    rules = Rules(players=players, throw_order="free")
    state = _after_beat(rules)
    assert throwers_able(state) == set(range(players)) - {1}


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_R4_4_attacker_alone_throws_in(players: int) -> None:
    rules = Rules(players=players, throwers="attacker", throw_order="free")
    state = _after_beat(rules)
    assert legal(state) == {ThrowIn(0, "9d"), Pass(0)}
    for seat in range(2, players):
        assert_illegal(state, _thrown(seat), "R4.4")


def test_R4_4_neighbours_under_attacker_first_after_the_attackers_pass() -> None:
    rules = Rules(players=4, throwers="neighbours")
    state = _after_beat(rules)
    assert legal(state) == {ThrowIn(0, "9d"), Pass(0)}
    assert_illegal(state, ThrowIn(2, "9h"), "R4.5")
    assert_illegal(state, ThrowIn(3, "Td"), "R4.4")
    after = play(state, Pass(0))
    assert legal(after) == {ThrowIn(2, "9h"), Pass(2)}
    assert_illegal(after, ThrowIn(3, "Td"), "R4.4")


def test_R4_4_neighbours_when_the_attacker_sits_after_the_defender() -> None:
    # Four players, seat 3 leads against seat 0: the next player after the defender is seat 1.
    rules = Rules(players=4, throwers="neighbours", throw_order="free")
    state = position(rules, ["Tc Jc", "9h 6c", "Td 6d", "9c 9d"], trump="c", attacker=3)
    state = play(state, Lead(3, "9c"), Beat(0, "9c", "Tc"))
    assert legal(state) == {ThrowIn(3, "9d"), Pass(3), ThrowIn(1, "9h"), Pass(1)}
    assert_illegal(state, ThrowIn(2, "Td"), "R4.4")


@pytest.mark.parametrize(
    ("players", "expected"),
    [
        # After the transfer seat 1 attacks seat 2: the throwers are seat 1 and the player
        # after seat 2: seat 0 with three players, seat 3 with four or six.
        (3, {0}),
        (4, {3}),
        (6, {3}),
    ],
)
def test_R4_4_neighbours_follow_the_defender_after_a_transfer(
    players: int, expected: set[int]
) -> None:
    rules = Rules(
        players=players,
        deck_size=24 if players < 6 else 36,
        throwers="neighbours",
        throw_order="free",
        transfer_by_card=True,
    )
    dealt = ["9c 9h", "9d Jc", "Th Jh Qh", "9s Ac", "6c 7c", "6d 7d"][:players]
    state = position(rules, dealt, trump="s")
    state = play(state, Lead(0, "9c"), Transfer(1, "9d"))
    assert (state.attacker, state.defender) == (1, 2)
    # Seat 1 holds no 9 any more; the new neighbour holds one.
    assert throwers_able(state) == expected
    thrower = min(expected)
    card = "9h" if thrower == 0 else "9s"
    assert legal(state) == {ThrowIn(thrower, card), Pass(thrower), Take(2)}
    if thrower != 0:
        # The leader of the bout is no longer a thrower (R9.7).
        assert_illegal(state, ThrowIn(0, "9h"), "R4.4")


def test_R4_4_neighbours_skip_a_player_who_finished_during_the_bout() -> None:
    # Stock empty. Seat 2, the thrower after the defender, throws in his last card and has
    # finished (R7.1): the next active player after the defender, seat 3, becomes the thrower.
    rules = D24.replace(players=4, throwers="neighbours", throw_order="free")
    state = position(rules, ["9c Ac", "Tc Jc Qc", "9h", "9d As"], trump="s")
    state = play(state, Lead(0, "9c"))
    assert_illegal(state, ThrowIn(3, "9d"), "R4.4")
    state = play(state, ThrowIn(2, "9h"))
    assert state.hands[2] == ()
    assert legal(state) == {
        Beat(1, "9c", "Tc"),
        Beat(1, "9c", "Jc"),
        Beat(1, "9c", "Qc"),
        Take(1),
        ThrowIn(3, "9d"),
        Pass(3),
    }


# ---------------------------------------------------------------------------------------------
# R4.5 order of throwing in: throw_order = attacker_first | free
# ---------------------------------------------------------------------------------------------


ORDER_HANDS = ["9s 9d Kc", "Ts Td Qs Qd", "9c 9h Ac"]


def test_R4_5_attacker_first_others_wait_for_the_main_attackers_pass() -> None:
    s = position(R3P, ORDER_HANDS, stock="Kh")
    s = play(s, Lead(0, "9s"))
    assert legal(s, 2) == set()
    assert_illegal(s, ThrowIn(2, "9c"), "R4.5")
    assert legal(s, 0) == {ThrowIn(0, "9d"), Pass(0)}
    s = play(s, Pass(0))
    assert legal(s, 2) == {ThrowIn(2, "9c"), ThrowIn(2, "9h"), Pass(2)}
    s = play(s, ThrowIn(2, "9c"))
    # The table changed: the main attacker's pass no longer stands and he still holds 9d.
    assert s.passed == frozenset()
    assert legal(s, 0) == {ThrowIn(0, "9d"), Pass(0)}
    assert legal(s, 2) == set()
    assert_illegal(s, ThrowIn(2, "9h"), "R4.5")


def test_R4_5_a_beat_clears_the_main_attackers_pass_so_the_others_wait_again() -> None:
    s = position(R3P, ORDER_HANDS, stock="Kh")
    s = play(s, Lead(0, "9s"), Pass(0))
    assert legal(s, 2) == {ThrowIn(2, "9c"), ThrowIn(2, "9h"), Pass(2)}
    s = play(s, Beat(1, "9s", "Ts"))
    assert legal(s, 0) == {ThrowIn(0, "9d"), Pass(0)}
    assert legal(s, 2) == set()
    assert_illegal(s, ThrowIn(2, "9c"), "R4.5")


def test_R4_5_main_attacker_with_nothing_to_add_lets_others_throw_at_once() -> None:
    s = position(R3P, ["9s Kc", "Ts Td Qs Qd", "9c 9h Ac"], stock="Kh")
    s = play(s, Lead(0, "9s"))
    assert legal(s, 0) == set()
    assert legal(s, 2) == {ThrowIn(2, "9c"), ThrowIn(2, "9h"), Pass(2)}


def test_R4_5_free_order_any_thrower_at_any_time() -> None:
    rules = R3P.replace(throw_order="free")
    s = position(rules, ORDER_HANDS, stock="Kh")
    s = play(s, Lead(0, "9s"))
    assert legal(s, 0) == {ThrowIn(0, "9d"), Pass(0)}
    assert legal(s, 2) == {ThrowIn(2, "9c"), ThrowIn(2, "9h"), Pass(2)}
    s = play(s, ThrowIn(2, "9c"), ThrowIn(0, "9d"), ThrowIn(2, "9h"))
    assert len(s.table) == 4


def _three(order: str) -> object:
    rules = D24.replace(players=3, throw_order=order)
    state = position(rules, ["9c 9d", "Jc Qc Kc", "9h Ah"], trump="s")
    return play(state, Lead(0, "9c"))


def test_R4_5_free_a_pass_still_stands_until_the_table_changes() -> None:
    state = play(_three("free"), Pass(2))
    assert state.passed == frozenset({2})
    assert_illegal(state, ThrowIn(2, "9h"), "R4.9")
    after = play(state, ThrowIn(0, "9d"))
    assert after.passed == frozenset()
    assert ThrowIn(2, "9h") in legal(after)


# ---------------------------------------------------------------------------------------------
# R4.6 the attack limit: first_bout_max, first_bout_scope, max_attack
# ---------------------------------------------------------------------------------------------


def test_R4_6_attack_limit_counts_bout_start_hand() -> None:
    # The defender holds 3 at the lead and beats one: the attack may still reach 3 cards.
    s = position(D24, ["9c 9d 9s Jd", "Jc Qd Ks"], stock="Kh")
    s = play(s, Lead(0, "9c"), Beat(1, "9c", "Jc"))
    assert s.defender_hand == 3
    assert len(s.hands[1]) == 2
    assert legal(s, 0) == {ThrowIn(0, "9d"), ThrowIn(0, "9s"), ThrowIn(0, "Jd"), Pass(0)}
    s = play(s, ThrowIn(0, "9d"), ThrowIn(0, "9s"))
    assert len(s.table) == 3
    assert legal(s, 0) == set()
    assert_illegal(s, ThrowIn(0, "Jd"), "R4.6")
    # Beating the rest ends the bout at once: the limit is reached (R4.10).
    s = play(s, Beat(1, "9d", "Qd"), Beat(1, "9s", "Ks"))
    assert s.table == ()
    assert s.hands == hands("Jd Kh", "")


def test_R4_6_unbeaten_cards_never_exceed_the_defenders_hand() -> None:
    s = position(D24, ["9c 9d 9s", "Ac Ad"], stock="Kh")
    s = play(s, Lead(0, "9c"), ThrowIn(0, "9d"))
    assert legal(s, 0) == set()
    assert_illegal(s, ThrowIn(0, "9s"), "R4.6")


CAP_HANDS = ["6s 6c 6d 6h 7c 7d", "7s 8s 9s Ts Js Qs"]
CAP_PLAY = (Lead(0, "6s"), Beat(1, "6s", "7s"), ThrowIn(0, "6c"), ThrowIn(0, "6d"),
            ThrowIn(0, "6h"), ThrowIn(0, "7c"))


def test_R4_6_first_bout_allows_five() -> None:
    s = position(D36, CAP_HANDS, stock="Kc Ac", first_bout=True)
    s = play(s, *CAP_PLAY)
    assert len(s.table) == 5
    assert legal(s, 0) == set()
    assert_illegal(s, ThrowIn(0, "7d"), "R4.6")


def test_R4_6_later_bouts_allow_six() -> None:
    s = position(D36, CAP_HANDS, stock="Kc Ac")
    s = play(s, *CAP_PLAY)
    assert legal(s, 0) == {ThrowIn(0, "7d"), Pass(0)}
    s = play(s, ThrowIn(0, "7d"))
    assert len(s.table) == 6
    assert s.hands[0] == ()


def test_R4_6_first_bout_max_none_turns_the_first_bout_cap_off() -> None:
    rules = D36.replace(first_bout_max=None)
    s = position(rules, CAP_HANDS, stock="Kc Ac", first_bout=True)
    s = play(s, *CAP_PLAY, ThrowIn(0, "7d"))
    assert len(s.table) == 6


def test_R4_6_max_attack_setting() -> None:
    rules = D36.replace(max_attack=4)
    s = position(rules, CAP_HANDS, stock="Kc Ac")
    s = play(s, *CAP_PLAY[:5])
    assert len(s.table) == 4
    assert legal(s, 0) == set()
    assert_illegal(s, ThrowIn(0, "7c"), "R4.6")


def test_R4_6_same_rank_lead_counts_against_the_cap() -> None:
    rules = Rules(deck_size=24, decks=2, lead="same_rank")
    six = "9c 9d 9s 9h 9c#2 9d#2"
    first = position(rules, [six, "Tc Td Ts Jc Jd Js"], stock="Ah", first_bout=True)
    assert max(len(a.cards) for a in legal(first)) == 5
    assert_illegal(first, Lead(0, six), "R4.6")
    later = position(rules, [six, "Tc Td Ts Jc Jd Js"], stock="Ah")
    assert Lead(0, six) in legal(later)


SCOPE_HANDS = ["Ad 6s 6c 6d 6h 7c 7d", "7s 8s 9s Ts Js Qs"]


@pytest.mark.parametrize(("scope", "cap"), [("first_bout", 6), ("until_first_discard", 5)])
def test_R4_6_first_bout_scope_after_a_take(scope: str, cap: int) -> None:
    rules = D36.replace(first_bout_scope=scope)
    s = position(rules, SCOPE_HANDS, trump="c", first_bout=True)
    # Bout 1: the defender takes the ace; two players, so seat 0 leads again (R6.2).
    s = play(s, Lead(0, "Ad"), Take(1))
    assert s.bouts == 1 and s.table == ()
    assert (s.attacker, s.defender) == (0, 1)
    s = play(s, *CAP_PLAY)
    assert len(s.table) == 5
    if cap == 6:
        s = play(s, ThrowIn(0, "7d"))
        assert len(s.table) == 6
    else:
        assert_illegal(s, ThrowIn(0, "7d"), "R4.6")


def test_R4_6_until_first_discard_ends_with_the_first_successful_defence() -> None:
    rules = D36.replace(first_bout_scope="until_first_discard")
    s = position(rules, ["8d 7s Ts Js Qs Ks As", "9d 6s 6c 6d 6h 7c 7d"], trump="c",
                 first_bout=True)
    s = play(s, Lead(0, "8d"), Beat(1, "8d", "9d"))
    assert s.table == () and s.attacker == 1  # a successful defence
    s = play(
        s,
        Lead(1, "6s"),
        Beat(0, "6s", "7s"),
        ThrowIn(1, "6c"),
        ThrowIn(1, "6d"),
        ThrowIn(1, "6h"),
        ThrowIn(1, "7c"),
        ThrowIn(1, "7d"),
    )
    assert len(s.table) == 6


def test_R4_6_until_first_discard_caps_the_first_bout_itself() -> None:
    rules = D24.replace(first_bout_max=1, first_bout_scope="until_first_discard")
    state = position(rules, ["9c 9d", "Kc Qd Qs"], trump="h", first_bout=True)
    state = play(state, Lead(0, "9c"))
    assert_illegal(state, ThrowIn(0, "9d"), "R4.6")
    assert legal(state) == {Beat(1, "9c", "Kc"), Take(1)}


def test_R4_6_no_successful_defence_yet_is_not_the_first_bout() -> None:
    rules = Rules(players=2, first_bout_scope="until_first_discard")
    dealt = ["6c 6d 6h 6s 7c 7d", "8c 8d 8h 8s 9c 9d"]
    state = position(rules, dealt, trump="s", bouts=3, defences=0)
    assert attack_limit(state) == 5
    assert attack_limit(position(rules, dealt, trump="s", bouts=3, defences=1)) == 6


def test_R4_6_attack_limit_on_every_kind_of_state() -> None:
    state = new_game(Rules(players=2), seed=3)
    assert attack_limit(state) == 5  # first bout: min(5, 6)
    assert attack_limit(state) == view(state, 0).attack_limit
    actor = next_actor(state)
    assert actor is not None
    state = apply(state, legal_actions(state, actor)[0])
    assert attack_limit(state) == min(5, state.defender_hand)
    while not state.is_over:
        actor = next_actor(state)
        assert actor is not None
        state = apply(state, legal_actions(state, actor)[-1])
    assert attack_limit(state) == 0


# ---------------------------------------------------------------------------------------------
# R4.6 the cap (max_attack) against a defender with more cards than the cap
# ---------------------------------------------------------------------------------------------


# The scenarios above face a defender of six cards, where min(cap, H) is six whether the cap is
# six or more; here the defender holds seven or eight (after a take, or in a position that
# stands for one), so only the cap can stop the seventh card.
#
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
        R3_36,
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
# R4.7 beating
# ---------------------------------------------------------------------------------------------


def test_R4_7_higher_card_of_the_suit_or_any_trump_beats() -> None:
    s = position(D24, ["Jc Ad", "Tc Kc 9h Ah 9s Ks"], stock="Qh")
    s = play(s, Lead(0, "Jc"))
    assert legal(s, 1) == {Beat(1, "Jc", "Kc"), Beat(1, "Jc", "9h"), Beat(1, "Jc", "Ah"),
                           Take(1)}
    assert_illegal(s, Beat(1, "Jc", "Tc"), "R4.7")
    assert_illegal(s, Beat(1, "Jc", "Ks"), "R4.7")


def test_R4_7_trump_beaten_only_by_a_higher_trump() -> None:
    s = position(D24, ["Th Ad", "9h Jh Ac As Kd"], stock="Qh")
    s = play(s, Lead(0, "Th"))
    assert legal(s, 1) == {Beat(1, "Th", "Jh"), Take(1)}
    assert_illegal(s, Beat(1, "Th", "9h"), "R4.7")
    assert_illegal(s, Beat(1, "Th", "Ac"), "R4.7")


def test_R4_7_trump_ace_is_never_beaten() -> None:
    s = position(D24, ["Ah 9c", "9h Th Jh Qh Kh As"], trump="h")
    s = play(s, Lead(0, "Ah"))
    assert legal(s, 1) == {Take(1)}
    for card in ("Kh", "Qh", "9h", "As"):
        assert_illegal(s, Beat(1, "Ah", card), "R4.7")


def test_R4_7_unbeaten_cards_in_any_order() -> None:
    s = position(D24, ["9c 9d Ac", "Tc Td Qs"], stock="Kh")
    s = play(s, Lead(0, "9c"), ThrowIn(0, "9d"))
    s = play(s, Beat(1, "9d", "Td"))
    assert s.table == ((c("9c"), None), (c("9d"), c("Td")))
    assert_illegal(s, Beat(1, "9d", "Qs"), "R4.7")  # already beaten
    assert_illegal(s, Beat(1, "Ac", "Tc"), "R4.7")  # not on the table
    s = play(s, Beat(1, "9c", "Tc"))
    assert s.table == ()
    assert discard_added(position(D24, ["9c 9d Ac", "Tc Td Qs"], stock="Kh"), s) == sorted(
        cards("9c 9d Tc Td")
    )


# ---------------------------------------------------------------------------------------------
# R4.8 taking
# ---------------------------------------------------------------------------------------------


def test_R4_8_take_only_while_an_attack_card_is_unbeaten() -> None:
    s = position(D24, ["9c 9d Ac", "Tc Qs"], stock="Kh")
    s = play(s, Lead(0, "9c"))
    assert Take(1) in legal(s, 1)
    s = play(s, Beat(1, "9c", "Tc"))
    assert s.table == ((c("9c"), c("Tc")),)  # the attacker may still add 9d
    assert legal(s, 1) == set()
    assert_illegal(s, Take(1), "R4.8")


def test_R4_8_after_take_the_defender_beats_no_more() -> None:
    s = position(D24, ["9c 9d Ac", "Tc Td Qs"], stock="Kh")
    s = play(s, Lead(0, "9c"), Take(1))
    assert s.taken
    assert legal(s, 1) == set()
    assert_illegal(s, Beat(1, "9c", "Tc"), "R4.8")
    assert_illegal(s, Take(1), "R4.8")
    assert legal(s, 0) == {ThrowIn(0, "9d"), Pass(0)}


def test_R4_8_throw_ins_after_a_take_stop_at_the_defenders_starting_hand() -> None:
    s = position(D24, ["9c 9d 9s Td Jd", "Tc Kd Ks"], trump="h")
    s = play(s, Lead(0, "9c"), Beat(1, "9c", "Tc"), ThrowIn(0, "9d"), Take(1))
    # The defender holds 2 now, but started with 3: one more card may come.
    assert len(s.hands[1]) == 2
    assert legal(s, 0) == {ThrowIn(0, "9s"), ThrowIn(0, "Td"), Pass(0)}
    before = s
    s = play(s, ThrowIn(0, "9s"))
    # Three attack cards: the limit; the bout ends at once and the defender picks up.
    assert s.table == ()
    assert s.hands == hands("Td Jd", "Kd Ks 9c Tc 9d 9s")
    assert s.discard == before.discard
    assert (s.attacker, s.defender) == (0, 1)
    assert s.bouts == before.bouts + 1


def test_R4_8_defender_picks_up_attack_and_beating_cards_when_throwers_are_done() -> None:
    s = position(R3P, ["9c 9d Ac", "Tc Qd Kd", "9s Ks"], stock="Ah")
    s = play(s, Lead(0, "9c"), Beat(1, "9c", "Tc"), ThrowIn(0, "9d"), Take(1))
    assert s.table == ((c("9c"), c("Tc")), (c("9d"), None))  # seat 2 may still throw 9s
    assert legal(s, 2) == {ThrowIn(2, "9s"), Pass(2)}
    s = play(s, ThrowIn(2, "9s"))
    assert s.table == ()
    assert s.hands[1] == cards("Qd Kd 9c Tc 9d 9s")


def test_R4_8_a_position_with_a_declared_take() -> None:
    # Trump spades: seat 0 led 7h, seat 1 beat it with 9h, seat 0 added 9c, seat 1 takes.
    state = position(R3_36, ["7c", "Ts Jd Qd", "8c Ks"], trump="s", table="7h:9h 9c", taken=True)
    assert state.taken and state.defender_hand == 4
    assert legal_actions(state, 1) == ()
    assert legal(state) == {ThrowIn(0, "7c"), Pass(0)}
    assert next_actor(state) == 0
    end = play(state, Pass(0))
    assert end.table == () and sorted(map(str, end.hands[1])) == sorted(
        ["Ts", "Jd", "Qd", "7h", "9h", "9c"]
    )
    # Nobody could add a card: the engine would already have ended this bout.
    with pytest.raises(PositionError, match=r"R4\.10"):
        position(R3_36, ["8h", "Ts Jd Qd", "8c Ks"], trump="s", table="7h:9h 9c", taken=True)


# ---------------------------------------------------------------------------------------------
# R4.8 throw_after_take = False: the take ends the bout at once
# ---------------------------------------------------------------------------------------------


def test_R4_8_throw_after_take_off_ends_the_bout_at_the_take() -> None:
    rules = D24.replace(throw_after_take=False)
    s = position(rules, ["9c 9d 9s Td Jd", "Tc Kd Ks"], trump="h")
    s = play(s, Lead(0, "9c"), Beat(1, "9c", "Tc"), ThrowIn(0, "9d"), Take(1))
    assert s.table == ()
    assert s.hands == hands("9s Td Jd", "Kd Ks 9c Tc 9d")


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


# ---------------------------------------------------------------------------------------------
# R4.9 passing
# ---------------------------------------------------------------------------------------------


def test_R4_9_pass_while_cards_are_unbeaten_and_it_stands() -> None:
    s = position(D24, ["9c 9d Ac", "Tc Qd Ks"], stock="Kh")
    s = play(s, Lead(0, "9c"), Pass(0))
    assert s.passed == frozenset({0})
    assert s.table == ((c("9c"), None),)
    assert legal(s, 0) == set()
    assert_illegal(s, ThrowIn(0, "9d"), "R4.9")
    assert_illegal(s, Pass(0), "R4.9")


def test_R4_9_the_defender_does_not_pass_and_is_told_to_beat_or_take() -> None:
    s = position(D24, ["9c 9d Ac", "Tc Qd Ks"], stock="Kh")
    s = play(s, Lead(0, "9c"))
    err = assert_illegal(s, Pass(1), "R4.9")
    assert err.code == "illegal.defender-passes"
    assert "beats the attack cards or takes" in str(err)
    assert assert_illegal(s, ThrowIn(1, "Tc"), "R4.4").code == "illegal.defender-throws"


def test_R4_9_a_beat_clears_the_pass() -> None:
    s = position(D24, ["9c 9d Ac", "Tc Qd Ks"], stock="Kh")
    s = play(s, Lead(0, "9c"), Pass(0), Beat(1, "9c", "Tc"))
    assert s.passed == frozenset()
    assert s.table == ((c("9c"), c("Tc")),)  # the bout did not end
    assert legal(s, 0) == {ThrowIn(0, "9d"), Pass(0)}


def test_R4_9_a_take_clears_the_pass() -> None:
    s = position(D24, ["9c 9d Ac", "Tc Qd Ks"], stock="Kh")
    s = play(s, Lead(0, "9c"), Pass(0), Take(1))
    assert s.passed == frozenset()
    assert legal(s, 0) == {ThrowIn(0, "9d"), Pass(0)}


def test_R4_9_a_throw_in_clears_every_pass() -> None:
    rules = R3P.replace(throw_order="free")
    s = position(rules, ["9c 9d Ac", "Tc Qd Kd Ks", "9s 9h"], stock="Ah")
    s = play(s, Lead(0, "9c"), Pass(0))
    assert legal(s, 0) == set()
    s = play(s, ThrowIn(2, "9s"))
    assert s.passed == frozenset()
    assert legal(s, 0) == {ThrowIn(0, "9d"), Pass(0)}


def test_R4_9_a_player_with_nothing_to_throw_is_never_asked() -> None:
    s = position(R3P, ["9c Ac", "Tc Jd Qd", "9s Kd"], stock="Ah")
    s = play(s, Lead(0, "9c"))
    assert legal(s, 0) == set()
    assert_illegal(s, Pass(0), "R4.9")
    # ... he counts as passed, so under attacker_first seat 2 may throw in at once.
    assert legal(s, 2) == {ThrowIn(2, "9s"), Pass(2)}


def test_R4_9_standing_passes_and_R4_6_first_bout_cap_of_a_position() -> None:
    dealt = ["7c 9c", "Ts Jd Qd", "7s Ks"]
    state = position(R3_36, dealt, trump="s", table="7h:9h", passed=[0], bouts=0)
    assert state.passed == frozenset({0})
    assert attack_limit(state) == 4  # min(first-bout cap 5, H 4)
    assert legal_actions(state, 0) == ()
    assert ThrowIn(2, "9c") not in legal_actions(state, 2)


# ---------------------------------------------------------------------------------------------
# R4.10 the end of the bout
# ---------------------------------------------------------------------------------------------


def test_R4_10_successful_defence_discards_the_table() -> None:
    start = position(D24, ["9c 9d Ac", "Tc Kd"], trump="h")
    s = play(start, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    assert s.table == ((c("9c"), c("Tc")),)  # the attacker can still add 9d
    s = play(s, Pass(0))
    assert s.table == ()
    assert discard_added(start, s) == sorted(cards("9c Tc"))
    assert s.hands == hands("9d Ac", "Kd")
    assert (s.attacker, s.defender) == (1, 0)
    assert s.bouts == start.bouts + 1
    assert s.result is None


def test_R4_10_ends_automatically_when_no_rank_matches() -> None:
    start = position(D24, ["9c Ac", "Tc Kd"], trump="h")
    s = play(start, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    assert s.table == ()
    assert discard_added(start, s) == sorted(cards("9c Tc"))


def test_R4_10_ends_automatically_when_the_cap_is_reached() -> None:
    rules = D24.replace(max_attack=2)
    start = position(rules, ["9c 9d 9s Ac", "Tc Td Ts Kd"], trump="h")
    s = play(start, Lead(0, "9c"), Beat(1, "9c", "Tc"), ThrowIn(0, "9d"), Beat(1, "9d", "Td"))
    assert s.table == ()  # although the attacker still holds 9s
    assert discard_added(start, s) == sorted(cards("9c Tc 9d Td"))
    assert s.hands == hands("9s Ac", "Ts Kd")


def test_R4_10_ends_automatically_when_throwers_have_empty_hands() -> None:
    start = position(D24, ["9c", "Tc Qd"], stock="Ks Ah")
    s = play(start, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    assert s.table == ()
    assert discard_added(start, s) == sorted(cards("9c Tc"))


def test_R4_10_bout_ends_only_when_every_thrower_has_passed() -> None:
    start = position(R3P, ["9c 9d Ac", "Tc Qd Kd", "9s Ks"], stock="Ah")
    s = play(start, Lead(0, "9c"), Beat(1, "9c", "Tc"), Pass(0))
    assert s.table == ((c("9c"), c("Tc")),)
    assert legal(s, 2) == {ThrowIn(2, "9s"), Pass(2)}
    s = play(s, Pass(2))
    assert s.table == ()
    assert discard_added(start, s) == sorted(cards("9c Tc"))


def test_R4_10_take_at_the_limit_ends_the_bout_at_once() -> None:
    # The defender holds one card: after the lead the limit is reached, so his take ends the
    # bout although the attacker holds another nine.
    s = position(D24, ["9c 9d Ac", "Kd"], stock="Qs Ah")
    s = play(s, Lead(0, "9c"), Take(1))
    assert s.table == ()
    assert s.hands == hands("9d Ac Qs Ah", "9c Kd")
    assert (s.attacker, s.defender) == (0, 1)


def test_R4_10_take_ends_when_throwers_are_done() -> None:
    start = position(D24, ["9c 9d Ac", "Tc Qd"], trump="h")
    s = play(start, Lead(0, "9c"), Take(1))
    assert s.table == ((c("9c"), None),)
    s = play(s, Pass(0))
    assert s.table == ()
    assert s.hands == hands("9d Ac", "9c Tc Qd")
    assert s.discard == start.discard


def test_R4_10_a_state_read_from_json_that_the_engine_would_have_ended_is_refused() -> None:
    state = position(Rules(players=2), ["8c", "9h Ts"], trump="s", table="7h")
    assert next_actor(state) == 1
    data = state_to_dict(state)
    data["table"] = [["7h", "9h"]]
    data["hands"] = [["8c"], []]
    data["discard"] = [*data["discard"], "Ts"]
    data["defender_hand"] = 1
    with pytest.raises(PositionError, match=r"the bout is over.*\(R4.10\)"):
        state_from_dict(data)
