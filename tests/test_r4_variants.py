"""R4 variant settings: lead = same_rank (R4.2), throwers = neighbours | attacker (R4.4),
throw_order = free (R4.5), first_bout_scope = until_first_discard (R4.6)."""

from __future__ import annotations

import pytest
from helpers import D24, assert_illegal, cards, legal, play, position, throwers_able

from durak import Beat, Lead, Pass, Rules, Take, ThrowIn, Transfer

# ---------------------------------------------------------------------------------------------
# R4.2 lead = same_rank (the single-table cases are in test_r4_bout.py)
# ---------------------------------------------------------------------------------------------


def test_R4_2_same_rank_lead_with_neighbours_german_classic() -> None:
    # The German seed's game: seat 0 leads two nines; only the main attacker and the player
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
# R4.4 throwers = neighbours | attacker
# ---------------------------------------------------------------------------------------------

# Seat 0 leads 9c against seat 1, who beats it with Tc; every other seat holds a 9 or a T, so
# each of them could throw in if he were a thrower. Seats listed in ``out`` hold nothing
# (the stock is empty, so they are out).
_SIX = ["9c 9d", "Tc Jc", "9h 6c", "Td 6d", "9s 6h", "Th 6s"]


def _after_beat(rules: Rules, out: tuple[int, ...] = ()) -> object:
    hands = [("" if seat in out else h) for seat, h in enumerate(_SIX[: rules.players])]
    state = position(rules, hands, trump="c")
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
    hands = ["9c 9h", "9d Jc", "Th Jh Qh", "9s Ac", "6c 7c", "6d 7d"][:players]
    state = position(rules, hands, trump="s")
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
# R4.5 throw_order = free
# ---------------------------------------------------------------------------------------------


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
# R4.6 first_bout_scope = until_first_discard
# ---------------------------------------------------------------------------------------------


def test_R4_6_until_first_discard_caps_the_first_bout_itself() -> None:
    rules = D24.replace(first_bout_max=1, first_bout_scope="until_first_discard")
    state = position(rules, ["9c 9d", "Kc Qd Qs"], trump="h", first_bout=True)
    state = play(state, Lead(0, "9c"))
    assert_illegal(state, ThrowIn(0, "9d"), "R4.6")
    assert legal(state) == {Beat(1, "9c", "Kc"), Take(1)}
