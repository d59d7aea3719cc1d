"""durak serve's traffic against its shipped JSON Schemas (durak.schemas: ``http``,
``ws-server``, ``ws-client``, and the ``view``, ``web-event``, ``state`` and ``event`` schemas
they refer to): the HTTP routes, whole games played over the WebSocket with every form of
client message, and whole games played through the stateless engine service
(``POST /api/engine``), with its errors. Starlette's TestClient (the ``webtest`` extra)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest
import starlette  # noqa: F401
from contracts import check
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from durak import Rules, Take, new_game
from durak.engine import check as check_action
from durak.presets import PRESETS
from durak.records import loads
from durak.serialize import state_from_dict, state_to_dict
from durak.web import create_app
from durak.web.config import CLOSE_FULL, CLOSE_ORIGIN, ServerConfig
from durak.web.engine_api import MAX_ENGINE_BODY, answer
from durak.web.protocol import action_from_message
from durak.web.tables import TableManager

Message = dict[str, Any]


@pytest.fixture
def client() -> Iterator[TestClient]:
    """A server that lets a table fix its deal, so the games below are the same every run."""
    config = ServerConfig(bot_delay=0, allow_fixed_seeds=True)
    with TestClient(create_app(tables=TableManager(config))) as c:
        yield c


# --- HTTP --------------------------------------------------------------------------------------


def test_the_http_routes_answer_as_their_schemas_say(client: TestClient) -> None:
    presets = client.get("/api/presets").json()
    check("http", presets, "presets")
    assert presets["fixed_seeds"] is True and presets["max_timer"] == 600
    assert {p["name"]: p["rules"] for p in presets["presets"]}["shchelkovsky"]["jokers"] == 2
    body = {
        "preset": "perevodnoy",
        "seats": ["human", "rule", "random"],
        "seed": 4,
        "rules": {"trump_six_exchange": True},
        "timer": 45,
    }
    check("http", body, "create-table")
    made = client.post("/api/tables", json=body)
    assert made.status_code == 201
    check("http", made.json(), "table")
    assert made.json()["fixed_seed"] == 4 and made.json()["timer"] == 45
    assert made.json()["rules"]["trump_six_exchange"] is True and made.json()["games"] == []
    info = client.get(f"/api/tables/{made.json()['id']}")
    assert info.status_code == 200 and "url" not in info.json()
    check("http", info.json(), "table")
    for lang in ("en", "de", "pl", "ru"):
        catalog = client.get(f"/api/i18n?lang={lang}")
        assert catalog.status_code == 200
        check("http", catalog.json(), "i18n")
        assert catalog.json()["lang"] == lang
    for reply, status in (
        (client.get("/api/tables/nope"), 404),
        (client.get(f"/api/tables/{made.json()['id']}/record"), 404),  # no game is over
        (client.get(f"/api/tables/{made.json()['id']}/record?game=x"), 400),
        (client.post("/api/tables", json={"preset": "nonsense", "seats": ["human"]}), 400),
        (client.post("/api/tables", json={"seats": ["human", "rule"], "colour": 1}), 400),
        (client.post("/api/tables", json={"seats": ["human", "rule"], "timer": 601}), 400),
        (client.post("/api/tables", content=b"{not json"), 400),
        (client.post("/api/tables", content=b"[" * 20_000), 413),
        (client.post("/api/replay", json={"format": "durak-record"}), 400),
    ):
        assert reply.status_code == status, reply.text
        check("http", reply.json(), "error")


def test_a_seed_where_the_server_chooses_every_deal_is_a_valid_error() -> None:
    with TestClient(create_app(ServerConfig(bot_delay=0))) as client:
        presets = client.get("/api/presets").json()
        check("http", presets, "presets")
        assert presets["fixed_seeds"] is False
        refused = client.post("/api/tables", json={"seats": ["human", "rule"], "seed": 3})
        assert refused.status_code == 400 and "fixed seed" in refused.json()["error"]
        check("http", refused.json(), "error")
        made = client.post("/api/tables", json={"seats": ["human", "rule"]})
        check("http", made.json(), "table")
        assert made.json()["fixed_seed"] is None


def test_the_limits_answers_are_valid_errors() -> None:
    config = ServerConfig(bot_delay=0, tables_per_client=1, sockets_per_table=1)
    with TestClient(create_app(config)) as client:
        made = client.post("/api/tables", json={"seats": ["human", "rule"]})
        assert made.status_code == 201
        too_many = client.post("/api/tables", json={"seats": ["human", "rule"]})
        assert too_many.status_code == 429
        check("http", too_many.json(), "error")
        table = made.json()["id"]
        with client.websocket_connect(f"/ws/{table}") as first:
            check("ws-server", first.receive_json())
            with client.websocket_connect(f"/ws/{table}") as second:
                refused = second.receive_json()
                check("ws-server", refused)
                assert refused["type"] == "error"
                with pytest.raises(WebSocketDisconnect) as closed:
                    second.receive_json()
                assert closed.value.code == CLOSE_FULL
    with TestClient(create_app(ServerConfig(bot_delay=0, max_tables=1))) as client:
        assert client.post("/api/tables", json={"seats": ["human", "rule"]}).status_code == 201
        full = client.post("/api/tables", json={"seats": ["human", "rule"]})
        assert full.status_code == 503
        check("http", full.json(), "error")
        table = client.get("/api/presets")  # the server still answers
        assert table.status_code == 200
        with client.websocket_connect(
            "/ws/nope", headers={"origin": "http://elsewhere.example"}
        ) as foreign:
            refused = foreign.receive_json()
            check("ws-server", refused)
            with pytest.raises(WebSocketDisconnect) as closed:
                foreign.receive_json()
            assert closed.value.code == CLOSE_ORIGIN


# --- the WebSocket -----------------------------------------------------------------------------


def _receive(ws: Any, log: list[Message]) -> Message:
    message: Message = ws.receive_json()
    check("ws-server", message)
    log.append(message)
    return message


def _until_version(ws: Any, version: int, log: list[Message]) -> Message:
    for _ in range(50):
        message = _receive(ws, log)
        if message["type"] == "state" and message["version"] == version:
            return message
    raise AssertionError(f"no state message of version {version}")


def _until(ws: Any, log: list[Message], wanted: Callable[[Message], bool]) -> Message:
    for _ in range(50):
        message = _receive(ws, log)
        if wanted(message):
            return message
    raise AssertionError("the awaited message did not come")


def _until_started(ws: Any, log: list[Message]) -> Message:
    for _ in range(50):
        message = _receive(ws, log)
        if message["type"] == "state" and message["started"]:
            return message
    raise AssertionError("the game did not start")


def _client_message(action: str, form: int) -> str:
    """The action as one of the client message forms, the JSON ones checked against
    ``ws-client``."""
    if form == 0:
        return action  # a plain text frame
    parsed = action_from_message(action)
    fields: Message = {"kind": parsed.kind}
    fields_of = {f.name for f in attrs.fields(type(parsed))}  # not the `cards` every kind has
    for name in ("player", "cards", "card", "attack"):
        value = getattr(parsed, name, None) if name in fields_of else None
        if value is not None:
            fields[name] = value if name == "player" else (
                [str(c) for c in value] if isinstance(value, tuple) else str(value)
            )
    message: Message = (
        {"type": "action", "action": action} if form == 1
        else {"type": "action", "action": fields} if form == 2
        else fields
    )
    check("ws-client", message)
    assert action_from_message(message) == parsed
    return json.dumps(message)


#: The R15 extensions at a table (no preset has cheating): the joker, catches, epaulettes.
_R15 = {"deck_size": 52, "jokers": 1, "cheating": True, "throw_in_by_suit": True, "pogony": True}


@pytest.mark.parametrize(
    ("preset", "rules"),
    [("podkidnoy", {}), ("perevodnoy", {}), ("pairs", {}), ("podkidnoy", _R15)],
    ids=["podkidnoy", "perevodnoy", "pairs", "r15"],
)
def test_R13_a_whole_game_over_the_websocket_is_valid_traffic(
    client: TestClient, preset: str, rules: dict[str, Any]
) -> None:
    players = PRESETS[preset].rules().players
    made = client.post("/api/tables", json={"preset": preset, "seats": ["human"] * players,
                                            "seed": 5, "rules": rules})
    assert made.status_code == 201, made.text
    table = made.json()["id"]
    rng = random.Random(preset)
    log: list[Message] = []
    sockets = [client.websocket_connect(f"/ws/{table}") for _ in range(players)]
    entered = [ws.__enter__() for ws in sockets]
    try:
        welcomes = [_receive(ws, log) for ws in entered]
        assert [w["seat"] for w in welcomes] == list(range(players))
        views = [_until_started(ws, log) for ws in entered]
        assert all(v["fixed_seed"] == 5 and v["timer"] == 0 for v in views)
        version, form, refusals = 0, 0, 0
        while views[0]["view"]["result"] is None and version < 3000:
            movers = [v for v in views if v["view"]["legal_actions"]]
            mover = rng.choice(movers)
            seat = mover["seat"]
            if version == 3:  # one refused message on the way: nothing changes
                entered[seat].send_text(f"p{seat} dance")
                assert _receive(entered[seat], log)["type"] == "error"
            if version == 4 and not refusals:  # an illegal action: the rule and its reason
                entered[seat].send_text(f"p{seat} take" if seat != mover["view"]["defender"]
                                        else f"p{seat} pass")
                refused = _receive(entered[seat], log)
                assert refused["type"] == "error" and refused["rule"].startswith("R")
                assert refused["reason"]["code"]
                refusals += 1
            action = rng.choice(mover["view"]["legal_actions"])
            entered[seat].send_text(_client_message(action, form % 4))
            form += 1
            version += 1
            views = [_until_version(ws, version, log) for ws in entered]
        assert views[0]["view"]["result"] is not None
        restart = {"type": "restart"}
        check("ws-client", restart)
        for seat in range(players):  # a vote: the next game waits for every seated person
            entered[seat].send_text(json.dumps(restart))
            if seat < players - 1:
                for ws in entered:
                    _until(ws, log, lambda m, n=seat + 1: m.get("restart_votes") == list(range(n)))
        again = _until_version(entered[0], 0, log)
        assert again["game"] == 2 and again["restart_votes"] == []
        record = client.get(f"/api/tables/{table}/record?game=1")
        assert record.status_code == 200
        check("record-v1", record.json())
        replay = client.post("/api/replay", json=record.json())
        assert replay.status_code == 200
        check("http", replay.json(), "replay")
        assert len(replay.json()["steps"]) == len(loads(record.text).actions) + 1
        assert client.get(f"/api/tables/{table}").json()["games"] == [1]
        leave = {"type": "leave"}
        check("ws-client", leave)
        entered[-1].send_text(json.dumps(leave))
        _until(entered[0], log, lambda m: m["type"] == "state"
               and m["seats"][players - 1]["taken"] is False)
    finally:
        for ws in reversed(sockets):
            ws.__exit__(None, None, None)
    kinds = {m["type"] for m in log}
    assert kinds == {"welcome", "state", "error"}
    events = {e["type"] for m in log if m["type"] == "state" for e in m["events"]}
    assert {"led", "beaten", "bout_ended", "drew", "new_bout", "game_over"} <= events
    assert all(e["message"]["code"].startswith("event.")
               for m in log if m["type"] == "state" for e in m["events"])
    if rules.get("cheating"):  # a catch was met, and said as a message
        assert any(e["type"] == "acted" and " catch " in e["action"]
                   for m in log if m["type"] == "state" for e in m["events"])
    firsts = [m for m in log if m["type"] == "state" and "history" in m]
    assert len(firsts) == players  # the first state message of each connection


def test_an_onlooker_s_traffic_is_valid(client: TestClient) -> None:
    table = client.post("/api/tables", json={"seats": ["human", "rule"], "seed": 2}).json()["id"]
    log: list[Message] = []
    with client.websocket_connect(f"/ws/{table}") as player:
        _receive(player, log)
        with client.websocket_connect(f"/ws/{table}") as onlooker:
            welcome = _receive(onlooker, log)
            assert welcome["seat"] is None and welcome["token"] is None
            seen = _until_version(onlooker, 0, log)
            assert seen["view"]["hand"] == []
            ping = {"type": "ping"}
            check("ws-client", ping)
            onlooker.send_text("p0 take")
            assert _receive(onlooker, log)["type"] == "error"


# --- the stateless engine service ---------------------------------------------------------------


def _post(client: TestClient, body: Any, status: int = 200) -> Message:
    answer = client.post("/api/engine", json=body)
    assert answer.status_code == status, answer.text
    data: Message = answer.json()
    check("http", data, "engine-answer" if status == 200 else "error")
    return data


@pytest.mark.parametrize("preset", ["podkidnoy", "perevodnoy-show-trump", "pairs-3x2"])
def test_a_whole_game_through_the_engine_service_is_valid_and_matches_the_library(
    client: TestClient, preset: str
) -> None:
    rng = random.Random(preset)
    request: Message = {"preset": preset, "seed": 8, "player": 0}
    check("http", request, "engine-request")
    data = _post(client, request)
    assert state_from_dict(data["state"]) == new_game(PRESETS[preset].rules(), seed=8)
    for step in range(3000):
        if data["result"] is not None:
            break
        action = rng.choice(data["legal_actions"])
        state = data["state"]
        if step % 2:  # the rules given beside the state
            rules = state.pop("rules")
            request = {"rules": rules, "state": state, "action": action}
        else:
            seat = step % (len(data["state"]["hands"]) + 1)
            request = {"state": state, "action": action, "player": seat - 1 if seat else None}
        check("http", request, "engine-request")
        data = _post(client, request)
        assert data["events"]
        assert set(data["acting"]) == {int(a.split()[0][1:]) for a in data["legal_actions"]}
    assert data["result"] is not None
    assert data["events"][-1]["type"] == "GameOver"


def test_the_engine_service_refuses_bad_requests_naming_the_field(client: TestClient) -> None:
    dealt = _post(client, {"seed": 1})
    state = dealt["state"]
    two = Rules(players=3).to_dict()
    cases: list[tuple[Any, int, str]] = [
        ([], 400, "the request is a JSON object"),
        ({"state": state, "colour": 1}, 400, "'colour': unknown field"),
        ({}, 400, "send a 'state', or a 'seed'"),
        ({"seed": [1]}, 400, "seed: a seed is an integer or text"),
        ({"seed": 1, "rules": {"players": 1}}, 400, "rules: players"),
        ({"seed": 1, "preset": "nonsense"}, 400, "unknown preset"),
        ({"seed": 1, "state": state}, 400, "seed: give either a state or a new deal"),
        ({"state": [1]}, 400, "state: a state is a JSON object"),
        ({"state": {**state, "hands": [["Zz"]]}}, 400, "state/hands"),
        ({"state": {**state, "bouts": "1"}}, 400, "state/bouts"),
        ({"state": state, "rules": two}, 400, "rules: differ from the rules inside the state"),
        ({"state": state, "action": "p0 dance"}, 400, "action: "),
        ({"state": state, "action": {"kind": "take"}}, 400, "'player' is missing"),
        ({"state": state, "player": 5}, 400, "player: a seat from 0 to 1"),
    ]
    for body, status, words in cases:
        data = _post(client, body, status)
        assert words in data["error"], (body, data)
    game = state_from_dict(state)
    broken = check_action(game, Take(game.attacker))
    assert broken is not None
    illegal = _post(client, {"state": state, "action": f"p{game.attacker} take"}, 422)
    assert illegal["rule"] == broken[0] == "R4.2"  # a bout begins with a lead
    assert illegal["error"] == f"p{game.attacker} take: {broken[1]} (R4.2)"
    assert _post(client, {"state": state})["state"] == state  # nothing was changed


def test_the_engine_service_refuses_a_body_too_big_or_not_json(client: TestClient) -> None:
    big = client.post("/api/engine", content=b" " * (MAX_ENGINE_BODY + 1))
    assert big.status_code == 413 and "too big" in big.json()["error"]
    check("http", big.json(), "error")
    bad = client.post("/api/engine", content=b'{"seed": ')
    assert bad.status_code == 400 and "not valid JSON" in bad.json()["error"]
    deep = client.post("/api/engine", content=b"[" * 100 + b"]" * 100)
    assert deep.status_code == 400 and "nested more than 32 levels" in deep.json()["error"]
    twice = client.post("/api/engine", content=b'{"seed": 1, "seed": 2}')
    assert twice.status_code == 400 and 'duplicate key "seed"' in twice.json()["error"]


def test_the_engine_service_answer_reads_back_to_the_library_s_state(client: TestClient) -> None:
    state = new_game(Rules(players=4), seed="abc")
    data = _post(client, {"state": state_to_dict(state), "player": None})
    assert state_from_dict(data["state"]) == state
    assert data["view"]["hand"] == [] and data["events"] == []


_JUNK: list[Any] = [None, -1, 7, "x", [], {}, [["Zz"]], [None], 10**30, True, 1.5, ["6c"]]


def test_junk_in_any_field_of_a_state_is_answered_400_never_an_exception() -> None:
    dealt = answer({"seed": 2, "rules": {"players": 3}})[1]["state"]
    for key in [*dealt, "rules/players", "rules/deck_size", "rules/teams", "rules/house_rules"]:
        for junk in _JUNK:
            state = json.loads(json.dumps(dealt))
            if key.startswith("rules/"):
                state["rules"][key.split("/")[1]] = junk
            else:
                state[key] = junk
            status, body = answer({"state": state, "action": "p0 lead 6c", "player": 1})
            assert status in (200, 400, 422), (key, junk, body)
            check("http", body, "engine-answer" if status == 200 else "error")
            if status == 400:
                assert body["error"].startswith(("state", "rules")), (key, junk, body)
