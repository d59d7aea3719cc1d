"""``durak serve`` keeps its games: tables, seats (tokens hashed), every action and finished
games as records in SQLite; a restarted server resumes each table where it was, and finished
games download as records and step through on the replay page's endpoint."""

from __future__ import annotations

import contextlib
import random
import sqlite3
from pathlib import Path
from typing import Any

import starlette  # noqa: F401
from starlette.testclient import TestClient

from durak import records, view
from durak.serialize import view_to_dict
from durak.web import create_app
from durak.web.config import ServerConfig
from durak.web.store import Store
from durak.web.tables import TableManager, replay_states

Message = dict[str, Any]


def _server(path: Path) -> TableManager:
    return TableManager(ServerConfig(bot_delay=0, allow_fixed_seeds=True), Store(path))


def _state(ws: Any, version: int = -1, limit: int = 3000) -> Message:
    for _ in range(limit):
        message: Message = ws.receive_json()
        if message["type"] == "state" and message["version"] > version:
            return message
    raise AssertionError("no state message")


def _play(
    ws: Any,
    seat: int,
    rng: random.Random,
    until: int | None = None,
    message: Message | None = None,
) -> Message:
    """Play random legal moves for ``seat`` (the others are bots) from ``message`` (the next
    state message by default) until the game is over or ``until`` actions were played; the
    last state message."""
    message = message if message is not None else _state(ws)
    for _ in range(3000):
        v = message["view"]
        if v["result"] is not None or (until is not None and message["version"] >= until):
            return message
        if v["next_actor"] == seat and v["legal_actions"]:
            ws.send_text(rng.choice(v["legal_actions"]))
        message = _state(ws, message["version"])
    raise AssertionError("the game did not end")


def test_a_restarted_server_resumes_the_table_and_the_token_returns_the_seat(
    tmp_path: Path,
) -> None:
    path = tmp_path / "tables.sqlite3"
    first = _server(path)
    with TestClient(create_app(tables=first)) as client:
        made = client.post("/api/tables", json={"seats": ["human", "rule"], "seed": 8})
        table_id = made.json()["id"]
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            welcome = ws.receive_json()
            before = _play(ws, welcome["seat"], random.Random(2), until=6)
        table = first.get(table_id)
        assert table is not None
        state, version = table.state, table.version
    first.store.close()

    second = _server(path)
    resumed = second.get(table_id)
    assert resumed is not None
    assert resumed.state == state and resumed.version == version >= 6
    assert resumed.started and resumed.fixed_seed == 8
    with TestClient(create_app(tables=second)) as client:
        with client.websocket_connect(f"/ws/{table_id}?token={welcome['token']}") as ws:
            back = ws.receive_json()
            assert back["seat"] == welcome["seat"] and back["token"] == welcome["token"]
            again = _state(ws)
            # What it sees is its view of the resumed game (a bot may have moved since).
            states = replay_states(resumed.initial, resumed.actions)
            assert again["version"] >= version >= before["version"]
            assert again["view"] == view_to_dict(view(states[again["version"]], back["seat"]))
            assert len(again["history"]) >= 6
            end = _play(ws, welcome["seat"], random.Random(3), message=again)
        assert end["view"]["result"] is not None
        # The finished game downloads as a record that replays to the same end.
        answer = client.get(f"/api/tables/{table_id}/record")
        assert answer.status_code == 200
        assert "attachment" in answer.headers["content-disposition"]
        record = records.loads(answer.text)
        assert records.replay(record) == resumed.state
        assert record.meta["table"] == table_id and len(record.actions) == resumed.version
        assert client.get(f"/api/tables/{table_id}").json()["games"] == [1]
    second.store.close()

    # A server restarted after the end shows the game over (not its deal again) ...
    third = _server(path)
    over = third.get(table_id)
    assert over is not None and over.state == resumed.state and over.state.result is not None
    with TestClient(create_app(tables=third)) as client:
        with client.websocket_connect(f"/ws/{table_id}?token={welcome['token']}") as ws:
            ws.receive_json()
            ws.send_text('{"type": "restart"}')
            fresh = _state(ws)
            for _ in range(50):
                if fresh["game"] == 2:
                    break
                fresh = _state(ws)
            assert fresh["game"] == 2 and fresh["version"] == 0
        assert third.store.actions(table_id, 1) == []  # ... until the next game is dealt
        assert third.store.record(table_id, 1) is not None


def test_tokens_are_stored_hashed(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    manager = _server(path)
    with TestClient(create_app(tables=manager)) as client:
        table_id = client.post("/api/tables", json={"seats": ["human", "human"]}).json()["id"]
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            token = ws.receive_json()["token"]
    manager.store.close()
    with contextlib.closing(sqlite3.connect(path)) as db:  # closing: sqlite3's own only commits
        rows = db.execute("SELECT token_hash FROM seats").fetchall()
        dump = "\n".join(db.iterdump())
    assert token not in dump and token not in path.read_bytes().decode("latin-1")
    assert any(row[0] is not None and len(row[0]) == 64 for row in rows)


def test_no_record_of_a_game_in_play_and_records_outlive_the_table(tmp_path: Path) -> None:
    manager = _server(tmp_path / "tables.sqlite3")
    with TestClient(create_app(tables=manager)) as client:
        table_id = client.post("/api/tables", json={"seats": ["human", "random"]}).json()["id"]
        assert client.get(f"/api/tables/{table_id}/record").status_code == 404
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            _play(ws, ws.receive_json()["seat"], random.Random(4))
        assert client.get(f"/api/tables/{table_id}/record?game=1").status_code == 200
        assert client.get(f"/api/tables/{table_id}/record?game=2").status_code == 404
        assert client.get(f"/api/tables/{table_id}/record?game=x").status_code == 400
        gone = manager.expire(float("inf"))
        assert gone == [table_id] and manager.get(table_id) is None
        assert client.get(f"/api/tables/{table_id}/record").status_code == 200
    assert _server(tmp_path / "tables.sqlite3").get(table_id) is None  # not resumed


def test_the_replay_endpoint_steps_through_a_record(tmp_path: Path) -> None:
    manager = _server(tmp_path / "tables.sqlite3")
    with TestClient(create_app(tables=manager)) as client:
        table_id = client.post("/api/tables", json={"seats": ["human", "rule"], "seed": 1}).json()[
            "id"
        ]
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            _play(ws, ws.receive_json()["seat"], random.Random(5))
        text = client.get(f"/api/tables/{table_id}/record").text
        answer = client.post("/api/replay", content=text)
        assert answer.status_code == 200, answer.text
        steps = answer.json()["steps"]
        record = records.loads(text)
        assert len(steps) == len(record.actions) + 1
        assert steps[0]["action"] is None and steps[1]["action"] == str(record.actions[0])
        assert sum(len(h) for h in steps[0]["hands"]) == 12
        assert steps[-1]["view"]["result"] is not None and steps[1]["events"]
        bad = client.post("/api/replay", json={"format": "nope"})
        assert bad.status_code == 400 and "not a game record" in bad.json()["error"]


def test_a_stored_table_that_no_longer_replays_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    manager = _server(path)
    table = manager.create("podkidnoy", ["human", "human"])
    manager.store.add_action(table.id, 1, 0, "p7 take")
    manager.store.close()
    assert _server(path).get(table.id) is None
