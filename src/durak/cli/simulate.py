"""``durak simulate``: many games with a computer player on every seat, as single games, as
matches scored by :mod:`durak.match` (``--match K``), or as a seat-rotated tournament of
several kinds of bot (:mod:`durak.tournament`).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

import attrs
from rich import box
from rich.console import Group, RenderableType
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

from durak.cli.console import _console, _fail
from durak.cli.players import _bot_move, _MatchSeat, make_bot, seat_bots
from durak.engine import apply, new_game, next_actor
from durak.match import (
    losses,
    play_match,
    streak_name,
    streaks,
    team_losses,
    vodka,
    vodka_first_out,
)
from durak.rules import Rules
from durak.state import GameState, Result
from durak.tournament import (
    RayExecutor,
    TournamentResult,
    has_ratings,
    plot,
    run_tournament,
)


@dataclass
class SimulationStats:
    """The figures of a batch of random games.

    Attributes:
        players: seats per game.
        games: games played.
        durak: per seat, how often he was the durak.
        lost: per seat, how often he lost (the durak, or under ``objective = first_out`` every
            player not out, or a losing team).
        draws: games drawn (R7.3).
        no_durak: games that ended with losers but no single durak (``first_out``, teams).
        bouts: bouts played in all games (``state.bouts`` at the end).
        actions: actions applied in all games.
        seconds: time taken.
    """

    players: int
    games: int = 0
    durak: list[int] = field(default_factory=list)
    lost: list[int] = field(default_factory=list)
    draws: int = 0
    no_durak: int = 0
    bouts: int = 0
    actions: int = 0
    seconds: float = 0.0

    def __post_init__(self) -> None:
        if not self.durak:
            self.durak = [0] * self.players
        if not self.lost:
            self.lost = [0] * self.players

    def add(self, state: GameState, actions: int) -> None:
        """Count one finished game."""
        result = state.result
        if result is None:
            raise ValueError("the game is not over")
        self.games += 1
        if result.durak is not None:
            self.durak[result.durak] += 1
        elif result.draw:
            self.draws += 1
        else:
            self.no_durak += 1
        for seat in result.losers:
            self.lost[seat] += 1
        self.bouts += state.bouts
        self.actions += actions

    def _pct(self, count: int) -> float:
        return round(100.0 * count / self.games, 2) if self.games else 0.0

    @property
    def games_per_second(self) -> float:
        """Games played per second of wall time."""
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The figures as plain JSON values (``seconds`` and ``games_per_second`` are the only
        ones that depend on the machine)."""
        return {
            "players": self.players,
            "games": self.games,
            "durak": list(self.durak),
            "durak_percent": [self._pct(c) for c in self.durak],
            "lost": list(self.lost),
            "draws": self.draws,
            "draw_percent": self._pct(self.draws),
            "no_durak": self.no_durak,
            "mean_bouts": round(self.bouts / self.games, 4) if self.games else 0.0,
            "mean_actions": round(self.actions / self.games, 4) if self.games else 0.0,
            "seconds": round(self.seconds, 4),
            "games_per_second": round(self.games_per_second, 1),
        }


def simulate(
    rules: Rules,
    games: int,
    seed: int | str,
    on_game: Callable[[], None] | None = None,
    bots: Sequence[str] = ("random",),
) -> SimulationStats:
    """Play ``games`` games with a computer player on every seat (random ones by default).

    Game ``i`` is dealt with the seed ``f"{seed}:{i}"`` and seat ``p``'s bot is seeded with
    ``f"{seed}:{i}:{p}"``, so the figures depend only on the rules, ``games``, ``seed`` and the
    bots (a search bot under a time limit excepted).

    Args:
        rules: the rules of every game.
        games: how many games to play.
        seed: the run's seed.
        on_game: called after each game (for a progress bar).
        bots: the kinds of bot (:func:`bot_kinds`) for seats 0, 1, ... in order, repeated as
            needed.
    """
    stats = SimulationStats(players=rules.players)
    kinds = seat_bots(bots, range(rules.players))
    start = time.perf_counter()
    for i in range(games):
        state = new_game(rules, seed=f"{seed}:{i}")
        players = [make_bot(kinds[p], f"{seed}:{i}:{p}") for p in range(rules.players)]
        count = 0
        while state.result is None:
            actor = next_actor(state)
            assert actor is not None
            state = apply(state, _bot_move(players[actor], state, actor))
            count += 1
        stats.add(state, count)
        if on_game is not None:
            on_game()
    stats.seconds = time.perf_counter() - start
    return stats


def _losing_runs(results: Sequence[Result], seat: int) -> list[int]:
    """The lengths of ``seat``'s losing streaks in a match: maximal runs of games he lost."""
    runs: list[int] = []
    run = 0
    for result in results:
        if seat in result.losers:
            run += 1
        elif run:
            runs.append(run)
            run = 0
    if run:
        runs.append(run)
    return runs


@dataclass
class MatchStats:
    """The figures of a batch of matches (R11), scored with :mod:`durak.match`.

    Attributes:
        players: seats per game.
        match_games: games per match.
        matches: matches played.
        lost: per seat, games lost (among the losers, R11.3).
        durak: per seat, games in which he was the durak.
        draws: games drawn (R7.3).
        no_durak: games with losers but no single durak (``first_out``, teams).
        longest: per seat, his longest losing streak in any match (:func:`~durak.match.streaks`).
        doppeldurak: per seat, losing streaks of exactly two games (*Doppeldurak*,
            :func:`~durak.match.streak_name`); a streak counts once, by its full length.
        dauerdurak: per seat, losing streaks of three games or more (*Dauerdurak*).
        vodka: per seat, shots owed under the German article's vodka scoring
            (:func:`~durak.match.vodka`), summed over the matches.
        vodka_first_out: the same under the variant :func:`~durak.match.vodka_first_out`.
        teams: the teams of the rules, or ``None``.
        team_lost: per team, games the team lost (:func:`~durak.match.team_losses`); empty
            without teams.
        actions: actions applied in all games.
        seconds: time taken.
    """

    players: int
    match_games: int
    matches: int = 0
    lost: list[int] = field(default_factory=list)
    durak: list[int] = field(default_factory=list)
    draws: int = 0
    no_durak: int = 0
    longest: list[int] = field(default_factory=list)
    doppeldurak: list[int] = field(default_factory=list)
    dauerdurak: list[int] = field(default_factory=list)
    vodka: list[int] = field(default_factory=list)
    vodka_first_out: list[int] = field(default_factory=list)
    teams: tuple[tuple[int, ...], ...] | None = None
    team_lost: list[int] = field(default_factory=list)
    actions: int = 0
    seconds: float = 0.0

    def __post_init__(self) -> None:
        for name in (
            "lost",
            "durak",
            "longest",
            "doppeldurak",
            "dauerdurak",
            "vodka",
            "vodka_first_out",
        ):
            if not getattr(self, name):
                setattr(self, name, [0] * self.players)
        if self.teams is not None and not self.team_lost:
            self.team_lost = [0] * len(self.teams)

    @property
    def games(self) -> int:
        """Games played."""
        return self.matches * self.match_games

    def add(self, results: Sequence[Result], actions: int) -> None:
        """Count one finished match: its games' results in order, and the actions played."""
        self.matches += 1
        self.actions += actions
        for result in results:
            if result.durak is not None:
                self.durak[result.durak] += 1
            elif result.draw:
                self.draws += 1
            else:
                self.no_durak += 1
        lost, runs = losses(results), streaks(results)
        shots, first_out = vodka(results), vodka_first_out(results)
        for seat in range(self.players):
            self.lost[seat] += lost.get(seat, 0)
            self.longest[seat] = max(self.longest[seat], runs[seat].longest if runs else 0)
            self.vodka[seat] += shots.get(seat, 0)
            self.vodka_first_out[seat] += first_out.get(seat, 0)
            for run in _losing_runs(results, seat):
                name = streak_name(run)
                if name == "Doppeldurak":
                    self.doppeldurak[seat] += 1
                elif name == "Dauerdurak":
                    self.dauerdurak[seat] += 1
        if self.teams is not None:
            for team, count in team_losses(results, self.teams).items():
                self.team_lost[team] += count

    @property
    def games_per_second(self) -> float:
        """Games played per second of wall time."""
        return self.games / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The figures as plain JSON values (``seconds`` and ``games_per_second`` are the only
        ones that depend on the machine)."""
        data: dict[str, Any] = {
            "players": self.players,
            "matches": self.matches,
            "match_games": self.match_games,
            "games": self.games,
            "lost": list(self.lost),
            "durak": list(self.durak),
            "draws": self.draws,
            "no_durak": self.no_durak,
            "longest_streak": list(self.longest),
            "doppeldurak": list(self.doppeldurak),
            "dauerdurak": list(self.dauerdurak),
            "vodka": list(self.vodka),
            "vodka_first_out": list(self.vodka_first_out),
        }
        if self.teams is not None:
            data["teams"] = [list(team) for team in self.teams]
            data["team_lost"] = list(self.team_lost)
        data["mean_actions"] = round(self.actions / self.games, 4) if self.games else 0.0
        data["seconds"] = round(self.seconds, 4)
        data["games_per_second"] = round(self.games_per_second, 1)
        return data


def simulate_matches(
    rules: Rules,
    matches: int,
    match_games: int,
    seed: int | str,
    on_match: Callable[[], None] | None = None,
    bots: Sequence[str] = ("random",),
) -> MatchStats:
    """Play ``matches`` matches of ``match_games`` games each (:func:`durak.match.play_match`:
    the durak deals the next game and R11.2 picks its leader), a computer player on every seat,
    and score them (R11.3).

    Match ``j`` has the seed ``f"{seed}:{j}"`` (its game ``i`` is dealt with
    ``f"{seed}:{j}:{i}"``) and seat ``p``'s bot is seeded with ``f"{seed}:{j}:bot:{p}"``.

    Args:
        rules: the rules of every game.
        matches: how many matches to play.
        match_games: games per match.
        seed: the run's seed.
        on_match: called after each match (for a progress bar).
        bots: the kinds of bot for seats 0, 1, ... in order, repeated as needed.
    """
    stats = MatchStats(players=rules.players, match_games=match_games, teams=rules.teams)
    kinds = seat_bots(bots, range(rules.players))
    start = time.perf_counter()
    for j in range(matches):
        counter = [0]
        seats = [
            _MatchSeat(make_bot(kinds[p], f"{seed}:{j}:bot:{p}"), counter)
            for p in range(rules.players)
        ]
        match = play_match(rules, seats, games=match_games, seed=f"{seed}:{j}")
        stats.add(match.results, counter[0])
        if on_match is not None:
            on_match()
    stats.seconds = time.perf_counter() - start
    return stats


def _stats_table(stats: SimulationStats, preset: str, seed: int | str) -> Group:
    data = stats.to_dict()
    title = Text(
        f"{preset}: {stats.players} players, {stats.games} games, seed {seed}", style="bold"
    )
    table = Table(box=box.SIMPLE_HEAD)
    table.add_column("seat")
    table.add_column("durak", justify="right")
    table.add_column("durak %", justify="right")
    show_lost = any(lost != durak for lost, durak in zip(stats.lost, stats.durak, strict=True))
    if show_lost:
        table.add_column("lost", justify="right")
    for seat in range(stats.players):
        row = [f"p{seat}", str(stats.durak[seat]), f"{data['durak_percent'][seat]:.1f}"]
        if show_lost:
            row.append(str(stats.lost[seat]))
        table.add_row(*row)
    summary = Table.grid(padding=(0, 2))
    summary.add_column()
    summary.add_column(justify="right")
    summary.add_row("draws", f"{stats.draws} ({data['draw_percent']:.1f}%)")
    if stats.no_durak:
        summary.add_row("games without a durak", str(stats.no_durak))
    summary.add_row("mean bouts per game", f"{data['mean_bouts']:.2f}")
    summary.add_row("mean actions per game", f"{data['mean_actions']:.2f}")
    summary.add_row("games per second", f"{stats.games_per_second:.0f}")
    return Group(title, table, summary)


def _match_table(stats: MatchStats, preset: str, seed: int | str) -> Group:
    data = stats.to_dict()
    title = Text(
        f"{preset}: {stats.players} players, {stats.matches} matches of {stats.match_games} "
        f"games ({stats.games} games), seed {seed}",
        style="bold",
    )
    table = Table(box=box.SIMPLE_HEAD, collapse_padding=True, show_edge=False)
    table.add_column("seat", no_wrap=True)
    # "lost" only where it says more than "durak" (first_out, teams: losers who are no durak)
    show_lost = stats.lost != stats.durak
    columns = ("lost", "durak") if show_lost else ("durak",)
    for column in (*columns, "longest", "Doppeldurak", "Dauerdurak", "vodka"):
        table.add_column(column, justify="right", no_wrap=True)
    table.add_column("vodka 1st out", justify="right", no_wrap=True)
    for seat in range(stats.players):
        lost = [str(stats.lost[seat])] if show_lost else []
        table.add_row(
            f"p{seat}",
            *lost,
            str(stats.durak[seat]),
            str(stats.longest[seat]),
            str(stats.doppeldurak[seat]),
            str(stats.dauerdurak[seat]),
            str(stats.vodka[seat]),
            str(stats.vodka_first_out[seat]),
        )
    parts: list[RenderableType] = [title, table, Text("")]
    if stats.teams is not None:
        teams = Table(box=box.SIMPLE_HEAD, show_edge=False)
        teams.add_column("team")
        teams.add_column("seats")
        teams.add_column("lost", justify="right")
        for t, team in enumerate(stats.teams):
            seats = ", ".join(f"p{s}" for s in team)
            teams.add_row(f"team {t + 1}", seats, str(stats.team_lost[t]))
        parts.extend((teams, Text("")))
    summary = Table.grid(padding=(0, 2))
    summary.add_column()
    summary.add_column(justify="right")
    summary.add_row("draws", str(stats.draws))
    if stats.no_durak:
        summary.add_row("games without a durak", str(stats.no_durak))
    summary.add_row("mean actions per game", f"{data['mean_actions']:.2f}")
    summary.add_row("games per second", f"{stats.games_per_second:.0f}")
    parts.append(summary)
    parts.append(
        Text(
            ("lost: games lost; " if show_lost else "durak: games lost, as the durak; ")
            + "longest: longest losing streak in a match; Doppeldurak: "
            "streaks of 2 losses, Dauerdurak: of 3 or more; vodka: shots owed, the durak "
            "drinking his streak; vodka 1st out: the first player out drinking one (R11.3)",
            style="dim",
        )
    )
    return Group(*parts)


def _tournament_dict(result: TournamentResult) -> dict[str, Any]:
    """A tournament's figures as JSON values: per entry its games, durak count, decided games,
    draws, durak rate and its 95% confidence interval, per seat its durak count and decided
    games, and (with ``openskill`` installed) its rating with its 95% interval."""
    entries: list[dict[str, Any]] = [
        {
            "bot": stats.name,
            "games": stats.games,
            "durak": stats.durak,
            "decided": stats.decided,
            "durak_rate": stats.durak_rate,
            "durak_interval": list(stats.durak_interval),
            "by_seat": [{"durak": d, "decided": g} for d, g in seats],
        }
        for stats, seats in zip(result.stats, result.by_seat(), strict=True)
    ]
    if has_ratings():
        for entry, rating in zip(entries, result.ratings(), strict=True):
            entry.update(
                rating=rating.mu, rating_sigma=rating.sigma, rating_interval=list(rating.interval)
            )
    return {"games": result.games, "draws": result.draws, "entries": entries}


def _executor(args: argparse.Namespace) -> Executor | None:
    """The executor of ``--backend``: ``None`` for local play (``--jobs`` processes), a
    :class:`~durak.tournament.RayExecutor` for Ray (a local instance of ``--jobs`` CPUs unless
    ``--address`` names a cluster)."""
    if args.backend != "ray":
        return None
    if args.address:
        return RayExecutor(address=args.address)
    return RayExecutor(num_cpus=args.jobs)


def _by_seat(result: TournamentResult) -> TournamentResult:
    """The tournament with its entries labelled by the seat they start in (``random (seat
    2)``) when two entries are bots of one kind, so that their rows can be told apart."""
    names = [s.name for s in result.stats]
    if len(set(names)) == len(names):
        return result
    stats = tuple(attrs.evolve(s, name=f"{s.name} (seat {j})") for j, s in enumerate(result.stats))
    return attrs.evolve(result, stats=stats)


def _cmd_simulate(args: argparse.Namespace, name: str, rules: Rules, seed: int | str) -> int:
    out = _console(sys.stdout)
    err = _console(sys.stderr, stderr=True)
    kinds: tuple[str, ...] = args.bots or ("random",)
    matches = args.games // args.match if args.match else 0
    if args.match and not matches:
        return _fail(f"--games {args.games} is less than one match of {args.match} games")
    progress = Progress(
        TextColumn("simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=args.quiet or args.json or not err.is_terminal,
        transient=True,
    )
    seats = seat_bots(kinds, range(rules.players))
    data: dict[str, Any] = {"preset": name, "seed": seed, "bots": list(seats.values())}
    tournament = not args.match and (
        len(set(seats.values())) > 1 or args.jobs > 1 or args.backend != "local"
    )
    if args.match and args.backend != "local":
        return _fail("--backend ray plays tournaments, not --match")
    if args.plot is not None and not tournament:
        return _fail("--plot draws a tournament: give several kinds of bot (--bots)")
    if args.address and args.backend != "ray":
        return _fail("--address names a Ray cluster: use it with --backend ray")
    renderable: RenderableType
    with progress:
        if tournament:
            task = progress.add_task("games", total=args.games)
            try:
                executor = _executor(args)
            except (ImportError, ConnectionError, RuntimeError, ValueError) as exc:
                return _fail(f"--backend ray: {exc}")
            try:
                result = run_tournament(
                    rules,
                    list(seats.values()),
                    args.games,
                    seed,
                    jobs=args.jobs,
                    progress=lambda done, _total: progress.update(task, completed=done),
                    executor=executor,
                )
            finally:
                if executor is not None:
                    executor.shutdown()
            result = _by_seat(result)
            if args.plot is not None:
                try:
                    plot(result, args.plot)
                except (OSError, ValueError) as exc:
                    return _fail(f"--plot {args.plot}: {exc}")
            data.update(_tournament_dict(result))
            renderable = (  # a plain table: too wide for rich to wrap usefully
                f"{name}: tournament of {result.games} seat-rotated games, seed {seed}\n"
                f"{result.table()}\ndraws: {result.draws}"
                + ("" if has_ratings() else "\n(ratings: pip install 'durak-engine[ratings]')")
                + (f"\nplot: {args.plot}" if args.plot is not None else "")
            )
        elif args.match:
            task = progress.add_task("matches", total=matches)
            match_stats = simulate_matches(
                rules, matches, args.match, seed, lambda: progress.advance(task), kinds
            )
            data.update(match_stats.to_dict())
            renderable = _match_table(match_stats, name, seed)
        else:
            task = progress.add_task("games", total=args.games)
            stats = simulate(rules, args.games, seed, lambda: progress.advance(task), kinds)
            data.update(stats.to_dict())
            renderable = _stats_table(stats, name, seed)
    if args.json:
        print(json.dumps(data), file=sys.stdout)
    elif isinstance(renderable, str):
        print(renderable, file=sys.stdout)
    else:
        out.print(renderable)
    return 0
