"""Where a ``durak serve`` server keeps its tables between runs: one SQLite file (the standard
library's :mod:`sqlite3`).

It holds every open table (its rules, seats and the current game's deal), each seat's token as
a SHA-256 digest (never the token itself), every action as it is applied, and each finished
game as a game record (:mod:`durak.records`). A restarted server reads the open tables back and
replays their actions, so every game resumes where it was and a token returns its seat.

The file is in WAL mode with ``synchronous=NORMAL``. Writes leave the server's event loop: each
change is queued, and a writer thread commits whatever has been queued since its last commit
in one transaction (grouped commits), so the loop never waits for the disk. Reads first wait
for the queued writes (:meth:`Store.flush`), so they see every change made before them. A
:meth:`Store.close` commits everything queued; a server process that is killed loses only the
changes queued and not yet committed: those of the last few milliseconds (the writer waits
:data:`GROUP_WAIT`, 5 ms, to gather them; a commit takes well under a millisecond, a checkpoint
a few more). A store in memory (``":memory:"``) writes at once.

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

import hashlib
import json
import logging
import queue
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Store", "TableRow", "hash_token"]

log = logging.getLogger(__name__)

#: One change: SQL statements and their parameters, committed together.
_Change = list[tuple[str, tuple[Any, ...]]]

#: Seconds the writer waits after a change arrives before it commits, so the changes of that
#: moment go in one commit (the most a killed server process can lose).
GROUP_WAIT = 0.005

#: The most changes waiting for the writer; past it a change waits for room (a stalled disk
#: slows the server down instead of growing its memory).
QUEUE_LIMIT = 100_000

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
    closed INTEGER NOT NULL DEFAULT 0
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


class Store:
    """A server's SQLite file (``":memory:"`` for a store that ends with the process).

    Args:
        path: the file.
        grouped: commit from a writer thread, grouping the changes queued meanwhile (the
            default for a file); ``False`` commits each change at once, on the caller's thread.

    Raises:
        sqlite3.Error: the file cannot be opened or is not a database.
    """

    def __init__(self, path: str | Path, *, grouped: bool = True) -> None:
        self.path = str(path)
        self.db = self._connect()
        self.db.executescript(_SCHEMA)
        #: Changes queued for the writer thread (``None`` stops it); ``None`` writes at once.
        self._queue: queue.Queue[_Change | None] | None = None
        self._queued = 0  # changes queued so far (the loop's count)
        self._written = 0  # changes committed (or given up) so far (the writer's count)
        self._done = threading.Condition()
        self._writer: threading.Thread | None = None
        #: Commits made (a group of changes each), for tests and tools.
        self.commits = 0
        if grouped and self.path != ":memory:":
            self._queue = queue.Queue(QUEUE_LIMIT)
            self._writer = threading.Thread(
                target=self._write_queued, args=(self._connect(),), name="durak-store", daemon=True
            )
            self._writer.start()

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        if self.path != ":memory:":
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
        return db

    def close(self) -> None:
        """Commit every queued change, stop the writer and close the file."""
        if self._queue is not None and self._writer is not None:
            self._queue.put(None)
            self._writer.join()
            self._queue = None
        self.db.close()

    def flush(self) -> None:
        """Wait until every change queued so far is committed (at once for a store that
        writes at once)."""
        if self._queue is None:
            return
        with self._done:
            target = self._queued
            self._done.wait_for(lambda: self._written >= target)

    def _write(self, change: _Change) -> None:
        """Commit ``change`` (statements that belong together), or queue it for the writer."""
        if self._queue is None:
            self._commit(self.db, change)
            return
        with self._done:
            self._queued += 1
        self._queue.put(change)

    def _commit(self, db: sqlite3.Connection, statements: _Change) -> None:
        with db:
            db.execute("BEGIN")
            for sql, params in statements:
                db.execute(sql, params)
        self.commits += 1

    def _write_queued(self, db: sqlite3.Connection) -> None:
        """The writer thread: commit what is queued, all of it in one transaction, until told
        to stop. A group that fails is committed change by change, and a change that still
        fails is logged and left out (the others stay)."""
        assert self._queue is not None
        changes = self._queue
        stop = False
        while not stop:
            group = [changes.get()]
            if group[0] is not None:
                time.sleep(GROUP_WAIT)
            while True:
                try:
                    group.append(changes.get_nowait())
                except queue.Empty:
                    break
            stop = None in group
            real = [change for change in group if change is not None]
            if real:
                try:
                    self._commit(db, [s for change in real for s in change])
                except sqlite3.Error:
                    for change in real:
                        try:
                            self._commit(db, change)
                        except sqlite3.Error:
                            log.exception("a change to %s could not be stored", self.path)
            with self._done:
                self._written += len(real)
                self._done.notify_all()
        db.close()

    # --- tables ------------------------------------------------------------------------------

    def save_table(self, row: TableRow) -> None:
        """Store a table (a new one, or its next game: the deal and the game number)."""
        self._write(
            [
                (
                    "INSERT OR REPLACE INTO tables VALUES (?,?,?,?,?,?,?,?,?,?,?,0)",
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
                    ),
                )
            ]
        )

    def open_tables(self) -> list[TableRow]:
        """Every table not closed, oldest first."""
        self.flush()
        rows = self.db.execute(
            "SELECT id, preset, rules, kinds, fixed_seed, timer, created, game, seed, dealer,"
            " attacker FROM tables WHERE closed = 0 ORDER BY created"
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
