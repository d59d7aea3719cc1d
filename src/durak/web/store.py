"""Where a ``durak serve`` server keeps its tables between runs: one SQLite file (the standard
library's :mod:`sqlite3`).

It holds every open table (its rules, seats, the current game's deal and the address of the
client that created it, for the caps per address), each seat's token as
a SHA-256 digest (never the token itself), every action as it is applied, and each finished
game as a game record (:mod:`durak.records`). A restarted server reads the open tables back and
replays their actions, so every game resumes where it was and a token returns its seat.

The file is in WAL mode with ``synchronous=NORMAL``. Commits are grouped: on a running event
loop, the changes of :data:`GROUP_WAIT` (5 ms) are committed together in one transaction, so a
busy server commits at most 200 times a second instead of once per action. Reads commit the
waiting changes first (:meth:`Store.flush`), so they see every change made before them, and
:meth:`Store.close` commits them too. The server also commits the waiting changes before it
sends any message to a client, so a server process that is killed loses only changes nobody has
been told of (at most those of its last 5 ms), even when its event loop was held up. The WAL
file is checkpointed into the database by a thread of its own (one SQLite call a second, which
holds no lock Python needs), so the loop never waits for the disk's ``fsync``. Without a
running loop, and for a store in memory (``":memory:"``), each change is committed at once.

>>> store = Store(":memory:")
>>> store.save_table(TableRow("t1", "podkidnoy", {"players": 2}, ["human", "rule"], None,
...     0.0, 1.0, 1, 77, 1, None))
>>> [row.id for row in store.open_tables()]
['t1']
>>> store.add_action("t1", 1, 0, "p0 lead 7h")
>>> store.actions("t1", 1)
['p0 lead 7h']
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import sqlite3
import threading
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Store", "TableRow", "hash_token"]

log = logging.getLogger(__name__)

#: One change: SQL statements and their parameters, committed together.
_Change = list[tuple[str, tuple[Any, ...]]]

#: Seconds the changes of a moment are gathered before they are committed together (the most a
#: killed server process can lose).
GROUP_WAIT = 0.005

#: Seconds between two checkpoints of the WAL file (by the checkpoint thread).
CHECKPOINT_EVERY = 1.0


_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    preset TEXT NOT NULL,
    rules TEXT NOT NULL,        -- Rules.to_dict() as JSON
    kinds TEXT NOT NULL,        -- the seats' kinds as a JSON list
    fixed_seed TEXT,            -- the seed a demo table was created with (JSON), else NULL
    timer REAL NOT NULL,        -- the turn timer in seconds (0: off)
    created REAL NOT NULL,      -- Unix time
    game INTEGER NOT NULL,      -- the number of the current game
    seed TEXT NOT NULL,         -- the current game's seed (JSON)
    dealer INTEGER NOT NULL,
    attacker INTEGER,           -- the appointed first attacker (R11.2), or NULL
    closed INTEGER NOT NULL DEFAULT 0,
    creator TEXT NOT NULL DEFAULT ''  -- the address of the client that created it
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    token_hash TEXT,            -- SHA-256 of the person's token, NULL while free
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL,
    game INTEGER NOT NULL,
    n INTEGER NOT NULL,
    action TEXT NOT NULL,       -- the notation (R13)
    PRIMARY KEY (table_id, game, n)
);
CREATE TABLE IF NOT EXISTS records (
    table_id TEXT NOT NULL,
    game INTEGER NOT NULL,
    finished REAL NOT NULL,     -- Unix time
    record TEXT NOT NULL,       -- durak.records.dumps()
    PRIMARY KEY (table_id, game)
);
"""


def hash_token(token: str) -> str:
    """The SHA-256 digest (hex) under which a seat's token is kept: the tokens are 144 random
    bits, so a fast hash is enough to make a stolen database useless for taking seats."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass
class TableRow:
    """One open table as stored (see the ``tables`` schema in this module)."""

    id: str
    preset: str
    rules: dict[str, Any]
    kinds: list[str]
    fixed_seed: int | str | None
    timer: float
    created: float
    game: int
    seed: int | str
    dealer: int
    attacker: int | None
    creator: str = ""


class Store:
    """A server's SQLite file (``":memory:"`` for a store that ends with the process).

    Args:
        path: the file.
        grouped: group the commits made on a running event loop (the default); ``False``
            commits each change at once.

    Raises:
        sqlite3.Error: the file cannot be opened or is not a database.
    """

    def __init__(self, path: str | Path, *, grouped: bool = True) -> None:
        self.path = str(path)
        self.grouped = grouped
        self.db = self._connect()
        # A store dropped without close() (a table manager's own in-memory store, say) still
        # closes its connection when it is collected, or at exit.
        weakref.finalize(self, self.db.close)
        self.db.executescript(_SCHEMA)
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(tables)")}
        if "creator" not in columns:  # a file of an earlier version
            self.db.execute("ALTER TABLE tables ADD COLUMN creator TEXT NOT NULL DEFAULT ''")
        #: Changes waiting for the next grouped commit, and the timer that will commit them.
        self._pending: list[_Change] = []
        self._timer: asyncio.TimerHandle | None = None
        self._timer_loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()
        #: Commits made (a group of changes each), for tests and tools.
        self.commits = 0
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if self.path != ":memory:":
            self.db.execute("PRAGMA wal_autocheckpoint=0")  # the checkpoint thread does it
            self._checkpointer = threading.Thread(
                target=self._checkpoints, name="durak-store-checkpoint", daemon=True
            )
            self._checkpointer.start()

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        if self.path != ":memory:":
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
        return db

    def _checkpoints(self) -> None:
        """The checkpoint thread: copy the WAL file into the database now and then (``PASSIVE``:
        never waiting for the loop's connection), and once more at the end."""
        db = self._connect()
        try:
            while not self._stop.wait(CHECKPOINT_EVERY):
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                except sqlite3.Error:  # pragma: no cover - busy or gone: next time
                    log.debug("checkpoint of %s skipped", self.path, exc_info=True)
        finally:
            db.close()

    def close(self) -> None:
        """Commit every waiting change, stop the checkpoint thread and close the file."""
        self.flush()
        if self._checkpointer is not None:
            self._stop.set()
            self._checkpointer.join()
            self._checkpointer = None
            with contextlib.suppress(sqlite3.Error):
                self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self.db.close()

    def flush(self) -> None:
        """Commit the changes waiting for a grouped commit (nothing to do if none wait)."""
        with self._lock:  # held while committing, so no later change is committed first
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            pending, self._pending = self._pending, []
            if pending:
                self._commit_all(pending)

    def _write(self, change: _Change) -> None:
        """Commit ``change`` (statements that belong together) with the others of this moment,
        or at once without a running event loop."""
        loop = None
        if self.grouped:
            with contextlib.suppress(RuntimeError):
                loop = asyncio.get_running_loop()
        with self._lock:
            self._pending.append(change)
            if loop is None:
                pending, self._pending = self._pending, []
                self._commit_all(pending)
            elif self._timer is None or self._timer_loop is not loop:  # none, or a closed loop's
                self._timer = loop.call_later(GROUP_WAIT, self.flush)
                self._timer_loop = loop

    def _commit(self, statements: _Change) -> None:
        with self.db:
            self.db.execute("BEGIN")
            for sql, params in statements:
                self.db.execute(sql, params)
        self.commits += 1

    def _commit_all(self, changes: list[_Change]) -> None:
        """Commit ``changes`` in one transaction (the lock held). If that fails, each is
        committed on its own, and a change that still fails is logged and left out (the others
        stay)."""
        try:
            self._commit([s for change in changes for s in change])
        except sqlite3.Error:
            if len(changes) == 1:
                log.exception("a change to %s could not be stored", self.path)
                return
            for change in changes:
                try:
                    self._commit(change)
                except sqlite3.Error:
                    log.exception("a change to %s could not be stored", self.path)

    # --- tables ------------------------------------------------------------------------------

    def save_table(self, row: TableRow) -> None:
        """Store a table (a new one, or its next game: the deal and the game number)."""
        self._write(
            [
                (
                    "INSERT OR REPLACE INTO tables (id, preset, rules, kinds, fixed_seed, timer,"
                    " created, game, seed, dealer, attacker, closed, creator)"
                    " VALUES (?,?,?,?,?,?,?,?,?,?,?,0,?)",
                    (
                        row.id,
                        row.preset,
                        json.dumps(row.rules),
                        json.dumps(row.kinds),
                        None if row.fixed_seed is None else json.dumps(row.fixed_seed),
                        row.timer,
                        row.created,
                        row.game,
                        json.dumps(row.seed),
                        row.dealer,
                        row.attacker,
                        row.creator,
                    ),
                )
            ]
        )

    def open_tables(self) -> list[TableRow]:
        """Every table not closed, oldest first."""
        self.flush()
        rows = self.db.execute(
            "SELECT id, preset, rules, kinds, fixed_seed, timer, created, game, seed, dealer,"
            " attacker, creator FROM tables WHERE closed = 0 ORDER BY created"
        ).fetchall()
        return [
            TableRow(
                r[0],
                r[1],
                json.loads(r[2]),
                json.loads(r[3]),
                None if r[4] is None else json.loads(r[4]),
                r[5],
                r[6],
                r[7],
                json.loads(r[8]),
                r[9],
                r[10],
                r[11],
            )
            for r in rows
        ]

    def close_table(self, table_id: str) -> None:
        """Forget an expired table's game (its finished games' records stay)."""
        self._write(
            [
                ("UPDATE tables SET closed = 1 WHERE id = ?", (table_id,)),
                ("DELETE FROM actions WHERE table_id = ?", (table_id,)),
                ("DELETE FROM seats WHERE table_id = ?", (table_id,)),
            ]
        )

    # --- seats -------------------------------------------------------------------------------

    def set_seat(self, table_id: str, seat: int, token_hash: str | None) -> None:
        """Store who holds a seat (a token's digest), or that it is free (``None``)."""
        self._write([("INSERT OR REPLACE INTO seats VALUES (?,?,?)", (table_id, seat, token_hash))])

    def seats(self, table_id: str) -> dict[int, str]:
        """The taken seats of a table: seat number to token digest."""
        self.flush()
        rows = self.db.execute(
            "SELECT seat, token_hash FROM seats WHERE table_id = ? AND token_hash IS NOT NULL",
            (table_id,),
        )
        return {seat: digest for seat, digest in rows}

    # --- actions and records -----------------------------------------------------------------

    def add_action(self, table_id: str, game: int, n: int, action: str) -> None:
        """Store the ``n``-th action (from 0) of a table's game."""
        self._write([("INSERT INTO actions VALUES (?,?,?,?)", (table_id, game, n, action))])

    def actions(self, table_id: str, game: int) -> list[str]:
        """A table's game's actions in order (notation)."""
        self.flush()
        rows = self.db.execute(
            "SELECT action FROM actions WHERE table_id = ? AND game = ? ORDER BY n",
            (table_id, game),
        )
        return [text for (text,) in rows]

    def finish_game(self, table_id: str, game: int, record: str) -> None:
        """Store a finished game's record (its actions stay until the next game is dealt, so a
        restarted server shows the game over, not dealt again)."""
        self._write(
            [
                (
                    "INSERT OR REPLACE INTO records VALUES (?,?,?,?)",
                    (table_id, game, time.time(), record),
                )
            ]
        )

    def drop_actions(self, table_id: str, game: int) -> None:
        """Forget a game's single actions (its record, if finished, stays)."""
        self._write([("DELETE FROM actions WHERE table_id = ? AND game = ?", (table_id, game))])

    def record(self, table_id: str, game: int | None = None) -> tuple[int, str] | None:
        """A finished game's record text and number (the last finished game when ``game`` is
        ``None``), or ``None``."""
        self.flush()
        if game is None:
            row = self.db.execute(
                "SELECT game, record FROM records WHERE table_id = ? ORDER BY game DESC LIMIT 1",
                (table_id,),
            ).fetchone()
        else:
            row = self.db.execute(
                "SELECT game, record FROM records WHERE table_id = ? AND game = ?",
                (table_id, game),
            ).fetchone()
        return None if row is None else (row[0], row[1])

    def games(self, table_id: str) -> list[int]:
        """The numbers of a table's finished games, in order."""
        self.flush()
        rows = self.db.execute(
            "SELECT game FROM records WHERE table_id = ? ORDER BY game", (table_id,)
        )
        return [game for (game,) in rows]
