"""The web front-end's server (durak.web): tables, the WebSocket protocol, and what each seat
is told (R13: a seat learns only its own view and events).

Runs with Starlette's TestClient (the ``webtest`` extra); skipped where the ``web`` extra is
not installed, except under CI (``CI`` set): ``.ci/run`` installs it, so there a missing library
fails the run instead of skipping it.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
import starlette  # noqa: F401
import uvicorn  # noqa: F401
from starlette.testclient import TestClient
from web_helpers import next_error, next_state, until

from durak import Rules, apply_with_events, legal_actions, new_game, view
from durak.cards import Card, build_deck
from durak.events import events_for
from durak.presets import PRESETS
from durak.serialize import view_to_dict
from durak.state import GameState
from durak.web import create_app
from durak.web.config import ServerConfig
from durak.web.protocol import (
    acting_seats,
    action_from_message,
    event_to_dict,
    events_to_dicts,
    seat_names,
)
from durak.web.tables import Table, TableManager

Message = dict[str, Any]


@pytest.fixture
def tables() -> TableManager:
    # Fixed seeds make the tests' deals known; bots act at once.
    return TableManager(ServerConfig(bot_delay=0, allow_fixed_seeds=True))


@pytest.fixture
def client(tables: TableManager) -> Iterator[TestClient]:
    with TestClient(create_app(tables=tables)) as c:
        yield c


def _create(client: TestClient, seats: list[str], preset: str = "podkidnoy", seed: int = 1) -> str:
    answer = client.post("/api/tables", json={"preset": preset, "seats": seats, "seed": seed})
    assert answer.status_code == 201, answer.text
    table_id: str = answer.json()["id"]
    return table_id


_until = until
_state = next_state
_error = next_error


# --------------------------------------------------------------------------------------------
# HTTP
# --------------------------------------------------------------------------------------------


def test_pages_and_static_files(client: TestClient) -> None:
    home = client.get("/")
    assert home.status_code == 200 and "<title>Durak</title>" in home.text
    for path in ("/static/app.js", "/static/style.css"):
        assert client.get(path).status_code == 200
    assert client.get("/table/no-such-table").status_code == 404


def test_presets_lists_every_preset_with_its_player_counts(client: TestClient) -> None:
    data = client.get("/api/presets").json()
    by_name = {p["name"]: p for p in data["presets"]}
    assert list(by_name) == list(PRESETS)
    assert by_name["podkidnoy"]["players"] == [2, 3, 4, 5, 6]
    assert by_name["pairs"]["players"] == [4]
    assert by_name["pairs-3x2"]["default_players"] == 6
    levels = ["easy", "normal", "hard", "best"]
    assert data["seat_kinds"] == ["human", *levels, "random", "rule", "search"]
    assert [level["name"] for level in data["levels"]] == levels


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"preset": "nonsense", "seats": ["human", "rule"]}, "unknown preset"),
        ({"preset": "podkidnoy", "seats": ["human", "robot"]}, "unknown seat kind"),
        ({"preset": "podkidnoy", "seats": ["rule", "rule"]}, "must be a person"),
        ({"preset": "pairs", "seats": ["human", "rule"]}, "cannot be played by 2 players"),
        ({"preset": "podkidnoy", "seats": ["human"] * 7}, "cannot be played by 7 players"),
        ({"preset": "podkidnoy", "seats": "human"}, "one seat kind per player"),
    ],
)
def test_bad_table_settings_are_refused(client: TestClient, body: Message, words: str) -> None:
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 400
    assert words in answer.json()["error"]


def test_table_info_shows_no_cards(client: TestClient) -> None:
    table_id = _create(client, ["human", "rule"])
    info = client.get(f"/api/tables/{table_id}").json()
    assert info["preset"] == "podkidnoy" and info["started"] is False
    assert [s["kind"] for s in info["seats"]] == ["human", "rule"]
    assert client.get("/api/tables/nope").status_code == 404


def test_unknown_table_socket_gets_an_error(client: TestClient) -> None:
    with client.websocket_connect("/ws/nope") as ws:
        assert ws.receive_json() == {
            "type": "error",
            "message": "There is no such table.",
            "code": "server.no-table",
            "params": {},
            "localized": "There is no such table.",
        }


# --------------------------------------------------------------------------------------------
# Seats
# --------------------------------------------------------------------------------------------


def test_a_token_brings_a_person_back_to_the_same_seat(
    client: TestClient, tables: TableManager
) -> None:
    table_id = _create(client, ["human", "human"])
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        welcome = ws.receive_json()
        assert welcome["type"] == "welcome" and welcome["seat"] == 0
        first = _state(ws)
        assert first["started"] is False and first["seat"] == 0
    token = welcome["token"]
    with client.websocket_connect(f"/ws/{table_id}") as other:
        assert other.receive_json()["seat"] == 1
        with client.websocket_connect(f"/ws/{table_id}?token={token}") as again:
            back = again.receive_json()
            assert back["seat"] == 0 and back["token"] == token
            state = _state(again)
            assert state["started"] is True
            assert state["view"]["hand"] == [str(c) for c in tables.get(table_id).state.hands[0]]  # type: ignore[union-attr]
            with client.websocket_connect(f"/ws/{table_id}?token=wrong") as onlooker:
                seen = onlooker.receive_json()
                assert seen["seat"] is None and seen["token"] is None
                watched = _state(onlooker)
                assert watched["view"]["hand"] == [] and watched["view"]["legal_actions"] == []
                onlooker.send_text("p0 take")
                assert "onlookers cannot act" in _error(onlooker)["message"]


def test_no_action_before_every_seat_is_taken(client: TestClient, tables: TableManager) -> None:
    table_id = _create(client, ["human", "human"])
    table = tables.get(table_id)
    assert table is not None
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        seat = ws.receive_json()["seat"]
        action = str(legal_actions(table.state, table.state.attacker)[0])
        ws.send_text(action.replace(f"p{table.state.attacker}", f"p{seat}"))
        assert "every seat is taken" in _error(ws)["message"]
    assert table.version == 0


# --------------------------------------------------------------------------------------------
# Refused actions change nothing
# --------------------------------------------------------------------------------------------


def _two_people(client: TestClient, tables: TableManager) -> tuple[Table, Any, Any]:
    table_id = _create(client, ["human", "human"], seed=7)
    table = tables.get(table_id)
    assert table is not None
    return (
        table,
        client.websocket_connect(f"/ws/{table_id}"),
        client.websocket_connect(f"/ws/{table_id}"),
    )


def test_an_illegal_action_is_refused_and_the_state_is_unchanged(
    client: TestClient, tables: TableManager
) -> None:
    table, first, second = _two_people(client, tables)
    with first as ws0, second as ws1:
        ws0.receive_json(), ws1.receive_json()
        _until(ws0, lambda m: m["type"] == "state" and m["started"])
        seat = table.state.attacker
        ws = ws0 if seat == 0 else ws1
        before = table.state
        hand = set(before.hands[seat])
        foreign = next(c for c in build_deck(36) if c not in hand)
        ws.send_text(f"p{seat} lead {foreign}")  # a card he does not hold
        error = _error(ws)
        message = error["message"]
        assert message.startswith(f"Illegal action p{seat} lead {foreign}")
        assert "(R" in message  # the rule it breaks
        # the reason as data too, for the page to say in its language (R13.1: not his card)
        assert (error["rule"], error["reason"]) == (
            "R13.1",
            {"code": "illegal.not-in-hand", "params": {"card": str(foreign), "player": seat}},
        )
        ws.send_text(f"p{seat} take")  # the attacker cannot take
        assert "Illegal action" in _error(ws)["message"]
        ws.send_text("beat the queen")  # not the notation
        assert _error(ws)["message"].startswith("Not understood")
        ws.send_bytes(b"p9 pass")  # a binary frame is read as text
        assert "cannot act for P9" in _error(ws)["message"]
        ws.send_text('{"kind": "fly", "player": 0}')
        assert "'kind' must be one of" in _error(ws)["message"]
        ws.send_text('{"type": "action", "action": {"kind": "take"}}')
        assert "'player' is missing" in _error(ws)["message"]
        ws.send_text('{"type": "restart"}')
        assert "still being played" in _error(ws)["message"]
        assert table.state is before and table.version == 0


def test_a_seat_cannot_act_for_another_seat(client: TestClient, tables: TableManager) -> None:
    table, first, second = _two_people(client, tables)
    with first as ws0, second as ws1:
        ws0.receive_json(), ws1.receive_json()
        _until(ws1, lambda m: m["type"] == "state" and m["started"])
        attacker = table.state.attacker
        other_ws = ws1 if attacker == 0 else ws0
        before = table.state
        lead = legal_actions(before, attacker)[0]  # legal for the attacker ...
        other_ws.send_text(str(lead))  # ... but sent from the other seat
        message = _error(other_ws)["message"]
        assert f"cannot act for P{attacker}" in message
        other_ws.send_text(json.dumps({"type": "action", "action": str(lead)}))
        assert f"cannot act for P{attacker}" in _error(other_ws)["message"]
        assert table.state is before and table.version == 0


def test_actions_as_text_and_as_json_objects_are_applied(
    client: TestClient, tables: TableManager
) -> None:
    table, first, second = _two_people(client, tables)
    with first as ws0, second as ws1:
        ws0.receive_json(), ws1.receive_json()
        _until(ws0, lambda m: m["type"] == "state" and m["started"])
        a = table.state.attacker
        ws = ws0 if a == 0 else ws1
        card = str(table.state.hands[a][0])
        ws.send_text(json.dumps({"kind": "lead", "player": a, "cards": [card]}))
        led = _until(ws, lambda m: m["type"] == "state" and m["version"] == 1)
        assert led["view"]["table"] == [[card, None]]
        assert led["events"][0]["type"] == "led" and led["events"][0]["text"].startswith("You led")
        d = table.state.defender
        ws_d = ws0 if d == 0 else ws1
        ws_d.send_text(f"P{d} TAKE")  # the notation is case-insensitive
        took = _until(ws_d, lambda m: m["type"] == "state" and m["version"] == 2)
        assert took["events"][0]["text"] == "You will take"
        assert table.version == 2


def _throw_in_table() -> tuple[Table, list[str]]:
    """Three people; P0 led 7h against P1, and both P0 and P2 could throw in a seven, but the
    first bout's limit (first_bout_max = 2) leaves room for one card only (R4.6)."""
    hands = [
        ["6s", "7h", "7c", "8h", "9h", "Th"],
        ["Jd", "Qd", "Kd", "Ad", "6d", "8d"],
        ["7d", "9d", "Td", "6h", "Jh", "Qh"],
    ]
    order = [hands[i % 3][i // 3] for i in range(18)] + ["As"]
    deck = order + [str(c) for c in build_deck(36) if str(c) not in order]
    rules = Rules(players=3, throw_order="free", first_bout_max=2)
    table = Table("throw", "custom", rules, ["human", "human", "human"], bot_delay=0)
    table.state = table.initial = new_game(rules, deck=deck)
    tokens = []
    for seat in table.seats:
        index, token = table.claim(None)
        assert index == seat.index and token is not None and seat.token_hash is not None
        tokens.append(token)
    return table, tokens


def test_simultaneous_throw_ins_are_serialized_and_each_checked() -> None:
    async def scenario() -> list[str | None]:
        table, _ = _throw_in_table()
        assert await table.submit(0, "p0 lead 7h") is None
        answers = await asyncio.gather(
            table.submit(0, "p0 throw 7c"), table.submit(2, "p2 throw 7d")
        )
        assert table.version == 2 and len(table.state.table) == 2
        return answers

    first, second = asyncio.run(scenario())
    assert first is None  # the first to arrive is applied ...
    assert second is not None and "R4.6" in second  # ... the second is checked after it


def test_simultaneous_throw_ins_over_sockets(client: TestClient, tables: TableManager) -> None:
    table, tokens = _throw_in_table()
    tables.tables[table.id] = table
    urls = [f"/ws/{table.id}?token={t}" for t in tokens]
    with (
        client.websocket_connect(urls[0]) as ws0,
        client.websocket_connect(urls[1]) as ws1,
        client.websocket_connect(urls[2]) as ws2,
    ):
        for ws in (ws0, ws1, ws2):
            assert ws.receive_json()["type"] == "welcome"
        ws0.send_text("p0 lead 7h")
        _until(ws2, lambda m: m["type"] == "state" and m["version"] == 1)
        ws0.send_text("p0 throw 7c")
        ws2.send_text("p2 throw 7d")
        last = _until(ws1, lambda m: m["type"] == "state" and m["version"] == 2)
        assert len(last["view"]["table"]) == 2
        refused = _error(ws2)  # P2's card came second: the limit is reached
        assert "R4.6" in refused["message"]
    assert table.version == 2


def test_restart_deals_a_new_game_after_the_end(client: TestClient, tables: TableManager) -> None:
    table_id = _create(client, ["human", "random"], seed=3)
    table = tables.get(table_id)
    assert table is not None
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        seat = ws.receive_json()["seat"]
        rng = random.Random(0)
        message = _state(ws)
        while message["view"]["result"] is None:
            legal = message["view"]["legal_actions"]
            if message["view"]["next_actor"] == seat and legal:
                ws.send_text(rng.choice(legal))
            message = _state(ws)
        assert message["result_text"] and message["acting"] == []
        ws.send_text('{"type": "restart"}')
        fresh = _until(ws, lambda m: m["type"] == "state" and m["game"] == 2)
        assert fresh["version"] == 0 and fresh["view"]["result"] is None
    assert table.game == 2


# --------------------------------------------------------------------------------------------
# No leaks: every message to a seat, over a whole game
# --------------------------------------------------------------------------------------------

_CANON = re.compile(r"(?<![0-9A-Za-z])([2-9TJQKA][cdhs](?:#\d+)?)(?![0-9A-Za-z])")
_PRETTY = re.compile(r"(10|[2-9JQKA])([♣♦♥♠])(#\d+)?")


def _cards_in(message: Message) -> set[Card]:
    """Every card named anywhere in a message, in text form (``Qh``) or with a suit symbol
    (``Q♥``); the table id and the token are left out (random text)."""
    text = json.dumps(
        {k: v for k, v in message.items() if k not in ("table", "token")}, ensure_ascii=False
    )
    found = {Card.parse(m.group(1)) for m in _CANON.finditer(text)}
    found |= {
        Card.parse(m.group(1) + m.group(2) + (m.group(3) or "")) for m in _PRETTY.finditer(text)
    }
    return found


def _replay(
    initial: GameState, actions: list[Any]
) -> tuple[list[GameState], list[tuple[Any, ...]]]:
    states, events = [initial], [()]
    for action in actions:
        state, happened = apply_with_events(states[-1], action)
        states.append(state)
        events.append(happened)
    return states, events


@pytest.mark.parametrize(
    ("preset", "seats"),
    [
        ("podkidnoy", ["human", "rule", "search"]),
        ("perevodnoy-show-trump", ["random", "human", "rule", "random"]),
    ],
)
def test_no_message_names_a_card_the_seat_may_not_know(
    client: TestClient, tables: TableManager, preset: str, seats: list[str]
) -> None:
    table_id = _create(client, seats, preset=preset, seed=11)
    table = tables.get(table_id)
    assert table is not None
    me = seats.index("human")
    received: list[Message] = []
    rng = random.Random(5)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        while True:
            message: Message = ws.receive_json()
            received.append(message)
            if message["type"] != "state":
                continue
            v = message["view"]
            if v["result"] is not None:
                break
            if v["next_actor"] == me and v["legal_actions"]:
                ws.send_text(rng.choice(v["legal_actions"]))
    assert table.state.result is not None
    states, events = _replay(table.initial, table.actions)
    assert states[-1] == table.state
    names = seat_names([s.label for s in table.seats], me)
    held: set[Card] = set()  # every card the seat has held so far (dealt or drawn)
    versions = [m["version"] for m in received if m["type"] == "state"]
    assert versions == sorted(versions)
    for message in received:
        if message["type"] != "state":
            assert message["type"] == "welcome"
            continue
        state = states[message["version"]]
        held.update(state.hands[me])
        # The server sends exactly the seat's view and its part of the events ...
        assert message["view"] == view_to_dict(view(state, me))
        if message["events"]:
            mine = events_for(events[message["version"]], me)
            assert message["events"] == events_to_dicts(mine, me, names)
        assert message["acting"] == (acting_seats(view(state, me)) if message["started"] else [])
        # ... and no card it may not know: every card named is in its hand (or was), on the
        # table, in the discard pile, the face-up trump card, or publicly known.
        allowed = set(held) | set(state.discard)
        allowed.update(c for pair in state.table for c in pair if c is not None)
        for known in view(state, me).known:
            allowed.update(known)
        if state.trump_card is not None:
            allowed.add(state.trump_card)
        leaked = _cards_in(message) - allowed
        assert not leaked, f"version {message['version']} names {sorted(map(str, leaked))}"
        assert "stock" not in message["view"] and "hands" not in message["view"]
    assert len(received) > 20


# --------------------------------------------------------------------------------------------
# The protocol's pieces
# --------------------------------------------------------------------------------------------


def test_action_messages_in_every_form() -> None:
    beat = "p1 beat 7h 9h"
    forms = [
        beat,
        "  P1 BEAT 7h 9h ",
        json.dumps({"type": "action", "action": beat}),
        json.dumps({"kind": "beat", "player": 1, "attack": "7h", "card": "9h"}),
        json.dumps({"type": "action", "kind": "beat", "player": 1, "attack": "7h", "card": "9h"}),
        {"type": "action", "action": {"kind": "beat", "player": 1, "attack": "7h", "card": "9h"}},
    ]
    for form in forms:
        assert str(action_from_message(form)) == beat
    lead = {"kind": "lead", "player": 0, "cards": ["7d", "7h"]}
    assert str(action_from_message(lead)) == "p0 lead 7d 7h"


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ("{nope", "not valid JSON"),
        ("p1 fly 7h", "unknown verb"),
        ('{"kind": "beat", "player": 1, "attack": "7h"}', "'card' is missing"),
        ('{"kind": "beat", "player": "1", "attack": "7h", "card": "9h"}', "seat number"),
        ('{"kind": "beat", "player": 1, "attack": "7x", "card": "9h"}', "not a card"),
        ('{"kind": "take", "player": 1, "extra": 1}', "unknown field 'extra'"),
        ('{"action": 5}', "expected text or an object"),
        ("[1, 2]", "not an action"),
        ('{"kind": "take", "player": 1, "player": 2}', 'duplicate key "player"'),
        ('{"type": "action", "action": {"kind": "take", "kind": "pass"}}', 'duplicate key "kind"'),
    ],
)
def test_malformed_action_messages_say_why(message: str, words: str) -> None:
    from durak.errors import InvalidError

    with pytest.raises(InvalidError, match=re.escape(words)):
        action_from_message(message if not message.startswith("[") else json.loads(message))


def test_events_are_encoded_with_card_text_and_hide_others_draws() -> None:
    from durak.events import Drew

    drew = Drew(1, 2, (Card.parse("Qh"), Card.parse("Td")), None)
    names = seat_names(["P0", "P1"], 0)
    hidden = events_for([drew], 0)[0]
    assert event_to_dict(hidden, 0, names) == {
        "type": "drew",
        "player": 1,
        "count": 2,
        "cards": None,
        "face_up": None,
        "text": "P1 drew 2 cards",
        "message": {"code": "event.drew", "params": {"player": 1, "n": 2}},  # to say it anew
    }
    own = event_to_dict(drew, 1, seat_names(["P0", "P1"], 1))
    assert own["cards"] == ["Qh", "Td"] and own["text"] == "You drew 2 cards: Q♥ 10♦"


def test_acting_seats_follow_the_public_facts() -> None:
    rules = Rules(players=3)
    state = new_game(rules, seed=4)
    v = view(state, 0)
    assert acting_seats(v) == [state.attacker]
    led, _ = apply_with_events(state, legal_actions(state, state.attacker)[0])
    seats = acting_seats(view(led, 0))
    assert seats[0] == led.defender
    assert acting_seats(view(led, 0)) == acting_seats(view(led, 1)) == acting_seats(view(led, None))


def test_serve_reports_a_missing_web_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    from durak.cli import main

    monkeypatch.setitem(sys.modules, "durak.web", None)  # as if starlette were not installed
    assert main(["serve", "--port", "8123"]) == 2
    err = capsys.readouterr().err
    assert "needs the 'web' extra" in err and "pip install 'durak-engine[web]'" in err
