"""How large a two-player endgame the exact solver (durak.endgame.solve) solves within a move's
time.

For each size (cards in the two hands together, between bouts, the stock empty) it reaches
``--positions`` endgames by random play from seeded deals, solves each ``--runs`` times with a
cap of ``--cap`` seconds, keeps each position's median time, and prints a Markdown table: the
median and the largest of those times, the median and largest node counts, and how many were
solved exactly within the web server's per-move budget (``--budget``, the default
``move_budget`` of ``durak.web.config``).

    python benchmarks/bench_endgame.py --preset podkidnoy --sizes 6 8 10 12 14 16
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from durak import GameState, Rules, apply, legal_actions, new_game, next_actor
from durak.endgame import is_endgame, solve
from durak.presets import get_preset


def endgame(rules: Rules, rng: random.Random, size: int) -> GameState:
    """A two-player endgame between bouts with ``size`` cards in the hands, by random play."""
    while True:
        s = new_game(rules, seed=rng.randrange(2**31))
        while s.result is None:
            if is_endgame(s) and not s.table:
                held = sum(map(len, s.hands))
                if held == size and all(s.hands):
                    return s
                if held < size:
                    break
            actor = next_actor(s)
            assert actor is not None
            s = apply(s, rng.choice(legal_actions(s, actor)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="podkidnoy")
    parser.add_argument("--sizes", type=int, nargs="+", default=[6, 8, 10, 12, 14, 16])
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cap", type=float, default=10.0)
    parser.add_argument("--budget", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=29)
    args = parser.parse_args()
    rules = get_preset(args.preset).rules()
    rng = random.Random(args.seed)
    print(f"preset {args.preset}; {args.positions} positions per size, median of {args.runs} runs")
    print()
    print(
        "| cards in hands | median time | max time | median nodes | max nodes "
        f"| exact within {args.budget} s | exact within {args.cap:g} s |"
    )
    print("|---|---|---|---|---|---|---|")
    for size in args.sizes:
        times, nodes, in_budget, exact = [], [], 0, 0
        for _ in range(args.positions):
            state = endgame(rules, rng, size)
            runs = []
            for _ in range(args.runs):
                start = time.perf_counter()
                found = solve(state, state.attacker, seconds=args.cap)
                runs.append(time.perf_counter() - start)
            took = statistics.median(runs)
            times.append(took)
            nodes.append(found.nodes)
            exact += found.exact
            in_budget += found.exact and took <= args.budget
        print(
            f"| {size} | {statistics.median(times):.3f} s | {max(times):.3f} s "
            f"| {statistics.median(nodes):,.0f} | {max(nodes):,} "
            f"| {in_budget}/{args.positions} | {exact}/{args.positions} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
