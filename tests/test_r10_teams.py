"""R10 Teams (pairs): the defender is the next active opponent, partners never throw in against
each other, transfers skip partners, rotation after a take, team_win first_out / all_out and
team draws, and who is out or has left holding cards (R10.3)."""

from __future__ import annotations

import pickle

import pytest
from helpers import D24, assert_illegal, cards, legal, play, position, throwers_able

from durak import Beat, Lead, Pass, Rules, Take, ThrowIn, Transfer, apply_with_events, new_game
from durak.events import PlayerLeft, events_for
from durak.serialize import state_from_dict, state_to_dict

# Where a thrower is refused, either id is a fair citation: R4.4 (who may throw in) or R10.2
# (the defender's partners are never throwers).
_NOT_A_THROWER = {"R4.4", "R10.2"}


def pairs(**settings: object) -> Rules:
    """Four players, teams {0, 2} and {1, 3}, 24 cards."""
    return D24.replace(players=4, teams=[[0, 2], [1, 3]], **settings)


def threes(**settings: object) -> Rules:
    """Six players, two teams {0, 2, 4} and {1, 3, 5}, 36 cards."""
    return Rules(players=6, teams=[[0, 2, 4], [1, 3, 5]], **settings)


def couples(**settings: object) -> Rules:
    """Six players, three pairs {0, 3}, {1, 4}, {2, 5}, 36 cards."""
    return Rules(players=6, teams=[[0, 3], [1, 4], [2, 5]], **settings)


# ---------------------------------------------------------------------------------------------
# R10.1 team layouts
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "teams"),
    [
        (4, [[0, 2], [1, 3]]),
        (6, [[0, 3], [1, 4], [2, 5]]),
        (6, [[0, 2, 4], [1, 3, 5]]),
    ],
)
def test_R10_1_alternating_layouts_are_accepted(players: int, teams: list[list[int]]) -> None:
    rules = Rules(players=players, teams=teams)
    assert rules.teams == tuple(tuple(t) for t in teams)


# ---------------------------------------------------------------------------------------------
# R10.2 the defender, throwers, transfers
# ---------------------------------------------------------------------------------------------


def test_R10_2_defender_is_the_next_opponent_at_the_deal() -> None:
    for rules in (pairs(), couples(), threes()):
        state = new_game(rules, seed=3)
        assert state.defender == (state.attacker + 1) % rules.players


def test_R10_2_defender_skips_an_out_opponent_and_a_partner() -> None:
    # Seat 1 is out; seat 2 is seat 0's partner: seat 0 attacks seat 3.
    state = position(pairs(team_win="all_out"), ["9c Tc", "", "Jc Qc", "9d Td"], trump="s")
    assert (state.attacker, state.defender) == (0, 3)
    after = play(state, Lead(0, "9c"))
    assert after.defender_hand == 2
    assert legal(after, 3) == {Take(3)}
    assert_illegal(after, Beat(2, "9c", "Jc"), "R4.1")


def test_R10_2_defenders_partner_never_appears_among_the_throwers() -> None:
    rules = pairs(throw_order="free")
    state = position(rules, ["9c 9d", "Tc Jc Qc", "9h Ah", "9s As"], trump="d")
    state = play(state, Lead(0, "9c"))
    assert throwers_able(state) == {0, 2}
    assert legal(state) == {
        Beat(1, "9c", "Tc"),
        Beat(1, "9c", "Jc"),
        Beat(1, "9c", "Qc"),
        Take(1),
        ThrowIn(0, "9d"),
        Pass(0),
        ThrowIn(2, "9h"),
        Pass(2),
    }
    assert_illegal(state, ThrowIn(3, "9s"), _NOT_A_THROWER)
    assert_illegal(state, Pass(3), _NOT_A_THROWER)


def test_R10_2_partner_stays_out_of_the_throwers_when_the_other_partner_is_out() -> None:
    # Two teams of three, all_out: seat 3 (a partner of the defender, seat 1) is out. The
    # throwers are the attacking team's 0, 2 and 4; the defender's partner seat 5 never.
    rules = threes(team_win="all_out", throw_order="free")
    state = position(rules, ["9c 9d", "Tc Jc", "9h 6h", "", "Td 6d", "9s 6s"], trump="h")
    state = play(state, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    assert throwers_able(state) == {0, 2, 4}
    assert_illegal(state, ThrowIn(5, "9s"), _NOT_A_THROWER)


def test_R10_2_after_an_attacking_partner_is_out_the_defenders_partner_still_never_throws() -> None:
    # Pairs, all_out: seat 0 is out. Seat 2 attacks seat 3; seat 1 (seat 3's partner) holds a
    # 9 but is no thrower; seat 2 is the only thrower.
    rules = pairs(team_win="all_out", throw_order="free")
    state = position(rules, ["", "9d Ad", "9c 9h", "Tc Jc Qc"], trump="s", attacker=2)
    assert state.defender == 3
    state = play(state, Lead(2, "9c"))
    assert legal(state) == {
        Beat(3, "9c", "Tc"),
        Beat(3, "9c", "Jc"),
        Beat(3, "9c", "Qc"),
        Take(3),
        ThrowIn(2, "9h"),
        Pass(2),
    }
    assert_illegal(state, ThrowIn(1, "9d"), _NOT_A_THROWER)


@pytest.mark.parametrize(
    ("rules", "hands", "expected"),
    [
        # 2x2: the main attacker 0 and the defender's next opponent 2.
        (
            pairs(throwers="neighbours", throw_order="free"),
            ["9c 9d", "Tc Jc", "9h Ah", "Td As"],
            {0, 2},
        ),
        # 3x2: 0 and 2; seats 3 (0's partner), 4 (the defender's partner) and 5 are not.
        (
            couples(throwers="neighbours", throw_order="free"),
            ["9c 9d", "Tc Jc", "9h 6h", "Td 6d", "9s 6s", "Th 6c"],
            {0, 2},
        ),
        # 2x2, all_out, seat 2 out: after the defender come his partner 3 and the attacker 0.
        (
            pairs(throwers="neighbours", throw_order="free", team_win="all_out"),
            ["9c 9d", "Tc Jc", "", "Td As"],
            {0},
        ),
        # 2x3, all_out, seat 2 out: the defender's next active opponent is seat 4.
        (
            threes(throwers="neighbours", throw_order="free", team_win="all_out"),
            ["9c 9d", "Tc Jc", "", "Td 6d", "9s 6s", "Th 6c"],
            {0, 4},
        ),
    ],
)
def test_R10_2_neighbours_are_the_attacker_and_the_defenders_next_opponent(
    rules: Rules, hands: list[str], expected: set[int]
) -> None:
    trump = "h" if rules.deck_size == 36 else "s"
    state = position(rules, hands, trump=trump)
    state = play(state, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    assert throwers_able(state) == expected
    for seat, hand in enumerate(hands):
        if seat not in expected and seat != 1 and hand:
            assert_illegal(state, ThrowIn(seat, hand.split()[0]), _NOT_A_THROWER)


def test_R10_2_transfer_goes_to_the_next_opponent() -> None:
    rules = pairs(transfer_by_card=True)
    state = position(rules, ["9c Ac", "9d Jc", "Th Jh", "Kh Qh"], trump="s")
    state = play(state, Lead(0, "9c"), Transfer(1, "9d"))
    assert (state.attacker, state.defender, state.defender_hand) == (1, 2, 2)


def test_R10_2_transfer_skips_the_partner_and_returns_to_the_leader() -> None:
    # Pairs, all_out, seat 1 out. Seat 3 leads against seat 0; seat 0's transfer cannot go to
    # his partner seat 2, so it goes back to seat 3.
    rules = pairs(transfer_by_card=True, team_win="all_out")
    state = position(rules, ["9d Jc Qc", "", "Th Jh Qh", "9c Ac Kc"], trump="s", attacker=3)
    assert state.defender == 0
    state = play(state, Lead(3, "9c"), Transfer(0, "9d"))
    assert (state.attacker, state.defender, state.leader, state.defender_hand) == (0, 3, 3, 2)
    assert state.hands == (cards("Jc Qc"), (), cards("Th Jh Qh"), cards("Ac Kc"))


# ---------------------------------------------------------------------------------------------
# R10.3 team_win
# ---------------------------------------------------------------------------------------------

# Stock empty: seat 0 leads his last card, seat 1 beats it and keeps a card; nobody can add.
_LAST = ["9c", "Tc Jh", "Qs Ks", "As Ah"]


def test_R10_3_first_out_partners_leave_holding_their_cards_and_the_team_wins() -> None:
    state = position(pairs(), _LAST, trump="h")
    state = play(state, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    result = state.result
    assert result is not None
    assert (result.durak, result.draw) == (None, False)
    assert result.winners == (0, 2)
    assert result.losers == (1, 3)
    assert result.places[0] == result.places[2] == 1
    assert state.places[0] == state.places[2] == 1
    # Seat 2 left holding his cards.
    assert state.hands[2] == cards("Qs Ks")
    assert legal(state) == set()


def test_R10_3_all_out_the_remaining_partner_plays_on_alone() -> None:
    state = position(pairs(team_win="all_out"), _LAST, trump="h")
    state = play(state, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    assert state.result is None
    assert state.places == (1, None, None, None)
    # Seat 1 defended and leads; his next active opponent is seat 2.
    assert (state.attacker, state.defender) == (1, 2)
    assert legal(state) == {Lead(1, "Jh")}


def test_R10_3_all_out_team_wins_when_its_last_member_is_out() -> None:
    # Seat 0 is already out; seat 2 leads his last card and goes out: team {0, 2} has won;
    # seats 1 and 3 both remain, so no durak is named.
    state = position(pairs(team_win="all_out"), ["", "Tc Jh", "9c", "As Ah"], trump="h", attacker=2)
    assert state.defender == 3
    state = play(state, Lead(2, "9c"), Beat(3, "9c", "Ah"))
    result = state.result
    assert result is not None
    assert (result.durak, result.draw) == (None, False)
    assert result.winners == (0, 2)
    assert result.losers == (1, 3)
    assert state.places[0] == 1
    assert state.places[2] == 2


def test_R10_3_all_out_losing_team_with_one_player_left_names_him_durak() -> None:
    # Seats 0 and 3 are out; seat 2 goes out: team {1, 3} loses, seat 1 is its durak.
    state = position(pairs(team_win="all_out"), ["", "Tc Jh", "9c", ""], trump="h", attacker=2)
    assert state.defender == 1
    state = play(state, Lead(2, "9c"), Beat(1, "9c", "Tc"))
    result = state.result
    assert result is not None
    assert (result.durak, result.draw) == (1, False)
    assert result.winners == (0, 2)
    assert result.losers == (1, 3)
    assert result.places[1] == 4


def test_R10_3_all_out_last_players_of_two_teams_finish_at_once_draw() -> None:
    state = position(pairs(team_win="all_out"), ["", "Tc", "9c", ""], trump="h", attacker=2)
    state = play(state, Lead(2, "9c"), Beat(1, "9c", "Tc"))
    result = state.result
    assert result is not None
    assert (result.durak, result.draw, result.losers) == (None, True, ())


def test_R10_3_first_out_members_of_two_teams_out_at_once_draw() -> None:
    state = position(pairs(), ["9c", "Tc", "Qs Ks", "As Ah"], trump="h")
    state = play(state, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    result = state.result
    assert result is not None
    assert (result.durak, result.draw, result.losers) == (None, True, ())


def test_R10_3_three_pairs_first_out_two_teams_play_on() -> None:
    # Pairs {0,3}, {1,4}, {2,5}, team_win first_out: seat 0 goes out, seat 3 leaves with him;
    # the other two pairs play on.
    rules = couples(team_win="first_out")
    state = position(rules, ["9c", "Tc Jh", "Qs Ks", "As Ah", "7c 8c", "7d 8d"], trump="h")
    state = play(state, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    assert state.result is None
    assert state.places == (1, None, None, 1, None, None)
    assert state.hands[3] == cards("As Ah")
    # Seat 1 defended: he leads against his next active opponent, seat 2.
    assert (state.attacker, state.defender) == (1, 2)


def test_R10_3_all_out_a_partner_plays_on_and_nobody_leaves() -> None:
    rules = Rules(players=4, teams=((0, 2), (1, 3)), team_win="all_out")
    state = position(rules, ["7h", "9h 8c", "Kd Ks", "Qd"], trump="s")
    state, events = apply_with_events(play(state, Lead(0, "7h")), Beat(1, "7h", "9h"))
    assert state.places == (1, None, None, None)
    assert state.left == frozenset() and state.out == frozenset({0})
    assert not any(isinstance(e, PlayerLeft) for e in events)


def test_R10_3_left_survives_json_and_pickle() -> None:
    # Three pairs, first_out: seat 0 goes out and his partner seat 3 leaves (R7.2's example).
    dealt = ["7h", "9h 8c As", "Tc", "Kd", "Qd", "Jd"]
    state = position(couples(team_win="first_out"), dealt, trump="s")
    state = play(state, Lead(0, "7h"), Beat(1, "7h", "9h"))
    assert state_from_dict(state_to_dict(state)) == state
    assert pickle.loads(pickle.dumps(state)).left == frozenset({3})
    filtered = events_for(apply_with_events(state, Lead(1, "8c"))[1], 0)
    assert filtered  # the lead's event


# ---------------------------------------------------------------------------------------------
# R10.4 rotation after a take
# ---------------------------------------------------------------------------------------------


def test_R10_4_after_a_take_the_defenders_left_neighbour_leads_partner_or_not() -> None:
    # Seat 1 takes: seat 2 (the attacker's partner) leads against seat 3.
    state = position(pairs(), ["9c Ac", "Tc Jh", "Qd Kd", "Qs Ks"], trump="h")
    state = play(state, Lead(0, "9c"), Take(1))
    assert state.hands[1] == cards("9c Tc Jh")
    assert (state.attacker, state.defender) == (2, 3)


def test_R10_4_after_a_take_the_defender_is_the_next_opponent_of_the_leader() -> None:
    # Pairs, all_out, seat 2 out. Seat 3 attacks seat 0, who takes: the next active player
    # from seat 0 is seat 1 (seat 3's partner); his next active opponent is seat 0 again.
    rules = pairs(team_win="all_out")
    state = position(rules, ["Tc Jh", "Qd Kd", "", "9c Ac"], trump="h", attacker=3)
    state = play(state, Lead(3, "9c"), Take(0))
    assert (state.attacker, state.defender) == (1, 0)


def test_R10_4_three_pairs_after_a_take() -> None:
    state = position(couples(), ["9c Ac", "Tc Jh", "Qd Kd", "Qs Ks", "7c 8c", "7d 8d"], trump="h")
    state = play(state, Lead(0, "9c"), Take(1))
    assert (state.attacker, state.defender) == (2, 3)
