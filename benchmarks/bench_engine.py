"""Engine benchmark: how fast random games and single steps run, and what a state weighs.

Measures, for each preset (``--presets``, Podkidnoy by default; ``all`` for every preset),
each R15 extension switched on alone (``--extensions``) and each player count (``--players``,
2 and 4 by default; counts a preset cannot deal are skipped):

(a) full games per second, played by a random player through the public immutable API:
    ``new_game``, then at every step ``legal_actions(state)`` (every player's actions, R13.1),
    ``random`` picks one and ``apply`` plays it; the deal is included;
(b) steps per second, one step being ``legal_actions(state)`` plus ``apply`` of one of them,
    replaying action sequences recorded beforehand so that only those two calls are timed;
(c) with ``--memory``, the bytes one state takes: the median pickle size over every state of
    the recorded games, and the memory a mid-game state holds of its own (``tracemalloc``,
    per state, over states kept from many games: what a search pays for each state it keeps;
    cards, rules and other shared values are not counted).

``--simulate`` compares ``durak simulate``'s loop (random bots) with the raw one-actor loop it
wraps (the next actor of R13.2 choosing among his own legal actions), on the same games.

``--listing`` times ``legal_actions`` of the largest positions each several-card setting can
reach (R4.2 ``lead = same_rank``, R9.4 ``transfer_several``), with one and two decks (two is
the rule book's largest count, R14), and prints the number of actions listed.

Each figure is the median of ``--runs`` runs (min and max shown too), as a rate over wall-clock
time and, in brackets, over the process's CPU time (``time.process_time``), which is the steadier
figure on a busy machine. Seeds are fixed, so runs on one machine are comparable across commits.

Usage::

    python benchmarks/bench_engine.py                 # about 15-30 s
    python benchmarks/bench_engine.py --runs 9 --games 400
    python benchmarks/bench_engine.py --presets all --extensions --memory --listing
    python benchmarks/bench_engine.py --profile 4     # cProfile one run of 4-player games
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pickle
import platform
import pstats
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from functools import partial

import durak
from durak import (
    GameState,
    Rules,
    RulesError,
    apply,
    build_deck,
    legal_actions,
    new_game,
    new_position,
    next_actor,
)
from durak.actions import Action
from durak.presets import PRESETS, get_preset


def random_game(rules: Rules, seed: int) -> int:
    """Play one game with a random player choosing among every player's legal actions;
    returns its number of actions."""
    rng = random.Random(seed)
    state = new_game(rules, seed=seed)
    steps = 0
    while state.result is None:
        actions = legal_actions(state)
        state = apply(state, actions[rng.randrange(len(actions))])
        steps += 1
    return steps


def record_game(rules: Rules, seed: int) -> tuple[GameState, list[Action]]:
    """A random game's deal and actions, for replaying in the step benchmark."""
    rng = random.Random(seed)
    start = state = new_game(rules, seed=seed)
    actions: list[Action] = []
    while state.result is None:
        legal = legal_actions(state)
        action = legal[rng.randrange(len(legal))]
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


def memory(recorded: Sequence[tuple[GameState, list[Action]]]) -> tuple[float, float]:
    """The median pickle size over every state of the recorded games, and the bytes of memory
    a mid-game state holds of its own: ``tracemalloc``'s growth while the mid-game states of
    the games are rebuilt and kept (their predecessors freed), per state."""
    pickled: list[int] = []
    for start, actions in recorded:
        state = start
        for action in actions:
            pickled.append(len(pickle.dumps(state)))
            state = apply(state, action)

    def midgame(start: GameState, actions: list[Action]) -> GameState:
        state = start
        for action in actions[: len(actions) // 2]:
            state = apply(state, action)
        return state

    for start, actions in recorded:  # warm the caches (shared actions, plans)
        midgame(start, actions)
    kept: list[GameState | None] = [None] * len(recorded)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for i, (start, actions) in enumerate(recorded):
        kept[i] = midgame(start, actions)
    legal_actions(new_game(Rules(), seed=0))  # the engine remembers its last state: move it on
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return statistics.median(pickled), (after - before) / len(kept)


def listing_positions() -> list[tuple[str, GameState, int]]:
    """The largest positions of the several-card settings: ``(label, state, seat)``. The
    attacker holds every copy of one rank against a defender with a full hand (a same-rank
    lead, R4.2); the defender holds every copy of the attack rank but one (a transfer of
    several cards, R9.4); with one and two decks."""
    out: list[tuple[str, GameState, int]] = []
    for decks in (1, 2):
        for setting in ("lead = same_rank", "transfer_several"):
            if setting == "lead = same_rank":
                rules = Rules(players=2, decks=decks, lead="same_rank")
            else:
                rules = Rules(players=2, decks=decks, transfer_by_card=True, transfer_several=True)
            deck = list(build_deck(rules.deck_size, decks))
            nines = [c for c in deck if c.rank == 9]
            others = [c for c in deck if c.rank != 9]
            if setting == "lead = same_rank":
                hands = [nines, others[:6]]
                state = new_position(rules, hands=hands, stock=others[6:], attacker=0)
                seat = 0
            else:
                hands = [others[:6], nines[1:]]
                state = new_position(
                    rules,
                    hands=hands,
                    stock=others[6:],
                    attacker=0,
                    table=[(nines[0], None)],
                    defender_hand=len(nines) - 1,
                    bouts=1,
                )
                seat = 1
            out.append((f"{setting}, {decks} deck{'s' if decks > 1 else ''}", state, seat))
    return out


def listing(runs: int) -> None:
    """Milliseconds to list each largest position's actions, and how many there are: the
    first listing, which also builds the shared action objects it lists, and the median of
    the later ones (a fresh state each time, so no listing is remembered; the shared actions
    are, as in a game)."""
    for label, state, seat in listing_positions():
        times: list[float] = []
        count = 0
        for _ in range(max(runs, 2)):
            fresh = pickle.loads(pickle.dumps(state))
            t0 = time.perf_counter()
            count = len(legal_actions(fresh, seat))
            times.append(time.perf_counter() - t0)
        first, later = times[0] * 1000, statistics.median(times[1:]) * 1000
        print(f"  {label:<34} {first:>7.2f} ms first, {later:>5.2f} ms later  {count:>5} actions")


def one_actor_run(rules: Rules, games: int) -> Timing:
    """The raw loop that ``durak simulate`` wraps: at every step the documented next actor
    (R13.2) picks among his own legal actions. The deals (``"bench:<i>"``) and the random
    bots (``"bench:<i>:<seat>"``) are seeded as ``simulate`` seeds them, so both play the same
    games move for move."""
    from durak.bots import RandomBot

    t0, c0 = time.perf_counter(), time.process_time()
    steps = 0
    for i in range(games):
        state = new_game(rules, seed=f"bench:{i}")
        bots = [RandomBot(f"bench:{i}:{p}") for p in range(rules.players)]
        while state.result is None:
            actor = next_actor(state)
            assert actor is not None
            state = apply(state, bots[actor].choose_legal(actor, legal_actions(state, actor)))
            steps += 1
    return time.perf_counter() - t0, time.process_time() - c0, steps


def simulate_run(rules: Rules, games: int) -> Timing:
    """``durak simulate``'s own loop (random bots, statistics kept), in this process."""
    from durak.cli.simulate import simulate

    t0, c0 = time.perf_counter(), time.process_time()
    stats = simulate(rules, games, "bench")
    return time.perf_counter() - t0, time.process_time() - c0, stats.games


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
        help="instead of timing, cProfile one run of --games games of the one preset given "
        "(default podkidnoy) with PLAYERS players",
    )
    parser.add_argument("--top", type=int, default=25, help="functions shown by --profile")
    parser.add_argument(
        "--presets",
        nargs="+",
        default=["podkidnoy"],
        help="presets to measure, or all (default podkidnoy)",
    )
    parser.add_argument(
        "--extensions",
        action="store_true",
        help="also measure each R15 extension on alone (on the preset it needs)",
    )
    parser.add_argument(
        "--memory", action="store_true", help="also report the bytes one state takes"
    )
    parser.add_argument(
        "--listing",
        action="store_true",
        help="also time the listing of the several-card settings' largest positions",
    )
    parser.add_argument(
        "--simulate",
        action="store_true",
        help="also compare durak simulate's loop with the raw one-actor loop it wraps",
    )
    args = parser.parse_args(argv)
    if args.runs < 1 or args.games < 1:
        parser.error("--runs and --games must be at least 1")
    presets = list(PRESETS) if args.presets == ["all"] else args.presets

    print(f"durak {durak.__version__}")
    print(f"build: {'compiled (DURAK_COMPILE=1)' if durak.compiled else 'pure Python'}")
    print(f"Python {platform.python_version()} ({platform.python_implementation()})")
    print(f"machine: {machine()}")
    if args.profile is not None:
        if len(presets) != 1:
            parser.error("--profile takes one preset")
        print(
            f"profile: one run of {args.games} random games of {presets[0]}, "
            f"{args.profile} players\n"
        )
        profile(_preset_rules(presets[0], args.profile), args.games, args.top)
        return 0

    print(f"runs: {args.runs}, games per run: {args.games}, seeds 0-{args.games - 1}\n")
    cases: list[tuple[str, Callable[[int], Rules]]] = [
        (preset, partial(_preset_rules, preset)) for preset in presets
    ]
    if args.extensions:
        cases += [(label, partial(_extension_rules, changes)) for label, changes in EXTENSIONS]
    for label, make in cases:
        for players in args.players:
            try:
                rules = make(players)
            except RulesError as exc:
                print(f"{label}, {players} players: skipped ({exc})")
                continue
            print(f"{label}, {players} players")
            timings = measure(partial(games_run, rules, args.games), args.runs)
            report("(a) random full games", args.games, "games", timings)
            print(f"      ({timings[0][2] / args.games:.1f} actions per game on average)")
            recorded = [record_game(rules, seed) for seed in range(args.games)]
            timings = measure(partial(steps_run, recorded), args.runs)
            report("(b) legal_actions + apply", timings[0][2], "steps", timings)
            if args.memory:
                pickled, owned = memory(recorded)
                print(f"  (c) bytes per state        {pickled:,.0f} pickled, {owned:,.0f} own")
    if args.listing:
        print("\nlisting the largest positions (the first listing, then the median of the others)")
        listing(max(args.runs, 5))
    if args.simulate:
        print("\n`durak simulate` against its raw loop (random bots, one actor at a time)")
        for players in args.players:
            rules = Rules(players=players)
            raw: list[Timing] = []
            sim: list[Timing] = []
            for _ in range(args.runs):  # alternately, so that both meet the same load
                raw.append(one_actor_run(rules, args.games))
                sim.append(simulate_run(rules, args.games))
            raw_rate = statistics.median(args.games / c for _, c, _ in raw)
            sim_rate = statistics.median(args.games / c for _, c, _ in sim)
            print(
                f"  {players} players: raw loop {raw_rate:,.0f} games/s, simulate "
                f"{sim_rate:,.0f} games/s (CPU medians of {args.runs}): "
                f"{sim_rate / raw_rate:.2f} of the raw loop"
            )
    return 0


#: The R15 extensions, each switched on alone, with the settings it needs (R15.1: a 52-card
#: deck; R15.3: transfers by a shown trump).
EXTENSIONS: tuple[tuple[str, dict[str, object]], ...] = (
    ("jokers (R15.1)", {"deck_size": 52, "jokers": 2}),
    ("throw_in_by_suit (R15.2)", {"throw_in_by_suit": True}),
    ("show_sends_back (R15.3)", {"transfer_by_showing_trump": True, "show_sends_back": True}),
    ("pogony (R15.4)", {"pogony": True}),
    ("cheating (R15.5)", {"cheating": True}),
)


def _preset_rules(preset: str, players: int) -> Rules:
    return get_preset(preset).rules(players=players)


def _extension_rules(changes: dict[str, object], players: int) -> Rules:
    return Rules(players=players, **changes)  # type: ignore[arg-type]


if __name__ == "__main__":
    raise SystemExit(main())
