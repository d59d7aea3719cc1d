"""R7 Going out, the end, the result: going out (R7.1), finishing places (R7.2), the end of the
game under each ``objective`` and ``on_last_cleared``, also with teams (R7.3), and what a finished
game exposes (R7.4)."""

from __future__ import annotations

from helpers import D24, assert_illegal, cards, hands, legal, play, position

from durak import (
    Beat,
    GameState,
    Lead,
    Pass,
    Result,
    Rules,
    Take,
    ThrowIn,
    Transfer,
    apply_with_events,
    legal_actions,
    next_actor,
    view,
)
from durak.events import GameOver, PlayerLeft, PlayerOut

R3P = Rules(players=3, deck_size=24)
R4P = Rules(players=4, deck_size=24, hand_size=4)


def _result(state: GameState) -> tuple[object, ...]:
    result = state.result
    assert result is not None
    return (result.durak, result.draw, result.winners, result.losers)


# ---------------------------------------------------------------------------------------------
# R7.1 going out
# ---------------------------------------------------------------------------------------------


def test_R7_1_last_card_played_while_the_stock_lasts_draws_and_is_not_out() -> None:
    s = position(D24, ["9c", "Tc Kd"], stock="Qs Ah")
    s = play(s, Lead(0, "9c"))
    assert s.hands[0] == ()
    assert s.is_active(0)
    s = play(s, Beat(1, "9c", "Tc"))
    assert s.places == (None, None)
    assert s.result is None
    assert s.hands == hands("Qs Ah", "Kd")
    assert (s.attacker, s.defender) == (1, 0)
    # He plays on: he defends the next bout.
    s = play(s, Lead(1, "Kd"))
    assert legal(s, 0) == {Beat(0, "Kd", "Ah"), Take(0)}
    s = play(s, Beat(0, "Kd", "Ah"))
    assert s.result == Result(durak=0, draw=False, places=(2, 1), winners=(1,), losers=(0,))


def test_R7_1_out_when_hand_and_stock_are_empty_recorded_at_bout_end() -> None:
    s = position(R3P, ["9c Kd", "Tc", "Qd Qs"], trump="h")
    s = play(s, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    assert s.places == (None, 1, None)
    assert s.result is None  # two players are still active


def test_R7_1_emptied_while_the_stock_lasted_but_nothing_left_to_draw_is_out() -> None:
    # Seat 2 throws in his last card while one card is left in the stock; the leader draws it,
    # so seat 2 ends the bout with no cards and no stock: out.
    rules = R3P.replace(throw_order="free")
    s = position(rules, ["9c Ac", "Tc Ts Kd", "9s"], stock="Ah")
    s = play(s, Lead(0, "9c"), ThrowIn(2, "9s"))
    assert s.is_active(2)
    s = play(s, Beat(1, "9c", "Tc"), Beat(1, "9s", "Ts"))
    assert s.hands == hands("Ac Ah", "Kd", "")
    assert s.places == (None, None, 1)
    assert s.result is None
    assert (s.attacker, s.defender) == (1, 0)


def test_R7_1_finished_player_is_no_transfer_target() -> None:
    # Stock empty. Seat 2 throws in his last card: he has finished at once, so the transfer
    # passes him by and goes to seat 3. He is recorded out when the bout ends.
    rules = R4P.replace(transfer_by_card=True, throw_order="free")
    s = position(rules, ["9c Ac", "9d Kd Qd", "9s", "Tc Ts Td Jc"], trump="h")
    s = play(s, Lead(0, "9c"), ThrowIn(2, "9s"))
    assert not s.is_active(2)
    assert s.places == (None, None, None, None)
    s = play(s, Transfer(1, "9d"))
    assert (s.attacker, s.defender) == (1, 3)
    s = play(s, Beat(3, "9c", "Tc"), Beat(3, "9s", "Ts"), Beat(3, "9d", "Td"))
    assert s.table == ()
    assert s.places == (None, None, 1, None)
    assert (s.attacker, s.defender) == (3, 0)


def test_R7_1_finished_player_is_no_thrower() -> None:
    # throwers = neighbours: the thrower is the next active player after the defender. Once
    # seat 2 has thrown in his last card (stock empty) that is seat 3.
    rules = R4P.replace(throwers="neighbours", throw_order="free")
    s = position(rules, ["9c Ac", "Tc Ts Td Jc", "9s", "9h Qd"], trump="c")
    s = play(s, Lead(0, "9c"))
    assert legal(s, 3) == set()
    assert_illegal(s, ThrowIn(3, "9h"), "R4.4")
    s = play(s, ThrowIn(2, "9s"))
    assert legal(s, 3) == {ThrowIn(3, "9h"), Pass(3)}


# ---------------------------------------------------------------------------------------------
# R7.2 places
# ---------------------------------------------------------------------------------------------


def test_R7_2_players_out_at_the_same_bout_end_share_a_place() -> None:
    s = position(R3P, ["9c", "Tc", "Qd Ks"], trump="h")
    s = play(s, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    assert s.result == Result(
        durak=2, draw=False, places=(1, 1, 3), winners=(0, 1), losers=(2,)
    )


def test_R7_2_place_counts_the_players_out_at_earlier_bout_ends() -> None:
    s = position(R4P, ["9c Ac", "Tc", "Jd", "Qd"], trump="h")
    s = play(s, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    assert s.places == (None, 1, None, None)
    assert (s.attacker, s.defender) == (2, 3)
    s = play(s, Lead(2, "Jd"), Beat(3, "Jd", "Qd"))
    assert s.places[1:] == (1, 2, 2)
    assert s.result == Result(
        durak=0, draw=False, places=(4, 1, 2, 2), winners=(1, 2, 3), losers=(0,)
    )


# The rule's example: three pairs {0, 3}, {1, 4}, {2, 5}, team_win = first_out.
TEAMS_3X2 = Rules(players=6, teams=((0, 3), (1, 4), (2, 5)), team_win="first_out")
HANDS_3X2 = ["7h", "9h 8c As", "Tc", "Kd", "Qd", "Jd"]


def test_R7_2_example_3x2_teams_first_out_places_one_one_then_three() -> None:
    """The rule's example: P0 goes out, partner P3 leaves: both place 1; the next player out
    is place 3; the losing team, still holding cards, shares the last place."""
    state = play(position(TEAMS_3X2, HANDS_3X2, trump="s"), Lead(0, "7h"))
    state, events = apply_with_events(state, Beat(1, "7h", "9h"))
    assert state.places == (1, None, None, 1, None, None)
    assert state.out == frozenset({0}) and state.left == frozenset({3})
    assert PlayerOut(0, 1) in events and PlayerLeft(3, 1, 0) in events
    assert not any(isinstance(e, PlayerOut) and e.player == 3 for e in events)
    v = view(state, 1)
    assert v.out == frozenset({0}) and v.left == frozenset({3})
    assert (state.attacker, state.defender) == (1, 2)
    state = play(state, Lead(1, "8c"))
    end, events = apply_with_events(state, Beat(2, "8c", "Tc"))
    assert PlayerOut(2, 3) in events and PlayerLeft(5, 3, 2) in events
    result = end.result
    assert result is not None and result.durak is None and result.losers == (1, 4)
    assert result.places == (1, 6, 3, 1, 6, 3)
    assert end.places == result.places, "every seat has a place once the game is over (R7.2)"
    assert end.out == frozenset({0, 2}) and end.left == frozenset({3, 5})
    assert view(end, 4).left == frozenset({3, 5})


# ---------------------------------------------------------------------------------------------
# R7.3 the end: objective = durak
# ---------------------------------------------------------------------------------------------


def test_R7_3_the_one_player_left_is_the_durak() -> None:
    s = position(D24, ["9c", "Tc Kd"], trump="h")
    s = play(s, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    assert s.result == Result(durak=1, draw=False, places=(1, 2), winners=(0,), losers=(1,))


def test_R7_3_last_two_emptying_their_hands_in_one_bout_is_a_draw() -> None:
    s = position(D24, ["9c", "Tc"], trump="h")
    s = play(s, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    assert s.result is not None
    assert s.result.durak is None
    assert s.result.draw is True
    assert s.result.places == (1, 1)
    assert s.result.losers == ()


def test_R7_3_draw_every_seat_is_out_and_shares_first_place() -> None:
    state = position(Rules(players=2), ["7h", "9h"], trump="s")
    end, events = apply_with_events(play(state, Lead(0, "7h")), Beat(1, "7h", "9h"))
    assert end.result is not None and end.result.draw
    assert end.places == end.result.places == (1, 1)
    assert end.out == frozenset({0, 1})
    assert [e for e in events if isinstance(e, PlayerOut)] == [PlayerOut(0, 1), PlayerOut(1, 1)]


def test_R7_3_draw_after_an_earlier_player_went_out() -> None:
    s = position(R3P, ["9c Kd", "Tc", "Qd"], trump="h")
    s = play(s, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    assert s.places == (None, 1, None)
    assert (s.attacker, s.defender) == (2, 0)
    s = play(s, Lead(2, "Qd"), Beat(0, "Qd", "Kd"))
    assert s.result is not None
    assert (s.result.durak, s.result.draw) == (None, True)
    assert s.result.places == (2, 1, 2)
    assert s.result.losers == ()


def test_R7_3_durak_game_goes_on_while_two_players_are_active() -> None:
    s = position(R3P, ["9c Ac", "Tc", "Qd Ks"], trump="h")
    s = play(s, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    assert s.places == (None, 1, None)
    assert s.result is None
    assert legal_actions(s) != ()


# ---------------------------------------------------------------------------------------------
# R7.3 on_last_cleared = draw | defender_loses
# ---------------------------------------------------------------------------------------------


def test_R7_3_on_last_cleared_defender_loses() -> None:
    rules = D24.replace(on_last_cleared="defender_loses")
    s = position(rules, ["9c", "Tc"], trump="h")
    s = play(s, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    assert s.result == Result(durak=1, draw=False, places=(1, 2), winners=(0,), losers=(1,))


def test_R7_3_on_last_cleared_defender_loses_takes_the_last_place() -> None:
    rules = R3P.replace(on_last_cleared="defender_loses")
    s = position(rules, ["9c Kd", "Tc", "Qd"], trump="h")
    s = play(s, Lead(0, "9c"), Beat(1, "9c", "Tc"), Lead(2, "Qd"), Beat(0, "Qd", "Kd"))
    assert s.result == Result(
        durak=0, draw=False, places=(3, 1, 2), winners=(1, 2), losers=(0,)
    )


def test_R7_3_defender_loses_the_durak_is_last_in_state_view_events_and_result() -> None:
    rules = Rules(players=2, on_last_cleared="defender_loses")
    state = play(position(rules, ["7h", "9h"], trump="s"), Lead(0, "7h"))
    end, events = apply_with_events(state, Beat(1, "7h", "9h"))
    result = end.result
    assert result is not None and result.durak == 1 and not result.draw
    assert result.places == (1, 2)
    assert end.places == result.places
    for seat in (0, 1, None):
        assert view(end, seat).places == (1, 2)
        assert view(end, seat).out == frozenset({0})
    outs = [e for e in events if isinstance(e, PlayerOut)]
    assert outs == [PlayerOut(0, 1)], "the durak is not out (R7.3)"
    assert end.out == frozenset({0})
    assert isinstance(events[-1], GameOver) and events[-1].result == result


def test_R7_3_defender_loses_does_not_change_an_ordinary_durak() -> None:
    for setting in ("draw", "defender_loses"):
        state = position(D24.replace(on_last_cleared=setting), ["9c", "Tc Jh"], trump="h")
        state = play(state, Lead(0, "9c"), Beat(1, "9c", "Tc"))
        assert _result(state) == (1, False, (0,), (1,))


def test_R7_3_defender_loses_with_teams_his_team_loses() -> None:
    rules = D24.replace(players=4, teams=[[0, 2], [1, 3]], on_last_cleared="defender_loses")
    state = position(rules, ["9c", "Tc", "Qs Ks", "As Ah"], trump="h")
    state = play(state, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    assert _result(state) == (1, False, (0, 2), (1, 3))


def test_R7_3_defender_loses_with_teams_all_out() -> None:
    rules = D24.replace(
        players=4, teams=[[0, 2], [1, 3]], team_win="all_out", on_last_cleared="defender_loses"
    )
    state = position(rules, ["", "Tc", "9c", ""], trump="h", attacker=2)
    state = play(state, Lead(2, "9c"), Beat(1, "9c", "Tc"))
    assert _result(state) == (1, False, (0, 2), (1, 3))


# ---------------------------------------------------------------------------------------------
# R7.3 objective = first_out, without and with teams (R10.3)
# ---------------------------------------------------------------------------------------------


def test_R7_3_first_out_the_first_player_out_wins_everyone_else_loses() -> None:
    rules = R3P.replace(objective="first_out")
    s = position(rules, ["9c", "Tc Kd", "Qd Ks"], trump="h")
    s = play(s, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    r = s.result
    assert r is not None
    assert (r.durak, r.draw) == (None, False)
    assert r.winners == (0,)
    assert r.losers == (1, 2)
    assert r.places == (1, 2, 2)  # R7.2: the others share 1 + the number out
    assert legal_actions(s) == ()


def test_R7_3_first_out_players_out_together_all_win() -> None:
    rules = R3P.replace(objective="first_out")
    s = position(rules, ["9c", "Tc", "Qd Ks"], trump="h")
    s = play(s, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    r = s.result
    assert r is not None
    assert (r.durak, r.draw) == (None, False)
    assert (r.winners, r.losers) == ((0, 1), (2,))
    assert r.places[:2] == (1, 1)


def test_R7_3_first_out_goes_on_while_nobody_is_out() -> None:
    rules = D24.replace(objective="first_out")
    s = position(rules, ["9c", "Tc Kd"], stock="Qs Ah")
    s = play(s, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    assert s.result is None
    assert s.places == (None, None)


def test_R7_3_first_out_ends_also_when_the_defender_takes() -> None:
    rules = D24.replace(players=3, objective="first_out")
    state = position(rules, ["9c", "Tc Jh", "Qs Ks"], trump="h")
    state = play(state, Lead(0, "9c"), Take(1))
    assert _result(state) == (None, False, (0,), (1, 2))
    assert state.hands[1] == cards("9c Tc Jh")


def test_R7_3_R7_2_first_out_with_teams_the_team_out_wins_and_the_other_shares_last_place() -> None:
    for team_win in ("first_out", "all_out"):
        rules = D24.replace(
            players=4, teams=[[0, 2], [1, 3]], team_win=team_win, objective="first_out"
        )
        state = position(rules, ["9c", "Tc Jh", "Qs Ks", "As Ah"], trump="h")
        state = play(state, Lead(0, "9c"), Beat(1, "9c", "Tc"))
        assert _result(state) == (None, False, (0, 2), (1, 3)), team_win
        # R7.2: the partner leaving with the winner takes his place; the losing team, still
        # holding cards, shares the last place.
        assert state.result is not None and state.result.places == (1, 4, 1, 4), team_win


def test_R7_3_R7_2_first_out_with_three_pairs_the_losers_share_the_last_place() -> None:
    rules = Rules(
        players=6, teams=[[0, 3], [1, 4], [2, 5]], team_win="all_out", objective="first_out"
    )
    state = position(rules, ["9c", "Tc Jh", "Qs Ks", "As Ah", "7c 8c", "7d 8d"], trump="h")
    state = play(state, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    assert _result(state) == (None, False, (0, 3), (1, 2, 4, 5))
    assert state.result is not None and state.result.places == (1, 6, 6, 1, 6, 6)  # R7.2


# ---------------------------------------------------------------------------------------------
# R7.4 the finished game
# ---------------------------------------------------------------------------------------------


def test_R7_4_a_finished_game_exposes_its_result_and_takes_no_action() -> None:
    s = position(R3P, ["9c", "Tc", "Qd Ks"], trump="h")
    s = play(s, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    assert s.is_over
    r = s.result
    assert r is not None
    assert r.durak == 2
    assert r.draw is False
    assert r.winners == (0, 1)
    assert r.losers == (2,)
    assert r.places == (1, 1, 3)
    assert legal_actions(s) == ()
    assert next_actor(s) is None
    assert_illegal(s, Lead(2, "Qd"), "R7.3")
