"""How ``durak serve`` configures uvicorn, the server under the application: the connection
limits of :class:`~durak.web.config.ServerConfig` as uvicorn's own options, and two small
subclasses of its protocols for the limits it has no option for.

uvicorn's options set here (:func:`uvicorn_options`):

- ``http``: its ``h11`` parser, the one that bounds a request head
  (``h11_max_incomplete_event_size``); the ``httptools`` parser, which the ``web`` extra also
  installs, takes heads of any size.
- ``h11_max_incomplete_event_size`` (``max_header``), ``timeout_keep_alive`` (``keep_alive``),
  ``limit_concurrency`` (``max_connections``).
- ``proxy_headers`` and ``forwarded_allow_ips``: only the configured ``proxies`` are believed
  about the client's address (uvicorn believes ``127.0.0.1`` by default, so any local client,
  or a proxy on the same machine, could pick its address with a header).
- ``ws_max_size``, ``ws_max_queue``, ``ws_per_message_deflate``, ``ws_ping_interval``,
  ``ws_ping_timeout``.

What uvicorn has no option for:

- :class:`HeadTimeoutProtocol`: a connection that has not sent a whole request head
  ``header_timeout`` seconds after it opened (or after its last answer) is closed. uvicorn's
  keep-alive timer starts only after a first answer and stops at the first byte of the next
  request, so idle connections and slowloris requests would otherwise stay open.
- :class:`ClosingWebSocketProtocol`: a WebSocket the application closes while the client is not
  reading (its send buffer full) is torn down at once (``SO_LINGER`` 0, then abort), instead of
  waiting forever for the client to read what is queued; and a text frame that is not UTF-8 is
  logged as one line, at most once every :data:`LOG_EVERY` seconds, instead of a traceback each.

>>> options = uvicorn_options(ServerConfig())
>>> options["http"].__name__, options["proxy_headers"], options["h11_max_incomplete_event_size"]
('HeadTimeoutProtocol', False, 16384)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import struct
import time
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from durak.web.config import ServerConfig

__all__ = [
    "LOG_EVERY",
    "ClosingWebSocketProtocol",
    "HeadTimeoutProtocol",
    "uvicorn_options",
]

log = logging.getLogger(__name__)

#: Seconds between two log lines about frames that are not UTF-8 (the others are counted).
LOG_EVERY = 10.0

#: Seconds a WebSocket whose application has closed it may still take to read its close frame
#: when its send buffer is full; then it is torn down.
CLOSE_GRACE = 2.0


def _tear_down(transport: asyncio.Transport) -> None:
    """Close ``transport`` at once, dropping what is queued for it: ``SO_LINGER`` 0 makes the
    kernel reset the connection and free its buffers instead of trying to deliver them."""
    sock = transport.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):  # already closed
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    transport.abort()


class HeadTimeoutProtocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request head: ``header_timeout``
    seconds from when the connection opens, and again from when an answer is complete (the
    next request of a kept-alive connection). A connection still without a whole head then is
    closed."""

    #: Seconds a connection has for a request head (set by :func:`uvicorn_options`).
    header_timeout = 10.0

    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_head_timer()

    def _arm_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        self._head_timer = self.loop.call_later(self.header_timeout, self._head_too_slow)

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if self._waiting_for_head() and not self.transport.is_closing():
            self.transport.close()

    def _waiting_for_head(self) -> bool:
        return bool(self.conn.their_state is h11.IDLE)

    def handle_events(self) -> None:
        super().handle_events()
        if self._head_timer is not None and not self._waiting_for_head():
            self._head_timer.cancel()
            self._head_timer = None

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        super().connection_lost(exc)


class ClosingWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (the ``websockets`` library, sans-I/O) that tears down a
    connection the application closed while its client was not reading, and logs text frames
    that are not UTF-8 as one rate-limited line."""

    #: When a line about a frame that was not UTF-8 was last logged, and how many since.
    _bad_text_logged = 0.0
    _bad_text_unlogged = 0

    async def send(self, message: Any) -> None:
        closing = message["type"] == "websocket.close"
        if (
            closing
            and self.handshake_complete
            and self.initial_response is None
            and not self.writable.is_set()
            and not self.close_sent
            and not self.transport.is_closing()
        ):
            # The client is not reading: queue the close frame behind what waits, and give it
            # a moment to read it; a client still not reading then is cut off.
            code = message.get("code", 1000)
            self.queue.put_nowait({"type": "websocket.disconnect", "code": code})
            self.conn.send_close(code, message.get("reason", "") or "")
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.close_sent = True
            self.close_timer = self.loop.call_later(CLOSE_GRACE, _tear_down, self.transport)
            return
        await super().send(message)
        if closing and self.close_timer is not None:
            # uvicorn closes gracefully when the client does not answer the close frame, which
            # never completes while the client does not read: cut it off instead.
            self.close_timer.cancel()
            self.close_timer = self.loop.call_later(self.close_timeout, _tear_down, self.transport)

    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type == "text" and not self.close_sent:
            data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
            try:
                data.decode()
            except UnicodeDecodeError:
                self.frames = []
                self._log_bad_text()
                self.conn.send_close(1007)
                self.handle_parser_exception()
                return
        super().send_receive_event_to_app()

    def _log_bad_text(self) -> None:
        cls = ClosingWebSocketProtocol
        now = time.monotonic()
        if now - cls._bad_text_logged < LOG_EVERY:
            cls._bad_text_unlogged += 1
            return
        more = cls._bad_text_unlogged
        cls._bad_text_logged, cls._bad_text_unlogged = now, 0
        client = f"{self.client[0]}:{self.client[1]}" if self.client else "?"
        also = f" ({more} more since the last such line)" if more else ""
        log.warning("closed a WebSocket from %s: a text frame was not UTF-8%s", client, also)


def uvicorn_options(config: ServerConfig, max_frame: int = 16 * 1024) -> dict[str, Any]:
    """The keyword arguments of :class:`uvicorn.Config` (or :func:`uvicorn.run`) that apply
    ``config``'s connection limits; ``max_frame`` is the largest WebSocket frame taken
    (bytes)."""
    timeout = {"header_timeout": config.header_timeout}
    head = type("HeadTimeoutProtocol", (HeadTimeoutProtocol,), timeout)
    return {
        "http": head,
        "ws": ClosingWebSocketProtocol,
        "h11_max_incomplete_event_size": config.max_header,
        "timeout_keep_alive": config.keep_alive,
        "limit_concurrency": config.max_connections,
        "proxy_headers": bool(config.proxies),
        "forwarded_allow_ips": list(config.proxies) or None,
        "ws_max_size": max_frame,
        "ws_max_queue": 16,
        # A state message is about 2 KB; compressing each one for each seat cost more CPU than
        # building it (benchmarks/bench_web.py), so frames go uncompressed.
        "ws_per_message_deflate": False,
        "ws_ping_interval": 20.0,
        "ws_ping_timeout": 20.0,
    }
