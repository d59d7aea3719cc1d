"""R13 Protocol: legality per player (R13.1), next_actor (R13.2), the contract of apply and of the
other engine functions, which refuse what is not an action or a state (R13.3), and positions
given field by field, each contradiction refused (R13.4)."""

from __future__ import annotations

import pickle
import random
from typing import Any

import attrs
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
from durak.state import evolve

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
        ({"passed": [2]}, r"passed: seat 2 .*\(R4\.[59]\)"),
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


# --------------------------------------------------------------------------------------------
# R13.4: states the engine could not have reached are refused when built or read
# --------------------------------------------------------------------------------------------


def _rest(rules: Any, *used: str) -> list[str]:
    from durak.cards import build_deck

    taken = {c for group in used for c in group.split()}
    return [str(c) for c in build_deck(rules.deck_size, rules.decks) if str(c) not in taken]


QA_HANDS = ["7h 8h 7c", "9h Th Kc", "Jh 7s"]


def _qa(**fields: Any) -> Any:
    from durak import Rules as R
    from durak import new_position as np

    rules = fields.pop("rules", R(players=3))
    hands = fields.pop("hands", QA_HANDS)
    table = fields.pop("table", "7d:9d")
    used = [*hands, table.replace(":", " ")]
    return np(
        rules,
        hands=hands,
        table=table,
        attacker=0,
        trump="s",
        discard=_rest(rules, *used),
        **fields,
    )


@pytest.mark.parametrize(
    ("fields", "pattern"),
    [
        ({"table": "7d:9d 8c"}, r"8c matches no other card's rank \(R4\.3\)"),
        ({"defender_hand": 100}, r"defender_hand: H is 100.*\(R4\.6\)"),
        ({"defender_hand": 2}, r"defender_hand: H is 2.*\(R4\.6\)"),
        ({"defender": 2}, r"next active opponent clockwise is seat 1 \(R4\.1"),
        ({"joined": [0, 2]}, r"joined: 2 seats .* table of 1 \(R5\.1\)"),
        ({"passed": [2]}, r"seat 2 could not have passed: .*\(R4\.5\)"),
        ({"leader": 1}, r"leader: seat 1 led.*\(R4\.1"),
        ({"first_bout": True, "bouts": 3}, r"first_bout: the first bout has bouts = 0"),
        ({"first_bout": "x"}, r"first_bout: must be true or false"),
        ({"places": [None, None, 3]}, r"place 3, but 0 seat\(s\) are placed before him.*\(R7\.2\)"),
        ({"places": [None, 1, None]}, r"seat 1 has a place but holds cards.*\(R7\.1\)"),
        ({"left": [2], "places": [None, None, 1]}, r"left: seat 2 .*\(R10\.3\)"),
    ],
)
def test_R13_4_a_position_the_engine_could_not_reach_is_refused(
    fields: dict[str, Any], pattern: str
) -> None:
    with pytest.raises(PositionError, match=pattern):
        _qa(**fields)


def test_R9_1_after_a_transfer_a_defender_who_is_not_the_next_opponent_is_refused() -> None:
    # Seat 0 led, seat 1 transferred: the defender can only be seat 2 (R9.1, R4.1), also when
    # the attacker is not the leader (the compiled build once let seat 3 through).
    from durak import Rules as R
    from durak import new_position as np

    rules = R(players=4, transfer_by_card=True)
    hands = ["7c 8c", "9d Tc", "Jd Qd", "Kh Ah"]
    fields: dict[str, Any] = {
        "hands": hands,
        "trump": "s",
        "attacker": 1,
        "leader": 0,
        "joined": [0, 1],
        "table": [("6h", None), ("6d", None)],
        "discard": _rest(rules, *hands, "6h 6d"),
    }
    with pytest.raises(PositionError, match=r"seat 3 does not defend against seat 1.*seat 2"):
        np(rules, defender=3, **fields)
    assert np(rules, defender=2, **fields).defender == 2


@pytest.mark.parametrize(
    ("field", "value", "pattern"),
    [
        ("taken", 0, r"taken: must be true or false, not 0"),
        ("hands", "list", r"hands: must be a tuple, not list"),
        ("hands", "inner list", r"hands: each entry must be a tuple, not list"),
        ("passed", set(), r"passed: must be a frozenset, not set"),
        ("known", "inner set", r"known: each entry must be a frozenset, not set"),
        ("table", [], r"table: must be a tuple, not list"),
    ],
)
def test_R13_4_a_hand_built_state_with_the_wrong_containers_is_refused(
    field: str, value: Any, pattern: str
) -> None:
    import attrs

    from durak import validate_state

    state = _qa()
    if value == "list":
        value = list(state.hands)
    elif value == "inner list":
        value = tuple(list(h) for h in state.hands)
    elif value == "inner set":
        value = tuple(set(k) for k in state.known)
    bad = attrs.evolve(state, **{field: value})
    with pytest.raises(PositionError, match=pattern):
        validate_state(bad)
    assert validate_state(state) == state


def test_R7_3_a_position_whose_game_is_already_over_is_refused() -> None:
    from durak import Rules as R

    rules = R(players=3, objective="first_out")
    with pytest.raises(PositionError, match=r"the game is already over \(R7\.3"):
        _qa(rules=rules, hands=["7h 8h", "9h Th", ""], table="7d:9d", places=[None, None, 1])


def test_R5_2_a_face_up_card_in_a_hand_is_known_by_default() -> None:
    from durak import Card as C

    state = _qa(trump_card="7s")
    assert state.known[2] == frozenset({C("7s")})


def test_R13_4_a_state_read_from_json_with_contradicting_places_or_known_is_refused() -> None:
    from durak.serialize import state_from_dict, state_to_dict

    data = state_to_dict(_qa())
    for field, value, pattern in [
        ("known", [], r"known: one set of known cards per seat"),
        ("joined", [0, 3], r"joined: must be a seat 0-2"),
        ("places", [2, None, None], r"\(R7\.2\)"),
    ]:
        bad = {**data, field: value}
        with pytest.raises(PositionError, match=pattern):
            state_from_dict(bad)


def test_R7_3_defender_loses_with_teams_his_partner_loses_holding_cards() -> None:
    from durak import Rules as R
    from durak import apply_with_events
    from durak import new_position as np
    from durak.events import PlayerLeft, PlayerOut

    rules = R(
        players=6,
        teams=((0, 3), (1, 4), (2, 5)),
        team_win="first_out",
        on_last_cleared="defender_loses",
    )
    hands = ["Tc Jc", "", "6c 7c", "Qd", "9c Ac", ""]
    state = np(
        rules,
        hands=hands,
        table="8d",
        attacker=1,
        trump="s",
        discard=_rest(rules, *hands, "8d"),
        places=[None, None, 1, None, None, 1],
        left=[2],
    )
    end, events = apply_with_events(state, Beat(3, "8d", "Qd"))
    assert end.result is not None and end.result.durak == 3
    assert end.result.losers == (0, 3)
    assert end.places == end.result.places == (6, 3, 1, 6, 3, 1)
    assert 0 not in end.left and end.left == frozenset({2, 4})
    assert PlayerLeft(4, 3, 1) in events and PlayerOut(1, 3) in events
    assert not any(isinstance(e, PlayerLeft) and e.player == 0 for e in events)


def test_R13_3_huge_and_deep_values_into_the_engine_raise_documented_errors() -> None:
    from durak import DurakError, Rules, legal_actions, new_game, shuffled_deck, view

    state = new_game(Rules(), seed=1)
    big = 10**5000
    deep: list[Any] = []
    for _ in range(100_000):
        deep = [deep]
    for call in (
        lambda: legal_actions(state, big),
        lambda: view(state, big),
        lambda: new_game(Rules(), seed=big),
        lambda: new_game(Rules(), seed=1, dealer=big),
        lambda: shuffled_deck(Rules(), big),
        lambda: view(state, deep),
        lambda: new_game(Rules(), seed=deep),
        lambda: shuffled_deck(None, 1),  # type: ignore[arg-type]
        lambda: new_game(Rules(), deck=set(shuffled_deck(Rules(), 1))),
    ):
        with pytest.raises((DurakError, TypeError)):
            call()


def test_R13_4_every_state_apply_builds_is_the_value_the_constructor_builds() -> None:
    """The engine fills a new state's slots directly (durak.state.evolve); what it builds must be
    an ordinary frozen GameState: equal to, hashed like and pickled like the one attrs'
    constructor builds from the same fields."""
    state = new_game(Rules(players=3), seed=5)
    rng = random.Random(5)
    for _ in range(60):
        if state.is_over:
            break
        actions = legal_actions(state)
        state = apply(state, actions[rng.randrange(len(actions))])
        rebuilt = GameState(**{f.name: getattr(state, f.name) for f in attrs.fields(GameState)})
        assert type(state) is GameState
        assert state == rebuilt and hash(state) == hash(rebuilt)
        assert pickle.loads(pickle.dumps(state)) == state
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            state.bouts = 0  # type: ignore[misc]


def test_R13_4_evolve_refuses_a_change_that_names_no_field() -> None:
    state = new_game(Rules(), seed=1)
    with pytest.raises(TypeError, match="'hand' is not a field of a game state"):
        evolve(state, {"hand": ()})
    assert evolve(state, {"bouts": 3}).bouts == 3 and state.bouts == 0


def test_R13_4_setter_builds_what_evolve_builds_and_refuses_bad_names() -> None:
    from durak.state import setter

    state = new_game(Rules(), seed=4)
    build = setter(("bouts", "attacker"), {"taken": True})
    built = build(state, 7, 1)
    assert built == evolve(state, {"bouts": 7, "attacker": 1, "taken": True})
    assert hash(built) == hash(evolve(state, {"bouts": 7, "attacker": 1, "taken": True}))
    assert pickle.loads(pickle.dumps(built)) == built and state.bouts == 0
    with pytest.raises(TypeError, match="'bout' is not a field of a game state"):
        setter(("bout",), {})
    with pytest.raises(TypeError, match="set twice"):
        setter(("bouts",), {"bouts": 1})


def test_R4_10_bout_end_is_the_same_with_a_bout_end_hook_that_changes_nothing() -> None:
    # The bout end sets its fields directly unless a module has a bout_end hook, which gets
    # them as a mapping: both ways must give the same states, move for move.
    from durak.rules.modules import RuleModule, register

    class Quiet(RuleModule):
        name = "test-quiet-bout-end"
        description = "a bout_end hook that changes nothing"
        rule = "house:quiet"

        def bout_end(self, state: Any, changes: Any) -> None:
            return None

    register(Quiet())
    for players in (2, 4):
        plain = Rules(players=players)
        hooked = Rules(players=players, house_rules=["test-quiet-bout-end"])
        for seed in range(3):
            a, b = new_game(plain, seed=seed), new_game(hooked, seed=seed)
            rng = random.Random(seed)
            bouts = 0
            while not a.is_over:
                listed = legal_actions(a)
                assert listed == legal_actions(b)
                pick = rng.randrange(len(listed))
                a, b = apply(a, listed[pick]), apply(b, legal_actions(b)[pick])
                assert attrs.evolve(a, rules=hooked) == b
                bouts = a.bouts
            assert b.is_over and bouts > 3


def test_R4_6_a_plans_remembered_answers_stay_bounded_and_right() -> None:
    # The plan remembers its pure policies' answers; each memory starts afresh when full,
    # and an answer given after that is still the policy's own.
    from durak.rules.modules import plan_for

    rules = Rules(players=2, first_bout_max=5)
    plan = plan_for(rules)
    for bouts in range(5000):
        assert plan.cap_of(bouts, 0) == plan.attack_cap(rules, bouts, 0)
    assert 0 < len(plan.caps) <= 4096
    assert plan.cap_of(0, 0) == 5 and plan.cap_of(3, 1) == rules.max_attack
    assert plan.active_of((None, 1)) is plan.active_of((None, 1)) == (True, False)
