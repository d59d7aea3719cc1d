"""R13 Protocol: legality per player (R13.1), next_actor (R13.2), the contract of apply and of the
other engine functions, which refuse what is not an action or a state (R13.3), and positions
given field by field, each contradiction refused (R13.4)."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from helpers import D24, assert_illegal, legal, play, position

from durak import (
    Beat,
    DurakError,
    GameState,
    IllegalActionError,
    Lead,
    Pass,
    PositionError,
    Rules,
    Take,
    ThrowIn,
    Transfer,
    acting,
    apply,
    apply_with_events,
    attack_limit,
    check,
    is_legal,
    legal_actions,
    new_game,
    next_actor,
    validate_state,
    view,
)

R3F = Rules(players=3, deck_size=24, throw_order="free")
R4P = Rules(players=4, deck_size=24, hand_size=4)

# ---------------------------------------------------------------------------------------------
# R13.1 legality per player
# ---------------------------------------------------------------------------------------------


def test_R13_1_legal_actions_lists_every_players_actions_at_once() -> None:
    s = position(R3F, ["9c 9d Ac", "Tc Jc Qd", "9s Ks"], stock="Ah")
    s = play(s, Lead(0, "9c"))
    by_player = {
        0: {ThrowIn(0, "9d"), Pass(0)},
        1: {Beat(1, "9c", "Tc"), Beat(1, "9c", "Jc"), Take(1)},
        2: {ThrowIn(2, "9s"), Pass(2)},
    }
    for p, actions in by_player.items():
        assert legal(s, p) == actions
        assert all(a.player == p for a in legal_actions(s, p))
    assert legal(s) == by_player[0] | by_player[1] | by_player[2]
    # Any listed action of any player may be applied now.
    for action in legal(s):
        assert is_legal(s, action)
        apply(s, action)


def test_R13_1_players_act_independently() -> None:
    s = position(R3F, ["9c 9d Ac", "Tc Jc Qd", "9s Ks"], stock="Ah")
    s = play(s, Lead(0, "9c"))
    a = play(s, ThrowIn(2, "9s"), Beat(1, "9c", "Tc"))
    b = play(s, Beat(1, "9c", "Tc"), ThrowIn(2, "9s"))
    assert a.table == b.table
    assert a.hands == b.hands


def test_R13_1_an_action_names_a_card_the_player_does_not_hold() -> None:
    s = position(D24, ["9c 9d Ac", "Tc Jc Qd"], stock="Ah")
    s = play(s, Lead(0, "9c"))
    before = pickle.loads(pickle.dumps(s))
    with pytest.raises(IllegalActionError) as info:
        apply(s, ThrowIn(0, "9s"))
    assert info.value.player == 0
    assert s == before
    with pytest.raises(IllegalActionError):
        apply(s, Beat(1, "9c", "Kc"))
    assert s == before


def test_R13_1_an_action_of_a_seat_beyond_the_table_is_illegal_and_changes_nothing() -> None:
    state = new_game(Rules(), seed=1)
    before = pickle.dumps(state)
    assert check(state, Take(5)) is not None
    assert check(state, Take(5))[0] == "R2.1"  # type: ignore[index]
    assert not is_legal(state, Lead(9, "6c"))
    assert pickle.dumps(state) == before


# ---------------------------------------------------------------------------------------------
# R13.2 next_actor
# ---------------------------------------------------------------------------------------------


def test_R13_2_attacker_acts_before_the_lead() -> None:
    s = position(R3F, ["9c", "Tc", "9s Ks"], stock="Ah", attacker=2)
    assert next_actor(s) == 2


def test_R13_2_defender_facing_an_unbeaten_card_acts_first() -> None:
    s = position(R3F, ["9c 9d Ac", "Tc Jc Qd", "9s Ks"], stock="Ah")
    s = play(s, Lead(0, "9c"))
    assert next_actor(s) == 1
    # It never changes what is legal: the throwers may still act.
    assert ThrowIn(0, "9d") in legal(s)
    assert ThrowIn(2, "9s") in legal(s)


def test_R13_2_then_the_main_attacker_then_the_others_clockwise() -> None:
    # Attacker 2, defender 3; clockwise from the main attacker: 0, then 1.
    rules = R4P
    s = position(rules, ["9d Jc", "9s Jd", "9c 9h", "Tc Td Ts Qs"], stock="Ah", attacker=2)
    s = play(s, Lead(2, "9c"), Beat(3, "9c", "Tc"))
    assert next_actor(s) == 2  # the main attacker can still throw 9h
    s = play(s, Pass(2))
    assert next_actor(s) == 0
    s = play(s, Pass(0))
    assert next_actor(s) == 1
    s = play(s, ThrowIn(1, "9s"))
    assert next_actor(s) == 3  # an unbeaten card again


def test_R13_2_main_attacker_with_nothing_to_do_is_skipped() -> None:
    s = position(R4P, ["9d Jc", "Ac Ad", "9c Kh", "Tc Td Ts Qs"], stock="Ah", attacker=2)
    s = play(s, Lead(2, "9c"), Beat(3, "9c", "Tc"))
    assert next_actor(s) == 0


def test_R13_2_after_a_take_the_throwers_act() -> None:
    s = position(D24, ["9c 9d Ac", "Tc Jc Qd"], stock="Ah")
    s = play(s, Lead(0, "9c"), Take(1))
    assert next_actor(s) == 0


def test_R13_2_after_a_transfer_the_new_defender_acts() -> None:
    rules = Rules(players=3, deck_size=24, transfer_by_card=True)
    s = position(rules, ["9c Ac", "9d Qd", "Tc Td Kc"], stock="Ah")
    s = play(s, Lead(0, "9c"), Transfer(1, "9d"))
    assert next_actor(s) == 2


def test_R13_2_nobody_acts_once_the_game_is_over() -> None:
    s = position(D24, ["9c", "Tc Kd"], trump="h")
    s = play(s, Lead(0, "9c"), Beat(1, "9c", "Tc"))
    assert s.result is not None
    assert next_actor(s) is None


def test_R13_2_next_actor_always_has_a_legal_action() -> None:
    s = position(R3F, ["9c 9d Ac", "Tc Jc Qd", "9s Ks"], stock="Ah")
    seen = []
    for _ in range(12):
        actor = next_actor(s)
        if actor is None:
            break
        seen.append(actor)
        actions = legal_actions(s, actor)
        assert actions
        s = apply(s, actions[-1])
    assert seen[:2] == [0, 1]


# ---------------------------------------------------------------------------------------------
# R13.3 apply
# ---------------------------------------------------------------------------------------------


def test_R13_3_apply_returns_a_new_state_and_leaves_its_input_alone() -> None:
    s = position(D24, ["9c Ac", "Tc Kd"], stock="Qs Ah")
    s = play(s, Lead(0, "9c"))
    before = pickle.loads(pickle.dumps(s))
    after = apply(s, Beat(1, "9c", "Tc"))  # ends the bout: discard, draw, rotate
    assert s == before and hash(s) == hash(before)
    assert after != s
    assert after.table == ()
    assert apply(s, Beat(1, "9c", "Tc")) == after  # the same action, the same result


def test_R13_3_illegal_action_raises_naming_action_player_and_rule() -> None:
    s = position(D24, ["9c Ac", "Tc Kd"], stock="Qs Ah")
    s = play(s, Lead(0, "9c"))
    err = assert_illegal(s, Beat(1, "9c", "Kd"), "R4.7")
    text = str(err)
    assert "player 1" in text or "p1" in text
    assert "9c" in text and "Kd" in text
    assert "R4.7" in text
    assert isinstance(err, DurakError)
    assert issubclass(IllegalActionError, ValueError)


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


# ---------------------------------------------------------------------------------------------
# R13.4 positions: every field given, every contradiction refused
# ---------------------------------------------------------------------------------------------

# A bout in play: three players, trump spades; seat 0 led 7h and seat 1 beat it with 9h.
R3_36 = Rules(players=3)
IN_PLAY_HANDS = ["8h 9c", "Ts Jd Qd", "8c Ks"]


def _in_play(**fields: Any) -> GameState:
    """The bout in play, with some fields of ``new_position`` given otherwise."""
    fields.setdefault("table", "7h:9h")
    return position(R3_36, IN_PLAY_HANDS, trump="s", **fields)


def test_R13_4_a_position_with_a_bout_in_play_plays_on() -> None:
    state = _in_play()
    assert state.table[0][1] is not None and state.defender == 1
    assert state.defender_hand == 4, "H: the defender's hand plus the card he beat with"
    assert attack_limit(state) == 4
    assert legal(state) == {ThrowIn(0, "9c"), Pass(0)}
    # Player 2 holds no 7 or 9, so the main attacker's pass ends the bout: a defence (R4.10).
    after = play(state, Pass(0))
    assert after.table == () and after.discard[-2:] == state.table[0]
    assert (after.attacker, after.defender) == (1, 2)  # R6.1


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
        _in_play(**fields)


def test_R13_4_a_position_whose_defender_holds_no_card_is_rejected() -> None:
    # Every non-terminal state has a legal action (R13.4): a defender without cards while the
    # stock lasts would leave the attacker no legal lead (R4.6), so the position is refused.
    rules = Rules(deck_size=24)
    with pytest.raises(PositionError, match="defender, seat 1, holds no card"):
        position(rules, ["9c Ac", ""], stock="Kh")
