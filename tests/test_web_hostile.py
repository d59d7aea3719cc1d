"""``durak serve`` against hostile clients: each finding of the server's review reproduced and
shown fixed (memory, eviction, chosen deals, oversized input, bots on the loop, origins and
headers, seats, restarts, table settings).

Everything runs on loopback (Starlette's TestClient in process, or uvicorn on 127.0.0.1 with a
free port) with loops bounded by a count. No test measures speed.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
import starlette  # noqa: F401
import websockets.sync.client as ws_client
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from web_helpers import SlowBot, WhereBot, next_state, serving, until

from durak import legal_actions, new_game, view
from durak.engine import is_legal
from durak.rules import Rules
from durak.web import create_app
from durak.web.app import HEADERS
from durak.web.config import CLOSE_FULL, CLOSE_ORIGIN, ServerConfig
from durak.web.tables import MAX_SEED_CHARS, Table, TableManager
from durak.web.thinking import NICENESS, BotPool

Message = dict[str, Any]


def _manager(**limits: Any) -> TableManager:
    return TableManager(ServerConfig(**{"bot_delay": 0, **limits}))


@pytest.fixture
def tables() -> TableManager:
    return _manager(allow_fixed_seeds=True)


@pytest.fixture
def client(tables: TableManager) -> Iterator[TestClient]:
    with TestClient(create_app(tables=tables)) as c:
        yield c


def _create(client: TestClient, **body: Any) -> Any:
    body.setdefault("seats", ["human", "human"])
    return client.post("/api/tables", json=body)


_until = until
_state = next_state


def _started(ws: Any) -> Message:
    return _until(ws, lambda m: m["type"] == "state" and m["started"])


def _play_to_the_end(sockets: dict[int, Any], rng: random.Random) -> Message:
    """Play random legal moves for the two people in ``sockets`` (seat: socket, each not yet
    past its first message of the started game) until the game is over; the last state message
    of the first seat."""
    first = next(iter(sockets.values()))
    last = {seat: _started(ws) for seat, ws in sockets.items()}
    for _ in range(2000):
        message = last[next(iter(sockets))]
        if message["view"]["result"] is not None:
            return message
        actor = message["view"]["next_actor"]
        if actor in sockets and last[actor]["view"]["legal_actions"]:
            sockets[actor].send_text(rng.choice(last[actor]["view"]["legal_actions"]))
            version = last[actor]["version"]
            for seat, ws in sockets.items():
                last[seat] = _until(
                    ws, lambda m, v=version: m["type"] == "state" and m["version"] > v, 200
                )
        else:
            raise AssertionError(f"seat {actor} cannot act: {message}")
    raise AssertionError(f"the game did not end: {first}")


# --------------------------------------------------------------------------------------------
# 1. Clients that stop reading, too many sockets
# --------------------------------------------------------------------------------------------


@pytest.fixture
def live_server() -> Iterator[tuple[str, TableManager]]:
    """uvicorn on a free loopback port, with a small outbox."""
    tables = _manager(outbox=8, sockets_per_client=400, sockets_per_table=400)
    with serving(create_app(tables=tables)) as port:
        yield f"127.0.0.1:{port}", tables


def _silent_socket(address: str, path: str) -> socket.socket:
    """A WebSocket handshake on a raw socket with a tiny receive buffer, then nothing is ever
    read again: a client that stopped reading."""
    host, port = address.split(":")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    sock.settimeout(10)
    sock.connect((host, int(port)))
    sock.sendall(
        f"GET {path} HTTP/1.1\r\nHost: {address}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    answer = sock.recv(128)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    return sock


def test_R13_a_client_that_stops_reading_is_closed_and_its_outbox_stays_bounded(
    live_server: tuple[str, TableManager],
) -> None:
    address, tables = live_server
    table = tables.create("podkidnoy", ["human", "human"])
    silent = _silent_socket(address, f"/ws/{table.id}")
    try:
        for _ in range(200):
            if table.connections:
                break
            time.sleep(0.02)
        stuck = table.connections[0]
        largest = 0
        # Every connection that comes and goes sends each connection a state message.
        for _ in range(1500):
            with ws_client.connect(f"ws://{address}/ws/{table.id}") as visitor:
                visitor.recv(timeout=10)
            largest = max(largest, stuck.outbox.qsize())
            if stuck not in table.connections:
                break
        assert stuck not in table.connections, "the client that does not read is still served"
        assert stuck.dropped.is_set() and stuck.outbox.qsize() == 0
        assert largest <= tables.config.outbox
    finally:
        silent.close()


def test_sockets_per_table_are_capped_with_a_clear_close() -> None:
    tables = _manager(sockets_per_table=2)
    with TestClient(create_app(tables=tables)) as client:
        table_id = _create(client).json()["id"]
        with (
            client.websocket_connect(f"/ws/{table_id}") as a,
            client.websocket_connect(f"/ws/{table_id}") as b,
        ):
            a.receive_json(), b.receive_json()
            with client.websocket_connect(f"/ws/{table_id}") as third:
                refused = third.receive_json()
                assert refused["type"] == "error" and "the most it takes" in refused["message"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    third.receive_json()
                assert closed.value.code == CLOSE_FULL
        assert tables.get(table_id).connections == []  # type: ignore[union-attr]


def test_sockets_per_client_address_are_capped() -> None:
    tables = _manager(sockets_per_client=2)
    with TestClient(create_app(tables=tables)) as client:
        first = _create(client).json()["id"]
        second = _create(client).json()["id"]
        with (
            client.websocket_connect(f"/ws/{first}") as a,
            client.websocket_connect(f"/ws/{second}") as b,
        ):
            a.receive_json(), b.receive_json()
            with client.websocket_connect(f"/ws/{second}") as third:
                assert "from your address" in third.receive_json()["message"]
        with client.websocket_connect(f"/ws/{second}") as again:  # the count went down again
            assert again.receive_json()["type"] == "welcome"
        assert tables.sockets["testclient"] == 0


def test_onlookers_of_one_seat_share_one_message() -> None:
    async def scenario() -> None:
        from durak.web.tables import Connection

        table = Table("t", "podkidnoy", Rules(), ["human", "human"], bot_delay=0)
        watchers = [Connection(None) for _ in range(5)]
        for conn in watchers:
            table.join(conn)
        table.broadcast()
        last = []
        for conn in watchers:
            queued = [conn.outbox.get_nowait() for _ in range(conn.outbox.qsize())]
            last.append(queued[-1])
        assert len({id(m) for m in last}) == 1  # built once, queued five times

    asyncio.run(scenario())


# --------------------------------------------------------------------------------------------
# 2. Creating tables cannot wipe out live games
# --------------------------------------------------------------------------------------------


def test_a_flood_of_tables_gets_503_and_the_game_in_play_survives() -> None:
    tables = _manager(
        max_tables=12, tables_per_client=10_000, allow_fixed_seeds=True, reserved_tables=0
    )
    with TestClient(create_app(tables=tables)) as client:
        table_id = _create(client, seed=5).json()["id"]
        table = tables.get(table_id)
        assert table is not None
        with (
            client.websocket_connect(f"/ws/{table_id}") as a,
            client.websocket_connect(f"/ws/{table_id}") as b,
        ):
            welcome = a.receive_json()
            b.receive_json()
            started = _until(a, lambda m: m["type"] == "state" and m["started"])
            attacker = started["view"]["next_actor"]
            (a if attacker == welcome["seat"] else b).send_text(
                str(legal_actions(table.state, attacker)[0])
            )
            _until(a, lambda m: m["type"] == "state" and m["version"] == 1)
            answers = [_create(client).status_code for _ in range(30)]
        assert answers.count(201) == 11 and answers[11:] == [503] * 19
        full = _create(client)
        assert full.status_code == 503 and "server is full" in full.json()["error"]
        # The game in play is still there and a token still returns its seat.
        assert tables.get(table_id) is table and table.version == 1
        with client.websocket_connect(f"/ws/{table_id}?token={welcome['token']}") as back:
            assert back.receive_json()["seat"] == welcome["seat"]
            assert _state(back)["version"] == 1


def test_tables_per_client_address_get_429() -> None:
    tables = _manager(tables_per_client=3)
    with TestClient(create_app(tables=tables)) as client:
        assert [_create(client).status_code for _ in range(3)] == [201] * 3
        refused = _create(client)
        assert refused.status_code == 429 and "too many tables" in refused.json()["error"]


def test_idle_tables_expire_by_age_and_make_room() -> None:
    tables = _manager(max_tables=3, idle_expiry=600, seat_grace=0)
    with TestClient(create_app(tables=tables)) as client:
        ids = [_create(client).json()["id"] for _ in range(3)]
        # Not live (nobody came, no game under way) and no longer new: dropped to make room.
        assert _create(client).status_code == 201
        assert sum(tables.get(i) is None for i in ids) == 1
        gone = tables.expire(time.monotonic() + 601)
        assert len(gone) == 3 and tables.tables == {}
        assert client.get(f"/api/tables/{gone[0]}").status_code == 404


# --------------------------------------------------------------------------------------------
# 3. The deal is the server's secret
# --------------------------------------------------------------------------------------------


def test_a_seed_is_refused_unless_the_server_allows_fixed_seeds() -> None:
    with TestClient(create_app(ServerConfig(bot_delay=0))) as client:
        refused = _create(client, seed=12345)
        assert refused.status_code == 400 and "--allow-fixed-seeds" in refused.json()["error"]
        made = [client.post("/api/tables", json={"seats": ["human", "human"]}) for _ in range(2)]
        tables = client.app.state.tables  # type: ignore[attr-defined]
        first, second = (tables.get(m.json()["id"]) for m in made)
        assert first.state.seed != second.state.seed
        assert made[0].json()["fixed_seed"] is None


def test_a_fixed_seed_is_shown_to_every_seat(client: TestClient) -> None:
    table_id = _create(client, seats=["human", "human", "rule"], seed="demo").json()["id"]
    with (
        client.websocket_connect(f"/ws/{table_id}") as a,
        client.websocket_connect(f"/ws/{table_id}") as b,
    ):
        a.receive_json(), b.receive_json()
        assert _state(a)["fixed_seed"] == "demo" and _state(b)["fixed_seed"] == "demo"
    assert client.get(f"/api/tables/{table_id}").json()["fixed_seed"] == "demo"


@pytest.mark.parametrize(
    ("seed", "words"),
    [
        ("x" * (MAX_SEED_CHARS + 1), "1 to 64 characters"),
        (10**MAX_SEED_CHARS, "at most 64 digits"),
        (-1, "from 0"),
        (True, "a number or text"),
        ([1], "a number or text"),
    ],
)
def test_bad_fixed_seeds_are_refused(client: TestClient, seed: Any, words: str) -> None:
    answer = _create(client, seed=seed)
    assert answer.status_code == 400 and words in answer.json()["error"]


# --------------------------------------------------------------------------------------------
# 4. Oversized and malformed bodies: 400 or 413 with a reason, never 500
# --------------------------------------------------------------------------------------------


def test_a_50_mb_body_is_refused_before_it_is_read(client: TestClient) -> None:
    big = b'{"seed": "' + b"9" * (50 * 1024 * 1024) + b'"}'
    answer = client.post("/api/tables", content=big, headers={"content-type": "application/json"})
    assert answer.status_code == 413 and "at most 16384 bytes" in answer.json()["error"]


def test_a_body_without_a_length_is_cut_at_the_limit(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"seed": "'
        for _ in range(64):
            yield b"1" * 1024

    answer = client.post("/api/tables", content=chunks())
    assert answer.status_code == 413


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "nested more than 32 levels"),
        (b'{"seats": ["human", "human"], "timer": ' + b"7" * 5000 + b"}", "too long"),
        (b'{"seats": ["human", ', "not valid JSON"),
        (b"\xff\xfe", "not valid JSON"),
        (b'{"seats": NaN}', "not valid JSON"),
        (b'{"seats": ["human", "human"], "seats": ["human", "bot"]}', 'duplicate key "seats"'),
    ],
)
def test_malformed_bodies_get_400_with_a_reason(
    client: TestClient, body: bytes, words: str
) -> None:
    if len(body) > 16 * 1024:
        body = b"[" * 40 + b"]" * 40
    answer = client.post("/api/tables", content=body)
    assert answer.status_code == 400, answer.text
    assert words in answer.json()["error"]


def test_a_deep_message_on_the_socket_is_refused(client: TestClient) -> None:
    table_id = _create(client).json()["id"]
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        ws.receive_json()
        ws.send_text("{" + '"a":{' * 40 + "}" * 41)
        refused = _until(ws, lambda m: m["type"] == "error")
        assert "nested more than 32 levels" in refused["message"]
        ws.send_text('{"kind": "take", "player": ' + "9" * 5000 + "}")
        assert "too long" in _until(ws, lambda m: m["type"] == "error")["message"]
        ws.send_text('{"kind": "take", "player": 0, "player": 1}')
        refused = _until(ws, lambda m: m["type"] == "error")
        assert 'duplicate key "player"' in refused["message"]


# --------------------------------------------------------------------------------------------
# 5. Search bots think in other processes, a few at a time
# --------------------------------------------------------------------------------------------


def test_search_bots_think_in_a_worker_process_one_at_a_time() -> None:
    state = new_game(Rules(), seed=3)
    seat = state.attacker

    async def scenario() -> list[Any]:
        pool = BotPool(1, 10.0)  # a budget no busy machine overruns: no fallback
        try:
            bots = [WhereBot(seed=i, playouts=4, time_limit=None) for i in range(3)]
            answers = await asyncio.gather(*(pool.choose(b, view(state, seat)) for b in bots))
            assert pool.peak == 1 and pool.busy == 0
            return answers
        finally:
            pool.close()

    answers = asyncio.run(scenario())
    for action, bot in answers:
        assert is_legal(state, action)
        assert bot.where not in (0, os.getpid())
        assert bot.nice == min(19, os.nice(0) + NICENESS)  # the server's loop goes first


def test_a_search_over_its_budget_is_replaced_by_a_legal_move() -> None:
    state = new_game(Rules(), seed=4)
    seat = state.attacker

    async def scenario() -> Any:
        pool = BotPool(1, 0.1)
        try:
            action, _ = await pool.choose(SlowBot(seed=1, playouts=2), view(state, seat))
            return action
        finally:
            pool.close()

    assert is_legal(state, asyncio.run(scenario()))


# --------------------------------------------------------------------------------------------
# 7. Origins, headers, seats, restarts, table settings
# --------------------------------------------------------------------------------------------


def test_a_socket_from_another_origin_is_refused(client: TestClient) -> None:
    table_id = _create(client).json()["id"]
    evil = {"origin": "http://evil.example"}
    with client.websocket_connect(f"/ws/{table_id}", headers=evil) as ws:
        assert "origin" in ws.receive_json()["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == CLOSE_ORIGIN
    same = {"origin": "http://testserver"}
    with client.websocket_connect(f"/ws/{table_id}", headers=same) as ws:
        assert ws.receive_json()["type"] == "welcome"
    assert all(s.token_hash is None for s in client.app.state.tables.get(table_id).seats[1:])  # type: ignore[attr-defined]


def test_allowed_origins_are_configurable() -> None:
    tables = _manager(allowed_origins=("https://Cards.Example/",))
    with TestClient(create_app(tables=tables)) as client:
        table_id = _create(client).json()["id"]
        ok = {"origin": "https://cards.example"}
        with client.websocket_connect(f"/ws/{table_id}", headers=ok) as ws:
            assert ws.receive_json()["type"] == "welcome"


@pytest.mark.parametrize("path", ["/", "/api/presets", "/static/app.js", "/api/tables/nope"])
def test_every_answer_has_the_security_headers(client: TestClient, path: str) -> None:
    answer = client.get(path)
    for name, value in HEADERS.items():
        assert answer.headers[name] == value
    assert "'unsafe-inline'" not in answer.headers["content-security-policy"]


def test_the_page_has_no_inline_script(client: TestClient) -> None:
    page = client.get("/").text
    assert "<script>" not in page and "onclick" not in page.lower()


def test_a_person_who_leaves_frees_his_seat(client: TestClient) -> None:
    table_id = _create(client).json()["id"]
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        welcome = ws.receive_json()
        ws.send_text('{"type": "leave"}')
        freed = _until(ws, lambda m: m["type"] == "state" and m["seat"] is None)
        assert freed["seats"][welcome["seat"]]["taken"] is False
    with client.websocket_connect(f"/ws/{table_id}?token={welcome['token']}") as ws:
        # His old token is void; the free seat goes to whoever comes.
        again = ws.receive_json()
        assert again["seat"] == welcome["seat"] and again["token"] != welcome["token"]


def test_a_seat_is_freed_when_its_person_goes_before_play_begins() -> None:
    tables = _manager(seat_grace=0)
    with TestClient(create_app(tables=tables)) as client:
        table_id = _create(client).json()["id"]
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            first = ws.receive_json()
        table = tables.get(table_id)
        assert table is not None and table.seats[first["seat"]].token_hash is None


def test_restart_needs_every_seated_person(client: TestClient, tables: TableManager) -> None:
    table_id = _create(client, seed=2).json()["id"]
    with (
        client.websocket_connect(f"/ws/{table_id}") as a,
        client.websocket_connect(f"/ws/{table_id}") as b,
    ):
        sa, sb = a.receive_json()["seat"], b.receive_json()["seat"]
        _play_to_the_end({sa: a, sb: b}, random.Random(1))
        a.send_text('{"type": "restart"}')
        asked = _until(b, lambda m: m["type"] == "state" and m["restart_votes"])
        assert asked["restart_votes"] == [sa] and asked["game"] == 1
        b.send_text('{"type": "restart"}')
        fresh = _until(a, lambda m: m["type"] == "state" and m["game"] == 2)
        assert fresh["version"] == 0 and fresh["restart_votes"] == []


def test_the_rules_of_the_request_are_honoured(client: TestClient, tables: TableManager) -> None:
    answer = _create(client, preset="podkidnoy", rules={"deck_size": 52, "transfer_by_card": True})
    assert answer.status_code == 201, answer.text
    table = tables.get(answer.json()["id"])
    assert table is not None
    state = table.state
    assert sum(len(h) for h in state.hands) + len(state.stock) == 52
    assert table.rules.deck_size == 52 and table.rules.transfer_by_card
    assert answer.json()["rules"]["deck_size"] == 52


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"seats": ["human", "rule"], "colour": "red"}, 400, "unknown key 'colour'"),
        ({"seats": ["human", "rule"], "rules": {"deck": 52}}, 400, "deck: unknown setting"),
        ({"seats": ["human", "rule"], "rules": {"deck_size": "many"}}, 400, "deck_size"),
        ({"seats": ["human", "rule"], "rules": {"players": 3}}, 400, "players"),
        ({"seats": ["human", "rule"], "rules": [1]}, 400, "'rules' must be an object"),
        ({"seats": ["human", "rule"], "timer": -1}, 400, "the timer"),
        ({"seats": ["human", "rule"], "timer": "soon"}, 400, "the timer"),
    ],
)
def test_bad_settings_are_refused_naming_the_key(
    client: TestClient, body: Message, status: int, words: str
) -> None:
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == status
    assert words in answer.json()["error"]


def test_a_turn_timer_lets_the_stand_in_play_for_a_slow_person() -> None:
    tables = _manager(allow_fixed_seeds=True)
    with TestClient(create_app(tables=tables)) as client:
        table_id = _create(client, seed=9, timer=0.2).json()["id"]
        with (
            client.websocket_connect(f"/ws/{table_id}") as a,
            client.websocket_connect(f"/ws/{table_id}") as b,
        ):
            a.receive_json(), b.receive_json()
            # Nobody acts: when the timer runs out the stand-in plays the first lead.
            moved = _until(a, lambda m: m["type"] == "state" and m["version"] >= 1)
            assert moved["timer"] == 0.2 and moved["events"][0]["type"] == "led"


def test_the_log_survives_a_reload(client: TestClient, tables: TableManager) -> None:
    table_id = _create(client, seats=["human", "rule"], seed=6).json()["id"]
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        welcome = ws.receive_json()
        message = _state(ws)
        while message["version"] < 3 and message["view"]["result"] is None:
            if message["view"]["next_actor"] == welcome["seat"]:
                ws.send_text(message["view"]["legal_actions"][0])
            message = _state(ws)
    with client.websocket_connect(f"/ws/{table_id}?token={welcome['token']}") as ws:
        ws.receive_json()
        first = _state(ws)
        texts = [e["text"] for e in first["history"]]
        assert len(texts) >= 3 and any(t.startswith("You") or " led " in t for t in texts)
        table = tables.get(table_id)
        assert table is not None and sum(len(h) for h in table.history) >= len(texts)


def test_json_action_types_are_still_understood(client: TestClient) -> None:
    table_id = _create(client, seats=["human", "rule"]).json()["id"]
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        ws.receive_json()
        ws.send_text(json.dumps({"type": "fly"}))
        assert "unknown message type" in _until(ws, lambda m: m["type"] == "error")["message"]


# --------------------------------------------------------------------------------------------
# The play itself
# --------------------------------------------------------------------------------------------


def test_you_is_lower_case_inside_a_sentence() -> None:
    from durak.cards import Card
    from durak.events import Led, NewBout
    from durak.web.protocol import event_text, seat_names

    name = seat_names(["P0", "P1"], 0)
    assert event_text(NewBout(1, 0), 0, name) == "New bout: P1 attacks you"
    assert event_text(Led(1, (Card.parse("7h"),), 0), 0, name) == "P1 led 7♥ against you"
    assert event_text(NewBout(0, 1), 0, name) == "New bout: you attack P1"
    assert event_text(Led(0, (Card.parse("7h"),), 1), 0, name).startswith("You led")


def test_the_start_page_offers_the_common_house_rules(client: TestClient) -> None:
    page = client.get("/").text
    for control in ('id="deck-size"', 'id="transfer"', 'id="throwers"', 'id="first-out"'):
        assert control in page
    presets = client.get("/api/presets").json()["presets"]
    assert all("deck_size" in p["rules"] for p in presets)


def test_a_person_away_longer_than_the_timer_is_played_for_until_he_returns() -> None:
    tables = _manager(allow_fixed_seeds=True)
    with TestClient(create_app(tables=tables)) as client:
        table_id = _create(client, seed=9, timer=0.3).json()["id"]
        table = tables.get(table_id)
        assert table is not None
        with client.websocket_connect(f"/ws/{table_id}") as a:
            first = a.receive_json()
            with client.websocket_connect(f"/ws/{table_id}") as b:
                b.receive_json()
                _until(a, lambda m: m["type"] == "state" and m["started"])
            # b has gone: after the timer his seat is marked away and the stand-in plays it.
            away = _until(a, lambda m: m["type"] == "state" and any(s["away"] for s in m["seats"]))
            gone = next(s["seat"] for s in away["seats"] if s["away"])
            assert gone != first["seat"]
            assert table.seats[gone].away
