"""The shipped JSON Schemas (durak.schemas) against real data: whole games of every preset
(rules, every state, every seat's view, every event, every action), every golden record, and
malformed records, which the library's own reader refuses wherever the schema does (R13.4).
jsonschema, a real 2020-12 validator, does the checking; the library never imports it."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import attrs
import jsonschema
import pytest
from contracts import check, is_valid
from schema_build import build

from durak import Rules, apply_with_events, legal_actions, new_game, view
from durak.actions import ACTION_KINDS
from durak.cards import Card
from durak.events import events_for
from durak.presets import PRESETS, dumps_rules, loads_rules
from durak.records import Record, RecordError, loads
from durak.rules.settings import SETTINGS
from durak.schemas import NAMES, schema, schema_text
from durak.serialize import event_to_dict, state_to_dict, view_to_dict

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def test_the_shipped_schemas_are_the_built_ones() -> None:
    built = build()
    assert sorted(built) == sorted(f"{name}.schema.json" for name in NAMES)
    for name in NAMES:
        assert schema_text(name) == built[f"{name}.schema.json"], (
            f"{name}.schema.json is stale: run python tests/schema_build.py"
        )


@pytest.mark.parametrize("name", NAMES)
def test_every_schema_is_a_valid_2020_12_schema_with_its_urn(name: str) -> None:
    document = schema(name)
    jsonschema.Draft202012Validator.check_schema(document)
    assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert document["$id"] == f"urn:durak:schema:{name}"


def test_unknown_schema_names_are_refused_with_the_known_ones() -> None:
    with pytest.raises(KeyError, match="known: card, result"):
        schema("ruels")


def test_the_rules_schema_names_every_setting() -> None:
    assert list(schema("rules")["properties"]) == list(SETTINGS)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_R14_every_preset_s_rules_and_rules_file_are_valid(preset: str) -> None:
    rules = PRESETS[preset].rules()
    check("rules", rules.to_dict())
    check("rules", json.loads(dumps_rules(rules, "json")))
    assert loads_rules(dumps_rules(rules, "json"), "json") == rules


@pytest.mark.parametrize(
    "settings",
    [
        {"players": 1},
        {"deck_size": 40},
        {"lead": "double"},
        {"strict_suits": ["x"]},
        {"first_bout_max": 0},
        {"colour": "red"},
        {"throw_after_take": "yes"},
        {"jokers": 3},
        {"cheating": "yes"},
    ],
)
def test_rules_the_library_refuses_are_refused_by_the_schema(settings: dict[str, Any]) -> None:
    assert not is_valid("rules", {**Rules().to_dict(), **settings})
    with pytest.raises(ValueError, match=next(iter(settings))):
        Rules.from_dict(settings)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_R13_4_every_golden_record_is_valid(path: Path) -> None:
    data = json.loads(path.read_text("utf-8"))
    check("record-v1", data)
    check("record-v1", loads(path.read_text("utf-8")).to_dict())


@cache
def _game(preset: str, seed: int) -> list[dict[str, Any]]:
    """Play a random game of ``preset``, checking every JSON form on the way; the actions'
    and events' kinds met are returned for the coverage test."""
    return _play(PRESETS[preset].rules(), seed)


def _play(rules: Rules, seed: int) -> list[dict[str, Any]]:
    state = new_game(rules, seed=seed)
    rng = random.Random(seed)
    seen: list[dict[str, Any]] = []
    record = Record.start(rules, seed=seed)
    step = 0
    while True:
        if step % 5 == 0 or state.is_over:
            check("state", state_to_dict(state))
            for seat in [None, *range(rules.players)]:
                check("view", view_to_dict(view(state, seat)))
        if state.is_over:
            break
        action = rng.choice(legal_actions(state))
        check("action", str(action))
        as_object = {"kind": action.kind, **_fields(action)}
        check("action", as_object)
        state, events = apply_with_events(state, action)
        record = record.add(action)
        for event in events:
            check("event", event_to_dict(event))
            for seat in range(rules.players):
                for mine in events_for([event], seat):
                    check("event", event_to_dict(mine))
        seen += [{"action": action.kind}, *({"event": type(e).__name__} for e in events)]
        step += 1
    check("record-v1", record.finish(state).to_dict())
    check("result", state_to_dict(state)["result"])
    return seen


def _fields(action: Any) -> dict[str, Any]:
    """An action's fields as the object form writes them: cards as text, seats as numbers."""
    out: dict[str, Any] = {}
    for field in attrs.fields(type(action)):
        value = getattr(action, field.name)
        if isinstance(value, tuple):
            out[field.name] = [str(c) for c in value]
        elif isinstance(value, Card):
            out[field.name] = str(value)
        else:
            out[field.name] = value
    return out


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_R13_4_whole_games_of_every_preset_are_valid_in_every_form(preset: str) -> None:
    seen = _game(preset, 11)
    assert {"event": "GameOver"} in seen


def test_the_games_above_meet_most_action_and_event_kinds() -> None:
    seen: list[dict[str, Any]] = []
    for preset in sorted(PRESETS):
        seen += _game(preset, 11)
    actions = {s["action"] for s in seen if "action" in s}
    events = {s["event"] for s in seen if "event" in s}
    assert {"lead", "throw", "beat", "take", "pass", "transfer"} <= actions <= set(ACTION_KINDS)
    assert {"Led", "Beaten", "BoutEnded", "Drew", "NewBout", "GameOver", "PlayerOut"} <= events


#: The R15 settings no preset switches on: cheating (the ``catch`` action), throw-ins by suit
#: and epaulettes, with jokers.
_R15 = Rules(
    players=3, deck_size=52, jokers=1, cheating=True, throw_in_by_suit=True, pogony=True
)


def test_R15_whole_games_with_every_extension_are_valid_and_meet_the_catch() -> None:
    check("rules", _R15.to_dict())
    seen = _play(_R15, 3)
    assert {"action": "catch"} in seen
    assert {"event": "GameOver"} in seen


_MUTATIONS: list[tuple[str, Callable[[dict[str, Any]], object]]] = [
    ("format", lambda d: d.update(format="durak-game")),
    ("version", lambda d: d.update(version=2)),
    ("version as text", lambda d: d.update(version="1")),
    ("no deal", lambda d: d.pop("deal")),
    ("no actions", lambda d: d.pop("actions")),
    ("unknown field", lambda d: d.update(colour="red")),
    ("seed and deck", lambda d: d["deal"].update(deck=["6h"])),
    ("neither seed nor deck", lambda d: d["deal"].pop("seed")),
    ("no dealer", lambda d: d["deal"].pop("dealer")),
    ("negative dealer", lambda d: d["deal"].update(dealer=-1)),
    ("dealer as text", lambda d: d["deal"].update(dealer="0")),
    ("boolean seed", lambda d: d["deal"].update(seed=True)),
    ("list seed", lambda d: d["deal"].update(seed=[1])),
    ("unknown deal field", lambda d: d["deal"].update(cut=3)),
    ("attacker as text", lambda d: d["deal"].update(attacker="1")),
    ("bad action text", lambda d: d["actions"].__setitem__(0, "P0 LEAD 7h")),
    ("action not text", lambda d: d["actions"].__setitem__(0, 7)),
    ("actions not a list", lambda d: d.update(actions="p0 take")),
    ("result not an object", lambda d: d.update(result=[])),
    ("result without draw", lambda d: d["result"].pop("draw")),
    ("result with a stray field", lambda d: d["result"].update(score=3)),
    ("result with a text place", lambda d: d["result"].update(places=["1"])),
    ("players not text", lambda d: d.update(players=[1, 2])),
    ("meta not an object", lambda d: d.update(meta=[])),
    ("rules not an object", lambda d: d.update(rules=[])),
    ("unknown setting", lambda d: d["rules"].update(colour="red")),
]


@pytest.mark.parametrize(("what", "change"), _MUTATIONS, ids=[m[0] for m in _MUTATIONS])
def test_R13_4_a_record_the_schema_refuses_the_library_refuses(
    what: str, change: Callable[[dict[str, Any]], object]
) -> None:
    data = json.loads(GOLDEN[0].read_text("utf-8"))
    assert is_valid("record-v1", data)
    change(data)
    assert not is_valid("record-v1", data), what
    with pytest.raises(RecordError):
        Record.from_dict(data)
