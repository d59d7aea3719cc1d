"""Bot tournaments: many seat-rotated games between named bots, with durak rates and their
95% confidence intervals.

Game ``i`` of a run is dealt with the seed ``f"{seed}:{i}"`` (R2.5), and the bot of entry ``j``
(``bot_names[j]``) sits in seat ``(j + i) mod players`` with the seed ``f"{seed}:{i}:{j}"``: every
bot sits in every seat equally often, and each game depends only on the run's seed and its
index, so a run split over several processes (``jobs``), any
:class:`concurrent.futures.Executor` (``executor``) or a Ray cluster (:class:`RayExecutor`) gives
the same figures as one process (bots under a time limit aside, see
:class:`~durak.bots.SearchBot`).

Beside the durak rates, :meth:`TournamentResult.ratings` rates the entries with the Weng-Lin
Bayesian rating of the ``openskill`` library (a TrueSkill-like model, Plackett-Luce; extra
``ratings``), each with a 95% interval, and :func:`plot` draws the figures (extra ``ray`` or
matplotlib).

>>> from durak import Rules
>>> result = run_tournament(Rules(), ["rule", "random"], games=4, seed=1)
>>> [s.games for s in result.stats]
[4, 4]
>>> result.stats[0].durak + result.stats[1].durak + result.draws
4
"""

from __future__ import annotations

import logging
import math
import multiprocessing
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import attrs

from durak._input import brief
from durak.engine import apply, legal_actions, new_game, next_actor
from durak.errors import RulesError
from durak.levels import make_player
from durak.rules.settings import Rules
from durak.state import Result
from durak.views import view

__all__ = [
    "BotStats",
    "GameRecord",
    "Rating",
    "RayExecutor",
    "TournamentResult",
    "has_ratings",
    "play_game",
    "plot",
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
        raise ValueError(
            f"need 0 <= successes <= trials, not {brief(successes)} of {brief(trials)}"
        )
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
class Rating:
    """An entry's rating after a tournament (Weng-Lin, Plackett-Luce, from ``openskill``).

    Attributes:
        name: the entry's bot name.
        mu: the rating's mean (the model starts every entry at 25).
        sigma: its standard deviation (the model starts at 25/3 and narrows with each game).
    """

    name: str
    mu: float
    sigma: float

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval of the rating: ``mu`` +- 1.96 ``sigma``."""
        return (self.mu - Z95 * self.sigma, self.mu + Z95 * self.sigma)


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

    def by_seat(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Per entry, per seat: ``(durak, decided)``, the games the entry was the durak in and
        the decided games it played from that seat (seat 0 leads the first game, R3)."""
        n = len(self.bot_names)
        counts = [[[0, 0] for _ in range(n)] for _ in range(n)]
        for r in self.records:
            if r.result.draw:
                continue
            for j, seat in enumerate(r.seats):
                counts[j][seat][1] += 1
                counts[j][seat][0] += r.result.durak == seat
        return tuple(tuple((d, g) for d, g in entry) for entry in counts)

    def ratings(self) -> tuple[Rating, ...]:
        """Every entry's rating, from the games in index order: in each game the entries are
        ranked by their places (R7.2: the durak last; a draw ties everyone), as the
        Plackett-Luce model of ``openskill`` takes them. The same games give the same ratings,
        however they were played (one process, several, a Ray cluster).

        Raises:
            ImportError: ``openskill`` is not installed (``pip install 'durak-engine[ratings]'``).
        """
        try:
            from openskill.models import PlackettLuce
        except ImportError as exc:  # pragma: no cover - the test environment has it
            raise ImportError(
                "ratings need the openskill library: pip install 'durak-engine[ratings]'"
            ) from exc
        model = PlackettLuce()
        current = [model.rating(name=name) for name in self.bot_names]
        for r in self.records:
            ranks = [1.0 if r.result.draw else float(r.result.places[seat]) for seat in r.seats]
            rated = model.rate([[rating] for rating in current], ranks=ranks)
            current = [team[0] for team in rated]
        return tuple(
            Rating(name, float(rating.mu), float(rating.sigma))
            for name, rating in zip(self.bot_names, current, strict=True)
        )

    def table(self, ratings: bool = True) -> str:
        """The figures as plain text in two tables that fit 80 columns for bot names of up to
        28 characters: per entry its games, durak count, decided games, draws and durak rate
        with its 95% interval; then per entry its CPU and wall-clock time per move and, with
        ``ratings`` (and ``openskill`` installed), its rating with its 95% interval."""
        rated = self.ratings() if ratings and has_ratings() else None
        width = max([3, *(len(s.name) for s in self.stats)])
        lines = [
            f"{'bot':<{width}} {'games':>5} {'durak':>5} {'decided':>7} {'draws':>5} "
            f"{'durak rate':>10} {'95% CI':>14}"
        ]
        for s in self.stats:
            low, high = s.durak_interval
            lines.append(
                f"{s.name:<{width}} {s.games:>5} {s.durak:>5} {s.decided:>7} {s.draws:>5} "
                f"{s.durak_rate:>10.3f} {f'[{low:.3f}, {high:.3f}]':>14}"
            )
        head = f"{'bot':<{width}} {'cpu ms/move':>11} {'wall ms/move':>12}"
        if rated is not None:
            head += f" {'rating':>7} {'95% CI':>14}"
        lines += ["", head]
        for j, s in enumerate(self.stats):
            line = f"{s.name:<{width}} {s.ms_per_move:>11.2f} {s.wall_ms_per_move:>12.2f}"
            if rated is not None:
                r_low, r_high = rated[j].interval
                line += f" {rated[j].mu:>7.2f} {f'[{r_low:.1f}, {r_high:.1f}]':>14}"
            lines.append(line)
        return "\n".join(lines)


def has_ratings() -> bool:
    """Whether :meth:`TournamentResult.ratings` can rate: ``openskill`` is installed (extra
    ``ratings``)."""
    try:
        import openskill  # noqa: F401
    except ImportError:  # pragma: no cover - the test environment has it
        return False
    return True


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
    bots = [make_player(name, f"{seed}:{index}:{j}") for j, name in enumerate(bot_names)]
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
        bot = bots[j]
        quick = getattr(bot, "choose_legal", None)  # a bot that needs no view (durak.bots.Bot)
        if quick is not None:
            start, cpu = time.perf_counter(), time.process_time()
            action = quick(actor, legal_actions(state, actor))
        else:
            seen = view(state, actor)
            start, cpu = time.perf_counter(), time.process_time()
            action = bot.choose(seen)
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
    executor: Executor | None = None,
) -> TournamentResult:
    """Play ``games`` seat-rotated games between the bots ``bot_names`` (one per seat; names
    as :func:`~durak.bots.make_bot` takes them, options included, or strength levels of
    :mod:`durak.levels`: :func:`~durak.levels.make_player`).

    Args:
        rules: the rules of every game.
        bot_names: one bot name per seat, e.g. ``["search:playouts=40", "rule"]`` or
            ``["hard", "normal"]``.
        games: how many games.
        seed: the run's seed: every game's deal and bot seeds derive from it and the game's
            index alone.
        jobs: worker processes (:class:`~concurrent.futures.ProcessPoolExecutor`, started
            with ``spawn``, so safe after threads have started) when no ``executor`` is given;
            the figures do not depend on it.
        progress: called as ``progress(done, games)`` after each game (or batch of games).
        executor: plays the games instead of this process: any
            :class:`concurrent.futures.Executor` (a process pool, :class:`RayExecutor` for a
            Ray cluster, ...), given batches of games (``jobs``, or the executor's own width,
            sets their size). It must be able to send its arguments to its workers (a process
            pool pickles them). It is not shut down.

    Raises:
        RulesError: the number of bots does not match ``rules.players``.
        ValueError: a negative number of games or jobs below 1, or an unknown bot name.
    """
    names = tuple(bot_names)
    if len(names) != rules.players:
        raise RulesError("players", f"{len(names)} bots given for {rules.players} seats")
    if games < 0:
        raise ValueError(f"games must be at least 0, not {brief(games)}")
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {brief(jobs)}")
    for name in names:
        make_player(name, 0)  # fail early on an unknown name
    records: list[GameRecord] = []
    if executor is not None:
        width = max(jobs, int(getattr(executor, "_max_workers", 0) or 0), 1)
        records = _run_on(executor, rules, names, seed, games, width, progress)
    elif jobs == 1 or games <= 1:
        for i in range(games):
            records.append(play_game(rules, names, seed, i))
            if progress is not None:
                progress(i + 1, games)
    else:
        # Fresh interpreters, not forks: a fork of a process that has started threads (JAX's,
        # a front-end's) may deadlock.
        spawn = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=spawn) as pool:
            records = _run_on(pool, rules, names, seed, games, jobs, progress)
    return TournamentResult(rules, names, seed, tuple(records), _stats(names, records))


def _run_on(
    executor: Executor,
    rules: Rules,
    names: tuple[str, ...],
    seed: int | str,
    games: int,
    width: int,
    progress: Callable[[int, int], None] | None,
) -> list[GameRecord]:
    """Play the games on ``executor`` in batches (about 8 per worker), in index order."""
    size = max(1, min(16, games // (width * 8)))
    chunks = [list(range(k, min(games, k + size))) for k in range(0, games, size)]
    futures: list[Future[list[GameRecord]]] = [
        executor.submit(_play_chunk, rules, names, seed, chunk) for chunk in chunks
    ]
    records: list[GameRecord] = []
    for future in as_completed(futures):
        records.extend(future.result())
        if progress is not None:
            progress(len(records), games)
    records.sort(key=lambda r: r.index)
    return records


class RayExecutor(Executor):
    """A :class:`concurrent.futures.Executor` that runs each call as a Ray task (extra
    ``ray``: ``pip install 'durak-engine[ray]'``), for tournaments on a Ray cluster.

    Ray is started when the executor is made unless it already runs in this process:
    ``ray.init(address=address, num_cpus=num_cpus)``; ``address=None`` starts a local
    instance, ``"auto"`` or ``"HOST:PORT"`` of the head node joins a cluster (``num_cpus`` is
    then the cluster's own). Every node needs the
    ``durak`` package (install it there, or pass ``runtime_env={"py_modules": [...]}``).
    :meth:`shutdown` stops Ray only if this executor started it.

    >>> from concurrent.futures import Executor
    >>> issubclass(RayExecutor, Executor)
    True

    Args:
        address: the cluster to join, or ``None`` for a local instance.
        num_cpus: CPUs of a local instance (all of the machine's by default).
        **init: more keyword arguments for ``ray.init`` (``runtime_env``, ...).

    Raises:
        ImportError: Ray is not installed.
        ConnectionError: no cluster answers at ``address``.
        ValueError: ``num_cpus`` given with an ``address``.
    """

    def __init__(
        self, address: str | None = None, num_cpus: int | None = None, **init: Any
    ) -> None:
        try:
            import ray
        except ImportError as exc:
            raise ImportError("the Ray backend needs Ray: pip install 'durak-engine[ray]'") from exc
        self._ray = ray
        self._started = False
        if not ray.is_initialized():
            ray.init(
                address=address,
                num_cpus=num_cpus,
                include_dashboard=False,
                logging_level=logging.WARNING,
                log_to_driver=False,
                **init,
            )
            self._started = True
        resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
        self._max_workers = max(1, int(resources.get("CPU", 1)))
        self._remote: dict[Callable[..., Any], Any] = {}

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        """Run ``fn(*args, **kwargs)`` as a Ray task; its future resolves to the result (or
        raises its error). ``fn`` must be importable on the workers (a module-level function).
        """
        remote = self._remote.get(fn)
        if remote is None:
            remote = self._remote[fn] = self._ray.remote(fn)
        future: Future[Any] = remote.remote(*args, **kwargs).future()
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop Ray if this executor started it."""
        if self._started and self._ray.is_initialized():
            self._ray.shutdown()
        self._started = False


def plot(result: TournamentResult, path: str | Path) -> None:
    """Draw a tournament's figures to ``path`` (the format from its suffix: ``.png``,
    ``.pdf``, ``.svg``), as for a paper: each entry's durak rate with its 95% Wilson interval,
    its rating with its 95% interval (if ``openskill`` is installed), and its durak rate by
    seat with intervals.

    Raises:
        ImportError: matplotlib is not installed (``pip install 'durak-engine[ray]'`` has it).
        ValueError: a format matplotlib cannot write.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:  # pragma: no cover - the test environment has it
        raise ImportError("--plot needs matplotlib: pip install 'durak-engine[ray]'") from exc
    rated = result.ratings() if has_ratings() else None
    names = [f"{j + 1}. {s.name}" for j, s in enumerate(result.stats)]
    panels = 3 if rated is not None else 2
    fig, axes = plt.subplots(1, panels, figsize=(4.2 * panels, 0.5 * len(names) + 2.6))
    rows = list(range(len(names)))

    def bars(ax: Any, values: list[float], intervals: list[tuple[float, float]]) -> None:
        errors = [
            [v - lo for v, (lo, _) in zip(values, intervals, strict=True)],
            [hi - v for v, (_, hi) in zip(values, intervals, strict=True)],
        ]
        ax.errorbar(values, rows, xerr=errors, fmt="o", capsize=4)
        ax.set_yticks(rows, names)
        ax.set_ylim(len(rows) - 0.5, -0.5)
        ax.grid(axis="x", alpha=0.3)

    bars(axes[0], [s.durak_rate for s in result.stats], [s.durak_interval for s in result.stats])
    axes[0].set_xlabel("durak rate (95% Wilson interval)")
    axes[0].set_xlim(0, 1)
    if rated is not None:
        bars(axes[1], [r.mu for r in rated], [r.interval for r in rated])
        axes[1].set_xlabel("rating, Weng-Lin / openskill (95% interval)")
    seat_ax = axes[-1]
    n = len(result.bot_names)
    width = 0.8 / n
    for seat, counts in enumerate(zip(*result.by_seat(), strict=True)):
        rates = [d / g if g else 0.0 for d, g in counts]
        lows, highs = zip(*(wilson_interval(d, g) for d, g in counts), strict=True)
        offset = [k + (seat - (n - 1) / 2) * width for k in rows]
        seat_ax.barh(
            offset,
            rates,
            height=width,
            xerr=[
                [r - lo for r, lo in zip(rates, lows, strict=True)],
                [hi - r for r, hi in zip(rates, highs, strict=True)],
            ],
            capsize=2,
            label=f"seat {seat}",
        )
    seat_ax.set_yticks(rows, names)
    seat_ax.set_ylim(len(rows) - 0.5, -0.5)
    seat_ax.set_xlim(0, 1)
    seat_ax.set_xlabel("durak rate by seat (95% interval)")
    seat_ax.legend(fontsize="small")
    fig.suptitle(f"{result.games} seat-rotated games, seed {result.seed}")
    fig.tight_layout()
    try:
        fig.savefig(path)
    finally:
        plt.close(fig)
