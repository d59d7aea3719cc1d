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

import contextlib
import os
import socket
from dataclasses import dataclass, fields

from durak.levels import DEFAULT_MOVE_BUDGET

__all__ = [
    "ANY_ADDRESS",
    "CLOSE_FULL",
    "CLOSE_ORIGIN",
    "CLOSE_SLOW",
    "CLOSE_UNKNOWN",
    "LOCAL_HOSTS",
    "ServerConfig",
    "default_hosts",
]

#: WebSocket close code: the table does not exist.
CLOSE_UNKNOWN = 4404
#: WebSocket close code: the page's origin is not one this server serves.
CLOSE_ORIGIN = 4403
#: WebSocket close code: too many connections (to the table, from the address).
CLOSE_FULL = 4429
#: WebSocket close code (RFC 6455 "policy violation"): the client read too slowly and its
#: messages piled up.
CLOSE_SLOW = 1008


#: The settings that must be more than 0 (times).
_POSITIVE = (
    "move_budget",
    "idle_expiry",
    "max_timer",
    "abandoned_after",
    "header_timeout",
    "keep_alive",
    "message_rate",
)

#: The settings that may be 0.
_MAY_BE_ZERO = ("bot_delay", "search_workers", "seat_grace", "reserved_tables")

#: The names of this machine that ``durak serve`` always accepts in a ``Host`` header.
LOCAL_HOSTS: tuple[str, ...] = ("localhost", "127.0.0.1", "::1")

#: The addresses that mean "every address of this machine" when a server binds them.
ANY_ADDRESS: tuple[str, ...] = ("", "0.0.0.0", "::")


def default_hosts(host: str) -> tuple[str, ...]:
    """The ``Host`` names a server bound to ``host`` accepts by default: ``host`` itself and
    the local names (:data:`LOCAL_HOSTS`); for a server bound to every address
    (:data:`ANY_ADDRESS`), also this machine's name and the addresses it resolves to.

    >>> default_hosts("127.0.0.1")
    ('localhost', '127.0.0.1', '::1')
    >>> default_hosts("192.168.1.20")
    ('localhost', '127.0.0.1', '::1', '192.168.1.20')
    """
    names = list(LOCAL_HOSTS)
    if host.strip("[]") in ANY_ADDRESS:
        machine = socket.gethostname()
        found = [machine, socket.getfqdn()]
        with contextlib.suppress(OSError):
            found += [str(a[4][0]) for a in socket.getaddrinfo(machine, None)]
        extra = found
    else:
        extra = [host.strip("[]")]
    for name in extra:
        name = name.lower()
        if name and name not in names:
            names.append(name)
    return tuple(names)


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
        abandoned_after: seconds after which a game under way that nobody is connected to and
            where nothing happened no longer keeps its table live: it may be dropped to make
            room for a new one.
        reserved_tables: the last places for tables, kept for addresses that have no open table
            (``None``: a tenth of ``max_tables``); an address that has one is refused ``429``
            while fewer places than this are left.
        header_timeout: seconds a connection has to send a request's head (its request line and
            headers), from when it opens or its last answer was sent; then it is closed. Bounds
            idle connections and slowloris requests.
        keep_alive: seconds an HTTP connection is kept open after an answer, for the next
            request (uvicorn's ``timeout_keep_alive``).
        max_header: the largest request head in bytes (uvicorn's
            ``h11_max_incomplete_event_size``); a bigger one is answered ``400`` and closed.
        max_connections: the most connections and requests in progress at once; beyond it new
            requests are answered ``503`` (uvicorn's ``limit_concurrency``).
        proxies: the addresses of reverse proxies whose ``X-Forwarded-For`` and
            ``X-Forwarded-Proto`` headers are believed (uvicorn's ``forwarded_allow_ips``);
            empty: the headers are ignored and every client is known by its own address.
        allowed_hosts: the ``Host`` names (and addresses) requests may be sent to; others are
            answered ``400`` (Starlette's ``TrustedHostMiddleware``), which defeats DNS
            rebinding. Empty: not checked (``durak serve`` sets it from the address it binds,
            :func:`default_hosts`).
        message_rate: the messages a second one WebSocket connection may send on average; the
            server reads faster ones no faster than that.
        message_burst: the messages a connection may send at once before ``message_rate``
            applies.
        max_listing: the most legal actions one position of a table's rules may list
            (:func:`durak.rules.listing_bound`, R13.1); rules that allow more are refused
            (``400``), so that listing and sending a position never holds the server for long.
            Every preset is within it (the largest, ``double-deck``, lists at most 989).
    """

    bot_delay: float = 0.6
    outbox: int = 64
    sockets_per_table: int = 32
    sockets_per_client: int = 32
    tables_per_client: int = 20
    max_tables: int = 500
    idle_expiry: float = 1800.0
    seat_grace: float = 60.0
    allow_fixed_seeds: bool = False
    allowed_origins: tuple[str, ...] = ()
    search_workers: int = 0
    move_budget: float = DEFAULT_MOVE_BUDGET
    max_timer: float = 600.0
    abandoned_after: float = 300.0
    reserved_tables: int | None = None
    header_timeout: float = 10.0
    keep_alive: float = 5.0
    max_header: int = 16 * 1024
    max_connections: int = 2000
    proxies: tuple[str, ...] = ()
    allowed_hosts: tuple[str, ...] = ()
    message_rate: float = 10.0
    message_burst: int = 30
    max_listing: int = 2000

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in ("allow_fixed_seeds", "allowed_origins", "proxies", "allowed_hosts"):
                continue
            if f.name == "reserved_tables" and value is None:
                continue
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise TypeError(f"ServerConfig.{f.name} must be a number, not {value!r}")
            least = 0 if f.name in _MAY_BE_ZERO else 1
            if f.name in _POSITIVE:
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
        for name in ("proxies", "allowed_hosts"):
            value = getattr(self, name)
            if isinstance(value, str) or not all(isinstance(v, str) for v in value):
                raise TypeError(f"ServerConfig.{name} must be a tuple of text, not {value!r}")
            object.__setattr__(self, name, tuple(v.strip().lower() for v in value))
        if self.reserved_tables is None:
            object.__setattr__(self, "reserved_tables", self.max_tables // 10)
        elif self.reserved_tables >= self.max_tables:
            raise ValueError(
                f"ServerConfig.reserved_tables must be less than max_tables ({self.max_tables}),"
                f" not {self.reserved_tables}"
            )

    @property
    def reserve(self) -> int:
        """The places kept for addresses without an open table (:attr:`reserved_tables`)."""
        return self.reserved_tables or 0
