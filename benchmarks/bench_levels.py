"""Strength-level benchmark: does each level of ``durak.levels`` beat the one below it (not a test)?

Each pair plays seat-rotated two-player games under Podkidnoy (or ``--preset``): ``normal``
against ``easy``, ``hard`` against ``normal``, ``best`` against ``hard``. A line per pair shows
the games, the upper level's durak count among the decided games (not drawn), its durak rate
with the 95% Wilson interval, and the verdict: the level beats the one below when the upper end
of that interval lies below 1/2.

The search levels think for a time (50 ms, 0.5 s a move). ``--clock cpu`` (the default) measures
it on the thinking thread's CPU clock instead of the wall clock, so that a machine busy with
other work gives each bot the CPU time it would have alone; ``--clock wall`` plays the levels as
a front-end does. Either way the figures depend on the machine's speed. ``--budget`` sets the
hardest level's per-move budget (the web server's ``move_budget``; default the level's own).

Usage::

    python benchmarks/bench_levels.py --jobs 1                         # every pair
    python benchmarks/bench_levels.py --jobs 1 --only normal-easy,hard-normal --games 1000
    python benchmarks/bench_levels.py --jobs 1 --only best-hard --games-best 200
"""

from __future__ import annotations

import argparse
import itertools
import platform
import sys
import time

from bench_bots import progress

from durak.levels import LEVELS, level_spec
from durak.presets import get_preset
from durak.tournament import run_tournament


def _pair(
    upper: str,
    lower: str,
    games: int,
    args: argparse.Namespace,
) -> bool:
    """Play ``upper`` against ``lower``; print the line; whether ``upper`` beats ``lower``."""
    clock = None if args.clock == "wall" else args.clock
    names = [
        level_spec(level, clock=clock, budget=args.budget if LEVELS[level].full_budget else None)
        for level in (upper, lower)
    ]
    rules = get_preset(args.preset).rules(players=2)
    label = f"{upper}-{lower}"
    start = time.perf_counter()
    result = run_tournament(
        rules,
        names,
        games,
        seed=f"{args.seed}:{label}",
        jobs=args.jobs,
        progress=progress(label, every=30.0),
    )
    wall = time.perf_counter() - start
    s, o = result.stats
    low, high = s.durak_interval
    good = high < 0.5
    print(
        f"\n== {label}: {args.preset}, 2 players, {games} games, {wall:.0f} s wall ==\n"
        f"{upper} ({names[0]}) against {lower} ({names[1]})\n"
        f"{result.table()}\n"
        f"{upper}: durak {s.durak} of {s.decided} decided games, rate {s.durak_rate:.3f} "
        f"[{low:.3f}, {high:.3f}]; beats {lower} (upper end < 0.50): "
        f"{'PASS' if good else 'FAIL'}; ms CPU per move {s.ms_per_move:.1f} against "
        f"{o.ms_per_move:.1f}",
        flush=True,
    )
    return good


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--seed", default="levels", help="the run's seed (default 'levels')")
    parser.add_argument("--preset", default="podkidnoy", help="the rules (default podkidnoy)")
    parser.add_argument(
        "--only",
        default="normal-easy,hard-normal,best-hard",
        help="comma-separated pairs UPPER-LOWER (default every level against the one below)",
    )
    parser.add_argument("--games", type=int, default=1000, help="games per pair (1000)")
    parser.add_argument(
        "--games-best", type=int, default=200, help="games of the hardest level's pair (200)"
    )
    parser.add_argument(
        "--clock",
        choices=("cpu", "wall"),
        default="cpu",
        help="what the search levels' time is measured on (default cpu)",
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=None,
        help="seconds per move of the hardest level (default the level's own)",
    )
    args = parser.parse_args(argv)
    names = list(LEVELS)
    hardest = names[-1]
    pairs = [f"{upper}-{lower}" for lower, upper in itertools.pairwise(names)]
    todo = [p.strip() for p in args.only.split(",") if p.strip()]
    unknown = [p for p in todo if p not in pairs]
    if unknown:
        parser.error(f"unknown pair {unknown[0]!r} (known: {', '.join(pairs)})")
    print(f"python {platform.python_version()} on {platform.machine()}, jobs={args.jobs}")
    print(f"clock: {args.clock}; levels: " + "; ".join(f"{n} = {LEVELS[n].spec}" for n in names))
    ok = True
    for pair in todo:
        upper, lower = pair.split("-")
        games = args.games_best if upper == hardest else args.games
        ok &= _pair(upper, lower, games, args)
    print(f"\nlevels strictly ordered: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
