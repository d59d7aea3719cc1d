"""Helpers of the web server's tests: reading a WebSocket until a message comes, running the app
with uvicorn on a free loopback port, and search bots for the worker-process tests.

The web stack is imported only inside :func:`serving`, so that a worker process unpickling one
of the bots imports little more than the bots themselves.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from durak.actions import Action
from durak.bots import SearchBot

Message = dict[str, Any]


def until(ws: Any, predicate: Callable[[Message], bool], limit: int = 3000) -> Message:
    """Read JSON messages from a test socket until one satisfies ``predicate`` (at most
    ``limit``); return it."""
    for _ in range(limit):
        message: Message = ws.receive_json()
        if predicate(message):
            return message
    raise AssertionError("no such message")


def next_state(ws: Any) -> Message:
    """The next ``state`` message."""
    return until(ws, lambda m: m["type"] == "state")


def next_error(ws: Any) -> Message:
    """The next ``error`` message."""
    return until(ws, lambda m: m["type"] == "error")


@contextlib.contextmanager
def serving(app: Any, config: Any = None) -> Iterator[int]:
    """Serve the ASGI ``app`` with uvicorn in a thread on a free 127.0.0.1 port (yielded) until
    the block ends, configured as ``durak serve`` configures it for ``config`` (by default the
    app's own :class:`~durak.web.config.ServerConfig`):
    :func:`durak.web.transport.uvicorn_options`."""
    import uvicorn

    from durak.web.transport import uvicorn_options

    if config is None:
        state = getattr(app, "state", None)
        tables = getattr(state, "tables", None)
        if tables is not None:
            config = tables.config
    options = uvicorn_options(config) if config is not None else {}
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", **options)
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(10)


class WhereBot(SearchBot):
    """A search bot that notes the process it chose in (``where``, 0 before) and that process's
    scheduling priority (``nice``)."""

    where = 0
    nice = 0

    def choose(self, v: Any) -> Action:
        self.where = os.getpid()
        self.nice = os.nice(0)
        return super().choose(v)


class SlowBot(SearchBot):
    """A search bot that overruns any budget (it sleeps four seconds first)."""

    def choose(self, v: Any) -> Action:
        time.sleep(4)
        return super().choose(v)
