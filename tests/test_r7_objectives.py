"""R7.3 objective variants: objective = first_out and on_last_cleared = defender_loses, without
and with teams (R10.3). The two-player basics are in test_r7_result.py."""

from __future__ import annotations

from helpers import D24, cards, play, position

from durak import Beat, GameState, Lead, Rules, Take

# ---------------------------------------------------------------------------------------------
# R7.3 objective = first_out
# ---------------------------------------------------------------------------------------------


def _result(state: GameState) -> tuple[object, ...]:
    result = state.result
    assert result is not None
    return (result.durak, result.draw, result.winners, result.losers)


def test_R7_3_first_out_ends_also_when_the_defender_takes() -> None:
    rules = D24.replace(players=3, objective="first_out")
    state = position(rules, ["9c", "Tc Jh", "Qs Ks"], trump="h")
    state = play(state, Lead(0, "9c"), Take(1))
    assert _result(state) == (None, False, (0,), (1, 2))
    assert state.hands[1] == cards("9c Tc Jh")


def test_R7_3_first_out_with_teams_the_team_of_the_player_out_wins() -> None:
    for team_win in ("first_out", "all_out"):
        rules = D24.replace(
            players=4, teams=[[0, 2], [1, 3]], team_win=team_win, objective="first_out"
        )
        state = position(rules, ["9c", "Tc Jh", "Qs Ks", "As Ah"], trump="h")
        state = play(state, Lead(0, "9c"), Beat(1, "9c", "Tc"))
        assert _result(state) == (None, False, (0, 2), (1, 3)), team_win


def test_R7_3_first_out_with_three_pairs() -> None:
    rules = Rules(
        players=6, teams=[[0, 3], [1, 4], [2, 5]], team_win="all_out", objective="first_out"
    )
    state = position(rules, ["9c", "Tc Jh", "Qs Ks", "As Ah", "7c 8c", "7d 8d"], trump="h")
    state = play(state, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    assert _result(state) == (None, False, (0, 3), (1, 2, 4, 5))


# ---------------------------------------------------------------------------------------------
# R7.3 on_last_cleared
# ---------------------------------------------------------------------------------------------


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
