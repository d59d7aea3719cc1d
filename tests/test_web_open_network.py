"""``durak serve`` on an open network, round two (issue 27): no request stalls the server, no
connection outlives its limits. Each test is named after the item of the issue it checks and
reproduces what a hostile client did there.

Everything runs on loopback: uvicorn on 127.0.0.1 with a free port, configured as ``durak
serve`` configures it (:func:`durak.web.transport.uvicorn_options`), or Starlette's TestClient
in process. Every loop is bounded by a count or a deadline; no test measures speed, except the
rate limit's lower bound on how long a flood takes to be answered.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import logging
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import starlette  # noqa: F401
import uvicorn
import websockets.sync.client as ws_client
from starlette.testclient import TestClient
from web_helpers import next_state, serving, until

from durak.web import create_app
from durak.web.config import CLOSE_FULL, ServerConfig, default_hosts
from durak.web.store import Store
from durak.web.tables import TableManager

Message = dict[str, Any]

SRC = Path(__file__).resolve().parents[1] / "src"


def _manager(**limits: Any) -> TableManager:
    return TableManager(ServerConfig(**{"bot_delay": 0, **limits}))


def _handshake(port: int, path: str, headers: str = "", rcvbuf: int = 0) -> socket.socket:
    """A WebSocket handshake on a raw socket (``rcvbuf``: a tiny receive buffer); the socket
    after the server's ``101``."""
    sock = socket.socket()
    if rcvbuf:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    sock.sendall(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        f"Sec-WebSocket-Version: 13\r\n{headers}\r\n".encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = sock.recv(1)
        assert chunk, answer
        answer += chunk
    assert answer.startswith(b"HTTP/1.1 101"), answer
    return sock


def _frame(payload: bytes, opcode: int = 0x1) -> bytes:
    """One masked client frame (RFC 6455 5.2), ``payload`` shorter than 126 bytes."""
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + masked


def _tcp_state(sock: socket.socket) -> int:
    """The kernel's TCP state of ``sock`` (1: established; 7: closed, e.g. after a reset)."""
    return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 104)[0]


def _closed_by_server(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes ``sock`` within ``seconds`` (read to the end, or reset)."""
    sock.settimeout(0.2)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if sock.recv(65536) == b"":
                return True
        except TimeoutError:
            continue
        except OSError:
            return True
    return False


def _post(port: int, path: str, body: Any, headers: dict[str, str] | None = None) -> Any:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        data = json.dumps(body).encode()
        conn.request("POST", path, data, {"Content-Type": "application/json", **(headers or {})})
        answer = conn.getresponse()
        return answer.status, json.loads(answer.read() or b"null")
    finally:
        conn.close()


# --------------------------------------------------------------------------------------------
# 2. A dropped slow reader's connection is torn down
# --------------------------------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(socket, "TCP_INFO"), reason="reads the kernel's TCP state")
def test_item2_a_dropped_slow_reader_is_cut_off_not_left_open() -> None:
    tables = _manager(outbox=8, sockets_per_client=400, sockets_per_table=400)
    with serving(create_app(tables=tables)) as port:
        table = tables.create("podkidnoy", ["human", "human"])
        silent = _handshake(port, f"/ws/{table.id}", rcvbuf=2048)
        try:
            for _ in range(200):
                if table.connections:
                    break
                time.sleep(0.02)
            stuck = table.connections[0]
            for _ in range(1500):  # each visitor sends every connection a state message or two
                with ws_client.connect(f"ws://127.0.0.1:{port}/ws/{table.id}") as visitor:
                    visitor.recv(timeout=10)
                if stuck not in table.connections:
                    break
            assert stuck.dropped.is_set(), "the client that does not read is still served"
            # The server no longer waits for it to read what is queued: the connection is reset
            # (its kernel buffers freed), though the client never read a byte more.
            for _ in range(200):
                if _tcp_state(silent) != 1:
                    break
                time.sleep(0.05)
            assert _tcp_state(silent) != 1, "the slow reader's connection is still open"
            assert tables.sockets.get("127.0.0.1", 0) == 0
        finally:
            silent.close()


# --------------------------------------------------------------------------------------------
# 3. Idle connections, slow request heads, big request heads
# --------------------------------------------------------------------------------------------


@pytest.fixture
def quick_server() -> Iterator[int]:
    tables = _manager(header_timeout=1.0, keep_alive=1.0)
    with serving(create_app(tables=tables)) as port:
        yield port


def test_item3_an_idle_connection_is_closed(quick_server: int) -> None:
    with socket.create_connection(("127.0.0.1", quick_server), timeout=10) as idle:
        assert _closed_by_server(idle, 6), "a connection that sends nothing stays open"


def test_item3_a_slowloris_request_head_is_cut_off(quick_server: int) -> None:
    with socket.create_connection(("127.0.0.1", quick_server), timeout=10) as slow:
        slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        closed = False
        for n in range(40):  # a header line every 0.2 s: 8 s in all, the limit is 1 s
            try:
                slow.sendall(f"X-Slow-{n}: {n}\r\n".encode())
            except OSError:
                closed = True
                break
            if _closed_by_server(slow, 0.2):
                closed = True
                break
        assert closed, "a request head sent a line at a time is never cut off"


def test_item3_a_kept_alive_connection_gets_no_second_slow_head(quick_server: int) -> None:
    with socket.create_connection(("127.0.0.1", quick_server), timeout=10) as conn:
        conn.sendall(b"GET /api/presets HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += conn.recv(65536)
        assert answer.startswith(b"HTTP/1.1 200")
        conn.sendall(b"GET / HTTP/1.1\r\n")  # the next head, never finished
        assert _closed_by_server(conn, 6)


def test_item3_a_huge_request_head_is_refused() -> None:
    tables = _manager()
    with serving(create_app(tables=tables)) as port:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
            head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * (1024 * 1024)
            with contextlib.suppress(OSError):  # cut off while sending: refused
                conn.sendall(head + b"\r\n\r\n")
            answer = b""
            try:
                while True:
                    chunk = conn.recv(65536)
                    if not chunk:
                        break
                    answer += chunk
            except OSError:
                pass
        assert not answer.startswith(b"HTTP/1.1 200"), "a 1 MB request head was served"


def test_item3_the_server_runs_h11_with_a_head_limit() -> None:
    from durak.web.transport import HeadTimeoutProtocol, uvicorn_options

    options = uvicorn_options(ServerConfig(max_header=8192, header_timeout=3))
    assert issubclass(options["http"], HeadTimeoutProtocol)
    assert options["http"].header_timeout == 3
    assert options["h11_max_incomplete_event_size"] == 8192


# --------------------------------------------------------------------------------------------
# 4. X-Forwarded-For is believed only from configured proxies
# --------------------------------------------------------------------------------------------


def test_item4_a_forwarded_header_does_not_escape_the_cap_per_address() -> None:
    tables = _manager(sockets_per_client=1)
    with serving(create_app(tables=tables)) as port:
        table = tables.create("podkidnoy", ["human", "human"])
        url = f"ws://127.0.0.1:{port}/ws/{table.id}"
        with ws_client.connect(url) as first:
            assert json.loads(first.recv(timeout=10))["type"] == "welcome"
            forged = {"X-Forwarded-For": "10.9.8.7"}
            with ws_client.connect(url, additional_headers=forged) as second:
                refused = json.loads(second.recv(timeout=10))
                assert refused["code"] == "server.client-crowded", refused
                with pytest.raises(Exception) as closed:
                    second.recv(timeout=10)
                assert getattr(closed.value, "rcvd", None) is not None
                assert closed.value.rcvd.code == CLOSE_FULL  # type: ignore[attr-defined]


def test_item4_a_configured_proxy_is_believed() -> None:
    tables = _manager(sockets_per_client=1, proxies=("127.0.0.1",))
    with serving(create_app(tables=tables)) as port:
        table = tables.create("podkidnoy", ["human", "human"])
        url = f"ws://127.0.0.1:{port}/ws/{table.id}"
        for address in ("10.0.0.1", "10.0.0.2"):
            headers = {"X-Forwarded-For": address}
            with ws_client.connect(url, additional_headers=headers) as ws:
                assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
                assert tables.sockets[address] == 1


# --------------------------------------------------------------------------------------------
# 5. A few addresses cannot lock the server
# --------------------------------------------------------------------------------------------


def _started_and_left(port: int, address: str) -> int:
    """Create a table of a person and a bot from ``address`` (through the trusted proxy),
    take the seat and leave the page (the game under way, nobody connected); the status."""
    headers = {"X-Forwarded-For": address}
    status, body = _post(port, "/api/tables", {"seats": ["human", "rule"]}, headers)
    if status != 201:
        return int(status)
    url = f"ws://127.0.0.1:{port}/ws/{body['id']}"
    with ws_client.connect(url, additional_headers=headers) as ws:
        for _ in range(10):
            message = json.loads(ws.recv(timeout=10))
            if message["type"] == "state" and message["started"]:
                break
    return 201


def test_item5_a_few_addresses_leave_room_for_a_new_visitor() -> None:
    tables = _manager(max_tables=40, tables_per_client=10, proxies=("127.0.0.1",))
    with serving(create_app(tables=tables)) as port:
        answers = [
            _started_and_left(port, f"10.0.0.{a}") for a in range(1, 5) for _ in range(10)
        ]
        assert answers.count(201) < 40 and set(answers) == {201, 429}
        status, body = _post(port, "/api/tables", {"seats": ["human", "rule"]}, {
            "X-Forwarded-For": "10.0.0.99"
        })
        assert status == 201, body
    # The refused ones were told that the last places wait for visitors without a table.
    assert tables.config.reserve == 4


def test_item5_abandoned_games_make_room_and_expire_soon() -> None:
    tables = _manager(
        max_tables=3,
        reserved_tables=0,
        abandoned_after=0.5,
        seat_grace=0,
        proxies=("127.0.0.1",),
    )
    with serving(create_app(tables=tables)) as port:
        assert [_started_and_left(port, f"10.1.0.{a}") for a in range(3)] == [201] * 3
        crowded, _ = _post(port, "/api/tables", {"seats": ["human", "rule"]})
        assert crowded == 503  # three games under way, just left: still live
        time.sleep(0.7)
        status, body = _post(port, "/api/tables", {"seats": ["human", "rule"]})
        assert status == 201, body  # an abandoned game made room
    assert len(tables.tables) == 3
    assert ServerConfig().idle_expiry <= 3600  # forgotten within the hour, not after six


# --------------------------------------------------------------------------------------------
# 6. "Finish or leave one first" is true
# --------------------------------------------------------------------------------------------


def _finish(ws: Any, seat: int, rng: random.Random) -> Message:
    message = next_state(ws)
    for _ in range(3000):
        v = message["view"]
        if v["result"] is not None:
            return message
        if v["next_actor"] == seat and v["legal_actions"]:
            ws.send_text(rng.choice(v["legal_actions"]))
        message = next_state(ws)
    raise AssertionError("the game did not end")


def test_item6_finishing_or_leaving_a_table_frees_its_place() -> None:
    tables = _manager(tables_per_client=3)
    with TestClient(create_app(tables=tables)) as client:
        made = [
            client.post("/api/tables", json={"seats": ["human", "rule"], "rules": {"players": 2}})
            for _ in range(3)
        ]
        ids = [m.json()["id"] for m in made]
        refused = client.post("/api/tables", json={"seats": ["human", "rule"]})
        assert refused.status_code == 429
        assert "finish or leave one first" in refused.json()["error"]
        with client.websocket_connect(f"/ws/{ids[0]}") as ws:  # finish one
            seat = ws.receive_json()["seat"]
            assert _finish(ws, seat, random.Random(3))["view"]["result"] is not None
        with client.websocket_connect(f"/ws/{ids[1]}") as ws:  # leave another
            ws.receive_json()
            ws.send_text('{"type": "leave"}')
            until(ws, lambda m: m["type"] == "state" and m["seat"] is None)
        for table_id in ids:  # however old, a finished or left table no longer counts
            tables.get(table_id).born -= 3600  # type: ignore[union-attr]
        with client.websocket_connect(f"/ws/{ids[2]}") as ws:  # the third is still in play
            ws.receive_json()
            again = client.post("/api/tables", json={"seats": ["human", "rule"]})
            assert again.status_code == 201, again.text
            assert tables.open_tables("testclient") == 2


# --------------------------------------------------------------------------------------------
# 7. A restart keeps the count per address
# --------------------------------------------------------------------------------------------


def test_item7_a_restart_keeps_who_created_each_table(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    config = ServerConfig(bot_delay=0, tables_per_client=2)
    first = TableManager(config, Store(path))
    with TestClient(create_app(tables=first)) as client:
        for _ in range(2):
            made = client.post("/api/tables", json={"seats": ["human", "rule"]})
            with client.websocket_connect(f"/ws/{made.json()['id']}") as ws:
                ws.receive_json()  # the seat is taken: the table is in use
        assert client.post("/api/tables", json={"seats": ["human", "rule"]}).status_code == 429
    first.store.close()
    again = TableManager(config, Store(path))
    try:
        assert {t.creator for t in again.tables.values()} == {"testclient"}
        with TestClient(create_app(tables=again)) as client:
            refused = client.post("/api/tables", json={"seats": ["human", "rule"]})
            assert refused.status_code == 429, refused.text
    finally:
        again.store.close()


def test_item7_a_file_of_an_earlier_version_is_read(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE tables (id TEXT PRIMARY KEY, preset TEXT NOT NULL, rules TEXT NOT NULL,"
        " kinds TEXT NOT NULL, fixed_seed TEXT, timer REAL NOT NULL, created REAL NOT NULL,"
        " game INTEGER NOT NULL, seed TEXT NOT NULL, dealer INTEGER NOT NULL, attacker INTEGER,"
        " closed INTEGER NOT NULL DEFAULT 0);"
        "INSERT INTO tables VALUES ('t1', 'podkidnoy', '{\"players\": 2}', '[\"human\", \"rule\"]',"
        " NULL, 0, 1.0, 1, '5', 0, NULL, 0);"
    )
    db.commit()
    db.close()
    store = Store(path)
    try:
        (row,) = store.open_tables()
        assert row.id == "t1" and row.creator == ""
    finally:
        store.close()


# --------------------------------------------------------------------------------------------
# 8. A frame that is not UTF-8 is one log line, rate-limited
# --------------------------------------------------------------------------------------------


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_item8_frames_that_are_not_utf8_do_not_flood_the_log() -> None:
    from durak.web import transport

    tables = _manager()
    table = tables.create("podkidnoy", ["human", "human"])
    caught = _Records()
    transport.ClosingWebSocketProtocol._bad_text_logged = 0.0
    with serving(create_app(tables=tables)) as port:
        # uvicorn sets up its loggers when it starts: listen from then on
        loggers = [logging.getLogger(n) for n in ("uvicorn.error", "durak.web.transport")]
        for logger in loggers:
            logger.addHandler(caught)
        try:
            for _ in range(30):
                sock = _handshake(port, f"/ws/{table.id}")
                try:
                    sock.sendall(_frame(b"\xff\xfe junk"))
                    assert _closed_by_server(sock, 10)
                finally:
                    sock.close()
        finally:
            for logger in loggers:
                logger.removeHandler(caught)
    bad = [r for r in caught.records if "UTF-8" in r.getMessage()]
    assert 1 <= len(bad) <= 2, [r.getMessage() for r in bad]
    assert all(r.exc_info is None and "\n" not in r.getMessage() for r in bad)


# --------------------------------------------------------------------------------------------
# 10. What a client was told survives kill -9, even while the loop is held
# --------------------------------------------------------------------------------------------

_HOLDING_SERVER = """
import sys, time
import uvicorn
from starlette.websockets import WebSocket
from durak.web import create_app
from durak.web.config import ServerConfig
from durak.web.store import Store
from durak.web.transport import uvicorn_options

path, port, hold_at = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
config = ServerConfig(bot_delay=0, allow_fixed_seeds=True)
sent = WebSocket.send_text

async def send_text(self, data):
    await sent(self, data)
    if hold_at and '"version":%d,' % hold_at in data:
        time.sleep(60)  # a request that holds the event loop, right after the acknowledgement

WebSocket.send_text = send_text
app = create_app(config, store=Store(path))
uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", **uvicorn_options(config))
"""


def _start(script: Path, path: Path, port: int, hold_at: int) -> subprocess.Popen[bytes]:
    paths = [str(SRC), os.environ.get("PYTHONPATH", "")]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    server = subprocess.Popen(
        [sys.executable, str(script), str(path), str(port), str(hold_at)], env=env
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return server
        except OSError:
            assert server.poll() is None, "the server did not start"
            time.sleep(0.1)
    server.kill()
    raise AssertionError("the server did not start")


def test_item10_acknowledged_moves_survive_kill_9_while_the_loop_is_held(tmp_path: Path) -> None:
    script = tmp_path / "server.py"
    script.write_text(_HOLDING_SERVER)
    path = tmp_path / "tables.sqlite3"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    hold_at = 5
    server = _start(script, path, port, hold_at)
    try:
        status, body = _post(port, "/api/tables", {"seats": ["human", "rule"], "seed": 11})
        assert status == 201, body
        table_id = body["id"]
        with ws_client.connect(f"ws://127.0.0.1:{port}/ws/{table_id}") as ws:
            welcome = json.loads(ws.recv(timeout=30))
            seat, token = welcome["seat"], welcome["token"]
            seen = 0
            for _ in range(200):
                message = json.loads(ws.recv(timeout=30))
                if message["type"] != "state":
                    continue
                seen = max(seen, message["version"])
                if seen >= hold_at:
                    break
                v = message["view"]
                if v["next_actor"] == seat and v["legal_actions"]:
                    ws.send(v["legal_actions"][0])
            assert seen >= hold_at
            os.kill(server.pid, signal.SIGKILL)  # while the loop is held
        server.wait(30)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(30)
    again = _start(script, path, port, 0)
    try:
        url = f"ws://127.0.0.1:{port}/ws/{table_id}?token={token}"
        with ws_client.connect(url) as ws:
            assert json.loads(ws.recv(timeout=30))["seat"] == seat  # the seat was kept too
            for _ in range(10):
                message = json.loads(ws.recv(timeout=30))
                if message["type"] == "state":
                    break
            assert message["version"] >= seen, "acknowledged moves were lost"
    finally:
        again.send_signal(signal.SIGTERM)
        try:
            again.wait(30)
        except subprocess.TimeoutExpired:
            again.kill()


# --------------------------------------------------------------------------------------------
# 11. Messages are read at most at the configured rate
# --------------------------------------------------------------------------------------------


def test_item11_a_flood_of_messages_is_read_at_the_configured_rate() -> None:
    tables = _manager(message_rate=20.0, message_burst=5)
    with TestClient(create_app(tables=tables)) as client:
        table = tables.create("podkidnoy", ["human", "human"])
        with client.websocket_connect(f"/ws/{table.id}") as ws:
            ws.receive_json()
            next_state(ws)
            start = time.monotonic()
            for _ in range(45):
                ws.send_text("nonsense")
            for _ in range(45):
                until(ws, lambda m: m["type"] == "error")
            took = time.monotonic() - start
    # 5 at once, then 20 a second: the other 40 take at least two seconds to be answered.
    assert took >= 1.8, f"45 messages answered in {took:.2f} s"


def test_item11_a_person_playing_is_never_slowed() -> None:
    from durak.web.app import RateLimit

    bucket = RateLimit(rate=10.0, burst=30, now=0.0)
    # a move a second, and a burst of clicks now and then
    waits = [bucket.wait(t * 1.0) for t in range(100)] + [bucket.wait(100.0) for _ in range(20)]
    assert max(waits) == 0.0


# --------------------------------------------------------------------------------------------
# 12. The Host header: only the names the server is reached by
# --------------------------------------------------------------------------------------------


def _get(port: int, host: str, path: str = "/") -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers={"Host": host})
        answer = conn.getresponse()
        answer.read()
        return answer.status
    finally:
        conn.close()


def test_item12_a_foreign_host_header_is_refused() -> None:
    tables = _manager(allowed_hosts=default_hosts("127.0.0.1"))
    with serving(create_app(tables=tables)) as port:
        assert _get(port, f"evil.example:{port}") == 400
        assert _get(port, f"evil.example:{port}", "/api/presets") == 400
        assert _get(port, f"127.0.0.1:{port}") == 200
        assert _get(port, f"localhost:{port}") == 200
        table = tables.create("podkidnoy", ["human", "human"])
        evil = f"Origin: http://evil.example:{port}\r\n"
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        try:
            sock.sendall(
                f"GET /ws/{table.id} HTTP/1.1\r\nHost: evil.example:{port}\r\n{evil}"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n".encode()
            )
            answer = sock.recv(256)
        finally:
            sock.close()
        assert answer.startswith(b"HTTP/1.1 4"), answer
        assert table.connections == [] and all(s.token_hash is None for s in table.seats)


def test_item12_the_default_hosts_follow_the_address_bound() -> None:
    assert default_hosts("127.0.0.1") == ("localhost", "127.0.0.1", "::1")
    assert "192.168.4.2" in default_hosts("192.168.4.2")
    everywhere = default_hosts("0.0.0.0")
    assert socket.gethostname().lower() in everywhere and "localhost" in everywhere
    assert "evil.example" not in everywhere


# --------------------------------------------------------------------------------------------
# 1. Rules whose positions list too many actions are refused; the service works off the loop
# --------------------------------------------------------------------------------------------

#: Within the library's bound (durak.rules.MAX_LISTING), past the server's.
_LONG_LISTING = {"deck_size": 52, "decks": 2, "lead": "same_rank"}

#: The rules of the issue: past the library's bound too.
_HUGE_LISTING = {"deck_size": 24, "decks": 16, "hand_size": 192, "lead": "same_rank"}


def test_item1_the_engine_service_refuses_rules_that_list_too_much() -> None:
    from durak.rules import MAX_LISTING, Rules, listing_bound

    assert ServerConfig().max_listing < listing_bound(Rules(**_LONG_LISTING)) <= MAX_LISTING
    tables = _manager()
    with serving(create_app(tables=tables)) as port:
        status, body = _post(port, "/api/engine", {"seed": 1, "rules": _LONG_LISTING})
        assert status == 400 and body["code"] == "server.listing-too-large", body
        assert "deck_size = 52, decks = 2, lead = same_rank" in body["error"]
        assert body["params"]["limit"] == 2000
        started = time.monotonic()
        status, body = _post(port, "/api/engine", {"seed": 1, "rules": _HUGE_LISTING})
        assert status == 400 and "legal actions" in body["error"], body
        assert time.monotonic() - started < 5  # refused before anything is listed
        # A state whose rules list too much is refused the same way.
        from durak import new_game
        from durak.serialize import state_to_dict

        state = state_to_dict(new_game(Rules(**_LONG_LISTING), seed=1))
        status, body = _post(port, "/api/engine", {"state": state})
        assert status == 400 and body["code"] == "server.listing-too-large", body


def test_item1_tables_refuse_rules_that_list_too_much() -> None:
    tables = _manager()
    with serving(create_app(tables=tables)) as port:
        for rules in (_LONG_LISTING, _HUGE_LISTING):
            status, body = _post(
                port, "/api/tables", {"seats": ["human", "rule"], "rules": rules}
            )
            assert status == 400 and "legal actions" in body["error"], body
        assert tables.tables == {}
        body = {"seats": ["human", "rule"], "preset": "double-deck"}
        status, body = _post(port, "/api/tables", body)
        assert status == 201, body  # every preset is within the bound


def test_item1_every_preset_is_within_the_server_s_bound() -> None:
    from durak.errors import RulesError
    from durak.presets import PRESETS
    from durak.rules import listing_bound

    limit = ServerConfig().max_listing
    for preset in PRESETS.values():
        for players in range(2, 9):
            try:
                rules = preset.rules(players=players)
            except RulesError:
                continue
            assert listing_bound(rules) <= limit, (preset.name, players)


def test_item1_the_engine_service_works_off_the_event_loop() -> None:
    import asyncio

    from durak.web import engine_api

    where: list[bool] = []
    answer = engine_api.answer

    def watched(*args: Any) -> Any:
        try:
            asyncio.get_running_loop()
            where.append(True)
        except RuntimeError:
            where.append(False)
        return answer(*args)

    engine_api.answer = watched  # type: ignore[assignment]
    try:
        with TestClient(create_app(tables=_manager())) as client:
            assert client.post("/api/engine", json={"seed": 1}).status_code == 200
    finally:
        engine_api.answer = answer  # type: ignore[assignment]
    assert where == [False], "the answer was worked out on the event loop"


# --------------------------------------------------------------------------------------------
# 9. The engine service refuses what it would refuse later; errors quote a bounded excerpt
# --------------------------------------------------------------------------------------------


def test_item9_a_state_with_contradicting_cheats_is_refused() -> None:
    from durak import new_position
    from durak.rules import Rules
    from durak.rules.modules import plan_for
    from durak.serialize import state_to_dict

    rules = Rules(players=3, cheating=True)
    hands = ["Tc 7d", "Qd Kd Ad", "Js Qs"]
    used = {"7c", "8c", "9h", "6d", *" ".join(hands).split()}
    discard = [c for c in plan_for(rules).deck if str(c) not in used]
    good = new_position(
        rules,
        hands=hands,
        discard=discard,
        trump="s",
        attacker=0,
        defender=1,
        table=[("7c", "8c"), ("9h", "6d")],
        joined=[0, 2],
        extra={"cheats": (("9h", 2),)},
    )
    data = state_to_dict(good)
    with TestClient(create_app(tables=_manager())) as client:
        fine = client.post("/api/engine", json={"state": data, "action": "p0 catch 9h"})
        assert fine.status_code == 200, fine.text
        twice = {**data, "extra": {"cheats": [["9h", 2], ["9h", 2]]}}
        refused = client.post("/api/engine", json={"state": twice, "action": "p0 catch 9h"})
        assert refused.status_code == 400 and "listed twice" in refused.json()["error"]


def test_item9_an_error_answer_quotes_a_bounded_excerpt() -> None:
    from durak import new_game
    from durak.rules import Rules
    from durak.serialize import state_to_dict

    state = state_to_dict(new_game(Rules(), seed=1))
    big = "x" * 200_000
    bodies = [
        {"state": {**state, big: 1}},
        {"state": state, "action": big},
        {"state": {**state, "hands": [[big]]}},
        {"seed": 1, "rules": {"lead": big}},
        {"seed": 1, "preset": big},
    ]
    with TestClient(create_app(tables=_manager())) as client:
        for body in bodies:
            answer = client.post("/api/engine", json=body)
            assert answer.status_code == 400
            assert len(answer.content) < 4000, (len(answer.content), answer.text[:200])


# --------------------------------------------------------------------------------------------
# Also found: durak serve kept its tables in the current folder
# --------------------------------------------------------------------------------------------


@pytest.mark.skipif(sys.platform != "linux", reason="the Linux data folder")
def test_serve_keeps_its_tables_in_the_user_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:

    from durak.web import app as web_app

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    seen: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: seen.update(options, app=app))
    monkeypatch.setattr(web_app, "settle_collector", lambda *a: 0)
    web_app.serve("127.0.0.1", 8123, config=ServerConfig(bot_delay=0))
    assert (tmp_path / "data" / "durak" / "tables.sqlite3").exists()
    assert list(work.iterdir()) == []  # nothing written where it was started
    # uvicorn is configured as the limits say
    assert seen["proxy_headers"] is False and seen["http"].header_timeout == 10
    assert seen["h11_max_incomplete_event_size"] == 16 * 1024
    tables = seen["app"].state.tables
    assert tables.config.allowed_hosts == default_hosts("127.0.0.1")


def test_the_serve_command_passes_hosts_proxies_and_the_default_database(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from durak.__main__ import main
    from durak.web import app as web_app

    calls: list[tuple[Any, ...]] = []
    monkeypatch.setattr(
        web_app, "serve", lambda host, port, **kw: calls.append((host, port, kw))
    )
    assert main(["serve", "--allowed-host", "cards.example", "--proxy", "10.0.0.5"]) == 0
    assert main(["serve", "--database", ""]) == 0
    (host, port, first), (_, _, second) = calls
    assert (host, port) == ("127.0.0.1", 8000)
    assert first["database"] is web_app.DEFAULT_DATABASE and second["database"] is None
    assert "cards.example" in first["config"].allowed_hosts
    assert "localhost" in first["config"].allowed_hosts
    assert first["config"].proxies == ("10.0.0.5",)


def test_item3_serve_raises_its_limit_on_open_files() -> None:
    resource = pytest.importorskip("resource")
    from durak.web.app import raise_open_files

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 2256:
        pytest.skip("the hard limit is lower")
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
    try:
        assert raise_open_files(2256) == 2256
        assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == 2256
        assert raise_open_files(300) == 2256  # never lowered
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_item5_the_reserve_follows_a_smaller_table_count() -> None:
    tables = TableManager(ServerConfig(bot_delay=0), max_tables=30)
    assert tables.config.max_tables == 30 and tables.config.reserve == 3
    with pytest.raises(ValueError, match="reserved_tables"):
        ServerConfig(max_tables=10, reserved_tables=10)
