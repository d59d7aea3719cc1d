"""The limits and switches of a ``durak serve`` server, in one frozen object.

Every cap exists because a hostile client could otherwise take memory, CPU or other people's
games; each is answered with a clear message (HTTP ``429``/``503``, or a WebSocket ``error``
message and a close code) rather than by dropping someone else's table.

>>> config = ServerConfig()
>>> config.max_tables, config.outbox, config.allow_fixed_seeds
(500, 64, False)
>>> ServerConfig(outbox=0)
Traceback (most recent call last):
...
ValueError: ServerConfig.outbox must be at least 1, not 0
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields

__all__ = ["CLOSE_FULL", "CLOSE_ORIGIN", "CLOSE_SLOW", "CLOSE_UNKNOWN", "ServerConfig"]

#: WebSocket close code: the table does not exist.
CLOSE_UNKNOWN = 4404
#: WebSocket close code: the page's origin is not one this server serves.
CLOSE_ORIGIN = 4403
#: WebSocket close code: too many connections (to the table, from the address).
CLOSE_FULL = 4429
#: WebSocket close code (RFC 6455 "policy violation"): the client read too slowly and its
#: messages piled up.
CLOSE_SLOW = 1008


def _default_workers() -> int:
    return max(1, (os.cpu_count() or 2) - 1)


@dataclass(frozen=True)
class ServerConfig:
    """What a server allows. Counts are whole numbers, times are seconds.

    Attributes:
        bot_delay: seconds a bot waits before each action, so people can follow (0 in tests).
        outbox: the most messages waiting to be sent on one connection; one more and the
            connection is closed (code 1008): a client that stops reading cannot grow the
            server's memory.
        sockets_per_table: the most connections (people and onlookers) at one table.
        sockets_per_client: the most connections from one client address, over all tables.
        tables_per_client: the most open tables created from one client address (a table
            that has expired no longer counts).
        max_tables: the most tables kept; when full, idle tables are expired first, and a live
            table (someone connected, or a game under way) is never dropped: the request is
            refused with ``503``.
        idle_expiry: seconds after which a table that nobody is connected to and where nothing
            happened is forgotten (its finished games stay downloadable where they are stored).
        seat_grace: seconds a person's seat is kept for him after his last connection closes
            before play began; then the seat is free for someone else.
        allow_fixed_seeds: whether ``POST /api/tables`` may fix the deal with a ``seed`` (for
            demos and tests); the seed is then shown to every seat. Off: the server chooses every
            deal from a secret seed.
        allowed_origins: the page origins (``https://example.org``) whose WebSockets are
            accepted besides the server's own (the ``Host`` the request was sent to).
        search_workers: processes that run search bots; the cap on searches run at once.
        move_budget: seconds a search bot may think about one move; a move not ready after
            twice that (plus a second for a busy pool) is played by the rule-of-thumb bot.
        max_timer: the longest turn timer a table may be created with.
    """

    bot_delay: float = 0.6
    outbox: int = 64
    sockets_per_table: int = 32
    sockets_per_client: int = 32
    tables_per_client: int = 20
    max_tables: int = 500
    idle_expiry: float = 6 * 3600.0
    seat_grace: float = 60.0
    allow_fixed_seeds: bool = False
    allowed_origins: tuple[str, ...] = ()
    search_workers: int = 0
    move_budget: float = 0.5
    max_timer: float = 600.0

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in ("allow_fixed_seeds", "allowed_origins"):
                continue
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise TypeError(f"ServerConfig.{f.name} must be a number, not {value!r}")
            least = 0 if f.name in ("bot_delay", "search_workers", "seat_grace") else 1
            if f.name in ("move_budget", "idle_expiry", "max_timer"):
                least = 0
                if value <= 0:
                    raise ValueError(f"ServerConfig.{f.name} must be positive, not {value!r}")
            if value < least:
                raise ValueError(f"ServerConfig.{f.name} must be at least {least}, not {value!r}")
        if self.search_workers == 0:
            object.__setattr__(self, "search_workers", _default_workers())
        object.__setattr__(
            self, "allowed_origins", tuple(o.rstrip("/").lower() for o in self.allowed_origins)
        )
