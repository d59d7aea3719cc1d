"""Engine benchmark: how fast random games and single steps run.

Measures, for each preset (``--presets``, Podkidnoy by default) and player count (``--players``,
2 and 4 by default; counts a preset cannot deal are skipped):

(a) full games per second, played by a random legal player: ``next_actor`` picks who acts,
    ``legal_actions(state, actor)`` lists his actions, ``random.choice`` picks one, ``apply``
    plays it; the deal (``new_game``) is included;
(b) steps per second, one step being ``legal_actions(state)`` (every player's actions) plus
    ``apply`` of one of them, replaying action sequences recorded beforehand so that only
    those two calls are timed;
(c) with ``--memory``, the bytes one state takes: its pickle, and its own objects in memory
    (the state, its tuples and sets; cards and rules are shared by every state and not counted),
    the median over the states of the recorded games.

Each figure is the median of ``--runs`` runs (min and max shown too), as a rate over wall-clock
time and, in brackets, over the process's CPU time (``time.process_time``), which is the steadier
figure on a busy machine. Seeds are fixed, so runs on one machine are comparable across commits.

Usage::

    python benchmarks/bench_engine.py                 # about 15-30 s
    python benchmarks/bench_engine.py --runs 9 --games 400
    python benchmarks/bench_engine.py --profile 4     # cProfile one run of 4-player games
"""

from __future__ import annotations

import argparse
import cProfile
import pickle
import platform
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial

import durak
from durak import Card, GameState, Rules, RulesError, apply, legal_actions, new_game, next_actor
from durak.actions import Action
from durak.presets import get_preset


def random_game(rules: Rules, seed: int) -> int:
    """Play one game with a random legal player; returns its number of actions."""
    rng = random.Random(seed)
    state = new_game(rules, seed=seed)
    steps = 0
    while state.result is None:
        actor = next_actor(state)
        assert actor is not None
        state = apply(state, rng.choice(legal_actions(state, actor)))
        steps += 1
    return steps


def record_game(rules: Rules, seed: int) -> tuple[GameState, list[Action]]:
    """A random game's deal and actions, for replaying in the step benchmark."""
    rng = random.Random(seed)
    start = state = new_game(rules, seed=seed)
    actions: list[Action] = []
    while state.result is None:
        actor = next_actor(state)
        assert actor is not None
        action = rng.choice(legal_actions(state, actor))
        actions.append(action)
        state = apply(state, action)
    return start, actions


#: Wall-clock seconds, CPU seconds and the work done (games or steps) of one run.
Timing = tuple[float, float, int]


def games_run(rules: Rules, games: int) -> Timing:
    """Play ``games`` random games (seeds 0 .. games-1); the work count is their total steps."""
    t0, c0 = time.perf_counter(), time.process_time()
    steps = sum(random_game(rules, seed) for seed in range(games))
    return time.perf_counter() - t0, time.process_time() - c0, steps


def steps_run(recorded: Sequence[tuple[GameState, list[Action]]]) -> Timing:
    """Replay the recorded games as ``legal_actions`` + ``apply`` steps."""
    steps = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for start, actions in recorded:
        state = start
        for action in actions:
            legal_actions(state)
            state = apply(state, action)
        steps += len(actions)
    return time.perf_counter() - t0, time.process_time() - c0, steps


def own_bytes(state: GameState) -> int:
    """Bytes of the state's own objects: the state and the tuples, sets and small values it
    holds; cards, rules and enum members are shared by all states and not counted."""
    seen: set[int] = set()
    total = 0
    stack: list[object] = [state]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, Card | Rules) or obj is None:
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        if isinstance(obj, GameState):
            stack.extend(getattr(obj, name) for name in obj.__slots__ if hasattr(obj, name))
        elif isinstance(obj, tuple | frozenset | list):
            stack.extend(obj)
    return total


def memory(recorded: Sequence[tuple[GameState, list[Action]]]) -> tuple[float, float]:
    """Median pickle size and median own bytes over every state of the recorded games."""
    pickled: list[int] = []
    owned: list[int] = []
    for start, actions in recorded:
        state = start
        for action in actions:
            pickled.append(len(pickle.dumps(state)))
            owned.append(own_bytes(state))
            state = apply(state, action)
    return statistics.median(pickled), statistics.median(owned)


def measure(run: Callable[[], Timing], runs: int) -> list[Timing]:
    """``runs`` timings of ``run``."""
    return [run() for _ in range(runs)]


def report(label: str, units: int, unit: str, timings: list[Timing]) -> None:
    """One line: the median rate over wall-clock time, min and max, and over CPU time."""
    wall = sorted(units / w for w, _, _ in timings)
    cpu = statistics.median(units / c for _, c, _ in timings)
    print(
        f"  {label:<26} {statistics.median(wall):>8,.0f} {unit}/s [CPU {cpu:,.0f}]  "
        f"(median of {len(timings)} runs; min {wall[0]:,.0f}, max {wall[-1]:,.0f}; "
        f"{units:,} {unit} per run)"
    )


def machine() -> str:
    uname = platform.uname()
    cpu = platform.processor() or uname.machine
    return f"{uname.system} {uname.release} {uname.machine} ({cpu})"


def profile(rules: Rules, games: int, top: int) -> None:
    """cProfile one run of ``games`` random games; print the top functions by own time."""
    profiler = cProfile.Profile()
    profiler.enable()
    games_run(rules, games)
    profiler.disable()
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.strip_dirs().sort_stats("tottime").print_stats(top)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per figure (default 5)")
    parser.add_argument(
        "--games", type=int, default=150, help="games per run and player count (default 150)"
    )
    parser.add_argument(
        "--players", type=int, nargs="+", default=[2, 4], help="player counts (default 2 4)"
    )
    parser.add_argument(
        "--profile",
        type=int,
        metavar="PLAYERS",
        help="instead of timing, cProfile one run of --games games with PLAYERS players",
    )
    parser.add_argument("--top", type=int, default=25, help="functions shown by --profile")
    parser.add_argument(
        "--presets",
        nargs="+",
        default=["podkidnoy"],
        help="presets to measure (default podkidnoy)",
    )
    parser.add_argument(
        "--memory", action="store_true", help="also report the bytes one state takes"
    )
    args = parser.parse_args(argv)
    if args.runs < 1 or args.games < 1:
        parser.error("--runs and --games must be at least 1")

    print(f"durak {durak.__version__}")
    print(f"Python {platform.python_version()} ({platform.python_implementation()})")
    print(f"machine: {machine()}")
    if args.profile is not None:
        print(f"profile: one run of {args.games} random games, {args.profile} players\n")
        profile(Rules(players=args.profile), args.games, args.top)
        return 0

    print(f"runs: {args.runs}, games per run: {args.games}, seeds 0-{args.games - 1}\n")
    for preset in args.presets:
        for players in args.players:
            try:
                rules = get_preset(preset).rules(players=players)
            except RulesError as exc:
                print(f"{preset}, {players} players: skipped ({exc})")
                continue
            print(f"{preset}, {players} players")
            timings = measure(partial(games_run, rules, args.games), args.runs)
            report("(a) random full games", args.games, "games", timings)
            print(f"      ({timings[0][2] / args.games:.1f} actions per game on average)")
            recorded = [record_game(rules, seed) for seed in range(args.games)]
            timings = measure(partial(steps_run, recorded), args.runs)
            report("(b) legal_actions + apply", timings[0][2], "steps", timings)
            if args.memory:
                pickled, owned = memory(recorded)
                print(f"  (c) bytes per state        {pickled:,.0f} pickled, {owned:,.0f} own")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
