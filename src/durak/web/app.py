"""The ASGI application of the web front-end (Starlette).

Routes:

- ``GET /``: the start page (choose a preset, change its common settings, the number of
  players, a person or a bot for each seat, a turn timer).
- ``GET /table/<id>``: a table's page (the same single page; 404 for an unknown table).
- ``GET /replay``: the replay page: step through a game record (uploaded, or a table's).
- ``GET /api/presets``: every preset with the numbers of players it can deal and its settings.
- ``GET /api/i18n[?lang=de]``: the page's texts in a language from the message catalogs
  (:func:`durak.i18n.web_catalog`): ``lang`` if given, else the best of ``Accept-Language``.
- ``POST /api/tables``: create a table from ``{"preset": ..., "seats": ["human", "rule", ...],
  "rules": {setting: value, ...}, "timer": seconds}`` (``seed`` only on a server that allows
  fixed seeds); at most :data:`MAX_BODY` bytes of JSON, unknown keys refused. Answers ``201``
  with the table's ``id`` and ``url``; ``400`` with an ``error`` for bad settings or JSON,
  ``413`` for a body that is too big, ``429`` for a client with too many tables, ``503`` when
  the server is full.
- ``GET /api/tables/<id>``: public facts about a table (no cards).
- ``GET /api/tables/<id>/record?game=N``: a finished game's record (the last one without
  ``game``) as a JSON download; ``404`` if there is none (a game in play has no record yet:
  it would show the deal).
- ``POST /api/replay``: the steps of a finished game's record (at most :data:`MAX_RECORD`
  bytes and :data:`MAX_REPLAY_ACTIONS` actions), every hand face up.
- ``WS /ws/<id>?token=...``: play at a table (see :mod:`durak.web.protocol`); refused (code
  4403) from a page of another origin, closed (4429) past the connection caps and (1008) when
  the client stops reading.
- ``POST /api/engine``: the engine as a stateless service (:mod:`durak.web.engine_api`).
- ``/static/...``: the page's CSS and JavaScript.

Errors answer with ``{"error": ...}`` (English) and beside it the reason's ``code`` and
``params`` (a ``server.`` code of :mod:`durak.messages`) and ``localized``: the same in the
request's language, its ``lang`` query parameter (``?lang=de``) if given, else the best of its
``Accept-Language``, else English. A WebSocket's ``error`` messages follow the same choice,
made once when it connects; ``GET /api/presets`` says the presets' descriptions in it.

Every HTTP answer carries a Content-Security-Policy without inline script, ``X-Frame-Options``,
``X-Content-Type-Options`` and ``Referrer-Policy``. With
:attr:`~durak.web.config.ServerConfig.allowed_hosts`, a request for any other ``Host`` is
answered ``400`` (Starlette's ``TrustedHostMiddleware``). A WebSocket's messages are read at
most :attr:`~durak.web.config.ServerConfig.message_rate` a second (:class:`RateLimit`), and
every message a client is sent goes out only once the store has committed the changes made
before it.

>>> app = create_app(ServerConfig(bot_delay=0))
>>> sorted(r.path for r in app.routes)[:3]
['/', '/api/engine', '/api/i18n']
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import os
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from durak._input import brief, check_size, parse_json
from durak.errors import DurakError
from durak.i18n import from_accept_language, message_params, normalize, web_catalog
from durak.messages import Message as TextMessage
from durak.messages import as_message, message
from durak.records import Record
from durak.serialize import view_to_dict
from durak.views import view
from durak.web.config import (
    CLOSE_FULL,
    CLOSE_ORIGIN,
    CLOSE_SLOW,
    CLOSE_UNKNOWN,
    ServerConfig,
    default_hosts,
)
from durak.web.engine_api import engine_routes
from durak.web.protocol import error_fields, events_to_dicts, seat_names, sentence
from durak.web.store import Store
from durak.web.tables import (
    SEAT_KINDS,
    Connection,
    Table,
    TableError,
    TableManager,
    level_catalogue,
    preset_catalogue,
)

__all__ = [
    "GC_THRESHOLDS",
    "HEADERS",
    "MAX_BODY",
    "MAX_MESSAGE",
    "MAX_RECORD",
    "MAX_REPLAY_ACTIONS",
    "STATIC",
    "RateLimit",
    "create_app",
    "default_database",
    "origin_allowed",
    "raise_open_files",
    "replay_steps",
    "serve",
    "settle_collector",
]

#: The folder of the page's files (package data).
STATIC = Path(__file__).with_name("static")

#: The longest message a client may send (characters).
MAX_MESSAGE = 4096

#: The largest body of ``POST /api/tables`` (bytes).
MAX_BODY = 16 * 1024

#: The largest game record ``POST /api/replay`` reads (bytes).
MAX_RECORD = 256 * 1024

#: The most actions of a record ``POST /api/replay`` steps through (a game has a few hundred).
MAX_REPLAY_ACTIONS = 1000

#: The security headers of every HTTP answer.
HEADERS: dict[str, str] = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
        "frame-ancestors 'none'"
    ),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
}

#: ``serve``'s default database: :func:`default_database`.
DEFAULT_DATABASE = Path("\x00default")

#: Seconds between two sweeps for idle tables.
SWEEP_EVERY = 60.0


class _BadBody(Exception):
    """A request body or message that is not the JSON asked for; ``status`` is the HTTP status,
    ``message`` the reason as a :class:`~durak.messages.Message`. It is also the error factory
    of :func:`durak._input.parse_json` (``_BadBody(where, reason)``): then ``where``, a JSON
    path, is shown before the reason."""

    def __init__(
        self, where: str, reason: str, status: int = 400, said: TextMessage | None = None
    ) -> None:
        text = f"{where}: {reason}" if where else reason
        super().__init__(text)
        self.status = status
        self.message = said if said is not None else as_message(text)


async def _json_body(request: Request, limit: int = MAX_BODY, record: bool = False) -> Any:
    """The request's JSON body (the table's settings, or with ``record`` a game record), read
    up to ``limit`` bytes, nested at most 32 levels deep and with integers of at most 4,300
    digits (:mod:`durak._input`).

    Raises:
        _BadBody: too big (413), not JSON, nested too deeply or with too long a number (400).
    """
    declared = request.headers.get("content-length", "")
    too_big = message("server.body-too-big", n=limit)
    if declared.isascii() and declared.isdigit() and len(declared) < 20 and int(declared) > limit:
        raise _BadBody("", too_big, 413, too_big)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise _BadBody("", too_big, 413, too_big)

    def bad(where: str, reason: str) -> _BadBody:
        detail = f"{where or 'the body'}: {reason}"
        said = (
            message("server.record-not-json", detail=detail)
            if record
            else message("server.settings-not-json", detail=detail)
        )
        return _BadBody("", said, 400, said)

    return parse_json(bytes(body), bad, "the body")


def _lang(request: Request | WebSocket) -> str:
    """The language to answer in: the ``lang`` query parameter if it names a catalog language,
    else the best of ``Accept-Language``, else English."""
    asked = normalize(request.query_params.get("lang", "")[:35])
    return asked or from_accept_language(request.headers.get("accept-language"))


def _error(said: str, status: int, lang: str = "en") -> JSONResponse:
    """An error answer: ``error`` (English), ``code``, ``params`` and ``localized`` (in
    ``lang``)."""
    reason = as_message(said)
    return JSONResponse(
        {"error": str(reason), **error_fields(reason, lang)},
        status_code=status,
        headers={"Vary": "Accept-Language"},
    )


Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
ASGIApp = Callable[
    [Scope, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]],
    Awaitable[None],
]


class SecurityHeaders:
    """ASGI middleware: :data:`HEADERS` on every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.headers = [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()]

    async def __call__(
        self,
        scope: Scope,
        receive: Callable[[], Awaitable[Message]],
        send: Callable[[Message], Awaitable[None]],
    ) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *self.headers]
            await send(message)

        await self.app(scope, receive, with_headers)


def origin_allowed(origin: str | None, host: str | None, allowed: tuple[str, ...]) -> bool:
    """Whether a WebSocket from a page at ``origin`` may connect to the server reached as
    ``host``: no ``Origin`` (not a browser), the same host, or one of ``allowed``.

    >>> origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000", ())
    True
    >>> origin_allowed("http://evil.example", "127.0.0.1:8000", ())
    False
    """
    if origin is None:
        return True
    origin = origin.rstrip("/").lower()
    if origin in allowed:
        return True
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    return bool(host) and parts.scheme in ("http", "https") and parts.netloc == (host or "").lower()


def replay_steps(record: Record) -> list[dict[str, Any]]:
    """Every position of a finished game, for the replay page: the onlooker's
    :func:`~durak.views.view` plus every hand face up (a record is public once its game is
    over), and what each action made happen in words.

    Raises:
        DurakError: an action of the record is not legal where it is played.
    """
    from durak.engine import apply_with_events

    state = record.initial_state()
    labels = [f"P{i}" for i in range(record.rules.players)]
    name = seat_names(labels, None)
    steps = []
    happened: tuple[Any, ...] = ()
    for index in range(len(record.actions) + 1):
        steps.append(
            {
                "index": index,
                "action": str(record.actions[index - 1]) if index else None,
                "view": view_to_dict(view(state, None)),
                "hands": [[str(c) for c in hand] for hand in state.hands],
                "events": events_to_dicts(happened, None, name),
            }
        )
        if index < len(record.actions):
            state, happened = apply_with_events(state, record.actions[index])
    return steps


def create_app(
    config: ServerConfig | float | None = None,
    tables: TableManager | None = None,
    *,
    bot_delay: float | None = None,
    store: Store | str | Path | None = None,
) -> Starlette:
    """The web front-end as an ASGI application.

    Args:
        config: the server's limits and switches (:class:`~durak.web.config.ServerConfig`; a
            number is taken as ``bot_delay``).
        tables: the table store to use (a new :class:`TableManager` by default); tests pass
            their own to look at the real state.
        bot_delay: seconds a bot waits before each action (instead of ``config.bot_delay``).
        store: the SQLite file (or :class:`~durak.web.store.Store`) that keeps the tables;
            in memory by default.
    """
    if tables is None:
        if not isinstance(config, ServerConfig):
            delay = config if isinstance(config, int | float) else bot_delay
            config = ServerConfig(bot_delay=0.6 if delay is None else float(delay))
        kept = Store(store) if isinstance(store, str | Path) else store
        manager = TableManager(config, kept)
    else:
        manager = tables
    settings = manager.config
    index = STATIC / "index.html"
    replaying = asyncio.Semaphore(1)  # one replay is worked out at a time, off the loop

    async def home(request: Request) -> Response:
        return FileResponse(index, media_type="text/html")

    async def table_page(request: Request) -> Response:
        found = manager.get(request.path_params["table_id"])
        return FileResponse(index, media_type="text/html", status_code=200 if found else 404)

    async def presets(request: Request) -> Response:
        return JSONResponse(
            {
                "lang": (lang := _lang(request)),
                "presets": preset_catalogue(lang=lang),
                "seat_kinds": list(SEAT_KINDS),
                "levels": level_catalogue(settings.move_budget, lang=lang),
                "max_timer": settings.max_timer,
                "fixed_seeds": settings.allow_fixed_seeds,
            },
            headers={"Vary": "Accept-Language"},
        )

    async def i18n(request: Request) -> Response:
        # the language asked for (the page's remembered menu choice), else Accept-Language
        asked = normalize(request.query_params.get("lang", ""))
        lang = asked or from_accept_language(request.headers.get("accept-language"))
        return JSONResponse(web_catalog(lang), headers={"Vary": "Accept-Language"})

    async def create_table(request: Request) -> Response:
        lang = _lang(request)
        try:
            body: Any = await _json_body(request)
        except _BadBody as exc:
            return _error(exc.message, exc.status, lang)
        if not isinstance(body, dict):
            return _error(message("server.settings-not-object"), 400, lang)
        client = request.client.host if request.client else ""
        try:
            table = manager.create(**manager.settings(body), client=client)
        except TableError as exc:
            return _error(exc.message, exc.status, lang)
        manager.store.flush()  # the table is kept before anyone is told it exists
        return JSONResponse({**table.summary(), "url": f"/table/{table.id}"}, status_code=201)

    async def table_info(request: Request) -> Response:
        found = manager.get(request.path_params["table_id"])
        if found is None:
            return _error(message("server.no-table"), 404, _lang(request))
        return JSONResponse(found.summary())

    async def table_record(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        wanted = request.query_params.get("game")
        game: int | None = None
        if wanted is not None:
            if not (wanted.isascii() and wanted.isdigit() and len(wanted) < 10):
                return _error(message("server.bad-game-number"), 400, _lang(request))
            game = int(wanted)
        found = manager.finished_record(table_id, game)
        if found is None:
            return _error(message("server.no-record"), 404, _lang(request))
        number, text = found
        name = f"durak-{table_id}-game{number}.json"
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def replay(request: Request) -> Response:
        lang = _lang(request)
        try:
            body: Any = await _json_body(request, MAX_RECORD, record=True)
            record = Record.from_dict(body)
            if record.result is None:
                return _error(message("server.record-unfinished"), 400, lang)
            if len(record.actions) > MAX_REPLAY_ACTIONS:
                return _error(message("server.record-too-long", n=MAX_REPLAY_ACTIONS), 413, lang)
            async with replaying:
                steps = await asyncio.to_thread(replay_steps, record)
        except _BadBody as exc:
            return _error(exc.message, exc.status, lang)
        except DurakError as exc:
            return _error(message("server.not-a-record", detail=str(exc)), 400, lang)
        kinds = record.meta.get("seats")
        seats = [str(k) for k in kinds] if isinstance(kinds, list) else []
        return JSONResponse({"players": list(record.players), "seats": seats, "steps": steps})

    async def play(websocket: WebSocket) -> None:
        headers = websocket.headers
        lang = _lang(websocket)
        if not origin_allowed(headers.get("origin"), headers.get("host"), settings.allowed_origins):
            await websocket.accept()
            await websocket.send_json(_error_message(message("server.origin-refused"), lang))
            await websocket.close(code=CLOSE_ORIGIN)
            return
        await websocket.accept()
        table = manager.get(websocket.path_params["table_id"])
        if table is None:
            await websocket.send_json(_error_message(message("server.no-table"), lang))
            await websocket.close(code=CLOSE_UNKNOWN)
            return
        client = websocket.client.host if websocket.client else ""
        refused = manager.admit(table, client)
        if refused is not None:
            await websocket.send_json(_error_message(refused, lang))
            await websocket.close(code=CLOSE_FULL)
            return
        try:
            limit = RateLimit(settings.message_rate, settings.message_burst)
            await _session(websocket, table, settings.outbox, client, lang, limit)
        finally:
            manager.dismiss(client)

    async def sweep() -> None:
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            manager.expire()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        sweeper = asyncio.create_task(sweep())
        for table in manager.tables.values():
            table.kick()
            table._arm_turn()
        try:
            yield
        finally:
            sweeper.cancel()
            await manager.close()

    app = Starlette(
        routes=[
            Route("/", home),
            Route("/table/{table_id}", table_page),
            Route("/replay", home),
            Route("/api/presets", presets),
            Route("/api/i18n", i18n),
            Route("/api/tables", create_table, methods=["POST"]),
            Route("/api/tables/{table_id}", table_info),
            Route("/api/tables/{table_id}/record", table_record),
            Route("/api/replay", replay, methods=["POST"]),
            WebSocketRoute("/ws/{table_id}", play),
            *engine_routes(settings.max_listing),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        lifespan=lifespan,
    )
    if settings.allowed_hosts:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(settings.allowed_hosts))
    app.add_middleware(SecurityHeaders)
    app.state.tables = manager
    return app


async def _writer(websocket: WebSocket, conn: Connection, store: Store | None = None) -> None:
    """Send the connection's queued messages in order; each only once every change made
    before it is committed to ``store`` (:meth:`~durak.web.store.Store.flush`), so what a
    client was told survives the server process being killed."""
    while True:
        message = await conn.outbox.get()
        if store is not None:
            store.flush()
        if isinstance(message, str):
            await websocket.send_text(message)
        else:
            await websocket.send_json(message)


class RateLimit:
    """A token bucket: ``burst`` messages at once, then ``rate`` a second on average.

    >>> bucket = RateLimit(rate=2.0, burst=2, now=0.0)
    >>> bucket.wait(0.0), bucket.wait(0.0), bucket.wait(0.0)
    (0.0, 0.0, 0.5)
    """

    def __init__(self, rate: float, burst: int, now: float | None = None) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.last = time.monotonic() if now is None else now

    def wait(self, now: float | None = None) -> float:
        """Take one message's token: the seconds to wait before handling the message (0 if it
        may be handled now)."""
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        self.tokens -= 1.0
        return 0.0 if self.tokens >= 0 else -self.tokens / self.rate


async def _reader(
    websocket: WebSocket, table: Table, conn: Connection, lang: str, limit: RateLimit
) -> None:
    """Read the client's messages and act on them until it disconnects; a refusal is said in
    English and in ``lang``. Messages beyond ``limit`` are read no faster than it allows: the
    client's further frames wait in its own socket."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        pause = limit.wait()
        if pause > 0:
            await asyncio.sleep(pause)
        text = message.get("text")
        if text is None:
            text = (message.get("bytes") or b"").decode("utf-8", "replace")
        reason = await _handle(table, conn, text)
        if reason is not None:
            conn.send(_error_message(reason, lang, conn.seat))


async def _session(
    websocket: WebSocket,
    table: Table,
    outbox: int,
    client: str,
    lang: str = "en",
    limit: RateLimit | None = None,
) -> None:
    """One person (or onlooker) at ``table``: take a seat by token, then read actions (at most
    as fast as ``limit`` allows) while sending the table's messages (its errors also in
    ``lang``); a client that lets ``outbox`` messages pile up is closed."""
    seat, token = table.claim(websocket.query_params.get("token"))
    conn = Connection(seat, outbox, client)
    conn.send({"type": "welcome", "seat": seat, "token": token, "table": table.id})
    bucket = limit if limit is not None else RateLimit(10.0, 30)
    writer = asyncio.create_task(_writer(websocket, conn, table.store))
    reader = asyncio.create_task(_reader(websocket, table, conn, lang, bucket))
    dropped = asyncio.create_task(conn.dropped.wait())
    table.join(conn)
    try:
        await asyncio.wait({writer, reader, dropped}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        table.leave(conn)
        for task in (writer, reader, dropped):
            task.cancel()
        for task in (writer, reader, dropped):
            with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, Exception):
                await task
    if conn.dropped.is_set():
        with contextlib.suppress(Exception):
            await asyncio.wait_for(
                websocket.close(code=CLOSE_SLOW, reason="too slow: messages piled up"), 5
            )


def _error_message(reason: str, lang: str = "en", seat: int | None = None) -> dict[str, Any]:
    """The error frame for a refused message or connection: ``message`` (English, as a
    sentence), the reason's ``code`` and ``params`` and ``localized`` (said in ``lang`` to
    ``seat``, :func:`~durak.web.protocol.error_fields`); when a rule refused the action, also
    ``rule`` and ``reason`` (the rule's reason as its code and parameters, to say in the page's
    language)."""
    said = as_message(reason)
    fields = error_fields(said, lang, seat)
    out: dict[str, Any] = {"type": "error", "message": sentence(str(said)), **fields}
    out["localized"] = sentence(fields["localized"])
    broken = said.params.get("reason") if said.code == "server.illegal-action" else None
    if isinstance(broken, TextMessage):
        out["rule"] = said.params["rule"]
        out["reason"] = {"code": broken.code, "params": message_params(broken)}
    return out


async def _handle(table: Table, conn: Connection, text: str) -> TextMessage | None:
    """Act on one client message; the reason it was refused (a message of
    :mod:`durak.messages`), or ``None``."""
    if len(text) > MAX_MESSAGE:
        return message("server.message-too-long", n=MAX_MESSAGE)
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            check_size(stripped, MAX_MESSAGE, "the message", _BadBody)
            data = parse_json(stripped, _BadBody, "the message")
        except _BadBody as exc:
            return message("server.not-understood", detail=str(exc))
        if isinstance(data, dict):
            kind = data.get("type")
            if kind == "restart":
                return await table.restart(conn.seat)
            if kind == "leave":
                if conn.seat is None:
                    return message("server.no-seat-to-leave")
                table.release(conn.seat)
                return None
            if kind == "ping":
                return None
            if kind not in (None, "action"):
                return message("server.unknown-type", given=brief(kind))
        return await table.submit(conn.seat, data)
    return await table.submit(conn.seat, stripped)


#: The collector's thresholds while serving (:func:`gc.set_threshold`): the youngest
#: generation as Python's default, a full collection only after 100 collections of the middle
#: one instead of 10. A full collection looks at every live object of every table and holds the
#: loop for tens of milliseconds; the game's objects are freed by reference counting, so the
#: full collections are needed for the rare cycle only.
GC_THRESHOLDS = (700, 10, 100)


def settle_collector(thresholds: tuple[int, int, int] = GC_THRESHOLDS) -> int:
    """Prepare Python's cyclic garbage collector for serving: collect once, then move every
    object alive at start-up (modules, the resumed tables) out of its reach
    (:func:`gc.freeze`), so no collection walks them again, and set ``thresholds``. Called by
    :func:`serve` once the application is built; the number of objects frozen."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)
    return gc.get_freeze_count()


def raise_open_files(wanted: int) -> int:
    """Raise the process's soft limit on open files towards ``wanted`` (as far as the hard
    limit allows; never lower it), so that ``max_connections`` connections, the database and
    the workers fit; the soft limit then (``-1`` where the platform has no such limit)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return -1
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    infinite = resource.RLIM_INFINITY
    target = wanted if hard == infinite else min(wanted, hard)
    if soft != infinite and soft < target:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
    return int(soft)


def default_database() -> Path:
    """Where ``durak serve`` keeps its tables unless told otherwise: ``tables.sqlite3`` in the
    user's data folder for durak: ``$XDG_DATA_HOME/durak`` (by default
    ``~/.local/share/durak``) on Linux and other Unix systems, ``~/Library/Application
    Support/durak`` on macOS, ``%LOCALAPPDATA%\\durak`` on Windows. The folder is not created
    here."""
    home = Path.home()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        given = os.environ.get("XDG_DATA_HOME", "")
        base = Path(given) if os.path.isabs(given) else home / ".local" / "share"
    return base / "durak" / "tables.sqlite3"


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    bot_delay: float = 0.6,
    *,
    config: ServerConfig | None = None,
    database: str | Path | None = DEFAULT_DATABASE,
) -> None:
    """Run the web front-end with uvicorn until interrupted, keeping the tables in the SQLite
    file ``database`` (``None``: in memory only; by default :func:`default_database`, its
    folder created if missing).

    The connection limits of ``config`` are uvicorn's options (:mod:`durak.web.transport`);
    a config without ``allowed_hosts`` accepts the names :func:`~durak.web.config.default_hosts`
    gives for ``host``.

    Raises:
        sqlite3.Error: the database cannot be opened.
        OSError: its folder cannot be created.
    """
    import uvicorn

    from durak.web.transport import uvicorn_options

    config = config if config is not None else ServerConfig(bot_delay=bot_delay)
    if not config.allowed_hosts:
        config = dataclasses.replace(config, allowed_hosts=default_hosts(host))
    if database is DEFAULT_DATABASE:
        database = default_database()
        database.parent.mkdir(parents=True, exist_ok=True)
    kept = Store(database) if database is not None else None
    where = f", tables kept in {database}" if database is not None else ""
    print(f"durak: serving on http://{host}:{port}/{where} (Ctrl+C stops)", flush=True)
    app = create_app(config, store=kept)
    settle_collector()
    raise_open_files(config.max_connections + 256)
    try:
        uvicorn.run(
            app,
            host=host,
            port=port,
            log_level="warning",
            **uvicorn_options(config, 4 * MAX_MESSAGE),
        )
    finally:
        if kept is not None:
            kept.close()  # every queued change committed
