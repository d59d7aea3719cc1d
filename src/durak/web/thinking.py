"""Where the server's bots think: search bots in a pool of processes, never on the event loop.

A search bot (:class:`~durak.bots.SearchBot`) spends its whole time budget on playouts in
Python; in a thread it would hold the interpreter lock and slow every other table. So it runs
in a separate process: the bot and its seat's view (:func:`~durak.views.view`, never the state)
are pickled to a worker, which returns the chosen action and the bot (its random generator has
moved on). At most :attr:`~durak.web.config.ServerConfig.search_workers` searches run at once;
more wait their turn. A search not answered within twice the move budget plus a second is given
up for the rule-of-thumb bot's move.

The workers run at a lower scheduling priority (:data:`NICENESS`) than the server, so on a
machine whose cores are all busy the tables are served first and the searches wait.

The random and rule-of-thumb bots answer in about a tenth of a millisecond, less than sending
their view to another process would take, so they think on the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from durak.actions import Action
from durak.bots import RuleBot, SearchBot
from durak.views import PlayerView

__all__ = ["NICENESS", "STARTUP", "BotPool", "searches", "think"]

log = logging.getLogger(__name__)


#: Seconds a new worker process may take to start (importing the library) before its first
#: search; the move budget counts only from then on.
STARTUP = 120.0


#: How much lower than the server's the workers' scheduling priority is (``nice``): when the
#: machine's cores are all busy, the loop that serves the tables goes first.
NICENESS = 10


def _ready() -> bool:
    return True


def _start_worker() -> None:
    """A worker's start: lower its priority (where the system allows)."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(NICENESS)


def searches(bot: Any) -> bool:
    """Whether ``bot`` thinks for a time and so belongs in a worker: a
    :class:`~durak.bots.SearchBot`, or any bot with a ``time_limit`` (a strength level's bot
    of another kind, :mod:`durak.levels`)."""
    return isinstance(bot, SearchBot) or getattr(bot, "time_limit", None) is not None


def think(bot: Any, seat_view: PlayerView) -> tuple[Action, Any]:
    """The bot's action for the view, and the bot after choosing it (run in a worker)."""
    action: Action = bot.choose(seat_view)
    return action, bot


class BotPool:
    """Runs bots' moves: search bots (:func:`searches`) in worker processes (at most
    ``workers`` at once), the others inline.

    Args:
        workers: the number of worker processes (at least 1).
        budget: seconds a search bot may think about one move.
    """

    def __init__(self, workers: int, budget: float) -> None:
        self.workers = workers
        self.budget = budget
        self._pool: ProcessPoolExecutor | None = None
        self._started = False
        self._slots: asyncio.Semaphore | None = None
        #: The number of searches waiting for a worker or running (for tests and tools).
        self.busy = 0
        #: The number of searches running now, and the most ever running at once.
        self.running = 0
        self.peak = 0

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # "spawn": the server runs threads (uvicorn, sqlite), which fork does not copy safely.
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=context, initializer=_start_worker
            )
        return self._pool

    async def choose(self, bot: Any, seat_view: PlayerView) -> tuple[Action, Any]:
        """The bot's action for ``seat_view`` and the bot to keep for its next move.

        Raises:
            Exception: whatever the bot raised (the caller falls back to a legal move).
        """
        if not searches(bot):
            return think(bot, seat_view)
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.workers)
        loop = asyncio.get_running_loop()
        self.busy += 1
        try:
            async with self._slots:
                self.running += 1
                self.peak = max(self.peak, self.running)
                try:
                    if not self._started:  # the first search waits for the workers to start
                        ready = loop.run_in_executor(self._executor(), _ready)
                        await asyncio.wait_for(ready, STARTUP)
                        self._started = True
                    future = loop.run_in_executor(self._executor(), think, bot, seat_view)
                    return await asyncio.wait_for(future, 2 * self.budget + 1.0)
                except TimeoutError:
                    return RuleBot(seed=0).choose(seat_view), bot
                except BrokenProcessPool:  # a worker died: start afresh next time
                    log.warning("a search worker stopped; the pool is started again")
                    self.close()
                    return RuleBot(seed=0).choose(seat_view), bot
                finally:
                    self.running -= 1
        finally:
            self.busy -= 1

    def close(self) -> None:
        """Stop the workers (searches under way are abandoned)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            self._started = False
