"""OpenSpiel's ISMCTS against a library bot, seat-rotated (not a test).

Two-player Podkidnoy through the OpenSpiel game ``python_durak``: ``ismcts.ISMCTSBot`` (random
rollouts, UCT constant 2, OpenSpiel's defaults otherwise) against a library bot
(``--search``, by default the search bot on a budget of engine steps). ``--players 4``: one
library bot against three ISMCTS bots, the library bot in every seat in turn (its durak rate
is then compared with a fair 25%; the ISMCTS line pools the three).

ISMCTS takes a number of simulations per move. ``--simulations N`` fixes it: with a step or
playout budget for the library bot the whole run then depends on the seeds alone and replays
exactly. ``--ismcts-ms MS`` instead sets it before each move from the time its simulations
took so far (an exponential mean), so that its mean time per searched move tracks ``MS`` on
``--clock`` (``cpu``: the thread's CPU time, fair on a loaded machine; ``wall``). Either way
both bots' mean CPU and wall milliseconds per searched move are printed beside the rates, so
the ratio of their thinking times is measured, not assumed (a move with one legal action costs
nothing and is not counted).

Game ``i`` deals from a generator seeded with ``i``, both bots are made anew for it with seeds
from ``i``, and ISMCTS sits in seat ``i mod 2``: a run of games ``--first`` to
``--first + --games - 1`` gives the same games however the range is split. ``--json FILE``
writes the run's raw counts after every game (a run stopped early keeps the games it
finished); ``--merge FILE ...`` adds up such files and prints the lines.

Each line: the bot's durak count among decided games, the durak rate with its 95% Wilson
interval, its mean CPU and wall ms per searched move and its simulations (ISMCTS) or playouts
(search bot) per searched move.

Usage::

    python benchmarks/bench_openspiel.py --games 20 --simulations 40
    python benchmarks/bench_openspiel.py --merge a.json b.json

The run of ``docs/research.md`` (ISMCTS with 10 times the search bot's CPU time per move),
split into game ranges over two processes and merged::

    S="search:time_limit=0.006,clock=cpu"
    python benchmarks/bench_openspiel.py --games 500 --first 0 --ismcts-ms 60 --clock cpu \
        --search "$S" --json a.json
    python benchmarks/bench_openspiel.py --games 250 --first 500 --ismcts-ms 60 --clock cpu \
        --search "$S" --json b.json
    python benchmarks/bench_openspiel.py --games 250 --first 750 --ismcts-ms 60 --clock cpu \
        --search "$S" --json c.json
    python benchmarks/bench_openspiel.py --merge a.json b.json c.json

The adapters' steps per second are measured by ``benchmarks/bench_rl.py``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from durak.bots import SearchBot
from durak.rl.openspiel_game import LibraryBot
from durak.tournament import wilson_interval

CLOCKS = {"cpu": time.thread_time, "wall": time.perf_counter}


class Counted:
    """Thinking time of one side, summed over its searched moves."""

    def __init__(self) -> None:
        self.searched = 0
        self.cpu = 0.0
        self.wall = 0.0
        self.work = 0  # simulations (ISMCTS) or playouts (search bot)

    def add(self, cpu: float, wall: float, work: int) -> None:
        self.searched += 1
        self.cpu += cpu
        self.wall += wall
        self.work += work


class ISMCTSSide:
    """ISMCTS for one game, with a fixed simulation count or a time per move on ``clock``.

    Its world samples are drawn through its own seeded generator (OpenSpiel's default sampler
    is seeded from the machine), so a fixed simulation count replays exactly."""

    def __init__(
        self,
        game: Any,
        seed: int,
        counted: Counted,
        simulations: int | None,
        seconds: float | None,
        clock: str,
        per_simulation: float,
    ) -> None:
        rollouts = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
        random_state = np.random.RandomState(seed + 1_000_003)
        self.bot = ismcts.ISMCTSBot(
            game, rollouts, 2.0, max_simulations=simulations or 10, random_state=random_state
        )
        self.bot._resampler_cb = lambda state, player: state.resample_from_infostate(
            player, random_state.uniform
        )
        self.simulations = simulations
        self.seconds = seconds
        self.clock = CLOCKS[clock]
        self.per_simulation = per_simulation
        self.counted = counted

    def step(self, state: Any) -> int:
        if len(state.legal_actions()) == 1:
            return int(state.legal_actions()[0])
        if self.simulations is not None:
            simulations = self.simulations
        else:
            assert self.seconds is not None
            simulations = max(2, round(self.seconds / self.per_simulation))
        self.bot._max_simulations = simulations
        wall, cpu, timed = time.perf_counter(), time.thread_time(), self.clock()
        action = int(self.bot.step(state))
        took = self.clock() - timed
        self.per_simulation = 0.7 * self.per_simulation + 0.3 * took / simulations
        self.counted.add(time.thread_time() - cpu, time.perf_counter() - wall, simulations)
        return action


class LibrarySide:
    """A library bot (through :class:`LibraryBot`) with its thinking time counted."""

    def __init__(self, name: str, seed: int, counted: Counted) -> None:
        self.bot = LibraryBot(name, seed)
        self.counted = counted

    def step(self, state: Any) -> int:
        if len(state.legal_actions()) == 1:
            return int(state.legal_actions()[0])
        wall, cpu = time.perf_counter(), time.thread_time()
        action = self.bot.step(state)
        inner = self.bot.bot
        work = inner.last_playouts if isinstance(inner, SearchBot) else 0
        self.counted.add(time.thread_time() - cpu, time.perf_counter() - wall, work)
        return action


def play(game: Any, bots: list[Any], seed: int) -> list[float]:
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    return list(state.returns())


def line(name: str, durak: int, decided: int, side: dict[str, float]) -> str:
    low, high = wilson_interval(durak, decided)
    rate = durak / decided if decided else 0.0
    n = side["searched"] or 1
    return (
        f"{name:<44} durak {durak:>4} of {decided:>4} decided  {rate:6.1%} "
        f"[{low:5.1%}, {high:5.1%}]  {1000 * side['cpu'] / n:7.1f} ms CPU "
        f"{1000 * side['wall'] / n:7.1f} ms wall per move, {side['work'] / n:6.1f} per move"
    )


def report(summary: dict[str, Any]) -> None:
    games, decided = summary["games"], summary["decided"]
    players = summary.get("players", 2)
    against = "" if players == 2 else f", one library bot against {players - 1} ISMCTS"
    print(f"{games} games of {players}-player Podkidnoy{against}, seat-rotated, {decided} decided")
    ism, lib = summary["ismcts"], summary["library"]
    print(line(summary["ismcts_name"], ism["durak"], decided, ism))
    print(line(summary["library_name"], lib["durak"], decided, lib))
    if lib["cpu"] and ism["searched"] and lib["searched"]:
        ratio = (ism["cpu"] / ism["searched"]) / (lib["cpu"] / lib["searched"])
        print(f"ISMCTS CPU time per searched move: {ratio:.1f} times the library bot's")


def merge(paths: list[str]) -> dict[str, Any]:
    total: dict[str, Any] | None = None
    for path in paths:
        with open(path, encoding="utf-8") as handle:
            part = json.load(handle)
        if total is None:
            total = part
            continue
        if (part["ismcts_name"], part["library_name"], part.get("players", 2)) != (
            total["ismcts_name"],
            total["library_name"],
            total.get("players", 2),
        ):
            names = f"{part['ismcts_name']}, {part['library_name']}"
            raise SystemExit(f"{path}: another match ({names})")
        for key in ("games", "decided"):
            total[key] += part[key]
        for side in ("ismcts", "library"):
            for key, value in part[side].items():
                total[side][key] += value
    assert total is not None
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first", type=int, default=0, help="index of the first game")
    parser.add_argument(
        "--search",
        default="search:steps=1000,time_limit=none",
        help="the library bot (name and options; default 'search:steps=1000,time_limit=none')",
    )
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--simulations", type=int, help="ISMCTS simulations per move")
    budget.add_argument("--ismcts-ms", type=float, help="ISMCTS ms per move on --clock")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu")
    parser.add_argument("--json", help="write the raw counts to this file")
    parser.add_argument("--merge", nargs="+", help="add up --json files and print them")
    parser.add_argument("--every", type=int, default=0, help="print running counts every N games")
    parser.add_argument(
        "--players",
        type=int,
        default=2,
        choices=(2, 3, 4),
        help="players: one library bot against the others, all ISMCTS (default 2)",
    )
    args = parser.parse_args(argv)
    if args.merge:
        report(merge(args.merge))
        return 0
    if args.simulations is None and args.ismcts_ms is None:
        args.simulations = 40
    players = args.players
    game = pyspiel.load_game("python_durak", {"players": players})
    seconds = None if args.ismcts_ms is None else args.ismcts_ms / 1000.0
    ismcts_name = (
        f"ismcts (simulations={args.simulations})"
        if args.simulations is not None
        else f"ismcts ({args.ismcts_ms:g} ms {args.clock})"
    )
    durak = [0, 0]
    decided = 0
    ism, lib = Counted(), Counted()
    summary: dict[str, Any] = {}
    per_simulation = 0.002
    for i in range(args.first, args.first + args.games):
        # The library bot takes every seat in turn; with two players that is ISMCTS in seat
        # i mod 2, as before the option existed (the same games for the same indices).
        lib_seat = (i + 1) % players
        ism_sides = [
            ISMCTSSide(
                game, i + 7_919 * k, ism, args.simulations, seconds, args.clock, per_simulation
            )
            for k in range(players - 1)
        ]
        lib_side = LibrarySide(args.search, i, lib)
        others = iter(ism_sides)
        bots = [lib_side if seat == lib_seat else next(others) for seat in range(players)]
        returns = play(game, bots, i)
        per_simulation = ism_sides[0].per_simulation
        if -1.0 in returns:
            decided += 1
            loser = returns.index(-1.0)
            durak[1 if loser == lib_seat else 0] += 1
        done = i + 1 - args.first
        summary = {
            "ismcts_name": ismcts_name,
            "library_name": args.search,
            "players": players,
            "games": done,
            "first": args.first,
            "decided": decided,
            "ismcts": {"durak": durak[0], **vars(ism)},
            "library": {"durak": durak[1], **vars(lib)},
        }
        if args.json:  # after every game, so that a run cut short keeps what it played
            with open(args.json, "w", encoding="utf-8") as handle:
                json.dump(summary, handle, indent=1)
        if args.every and done % args.every == 0 and done < args.games:
            print(
                f"after {done} games: ismcts durak {durak[0]}, library bot durak {durak[1]}",
                flush=True,
            )
    report(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
