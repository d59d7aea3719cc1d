"""R11: matches, the next dealer and leader, loss counts, streaks and the vodka scoring."""

from __future__ import annotations

import pytest

from durak import Rules, RulesError, new_game
from durak.bots import RandomBot
from durak.match import (
    Match,
    Streak,
    losses,
    play_match,
    streak_name,
    streaks,
    team_losses,
    vodka,
    vodka_first_out,
)
from durak.state import Result


def _durak(durak: int, n: int = 3) -> Result:
    places = tuple(n if p == durak else 1 for p in range(n))
    return Result(durak, False, places, tuple(p for p in range(n) if p != durak), (durak,))


DRAW3 = Result(None, True, (1, 1, 1), (0, 1, 2), ())


def test_R11_1_durak_deals_next_game() -> None:
    match = Match(Rules(players=3), results=(_durak(1),), dealers=(2,))
    assert match.next_dealer() == 1
    assert match.new_game().dealer == 1


def test_R11_1_no_durak_passes_the_deal_left() -> None:
    match = Match(Rules(players=3), results=(DRAW3,), dealers=(2,))
    assert match.next_dealer() == 0
    assert match.next_leader() is None  # R3 picks the leader after a draw (R11.2)


def test_R11_2_attack_durak_right_neighbour_leads_against_him() -> None:
    match = Match(Rules(players=3), results=(_durak(1),), dealers=(2,))
    assert match.next_leader() == 0
    state = match.new_game()
    assert (state.attacker, state.defender) == (0, 1)


@pytest.mark.parametrize(
    ("policy", "leader"),
    [("left_of_durak", 2), ("durak_leads", 1), ("lowest_trump", None)],
)
def test_R11_2_next_leader_policies(policy: str, leader: int | None) -> None:
    match = Match(Rules(players=3, next_leader=policy), results=(_durak(1),), dealers=(2,))
    assert match.next_leader() == leader
    state = match.new_game()
    if leader is None:
        fresh = new_game(Rules(players=3, next_leader=policy), seed=match.seed_for(1), dealer=1)
        assert state.attacker == fresh.attacker
    else:
        assert state.attacker == leader


def test_R11_3_losses_and_streaks() -> None:
    results = [_durak(0), _durak(0), _durak(1), _durak(0), _durak(0), _durak(0)]
    assert losses(results) == {0: 5, 1: 1, 2: 0}
    assert streaks(results) == {0: Streak(3, 3), 1: Streak(0, 1), 2: Streak(0, 0)}
    assert [streak_name(k) for k in (1, 2, 3, 4)] == [
        None,
        "Doppeldurak",
        "Dauerdurak",
        "Dauerdurak",
    ]


def test_R11_3_a_draw_ends_a_streak() -> None:
    assert streaks([_durak(2), _durak(2), DRAW3, _durak(2)])[2] == Streak(1, 2)


def test_R11_3_vodka_durak_drinks_his_streak() -> None:
    results = [_durak(0), _durak(0), _durak(0), DRAW3, _durak(0), _durak(1)]
    # game 1: 1 shot, game 2: 2, game 3: 3, draw: none, game 5: 1 (streak broken); p1: 1
    assert vodka(results) == {0: 7, 1: 1, 2: 0}


def test_R11_3_vodka_first_out_variant() -> None:
    shared_first = Result(2, False, (1, 1, 3), (0, 1), (2,))
    alone_first = Result(0, False, (3, 1, 2), (1, 2), (0,))
    assert vodka_first_out([shared_first, alone_first, DRAW3]) == {0: 1, 1: 2, 2: 0}


def test_R11_3_vodka_first_out_charges_the_first_out_of_a_losing_team() -> None:
    # Teams {0, 2} and {1, 3} with team_win = all_out: seat 1 went out first, but his partner
    # seat 3 is the durak, so seat 1 is among the losers. The rule charges the first player out.
    result = Result(3, False, (2, 1, 2, 4), (0, 2), (1, 3))
    assert vodka_first_out([result]) == {0: 0, 1: 1, 2: 0, 3: 0}


def test_R11_3_team_losses_count_whole_teams() -> None:
    lost = Result(None, False, (1, 4, 1, 4), (0, 2), (1, 3))
    assert team_losses([lost, lost], [(0, 2), (1, 3)]) == {0: 0, 1: 2}


def test_R11_play_match_is_deterministic_and_records_every_game() -> None:
    rules = Rules(players=3)
    one = play_match(rules, [RandomBot(s) for s in range(3)], games=5, seed="m")
    two = play_match(rules, [RandomBot(s) for s in range(3)], games=5, seed="m")
    assert one == two
    assert len(one.results) == len(one.dealers) == 5
    for previous, result, dealer in zip(
        one.results, one.results[1:], one.dealers[1:], strict=False
    ):
        assert result is not None
        if previous.durak is not None:
            assert dealer == previous.durak


def test_R11_play_match_rejects_wrong_player_count() -> None:
    with pytest.raises(RulesError) as err:
        play_match(Rules(players=3), [RandomBot(0)], games=1)
    assert err.value.setting == "players"
