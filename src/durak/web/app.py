"""The ASGI application of the web front-end (Starlette).

Routes:

- ``GET /``: the start page (choose a preset, the number of players, a person or a bot for each
  seat).
- ``GET /table/<id>``: a table's page (the same single page; 404 for an unknown table).
- ``GET /api/presets``: every preset with the numbers of players it can deal.
- ``POST /api/tables``: create a table from ``{"preset": ..., "seats": ["human", "rule", ...],
  "seed": optional}`` (at most :data:`MAX_BODY` bytes of JSON); answers ``201`` with the
  table's ``id`` and ``url``, ``400`` with an ``error`` for bad settings or JSON and ``413`` for
  a body that is too big.
- ``GET /api/tables/<id>``: public facts about a table (no cards).
- ``WS /ws/<id>?token=...``: play at a table (see :mod:`durak.web.protocol`).
- ``POST /api/engine``: the engine as a stateless service (:mod:`durak.web.engine_api`).
- ``/static/...``: the page's CSS and JavaScript.

>>> app = create_app(bot_delay=0)
>>> sorted(r.path for r in app.routes)[:3]
['/', '/api/engine', '/api/presets']
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from durak._input import parse_json
from durak.web.engine_api import engine_routes
from durak.web.tables import (
    SEAT_KINDS,
    Connection,
    Table,
    TableError,
    TableManager,
    preset_catalogue,
)

__all__ = ["MAX_BODY", "MAX_MESSAGE", "STATIC", "create_app", "serve"]

#: The folder of the page's files (package data).
STATIC = Path(__file__).with_name("static")

#: The longest message a client may send (characters).
MAX_MESSAGE = 4096

#: The largest body of ``POST /api/tables`` (bytes).
MAX_BODY = 16 * 1024


class _BadBody(Exception):
    """A request body or message that is not the JSON asked for; ``status`` is the HTTP status.
    It is also the error factory of :func:`durak._input.parse_json` (``_BadBody(where,
    reason)``): then ``where``, a JSON path, is shown before the reason."""

    def __init__(self, where: str, reason: str, status: int = 400) -> None:
        super().__init__(f"{where}: {reason}" if where else reason)
        self.status = status


async def _json_body(request: Request) -> Any:
    """The request's JSON body, read up to :data:`MAX_BODY` bytes, nested at most 32 levels deep
    and with integers of at most 4,300 digits.

    Raises:
        _BadBody: too big (413), not JSON, or nested too deeply (400).
    """
    declared = request.headers.get("content-length", "")
    if (
        declared.isascii()
        and declared.isdigit()
        and len(declared) < 20
        and int(declared) > MAX_BODY
    ):
        raise _BadBody("", f"the body is too big (at most {MAX_BODY} bytes)", 413)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise _BadBody("", f"the body is too big (at most {MAX_BODY} bytes)", 413)

    def bad(where: str, reason: str) -> _BadBody:
        return _BadBody("", f"send the table's settings as JSON ({where or 'the body'}: {reason})")

    return parse_json(bytes(body), bad, "the body")


def create_app(bot_delay: float = 0.6, tables: TableManager | None = None) -> Starlette:
    """The web front-end as an ASGI application.

    Args:
        bot_delay: seconds a bot waits before each action, so people can follow (0 in tests).
        tables: the table store to use (a new :class:`TableManager` by default); tests pass
            their own to look at the real state.
    """
    manager = tables if tables is not None else TableManager(bot_delay=bot_delay)
    index = STATIC / "index.html"

    async def home(request: Request) -> Response:
        return FileResponse(index, media_type="text/html")

    async def table_page(request: Request) -> Response:
        found = manager.get(request.path_params["table_id"])
        return FileResponse(index, media_type="text/html", status_code=200 if found else 404)

    async def presets(request: Request) -> Response:
        return JSONResponse({"presets": preset_catalogue(), "seat_kinds": list(SEAT_KINDS)})

    async def create_table(request: Request) -> Response:
        try:
            body: Any = await _json_body(request)
        except _BadBody as exc:
            return JSONResponse({"error": str(exc)}, status_code=exc.status)
        if not isinstance(body, dict):
            return JSONResponse({"error": "send the table's settings as an object"}, 400)
        try:
            table = manager.create(
                body.get("preset", "podkidnoy"), body.get("seats", []), body.get("seed")
            )
        except TableError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        return JSONResponse({**table.summary(), "url": f"/table/{table.id}"}, status_code=201)

    async def table_info(request: Request) -> Response:
        found = manager.get(request.path_params["table_id"])
        if found is None:
            return JSONResponse({"error": "no such table"}, status_code=404)
        return JSONResponse(found.summary())

    async def play(websocket: WebSocket) -> None:
        await websocket.accept()
        table = manager.get(websocket.path_params["table_id"])
        if table is None:
            await websocket.send_json({"type": "error", "message": "There is no such table."})
            await websocket.close(code=4404)
            return
        await _session(websocket, table)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await manager.close()

    app = Starlette(
        routes=[
            Route("/", home),
            Route("/table/{table_id}", table_page),
            Route("/api/presets", presets),
            Route("/api/tables", create_table, methods=["POST"]),
            Route("/api/tables/{table_id}", table_info),
            WebSocketRoute("/ws/{table_id}", play),
            *engine_routes(),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )
    app.state.tables = manager
    return app


async def _writer(websocket: WebSocket, conn: Connection) -> None:
    """Send the connection's queued messages in order."""
    while True:
        message = await conn.outbox.get()
        await websocket.send_json(message)


async def _session(websocket: WebSocket, table: Table) -> None:
    """One person (or onlooker) at ``table``: take a seat by token, then read actions."""
    seat, token = table.claim(websocket.query_params.get("token"))
    conn = Connection(seat)
    conn.send({"type": "welcome", "seat": seat, "token": token, "table": table.id})
    writer = asyncio.create_task(_writer(websocket, conn))
    table.join(conn)
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                text = (message.get("bytes") or b"").decode("utf-8", "replace")
            reason = await _handle(table, seat, text)
            if reason is not None:
                conn.send({"type": "error", "message": reason})
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        table.leave(conn)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer


async def _handle(table: Table, seat: int | None, text: str) -> str | None:
    """Act on one client message; the reason it was refused, or ``None``."""
    if len(text) > MAX_MESSAGE:
        return f"Message too long (more than {MAX_MESSAGE} characters)."
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            data = parse_json(stripped, _BadBody, "the message")
        except _BadBody as exc:
            return f"Not understood: {exc}."
        if isinstance(data, dict):
            kind = data.get("type")
            if kind == "restart":
                return await table.restart(seat)
            if kind == "ping":
                return None
            if kind not in (None, "action"):
                return f"Not understood: unknown message type {kind!r}."
        return await table.submit(seat, data)
    return await table.submit(seat, stripped)


def serve(host: str = "127.0.0.1", port: int = 8000, bot_delay: float = 0.6) -> None:
    """Run the web front-end with uvicorn until interrupted."""
    import uvicorn

    print(f"durak: serving on http://{host}:{port}/ (Ctrl+C stops)", flush=True)
    uvicorn.run(create_app(bot_delay=bot_delay), host=host, port=port, log_level="warning")
