"""Learned-agent benchmark (issue 29's proof, items 2 and 3): how strong the learned agent, the
guided search bot and the search bot with leaf values are (not a test).

Seat-rotated tournaments under Podkidnoy (the rules the shipped weights cover); each line shows
the first entry's durak rate among decided games with its 95% Wilson interval:

(a) ``guided-search``: the guided search bot (``guided``) against today's search bot at equal time
    per move, two players. Goal: the upper end of ``guided``'s interval below 40%.
(b) ``guided-four``: one ``guided`` against three search bots, four players. Goal: below 20%.
(c) ``leaf-search``, ``leaf-four``: the same two matches for the search bot with learned leaf
    values (``leaf``), the same goals; ``leaf-rule``, ``leaf-random``, ``leaf-four-rule``,
    ``leaf-four-random``: ``leaf`` (on the same time limit) against the rule and random bots.
(d) ``learned-rule``, ``learned-random``: the learned agent alone against the rule bot and the
    random bot, two players; ``learned-four-rule``, ``learned-four-random``: one learned agent
    against three of them, four players. Reported, no goal.

Both search bots run on the same CPU-time limit per move (``--ms``, ``clock=cpu``: the thinking
thread's CPU time, fair on a machine loaded by other work); the guided bot's network
evaluation counts in its time. How many playouts fit in a move depends on the machine, so a
rerun gives figures within the intervals rather than the same games; the deals and the bots'
seeds follow from ``--seed`` and the game's index.

Usage::

    python benchmarks/bench_agent.py --jobs 1 --only guided-search --games 1000 --ms 6
    python benchmarks/bench_agent.py --jobs 1 --only leaf-search,leaf-four --games 1000 --ms 6
    python benchmarks/bench_agent.py --jobs 1 --only guided-four --games 1000 --ms 6
    python benchmarks/bench_agent.py --jobs 1 --only learned-rule,learned-random --games 1000
    python benchmarks/bench_agent.py --jobs 1 --only learned-four-rule,learned-four-random
"""

from __future__ import annotations

import argparse
import platform
import sys
import time

from bench_bots import progress

from durak.presets import get_preset
from durak.tournament import TournamentResult, run_tournament

GOALS = {"guided-search": 0.40, "guided-four": 0.20, "leaf-search": 0.40, "leaf-four": 0.20}


def _run(label: str, players: int, names: list[str], games: int, seed: str, jobs: int) -> bool:
    rules = get_preset("podkidnoy").rules(players=players)
    start = time.perf_counter()
    result: TournamentResult = run_tournament(
        rules, names, games, seed=f"{seed}:{label}", jobs=jobs, progress=progress(label, every=30.0)
    )
    wall = time.perf_counter() - start
    print(f"\n== {label}: podkidnoy, {players} players, {games} games, {wall:.0f} s wall ==")
    print(result.table())
    s = result.stats[0]
    low, high = s.durak_interval
    others = result.stats[1:]
    durak = sum(o.durak for o in others)
    decided = sum(o.decided for o in others)
    line = (
        f"{names[0]}: durak {s.durak} of {s.decided} decided games, rate {s.durak_rate:.3f} "
        f"[{low:.3f}, {high:.3f}]; the others pooled {durak}/{decided}; "
        f"{s.ms_per_move:.2f} ms CPU per move"
    )
    goal = GOALS.get(label)
    ok = True
    if goal is not None:
        ok = high < goal
        line += f"; goal: upper end < {goal:.2f}: {'PASS' if ok else 'FAIL'}"
    print(line, flush=True)
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--seed", default="agent", help="the run's seed (default 'agent')")
    parser.add_argument(
        "--only",
        default="guided-search,guided-four,learned-rule,learned-random,learned-four-rule,"
        "learned-four-random",
        help="comma-separated: guided-search, guided-four, leaf-search, leaf-four, leaf-rule, "
        "leaf-random, leaf-four-rule, leaf-four-random, learned-rule, learned-random, "
        "learned-four-rule, learned-four-random (default: the guided and learned matches)",
    )
    parser.add_argument("--games", type=int, default=1000, help="games per match")
    parser.add_argument("--ms", type=float, default=10.0, help="CPU ms per move of both searches")
    parser.add_argument("--guided", default="guided", help="the guided bot's name and options")
    parser.add_argument("--leaf", default="leaf", help="the leaf bot's name and options")
    parser.add_argument("--search", default="search", help="the baseline's name and options")
    args = parser.parse_args(argv)

    limit = f"time_limit={args.ms / 1000:g},clock=cpu"

    def timed(name: str) -> str:
        return f"{name}{',' if ':' in name else ':'}{limit}"

    best, search, leaf = timed(args.guided), timed(args.search), timed(args.leaf)
    todo = [part.strip() for part in args.only.split(",") if part.strip()]
    print(f"python {platform.python_version()} on {platform.machine()}, jobs={args.jobs}")
    if any(label.startswith("guided") for label in todo):
        print(f"guided: {best}; search: {search}")
    if any(label.startswith("leaf") for label in todo):
        print(f"leaf: {leaf}; search: {search}")
    matches = {
        "guided-search": (2, [best, search]),
        "guided-four": (4, [best, search, search, search]),
        "leaf-search": (2, [leaf, search]),
        "leaf-four": (4, [leaf, search, search, search]),
        "leaf-rule": (2, [leaf, "rule"]),
        "leaf-random": (2, [leaf, "random"]),
        "leaf-four-rule": (4, [leaf, "rule", "rule", "rule"]),
        "leaf-four-random": (4, [leaf, "random", "random", "random"]),
        "learned-rule": (2, ["learned", "rule"]),
        "learned-random": (2, ["learned", "random"]),
        "learned-four-rule": (4, ["learned", "rule", "rule", "rule"]),
        "learned-four-random": (4, ["learned", "random", "random", "random"]),
    }
    ok = True
    for label in todo:
        if label not in matches:
            parser.error(f"unknown match {label!r}")
        players, names = matches[label]
        ok &= _run(label, players, names, args.games, args.seed, args.jobs)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
