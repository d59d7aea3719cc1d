"""Bot tournaments: many seat-rotated games between named bots, with durak rates and their
95% confidence intervals.

Game ``i`` of a run is dealt with the seed ``f"{seed}:{i}"`` (R2.5), and the bot of entry ``j``
(``bot_names[j]``) sits in seat ``(j + i) mod players`` with the seed ``f"{seed}:{i}:{j}"``: every
bot sits in every seat equally often, and each game depends only on the run's seed and its
index, so a run split over several processes (``jobs``) gives the same figures as one process
(bots under a time limit aside, see :class:`~durak.bots.SearchBot`).

>>> from durak import Rules
>>> result = run_tournament(Rules(), ["rule", "random"], games=4, seed=1)
>>> [s.games for s in result.stats]
[4, 4]
>>> result.stats[0].durak + result.stats[1].durak + result.draws
4
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed

import attrs

from durak.bots import make_bot
from durak.engine import apply, new_game, next_actor
from durak.errors import RulesError
from durak.rules.settings import Rules
from durak.state import Result
from durak.views import view

__all__ = [
    "BotStats",
    "GameRecord",
    "TournamentResult",
    "play_game",
    "run_tournament",
    "wilson_interval",
]

#: The normal quantile for a two-sided 95% interval.
Z95 = 1.959963984540054

#: A game longer than this many actions is a bug (bots that never finish), not a game.
MAX_ACTIONS = 20_000


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion: ``(low, high)``, a 95% interval by default.

    Unlike the normal approximation it stays within 0-1 and behaves at 0 and ``trials``
    successes. With no trials it is ``(0, 1)``.

    >>> low, high = wilson_interval(5, 10)
    >>> round(low, 4), round(high, 4)
    (0.2366, 0.7634)

    Raises:
        ValueError: negative counts, or more successes than trials.
    """
    if trials < 0 or not 0 <= successes <= max(trials, 0):
        raise ValueError(f"need 0 <= successes <= trials, not {successes} of {trials}")
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denom = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1.0 - p) / trials + z2 / (4 * trials * trials)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


@attrs.frozen
class GameRecord:
    """One game of a tournament.

    Attributes:
        index: the game's index in the run.
        seats: ``seats[j]`` is the seat entry ``j`` played.
        result: the game's result (R7.4).
        moves: per entry, how many actions its bot chose.
        seconds: per entry, the CPU time its bot spent choosing (``time.process_time``: it
            does not count other processes' load; not compared, it varies).
        wall: per entry, the wall-clock time its bot spent choosing (not compared).
    """

    index: int
    seats: tuple[int, ...]
    result: Result
    moves: tuple[int, ...]
    seconds: tuple[float, ...] = attrs.field(eq=False)
    wall: tuple[float, ...] = attrs.field(eq=False)


@attrs.frozen
class BotStats:
    """One entry's figures over a tournament.

    Attributes:
        name: the bot's name (with options), as given.
        games: games played.
        durak: games in which it was the durak (R7.3).
        losses: games in which it was among the losers (with teams: its team lost, R10.3;
            under ``objective = first_out``: not out in time).
        draws: drawn games (R7.3).
        moves: actions it chose.
        seconds: CPU time it spent choosing (not compared: it varies).
        wall: wall-clock time it spent choosing (not compared).
    """

    name: str
    games: int
    durak: int
    losses: int
    draws: int
    moves: int
    seconds: float = attrs.field(eq=False)
    wall: float = attrs.field(eq=False)

    @property
    def decided(self) -> int:
        """Games that were not drawn."""
        return self.games - self.draws

    @property
    def durak_rate(self) -> float:
        """Share of the decided games in which it was the durak (0 when none was decided)."""
        return self.durak / self.decided if self.decided else 0.0

    @property
    def durak_interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of :attr:`durak_rate`."""
        return wilson_interval(self.durak, self.decided)

    @property
    def loss_rate(self) -> float:
        """Share of the decided games it lost."""
        return self.losses / self.decided if self.decided else 0.0

    @property
    def loss_interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of :attr:`loss_rate`."""
        return wilson_interval(self.losses, self.decided)

    @property
    def ms_per_move(self) -> float:
        """Mean CPU milliseconds per action chosen (on one core)."""
        return 1000.0 * self.seconds / self.moves if self.moves else 0.0

    @property
    def wall_ms_per_move(self) -> float:
        """Mean wall-clock milliseconds per action chosen."""
        return 1000.0 * self.wall / self.moves if self.moves else 0.0


@attrs.frozen
class TournamentResult:
    """A tournament's games and each entry's figures.

    Attributes:
        rules: the rules of every game.
        bot_names: the entries, one per seat.
        seed: the run's seed.
        records: every game, in index order.
        stats: per entry, its :class:`BotStats`.
    """

    rules: Rules
    bot_names: tuple[str, ...]
    seed: int | str
    records: tuple[GameRecord, ...]
    stats: tuple[BotStats, ...]

    @property
    def games(self) -> int:
        """Games played."""
        return len(self.records)

    @property
    def draws(self) -> int:
        """Drawn games."""
        return sum(1 for r in self.records if r.result.draw)

    def table(self) -> str:
        """The figures as a plain-text table, one line per entry."""
        lines = [
            f"{'bot':<40} {'games':>6} {'durak':>6} {'decided':>7} {'draws':>5} "
            f"{'durak rate':>10} {'95% CI':>17} {'cpu ms/move':>11} {'wall ms/move':>12}"
        ]
        for s in self.stats:
            low, high = s.durak_interval
            lines.append(
                f"{s.name:<40} {s.games:>6} {s.durak:>6} {s.decided:>7} {s.draws:>5} "
                f"{s.durak_rate:>10.3f} {f'[{low:.3f}, {high:.3f}]':>17} "
                f"{s.ms_per_move:>11.2f} {s.wall_ms_per_move:>12.2f}"
            )
        return "\n".join(lines)


_CANONICAL: dict[Rules, Rules] = {}


def play_game(rules: Rules, bot_names: Sequence[str], seed: int | str, index: int) -> GameRecord:
    """Play game ``index`` of a run: dealt with seed ``f"{seed}:{index}"``, entry ``j`` in seat
    ``(j + index) mod players`` with the bot seed ``f"{seed}:{index}:{j}"``.

    Raises:
        RulesError: the number of bots does not match ``rules.players``.
        RuntimeError: the game did not end within :data:`MAX_ACTIONS` actions.
    """
    n = rules.players
    if len(bot_names) != n:
        raise RulesError("players", f"{len(bot_names)} bots given for {n} seats")
    # One Rules object per process keeps the engine's rule caches hitting by identity.
    rules = _CANONICAL.setdefault(rules, rules)
    seats = tuple((j + index) % n for j in range(n))
    entry_of = {seat: j for j, seat in enumerate(seats)}
    bots = [make_bot(name, f"{seed}:{index}:{j}") for j, name in enumerate(bot_names)]
    moves = [0] * n
    seconds = [0.0] * n
    wall = [0.0] * n
    state = new_game(rules, seed=f"{seed}:{index}")
    for _ in range(MAX_ACTIONS):
        if state.result is not None:
            return GameRecord(index, seats, state.result, tuple(moves), tuple(seconds), tuple(wall))
        actor = next_actor(state)
        assert actor is not None
        j = entry_of[actor]
        seen = view(state, actor)
        start, cpu = time.perf_counter(), time.process_time()
        action = bots[j].choose(seen)
        seconds[j] += time.process_time() - cpu
        wall[j] += time.perf_counter() - start
        moves[j] += 1
        state = apply(state, action)
    raise RuntimeError(f"game {index} did not end within {MAX_ACTIONS} actions")


def _play_chunk(
    rules: Rules, bot_names: Sequence[str], seed: int | str, indices: Sequence[int]
) -> list[GameRecord]:
    return [play_game(rules, bot_names, seed, i) for i in indices]


def _stats(names: Sequence[str], records: Sequence[GameRecord]) -> tuple[BotStats, ...]:
    out = []
    for j, name in enumerate(names):
        durak = losses = draws = moves = 0
        seconds = wall = 0.0
        for r in records:
            seat = r.seats[j]
            if r.result.draw:
                draws += 1
            durak += r.result.durak == seat
            losses += seat in r.result.losers
            moves += r.moves[j]
            seconds += r.seconds[j]
            wall += r.wall[j]
        out.append(BotStats(name, len(records), durak, losses, draws, moves, seconds, wall))
    return tuple(out)


def run_tournament(
    rules: Rules,
    bot_names: list[str],
    games: int,
    seed: int | str,
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> TournamentResult:
    """Play ``games`` seat-rotated games between the bots ``bot_names`` (one per seat; names
    as :func:`~durak.bots.make_bot` takes them, options included).

    Args:
        rules: the rules of every game.
        bot_names: one bot name per seat, e.g. ``["search:playouts=40", "rule"]``.
        games: how many games.
        seed: the run's seed: every game's deal and bot seeds derive from it and the game's
            index alone.
        jobs: worker processes (:class:`~concurrent.futures.ProcessPoolExecutor`); the figures
            do not depend on it.
        progress: called as ``progress(done, games)`` after each game (or batch of games).

    Raises:
        RulesError: the number of bots does not match ``rules.players``.
        ValueError: a negative number of games or jobs below 1, or an unknown bot name.
    """
    names = tuple(bot_names)
    if len(names) != rules.players:
        raise RulesError("players", f"{len(names)} bots given for {rules.players} seats")
    if games < 0:
        raise ValueError(f"games must be at least 0, not {games}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    for name in names:
        make_bot(name, 0)  # fail early on an unknown name
    records: list[GameRecord] = []
    if jobs == 1 or games <= 1:
        for i in range(games):
            records.append(play_game(rules, names, seed, i))
            if progress is not None:
                progress(i + 1, games)
    else:
        size = max(1, min(16, games // (jobs * 8)))
        chunks = [list(range(k, min(games, k + size))) for k in range(0, games, size)]
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(_play_chunk, rules, names, seed, chunk) for chunk in chunks]
            for future in as_completed(futures):
                records.extend(future.result())
                if progress is not None:
                    progress(len(records), games)
        records.sort(key=lambda r: r.index)
    return TournamentResult(rules, names, seed, tuple(records), _stats(names, records))
