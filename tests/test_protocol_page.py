"""The protocol page's transcript (docs/protocol.md, "A short game") is a real exchange: it is
played here against a real server, line by line, and every message shown must be what the
server sent (the fields shown; ``<table>`` and ``<token>`` stand for the server's ids). Every
message on the way is checked against its schema too."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import starlette  # noqa: F401
from contracts import check
from starlette.testclient import TestClient

from durak.web import create_app
from durak.web.config import ServerConfig
from durak.web.tables import TableManager

PAGE = Path(__file__).resolve().parents[1] / "docs" / "protocol.md"
_LINE = re.compile(
    r"^(?:(?P<seat>p\d+) (?P<dir>←|→|connects) ?|(?P<http>POST \S+|\d{3}) )(?P<rest>.*)$"
)


def transcript() -> list[str]:
    """The lines of the fenced block after the page's transcript marker."""
    text = PAGE.read_text("utf-8")
    after = text.split("<!-- transcript", 1)[1]
    block = after.split("```text\n", 1)[1].split("\n```", 1)[0]
    return block.splitlines()


def _matches(shown: Any, real: Any, ids: dict[str, str], where: str) -> None:
    """``shown`` (a part of a message) is in ``real``: every key shown has the real value;
    lists are whole; ``<table>``/``<token>`` stand for the ids (learnt on first sight)."""
    if isinstance(shown, dict):
        assert isinstance(real, dict), where
        for key, value in shown.items():
            assert key in real, f"{where}: no field {key!r}"
            _matches(value, real[key], ids, f"{where}/{key}")
    elif isinstance(shown, list):
        assert isinstance(real, list) and len(real) == len(shown), f"{where}: {real!r}"
        for i, (a, b) in enumerate(zip(shown, real, strict=True)):
            _matches(a, b, ids, f"{where}/{i}")
    elif isinstance(shown, str) and "<" in shown:
        for name in ("table", "token"):
            if shown == f"<{name}>" and name not in ids:
                ids[name] = real
        expected = shown
        for name, value in ids.items():
            expected = expected.replace(f"<{name}>", value)
        assert expected == real, f"{where}: {real!r}, not {expected!r}"
    else:
        assert shown == real, f"{where}: {real!r}, not {shown!r}"


def test_the_protocol_page_transcript_is_what_a_real_server_says() -> None:
    lines = transcript()
    assert len(lines) >= 10
    ids: dict[str, str] = {}
    sockets: dict[str, Any] = {}
    answer: Any = None
    # The page's table fixes its deal, which a server allows when started with
    # --allow-fixed-seeds.
    config = ServerConfig(bot_delay=0, allow_fixed_seeds=True)
    with TestClient(create_app(tables=TableManager(config))) as client:
        try:
            for number, line in enumerate(lines, 1):
                match = _LINE.match(line)
                assert match is not None, f"line {number}: {line!r}"
                where = f"transcript line {number}"
                rest = match.group("rest")
                if match.group("http") and match.group("http").startswith("POST"):
                    body = json.loads(rest)
                    check("http", body, "create-table")
                    answer = client.post(match.group("http").split()[1], json=body)
                elif match.group("http"):
                    assert answer is not None and answer.status_code == int(match.group("http"))
                    check("http", answer.json(), "table")
                    _matches(json.loads(rest), answer.json(), ids, where)
                elif match.group("dir") == "connects":
                    seat = match.group("seat")
                    sockets[seat] = client.websocket_connect(f"/ws/{ids['table']}").__enter__()
                elif match.group("dir") == "→":
                    frame = rest
                    if frame.startswith("{"):
                        check("ws-client", json.loads(frame))
                    sockets[match.group("seat")].send_text(frame)
                else:
                    message = sockets[match.group("seat")].receive_json()
                    check("ws-server", message)
                    _matches(json.loads(rest), message, ids, where)
        finally:
            for ws in reversed(list(sockets.values())):
                ws.__exit__(None, None, None)
    assert set(ids) == {"table", "token"}
