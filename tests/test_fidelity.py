"""The facts the engine publishes (R3.1, R7.2, R7.3, R10.3) and the error contract of the engine
functions (R13.1, R13.3): scenario tests, each named after its rule."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from durak import (
    Beat,
    DurakError,
    GameState,
    Lead,
    Pass,
    PositionError,
    Rules,
    SeatError,
    Take,
    ThrowIn,
    acting,
    apply,
    apply_with_events,
    attack_limit,
    build_deck,
    check,
    is_legal,
    legal_actions,
    new_game,
    new_position,
    next_actor,
    validate_state,
    view,
)
from durak.events import GameOver, PlayerLeft, PlayerOut, events_for
from durak.serialize import state_from_dict, state_to_dict


def rest(*used: str, decks: int = 1, size: int = 36) -> list[str]:
    """Every card of the deck(s) not named in ``used``: a discard pile for a position."""
    taken = {c for group in used for c in group.split()}
    return [str(c) for c in build_deck(size, decks) if str(c) not in taken]


# --------------------------------------------------------------------------------------------
# R3.1 with several decks
# --------------------------------------------------------------------------------------------


def two_deck_deal() -> GameState:
    rules = Rules(players=2, decks=2)
    p0 = ["Kd", "6d#2", "7c", "8c", "9c", "Tc"]
    p1 = ["7s", "8s", "9s", "Ts", "Js", "Qs"]
    order = [x for i in range(6) for x in (p0[i], p1[i])] + ["Ad"]
    order += [str(c) for c in build_deck(36, 2) if str(c) not in order]
    return new_game(rules, deck=order, dealer=1)


def test_R3_1_several_decks_show_the_lowest_trump_by_rank_not_by_copy() -> None:
    state = two_deck_deal()
    assert state.trump.letter == "d"
    assert state.attacker == 0
    shown = {str(c) for c in state.known[0]}
    assert shown == {"6d#2"}, "the leader shows his lowest trump, the six, not the king"
    for seat in (0, 1, None):
        assert {str(c) for c in view(state, seat).known[0]} == {"6d#2"}
    assert view(state, 1).known[1] == frozenset()


def test_R3_1_of_two_copies_of_the_lowest_trump_the_first_is_shown() -> None:
    rules = Rules(players=2, decks=2)
    p0 = ["6d#2", "Kd", "6d", "8c", "9c", "Tc"]
    p1 = ["7s", "8s", "9s", "Ts", "Js", "Qs"]
    order = [x for i in range(6) for x in (p0[i], p1[i])] + ["Ad"]
    order += [str(c) for c in build_deck(36, 2) if str(c) not in order]
    state = new_game(rules, deck=order, dealer=1)
    assert {str(c) for c in state.known[0]} == {"6d"}


# --------------------------------------------------------------------------------------------
# R7.3 on_last_cleared = defender_loses: one source for places
# --------------------------------------------------------------------------------------------


def test_R7_3_defender_loses_the_durak_is_last_in_state_view_events_and_result() -> None:
    rules = Rules(players=2, on_last_cleared="defender_loses")
    state = new_position(rules, hands=["7h", "9h"], trump="s", attacker=0, discard=rest("7h 9h"))
    state = apply(state, Lead(0, "7h"))
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


def test_R7_3_draw_every_seat_is_out_and_shares_first_place() -> None:
    rules = Rules(players=2)
    state = new_position(rules, hands=["7h", "9h"], trump="s", attacker=0, discard=rest("7h 9h"))
    end, events = apply_with_events(apply(state, Lead(0, "7h")), Beat(1, "7h", "9h"))
    assert end.result is not None and end.result.draw
    assert end.places == end.result.places == (1, 1)
    assert end.out == frozenset({0, 1})
    assert [e for e in events if isinstance(e, PlayerOut)] == [PlayerOut(0, 1), PlayerOut(1, 1)]


# --------------------------------------------------------------------------------------------
# R7.2 and R10.3 as amended: every seat placed; out and left told apart
# --------------------------------------------------------------------------------------------

TEAMS_3X2 = Rules(players=6, teams=((0, 3), (1, 4), (2, 5)), team_win="first_out")
HANDS_3X2 = ["7h", "9h 8c As", "Tc", "Kd", "Qd", "Jd"]


def teams_position() -> GameState:
    return new_position(
        TEAMS_3X2,
        hands=HANDS_3X2,
        trump="s",
        attacker=0,
        discard=rest(*HANDS_3X2),
    )


def test_R7_2_example_3x2_teams_first_out_places_one_one_then_three() -> None:
    """The rule's example: P0 goes out, partner P3 leaves: both place 1; the next player out
    is place 3; the losing team, still holding cards, shares the last place."""
    state = apply(teams_position(), Lead(0, "7h"))
    state, events = apply_with_events(state, Beat(1, "7h", "9h"))
    assert state.places == (1, None, None, 1, None, None)
    assert state.out == frozenset({0}) and state.left == frozenset({3})
    assert PlayerOut(0, 1) in events and PlayerLeft(3, 1, 0) in events
    assert not any(isinstance(e, PlayerOut) and e.player == 3 for e in events)
    v = view(state, 1)
    assert v.out == frozenset({0}) and v.left == frozenset({3})
    assert (state.attacker, state.defender) == (1, 2)
    state = apply(state, Lead(1, "8c"))
    end, events = apply_with_events(state, Beat(2, "8c", "Tc"))
    assert PlayerOut(2, 3) in events and PlayerLeft(5, 3, 2) in events
    result = end.result
    assert result is not None and result.durak is None and result.losers == (1, 4)
    assert result.places == (1, 6, 3, 1, 6, 3)
    assert end.places == result.places, "every seat has a place once the game is over (R7.2)"
    assert end.out == frozenset({0, 2}) and end.left == frozenset({3, 5})
    assert view(end, 4).left == frozenset({3, 5})


def test_R10_3_all_out_a_partner_plays_on_and_nobody_leaves() -> None:
    rules = Rules(players=4, teams=((0, 2), (1, 3)), team_win="all_out")
    hands = ["7h", "9h 8c", "Kd Ks", "Qd"]
    state = new_position(rules, hands=hands, trump="s", attacker=0, discard=rest(*hands))
    state, events = apply_with_events(apply(state, Lead(0, "7h")), Beat(1, "7h", "9h"))
    assert state.places == (1, None, None, None)
    assert state.left == frozenset() and state.out == frozenset({0})
    assert not any(isinstance(e, PlayerLeft) for e in events)


def test_R10_3_left_survives_json_and_pickle() -> None:
    state = apply(apply(teams_position(), Lead(0, "7h")), Beat(1, "7h", "9h"))
    assert state_from_dict(state_to_dict(state)) == state
    assert pickle.loads(pickle.dumps(state)).left == frozenset({3})
    filtered = events_for(apply_with_events(state, Lead(1, "8c"))[1], 0)
    assert filtered  # the lead's event


# --------------------------------------------------------------------------------------------
# The error contract of the engine functions (R13.1, R13.3)
# --------------------------------------------------------------------------------------------

JUNK: list[Any] = [None, "p0 take", (), 0, 1.5, [Take(0)], {"player": 0}, object(), b"x"]


@pytest.mark.parametrize("junk", JUNK, ids=[repr(j)[:20] for j in JUNK])
def test_R13_3_a_non_action_is_a_type_error_everywhere(junk: Any) -> None:
    state = new_game(Rules(), seed=1)
    for fn in (apply, apply_with_events, check, is_legal):
        with pytest.raises(TypeError, match="not an action"):
            fn(state, junk)


@pytest.mark.parametrize("junk", JUNK, ids=[repr(j)[:20] for j in JUNK])
def test_R13_3_a_non_state_is_a_type_error_everywhere(junk: Any) -> None:
    for fn in (legal_actions, acting, next_actor, attack_limit, validate_state):
        with pytest.raises(TypeError):
            fn(junk)
    with pytest.raises(TypeError):
        apply(junk, Take(0))
    with pytest.raises(TypeError):
        view(junk, 0)


@pytest.mark.parametrize("seat", [2, 7, -1, 10**30])
def test_R2_2_a_seat_that_does_not_exist_is_a_seat_error(seat: int) -> None:
    state = new_game(Rules(), seed=1)
    with pytest.raises(SeatError, match=r"no seat .* \(seats 0-1, R2.2\)") as info:
        legal_actions(state, seat)
    assert isinstance(info.value, DurakError) and isinstance(info.value, IndexError)
    with pytest.raises(SeatError):
        view(state, seat)


@pytest.mark.parametrize("seat", ["0", 1.0, True, None.__class__, [0]])
def test_R2_2_a_seat_that_is_not_a_number_is_a_type_error(seat: Any) -> None:
    state = new_game(Rules(), seed=1)
    with pytest.raises(TypeError, match="seat number"):
        legal_actions(state, seat)
    with pytest.raises(TypeError, match="seat number"):
        view(state, seat)


def test_R13_1_an_action_of_a_seat_beyond_the_table_is_illegal_and_changes_nothing() -> None:
    state = new_game(Rules(), seed=1)
    before = pickle.dumps(state)
    assert check(state, Take(5)) is not None
    assert check(state, Take(5))[0] == "R2.1"  # type: ignore[index]
    assert not is_legal(state, Lead(9, "6c"))
    assert pickle.dumps(state) == before


# --------------------------------------------------------------------------------------------
# Positions: every field, validated (R4.6, R4.8, R4.9, R4.10, R9.5, R13.4)
# --------------------------------------------------------------------------------------------

RULES = Rules(players=3)
HANDS = ["8h 9c", "Ts Jd Qd", "8c Ks"]


def in_play(**fields: Any) -> GameState:
    used = " ".join(HANDS) + " 7h 9h"
    args: dict[str, Any] = {
        "hands": HANDS,
        "trump": "s",
        "attacker": 0,
        "discard": rest(used),
        "table": "7h:9h",
    }
    args.update(fields)
    args["discard"] = rest(
        " ".join(args["hands"]), *(p.replace(":", " ") for p in [str(args["table"])])
    )
    return new_position(RULES, **args)


def test_R13_4_a_position_with_a_bout_in_play_plays_on() -> None:
    state = in_play()
    assert state.table[0][1] is not None and state.defender == 1
    assert state.defender_hand == 4, "H: the defender's hand plus the card he beat with"
    assert attack_limit(state) == 4
    assert set(legal_actions(state)) == {ThrowIn(0, "9c"), Pass(0)}
    # Player 2 holds no 7 or 9, so the main attacker's pass ends the bout: a defence (R4.10).
    after = apply(state, Pass(0))
    assert after.table == () and after.discard[-2:] == state.table[0]
    assert (after.attacker, after.defender) == (1, 2)  # R6.1


def test_R4_8_a_position_with_a_declared_take() -> None:
    state = in_play(table="7h:9h 9c", hands=["7c", "Ts Jd Qd", "8c Ks"], taken=True)
    assert state.taken and state.defender_hand == 4
    assert legal_actions(state, 1) == ()
    assert set(legal_actions(state)) == {ThrowIn(0, "7c"), Pass(0)}
    assert next_actor(state) == 0
    end = apply(state, Pass(0))
    assert end.table == () and sorted(map(str, end.hands[1])) == sorted(
        ["Ts", "Jd", "Qd", "7h", "9h", "9c"]
    )
    with pytest.raises(PositionError, match=r"R4\.10"):
        in_play(table="7h:9h 9c", hands=["8h", "Ts Jd Qd", "8c Ks"], taken=True)


def test_R4_9_standing_passes_and_R4_6_first_bout_cap_of_a_position() -> None:
    hands = ["7c 9c", "Ts Jd Qd", "7s Ks"]
    state = in_play(hands=hands, passed=[0], bouts=0)
    assert state.passed == frozenset({0})
    assert attack_limit(state) == 4  # min(first-bout cap 5, H 4)
    assert legal_actions(state, 0) == ()
    assert ThrowIn(2, "9c") not in legal_actions(state, 2)


def test_R4_6_no_successful_defence_yet_is_not_the_first_bout() -> None:
    rules = Rules(players=2, first_bout_scope="until_first_discard")
    hands = ["6c 6d 6h 6s 7c 7d", "8c 8d 8h 8s 9c 9d"]
    state = new_position(
        rules, hands=hands, trump="s", attacker=0, discard=rest(*hands), bouts=3, defences=0
    )
    assert attack_limit(state) == 5
    assert attack_limit(attr_change(state, defences=1)) == 6


def attr_change(state: GameState, **changes: Any) -> GameState:
    data = state_to_dict(state)
    data.update(changes)
    return state_from_dict(data)


@pytest.mark.parametrize(
    ("fields", "pattern"),
    [
        ({"table": "7h:6h"}, r"6h does not beat 7h \(R4.7"),
        ({"table": "7h:9h", "defender_hand": 1}, r"R4.6|R4.10"),
        ({"taken": True}, r"taken: .*R4.8"),
        ({"passed": [2]}, r"passed: seat 2 .*R4.9"),
        ({"shown": ["7s"]}, r"shown: 7s .*R9.5"),
        ({"joined": [1]}, r"joined: .*R5.1"),
        ({"defender": 0}, r"defender: .*R4.1"),
        ({"bouts": 1, "defences": 2}, r"defences: 2 successful defences in 1"),
        ({"known": ["Ks", "", ""]}, r"known: Ks"),
        ({"places": [None, None, 9]}, r"places: seat 2 has place 9"),
        ({"left": [1]}, r"left: seat 1 .*R10.3"),
        ({"leader": 7}, r"leader: must be a seat 0-2"),
    ],
)
def test_R13_4_a_contradicting_position_is_refused_naming_field_and_rule(
    fields: dict[str, Any], pattern: str
) -> None:
    with pytest.raises(PositionError, match=pattern):
        in_play(**fields)


def test_R4_10_a_state_read_from_json_that_the_engine_would_have_ended_is_refused() -> None:
    rules = Rules(players=2)
    hands = ["8c", "9h Ts"]
    state = new_position(
        rules, hands=hands, trump="s", attacker=0, discard=rest(*hands, "7h"), table="7h"
    )
    assert next_actor(state) == 1
    data = state_to_dict(state)
    data["table"] = [["7h", "9h"]]
    data["hands"] = [["8c"], ["Ts"]]
    data["defender_hand"] = 1
    with pytest.raises(PositionError, match=r"the bout is over.*\(R4.10\)"):
        state_from_dict(data)


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
