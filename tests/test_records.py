"""Text forms of actions and positions, game records, replay, and JSON of states and views."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from contracts import check
from hypothesis import given, settings
from hypothesis import strategies as st
from optional_parts import examples

from durak import (
    Beat,
    GameState,
    InvalidError,
    Lead,
    PositionError,
    Rules,
    Take,
    apply,
    legal_actions,
    new_game,
    new_position,
    view,
)
from durak.notation import format_position, parse_action, parse_position
from durak.presets import PRESETS
from durak.records import Record, RecordError, ReplayError, dumps, loads, replay
from durak.serialize import state_from_dict, state_to_dict, view_from_dict, view_to_dict


def _random_game(rules: Rules, seed: int) -> tuple[GameState, list[GameState], Record]:
    state = new_game(rules, seed=seed)
    record = Record.start(rules, seed=seed)
    states = [state]
    rng = random.Random(seed)
    while not state.is_over:
        action = rng.choice(legal_actions(state))
        state = apply(state, action)
        record = record.add(action)
        states.append(state)
    return state, states, record.finish(state)


@settings(max_examples=examples(15), deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 10**6))
def test_R13_4_records_states_and_views_round_trip(preset: str, seed: int) -> None:
    rules = PRESETS[preset].rules()
    end, states, record = _random_game(rules, seed)
    text = dumps(record)
    check("record-v1", json.loads(text))
    again = loads(text)
    assert again == record
    assert replay(again) == end
    for state in states[:: max(1, len(states) // 10)]:
        assert state_from_dict(json.loads(json.dumps(state_to_dict(state)))) == state
        for player in range(rules.players):
            v = view(state, player)
            assert view_from_dict(json.loads(json.dumps(view_to_dict(v)))) == v
        for action in legal_actions(state):
            assert parse_action(str(action)) == action


def test_R13_action_text_forms() -> None:
    assert parse_action("p1 beat 7h 9h") == Beat(1, "7h", "9h")
    assert parse_action("  P0 LEAD 10h Td ") == Lead(0, ["Th", "Td"])
    assert parse_action("p3 take") == Take(3)
    assert str(Lead(0, ["Qh#2", "Qh"])) == "p0 lead Qh Qh#2"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("p1 beat 7h", "'beat' takes 2 card(s)"),
        ("p1 lead", "one or more cards"),
        ("p1 fly 7h", "unknown verb 'fly'"),
        ("1 take", "expected e.g."),
        ("p0 lead 1h", "not a rank"),
        ("p0 take 7h", "'take' takes 0 card(s)"),
    ],
)
def test_R13_bad_action_text_is_rejected_naming_it(text: str, fragment: str) -> None:
    with pytest.raises(InvalidError) as err:
        parse_action(text)
    assert repr(text) in str(err.value)
    assert fragment in str(err.value)


POSITION = (
    "hands: 9c Tc / Jc Qs Ah; stock: Kc Ac 9d Td; trump: d; attacker: 0; "
    "discard: Qc Jd Qd Kd Ad 9h Th Jh Qh Kh 9s Ts Js Ks As"
)


def test_positions_have_a_text_form_that_round_trips() -> None:
    rules = Rules(deck_size=24)
    state = parse_position(POSITION, rules)
    assert state == new_position(
        rules,
        hands=["9c Tc", "Jc Qs Ah"],
        stock="Kc Ac 9d Td",
        attacker=0,
        discard="Qc Jd Qd Kd Ad 9h Th Jh Qh Kh 9s Ts Js Ks As",
    )
    assert parse_position(format_position(state), rules) == state


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        (POSITION.replace("attacker: 0; ", ""), "'attacker' is missing"),
        (POSITION + "; colour: red", "unknown field"),
        (POSITION.replace("Ks As", "Ks"), "missing: As"),
        (POSITION.replace("trump: d", "trump: h"), "face-up card"),
    ],
)
def test_bad_positions_are_rejected_with_the_reason(text: str, fragment: str) -> None:
    with pytest.raises(PositionError) as err:
        parse_position(text, Rules(deck_size=24))
    assert fragment in str(err.value)


def _record() -> Record:
    return _random_game(Rules(players=3), 5)[2]


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda d: d.update(version=2), "version"),
        (lambda d: d.pop("deal"), ""),
        (lambda d: d.update(deal={"dealer": 2, "deck": ["6h", "Zz"]}), "deal/deck/1"),
        (lambda d: d["actions"].__setitem__(0, "p0 dance"), "actions/0"),
        (lambda d: d["rules"].update(colour="red"), "rules"),
        (lambda d: d["rules"].update(players="3"), "rules"),
        (lambda d: d.update(extra=1), ""),
    ],
)
def test_malformed_records_are_rejected_with_where_and_why(
    change: Callable[[dict[str, Any]], object], where: str
) -> None:
    data = _record().to_dict()
    change(data)
    with pytest.raises(RecordError) as err:
        Record.from_dict(data)
    assert err.value.where == where


def test_records_that_are_not_json_are_rejected() -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        loads("{not json")


@pytest.mark.parametrize("key", ["actions", "version", "dealer"])
def test_a_record_with_a_duplicate_key_is_rejected_naming_it(key: str) -> None:
    text = dumps(_record(), indent=None)
    # the key written a second time in its object, with an empty list: last would win
    if key == "dealer":
        text = text.replace('"dealer":', '"dealer": 0, "dealer":', 1)
    else:
        text = text.replace("{", f'{{"{key}": [], ', 1)
    with pytest.raises(RecordError, match=f'duplicate key "{key}"') as err:
        loads(text)
    assert err.value.where == ""
    with pytest.raises(RecordError, match="duplicate key"):
        loads(text.encode())


def test_a_tampered_action_is_reported_with_its_index() -> None:
    record = _record()
    actions = list(record.actions)
    # swap two consecutive actions by different players: the first one is then illegal
    index = next(
        i
        for i in range(len(actions) - 1)
        if actions[i].player != actions[i + 1].player
        and type(actions[i + 1]).__name__ in ("Beat", "ThrowIn")
    )
    actions[index], actions[index + 1] = actions[index + 1], actions[index]
    tampered = Record.from_dict({**record.to_dict(), "actions": [str(a) for a in actions]})
    with pytest.raises(ReplayError) as err:
        replay(tampered)
    assert err.value.index == index
    assert err.value.rule is not None and err.value.rule.startswith("R")


def test_a_tampered_result_is_reported() -> None:
    data = _record().to_dict()
    data["result"]["durak"] = (data["result"]["durak"] + 1) % 3
    with pytest.raises(ReplayError, match="result differs"):
        replay(Record.from_dict(data))
